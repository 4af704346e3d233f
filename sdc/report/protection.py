"""The output folder of ``sdc protect``: the released file, ``protection.json``,
``protection.md``, the resolved ``plan.toml`` and the comparison report (``comparison/``).

::

    released.csv          the protected data, in the input's format and delimiter
                          (released.dta for Stata, released.csv.gz for gzip text, ...)
    protection.json       every step: parameters, seed, what it changed (schema_version 1)
    protection.md         the same for reading
    plan.toml             the resolved plan: sdc protect DATA --plan plan.toml reruns it
    comparison/           the sdc compare report of the released file against the original

The folder is written whole or not at all (:mod:`sdc.report.folder`); no file in it is more
readable than the input. The pseudonymisation key is in none of them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from sdc._provenance import sha256_bytes
from sdc.report.content import Report, Section, Table
from sdc.report.protection_log import (  # ProtectionFolder, protection_document, step_tables, steps_table: re-exported
    ProtectionFolder, protection_document, protection_sections, step_tables, steps_table)
from sdc.workflow.protect import ProtectionRun

__all__ = ["write_protection", "ProtectionFolder", "protection_document", "protection_markdown", "step_tables",
           "steps_table", "protection_sections"]


def protection_markdown(log: Mapping[str, Any], files: Sequence[str] = (), audience: str = "internal") -> str:
    """``protection.md``: the log for reading, the audience line first; `files`, the folder's
    files, listed last."""
    from sdc.report.audience import audience_section
    from sdc.report.text import render_markdown

    sections = [audience_section(audience), *protection_sections(log)]
    if log.get("command"):
        sections.append(Section("reproduce", "Reproduce", [
            f"Command: {log['command']}",
            "The same data, plan (plan.toml, with its seeds) and key give a byte-identical released file."]))
    if files:
        what = {"protection.json": "this log, machine-readable", "protection.md": "this log",
                "plan.toml": "the plan as run, with its seeds (rerun: sdc protect DATA --plan plan.toml)"}
        rows = [(f, what.get(f, "the released data")) for f in files if "/" not in f]
        sub = [f.split("/", 1)[1] for f in files if f.startswith("comparison/")]
        if sub:
            rows.append(("comparison/", "the released file beside the original (sdc compare's report): "
                         + ", ".join(sub)))
        sections.append(Section("files", "Files", tables=[
            Table("files", "The files of this folder", pd.DataFrame(rows, columns=["file", "holds"]))]))
    report = Report(title="Protection log", generated=str(log.get("generated_utc", "")), sections=sections,
                    assessment=None)  # type: ignore[arg-type]
    return render_markdown(report, {}, png_files=False)


def write_protection(run: ProtectionRun, out: str | Path, *, input_path: str | Path | None = None,
                     sep: str | None = None, formats: Sequence[str] | None = None,
                     files: Sequence[str] = (), audience: str = "internal") -> ProtectionFolder:
    """Write the folder of a protection run (see the module docstring; a Dask run's folder is
    :func:`sdc.report.protection_dask.write_protection_dask`'s, its release partitioned).

    Parameters
    ----------
    run : ProtectionRun
    out : path
        The folder: new, empty, or an earlier sdc folder (replaced whole); anything else is
        refused.
    input_path : path, optional
        The input file: the release takes its format, delimiter and line ends, and no output
        is more readable than it.
    sep : str, optional
        The input's delimiter when given rather than detected.
    formats : sequence of str, optional
        The comparison report's formats (default: the assessment configuration's).
    files : sequence of str, optional
        A Dask run: the input file of each partition (the released files take their names).
    audience : {"internal", "external"}
        ``"external"``, for data users: no seed, no secret, no command line and no plan.toml
        in any file (:mod:`sdc.report.audience`); every page says which audience it is for.
    """
    from sdc.report.audience import check_audience, external_log

    from sdc.report.compare import comparison_files
    from sdc.report.folder import source_files, write_folder
    from sdc.report.released import released_file

    if not isinstance(run, ProtectionRun):
        raise TypeError(f"`run` must be a ProtectionRun (what sdc.protect_data returns); got {type(run).__name__}.")
    if run.engine == "dask":
        from sdc.report.protection_dask import write_protection_dask

        if check_audience(audience) == "external":
            raise ValueError("an external report of a Dask protection run is not written yet; write the internal "
                             "one (--audience internal) or run with --engine pandas.")
        return write_protection_dask(run, out, files=files, sep=sep)[1]
    rel = released_file(run.released, input_path=input_path, sep=sep, original=run.original)
    sha = sha256_bytes(rel.data)
    doc = protection_document(run, rel.name, sha, rel.note)
    internal = check_audience(audience) == "internal"
    if not internal:
        doc = external_log(doc)
    sub = comparison_files(run.comparison, formats=formats, released_name=rel.name, audience=audience) \
        if run.comparison is not None else {}
    names = [rel.name, "protection.json", "protection.md", *(["plan.toml"] if internal else []),
             *(f"comparison/{k}" for k in sub)]
    files: dict[str, str | bytes] = {
        rel.name: rel.data,
        "protection.json": json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n",
        "protection.md": protection_markdown(doc, names, audience),
        **({"plan.toml": run.plan_toml()} if internal else {}),
    }
    files.update({f"comparison/{k}": v for k, v in sub.items()})
    write_folder(out, files, marker="This folder was written by sdc protect; sdc replaces it whole on the next run.\n",
                 inputs=[input_path], read_from=source_files(run.plan.source, run.plan.config_path,
                                                              run.config.source if run.config is not None else None))
    return ProtectionFolder(path=Path(out), files=tuple(files), released=rel.name, released_sha256=sha)
