"""The output folder of ``sdc protect --engine dask``: the release written partitioned.

    released/part-0000.csv ...   one file per input file, in its format and delimiter (each
                                 partition is written as :func:`sdc.report.released.released_file`
                                 writes the in-memory release), by the workers
    protection.json / .md        the log, as in memory; ``released.files`` lists every file's
                                 SHA-256, ``released.sha256`` is the SHA-256 of that list
                                 (``<sha256>  <name>`` lines, as ``sha256sum`` prints them)
    plan.toml                    the resolved plan
    assessment.md                k-anonymity and risks of both files on Dask, and the measures
                                 not run on Dask

All or nothing: everything is written into a private temporary folder beside ``--out``
(the workers write the partitions there: on a cluster it must be on a shared file system),
renamed into place when complete; on an error nothing is left.

This module computes nothing: the run computes itself while its workers write the partitions
(:meth:`sdc.workflow.protect.ProtectionRun.write_released`, given the writer of a partition's
bytes, :func:`_partition_file`); the report presents the computed run.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from sdc._provenance import sha256_bytes
from sdc.report.content import Report, Section, Table
from sdc.report.folder import MARKER, _MANIFEST, _fill, _move_into_place, prepare_target, source_files
from sdc.report.protection_log import ProtectionFolder, protection_document
from sdc.report.protection_log import protection_sections
from sdc.report.serialize import jsonable

__all__ = ["write_protection_dask", "assessment_markdown"]

_MARKER_TEXT = "This folder was written by sdc protect --engine dask; sdc replaces it whole on the next run.\n"


_COMPRESSED = (".gz", ".bz2", ".xz", ".zip")


def _stem(src: str) -> str:
    """A released file's name before its suffix: the input's name without its compression
    and data suffixes (``2024.01.csv.gz`` -> ``2024.01``)."""
    name = Path(src).name
    for suffix in _COMPRESSED:
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
            break
    return Path(name).stem or name


def _partition_file(part: pd.DataFrame, number: int, *, files: Sequence[str], sep: str | None) -> tuple[str, bytes]:
    """Partition `number` as the in-memory release of its input file would be written."""
    from sdc.report.released import released_file

    src = files[number] if number < len(files) else None
    stem = _stem(src) if src else f"part-{number:04d}"
    rel = released_file(part, input_path=src, sep=sep, original=None, stem=stem)
    return rel.name, rel.data


def _table(rows: list[tuple[str, Any, Any]]) -> pd.DataFrame:
    from sdc.report.formatting import fmt_num

    return pd.DataFrame([(m, fmt_num(a), fmt_num(b)) for m, a, b in rows], columns=["measure", "original", "released"])


def assessment_sections(a: dict[str, Any]) -> list[Section]:
    """The Dask re-assessment as report sections."""
    files = a.get("files") or {}
    paras = [f"Keys: {', '.join(a.get('keys') or []) or 'none'}; weights: {a.get('weights') or 'none'}; "
             f"k = {a.get('k')}; missing values: {a.get('missing')}. Computed on Dask (one pass per measure and file)."]
    tables = []
    if files:
        o, r = files.get("original", {}), files.get("released", {})
        names = [("records", "records"), ("classes", "key patterns (classes)"), ("sample_uniques", "sample uniques"),
                 ("records_fk_below_k", f"records with fk < {a.get('k')}"),
                 ("expected_reidentifications", "expected re-identifications"), ("global_risk", "global risk")]
        tables.append(Table("dask assessment", "Original and released file on Dask",
                            _table([(label, o.get(k), r.get(k)) for k, label in names])))
    not_run = a.get("not_run") or {}
    if not_run:
        tables.append(Table("not run on dask", "Not run on Dask",
                            pd.DataFrame(list(not_run.items()), columns=["measure", "why"])))
    return [Section("dask_assessment", "Re-assessment on Dask", paras, tables=tables)]


def assessment_markdown(a: dict[str, Any], generated: str = "") -> str:
    from sdc.report.text import render_markdown

    report = Report(title="Re-assessment on Dask", generated=generated, sections=assessment_sections(a),
                    assessment=None)  # type: ignore[arg-type]
    return render_markdown(report, {}, png_files=False)


def _markdown(doc: dict[str, Any]) -> str:
    from sdc.report.text import render_markdown

    sections = protection_sections(doc)
    if doc.get("assessment_on_dask"):
        sections += assessment_sections(doc["assessment_on_dask"])
    if doc.get("command"):
        sections.append(Section("reproduce", "Reproduce", [
            f"Command: {doc['command']}",
            "The same data files, partitioning, plan (plan.toml, with its seeds) and key give byte-identical "
            "released files."]))
    report = Report(title="Protection log", generated=str(doc.get("generated_utc", "")), sections=sections,
                    assessment=None)  # type: ignore[arg-type]
    return render_markdown(report, {}, png_files=False)


def write_protection_dask(run: Any, out: str | Path, *, files: Sequence[str], sep: str | None = None,
                          input_label: str | None = None) -> tuple[Any, ProtectionFolder]:
    """Write the folder of a lazy Dask protection run (:func:`sdc.workflow.protect.protect_data`
    of a Dask DataFrame; see the module docstring), all or nothing; the run is computed as its
    partitions are written.

    Parameters
    ----------
    run : ProtectionRun
        The lazy run.
    out : path
        The folder: new, empty, or an earlier sdc folder (replaced whole).
    files : sequence of str
        The input files, one per partition (the released files take their names and formats).
    sep : str, optional
        The input's delimiter when given rather than detected.

    Returns
    -------
    (ProtectionRun, ProtectionFolder)
        The computed run and the folder written.
    """
    from sdc._files import make_parents, remove_made, terminate_cleanly

    inputs = list(files)
    stems = [_stem(f) for f in inputs]
    if len(set(stems)) != len(stems):
        twice = next(s for s in stems if stems.count(s) > 1)
        raise ValueError(f"two input files would give the same released file name ({twice!r}); give files with "
                         "distinct names.")
    plan = getattr(run, "plan", None)  # the plan is copied in (plan.toml): it restricts the modes too
    out, fmode, dmode = prepare_target(Path(out), "--out", inputs,
                                       source_files(getattr(plan, "source", None), getattr(plan, "config_path", None)))
    with terminate_cleanly():
        made: list[Path] = []
        try:
            made = make_parents(out)
            # absolute: the workers write into it, and a cluster's workers need not share our directory
            tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent.resolve()))
        except OSError as exc:  # the message would name the temporary folder, not the target
            remove_made(made)
            raise OSError(f"cannot write --out '{out}': {exc.strerror or exc}.") from None
        try:
            rel_dir = tmp / "released"
            rel_dir.mkdir()
            os.chmod(rel_dir, dmode | 0o700)
            writer = functools.partial(_partition_file, files=list(files), sep=sep)
            run, written = run.write_released(str(rel_dir), writer, mode=fmode)
            names = [f"released/{w[0]}" for w in written]
            if len(set(names)) != len(names):
                raise ValueError("two input files give the same released file name; give files with distinct names.")
            listing = "".join(f"{w[1]}  {n}\n" for w, n in zip(written, names))
            sha = sha256_bytes(listing.encode("utf-8"))
            doc = protection_document(run, "released/", sha)
            doc["released"]["files"] = [{"file": n, "sha256": w[1], "records": w[2]} for w, n in zip(written, names)]
            doc.setdefault("engine", {})["files"] = [str(f) for f in files]
            doc = jsonable(doc)
            texts: dict[str, str | bytes] = {
                "protection.json": json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n",
                "protection.md": _markdown(doc),
                "plan.toml": run.plan_toml(),
                "released/SHA256SUMS": listing,
            }
            if run.dask_assessment is not None:
                texts["assessment.md"] = assessment_markdown(dict(doc.get("assessment_on_dask") or {}),
                                                             str(doc.get("generated_utc", "")))
            all_names = sorted(names + list(texts))
            marker = _MARKER_TEXT.rstrip("\n") + "\n" + _MANIFEST + "\n" + "".join(f"{n}\n" for n in all_names)
            _fill(tmp, {**texts, MARKER: marker}, fmode, dmode | 0o700, "--out", out)
            os.chmod(tmp, dmode)
            _move_into_place(tmp, out, "--out", inputs)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            remove_made(made)  # a failed run leaves no folder it made
            raise
    return run, ProtectionFolder(path=out, files=tuple(all_names), released="released/", released_sha256=sha)
