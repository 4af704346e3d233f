"""The output folder of ``sdc search``: the released file, ``search.json``, ``search.md``, figures.

::

    released.csv          the release at the optimum, in the input's format and delimiter
    search.json           optimum, loss, runner-ups, lattice summary and evaluated nodes,
                          protection log, dimension and combination searches (schema_version 1)
    search.md             the same for reading
    lattice.csv           every node of the lattice: levels, status, classes (before and after suppression), loss, bounds
    lattice.png           the lattice, optimum and runner-ups marked
    risk_utility.png      loss against average re-identification risk of the anonymous nodes
    hierarchies/<qi>.csv  the hierarchies used, in ARX's layout (built ones included)
    mapping.csv           the transformation value by value: variable, level, value, released
    mapping.json          the same as {variable: {level, values: {value: released}}}
    plan.toml             the transformation as a protection plan: sdc protect NEW --plan plan.toml
    dimension.csv         the quasi-identifier dimension search, when configured
    combinations.csv      the transformation combinations, when configured

The folder is written whole or not at all (:func:`sdc.report.folder.write_folder`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from sdc._provenance import sha256_bytes, sha256_file
from sdc._stats import summary_values
from sdc._version import __version__
from sdc.identify.qi_search import SubsetSearchResult
from sdc.identify.lightning import STOPPED
from sdc.identify.search import GeneralisationResult
from sdc.report.folder import write_folder
from sdc.report.formatting import fmt_num
from sdc.report.released import released_file
from sdc.report.search_plots import search_figures
from sdc.report.serialize import frame_records, jsonable
from sdc.workflow.search_config import SearchRun

__all__ = ["SCHEMA_VERSION", "search_document", "search_markdown", "search_files", "write_search"]

SCHEMA_VERSION = 1

_METRIC_TEXT = {
    "discernibility": "discernibility (ARX default): sum of squared class sizes, n per suppressed record",
    "dm_star": "DM*: sum of squared class sizes, suppressed classes included",
    "nue": "non-uniform entropy (ARX default, suppressed records included), bits",
    "nue_monotonic": "non-uniform entropy of the generalisation alone (ARX's monotonic variant), bits",
    "loss": "ARX's Loss (0 = untouched, 1 = everything suppressed), geometric mean over quasi-identifiers",
    "avg_class_size": "average equivalence-class size (suppressed records count as one class)",
    "precision": "ARX's Precision: mean level / height over quasi-identifiers, a suppressed record costing 1",
    "precision_monotonic": "ARX's monotonic Precision: mean level / height over quasi-identifiers",
    "height": "ARX's Height: the sum of the generalisation levels",
    "classification": "ARX's classification metric: records outside their class's majority response per record "
                      "(a tied class wholly, a suppressed record 1/2), summed over the response variables",
}


def _status_counts(lat: pd.DataFrame) -> dict[str, int]:
    ev = lat["evaluated"].astype(bool)
    st = lat["status"]
    return {
        "nodes": int(len(lat)), "evaluated": int(ev.sum()),
        "anonymous_evaluated": int(((st == "anonymous") & ev).sum()),
        "anonymous_tagged": int(((st == "anonymous") & ~ev).sum()),
        "not_anonymous_evaluated": int(((st == "not anonymous") & ev).sum()),
        "not_anonymous_tagged": int(((st == "not anonymous") & ~ev).sum()),
        "not_evaluated": int((st == "not evaluated").sum()),
    }


def _subset_doc(r: SubsetSearchResult | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {"kind": r.kind, "meets": r.meets, "best": r.best, "targets": r.targets, "evaluated": len(r.table),
            "seconds": r.seconds, "table": frame_records(r.table.head(200))}


def search_document(run: SearchRun, *, input_name: str | None = None, input_sha256: str | None = None,
                    released_name: str | None = None, released_sha256: str | None = None,
                    command: str | None = None) -> dict[str, Any]:
    """Everything ``search.json`` holds, JSON-ready."""
    r: GeneralisationResult = run.result
    lat = r.lattice
    evaluated = lat[lat["evaluated"].astype(bool)]
    doc = {
        "schema_version": SCHEMA_VERSION,
        "generator": f"sdc {__version__}",
        "provenance": {"input": input_name, "input_sha256": input_sha256, "released": released_name,
                       "released_sha256": released_sha256, "command": command, "config": run.config.source},
        "config": run.config.to_dict(),
        "records": r.n_records,
        "research_subset": None if r.research_subset is None else {
            "records": r.research_subset, "population_records": r.population_records},
        "quasi_identifiers": list(r.quasi_identifiers),
        "models": r.models.get("described", []),
        "suppression_limit": r.suppression_limit,
        "metric": r.metric,
        "optimum": {
            "levels": r.levels, "loss": r.loss, "suppressed": r.suppressed, "suppressed_share": r.suppressed_share,
            "classes": r.classes, "achieved": r.achieved, "per_variable": frame_records(r.to_frame()),
        },
        "runner_ups": frame_records(r.runner_ups),
        "lattice": {**_status_counts(lat), "nodes": r.n_nodes, "not_evaluated": r.n_nodes - r.n_evaluated
                    if r.algorithm != "exact" else _status_counts(lat)["not_evaluated"], "exhaustive": r.exhaustive, "seconds": r.seconds,
                    "algorithm": r.algorithm, "optimal": r.optimal, "stopped": r.stopped,
                    "evaluated_nodes": frame_records(evaluated)},
        "protection_log": {
            "method": "full-domain generalisation with record suppression",
            "cells_changed": r.changed, "records_suppressed": r.suppressed, "suppressed_as": r.suppressed_as,
        },
        "dimension_search": _subset_doc(run.dimension),
        "combination_search": _subset_doc(run.combinations),
        "local_recoding": None if r.local is None else {
            **summary_values(r.local.summary()), "steps": frame_records(r.local.to_frame())},
        "seconds": run.seconds,
    }
    return jsonable(doc)


def _md_table(df: pd.DataFrame, max_rows: int = 50) -> str:
    if df.empty:
        return "(none)\n"
    df = df.head(max_rows)
    cols = [str(c) for c in df.columns]

    def cell(v: Any) -> str:
        if v is None or (isinstance(v, float) and pd.isna(v)) or v is pd.NA:
            return ""
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, (int, float)):
            return fmt_num(v)
        if hasattr(v, "item"):
            return cell(v.item())
        return str(v).replace("|", "\\|")

    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False, name=None)]
    return "\n".join(lines) + "\n"


def _achieved_text(a: dict[str, Any]) -> str:
    parts = [f"smallest class {fmt_num(a.get('k'))}"]
    if a.get("delta_presence"):
        lo, hi = a["delta_presence"]
        parts.append(f"delta-presence from {fmt_num(lo)} to {fmt_num(hi)}; smallest population class {fmt_num(a.get('k_map'))}")
    for key, label in (("l", "smallest l"), ("t", "largest t"), ("beta", "largest beta"), ("delta", "largest delta"),
                       ("alpha", "largest share of a value")):
        for s, v in (a.get(key) or {}).items():
            parts.append(f"{label} of {s} {fmt_num(v)}")
    return "; ".join(parts)


def _how(r: GeneralisationResult) -> str:
    if r.algorithm != "exact":
        return r.algorithm_how
    return "exhaustive" if r.exhaustive else "predictive tagging and bound pruning"


def search_markdown(run: SearchRun, doc: dict[str, Any]) -> str:
    """``search.md``."""
    r = run.result
    prov = doc["provenance"]
    counts = doc["lattice"]
    out = [
        "# Generalisation search\n",
        f"Input: {prov.get('input') or '(data frame)'}"
        + (f" (SHA-256 {prov['input_sha256']})" if prov.get("input_sha256") else "") + f", {fmt_num(r.n_records)} records"
        + ("" if r.research_subset is None else f" of a research subset of the population's "
           f"{fmt_num(r.population_records)} (the file); only the subset is released") + ".  ",
        f"Quasi-identifiers: {', '.join(r.quasi_identifiers)}.  ",
        f"Privacy models: {', '.join(doc['models']) or 'none'}; at most {fmt_num(100 * r.suppression_limit)}% of the "
        f"records suppressed.  ",
        f"Metric: {_METRIC_TEXT.get(r.metric, r.metric)}.\n",
        "## Optimum\n" if r.optimal else "## Best found, not proven optimal\n",
        "" if r.algorithm == "exact" else (f"{r.algorithm_title[0].upper()}{r.algorithm_title[1:]} checked {fmt_num(r.n_evaluated)} of "
                                           f"{fmt_num(r.n_nodes)} transformations and stopped: {STOPPED[r.stopped]}; "
                                           "a better transformation may exist.\n"),
        f"Transformation: {', '.join(f'{q} = {r.levels[q]}' for q in r.quasi_identifiers)}.  ",
        f"Loss ({r.metric}): **{fmt_num(r.loss, 6)}**.  ",
        (f"Suppressed: {fmt_num(r.suppressed)} records ({fmt_num(100 * r.suppressed_share)}%); "
         f"{fmt_num(r.classes)} classes released; {_achieved_text(r.achieved)}.\n") if r.local is None else
        # the optimum's own suppression; r.suppressed and r.classes are the local release's (below)
        (f"Suppressed: {fmt_num(r.local.suppressed_full)} records "
         f"({fmt_num(100 * r.local.suppressed_full / r.n_records)}%); {_achieved_text(r.achieved)}.\n"),
        _md_table(r.to_frame()),
        *_local_md(r),
        "## Runner-ups\n",
        "The next best anonymous transformations (exact: the search bounds them as it bounds the optimum).\n"
        if r.algorithm == "exact" else f"The next best anonymous transformations {r.algorithm_title} checked.\n",
        _md_table(r.runner_ups),
        "## Lattice\n",
        f"{fmt_num(counts['nodes'])} transformations; {fmt_num(counts['evaluated'])} evaluated "
        f"({_how(r)}) in {r.seconds:.2f} s.  ",
        f"Anonymous: {fmt_num(counts['anonymous_evaluated'])} evaluated, {fmt_num(counts['anonymous_tagged'])} tagged; "
        f"not anonymous: {fmt_num(counts['not_anonymous_evaluated'])} evaluated, "
        f"{fmt_num(counts['not_anonymous_tagged'])} tagged; not evaluated (bounded out): "
        f"{fmt_num(counts['not_evaluated'])}. "
        + ("Every node is in `lattice.csv`.\n" if r.algorithm == "exact" else "The checked nodes are in `lattice.csv`.\n"),
        "![lattice](lattice.png)\n",
        "![risk and utility](risk_utility.png)\n",
        "## Protection log\n",
        f"Full-domain generalisation at the levels above; {fmt_num(r.suppressed)} records in classes failing the "
        f"models had their quasi-identifiers set to {'missing' if r.suppressed_as == 'missing' else repr(r.suppressed_as)}.\n",
        _md_table(pd.DataFrame({"variable": list(r.changed), "cells_changed": list(r.changed.values())})),
    ]
    for title, sub in (("Quasi-identifier dimension search (Khan et al.)", run.dimension),
                       ("Combinations of the listed transformations", run.combinations)):
        if sub is None:
            continue
        verdict = "meets the targets" if sub.meets else "misses the targets (closest shown)"
        out += [f"## {title}\n", f"{len(sub.table)} releases evaluated; the best {verdict}.\n", _md_table(sub.table, 20)]
    out += ["## Method\n",
            "Models, metrics and the search follow ARX; formulas and sources are in sdc's `docs/search.md`.\n"]
    return "\n".join(out)


def search_files(run: SearchRun, *, data: pd.DataFrame | None = None, input_path: str | Path | None = None,
                 sep: str | None = None, command: str | None = None) -> dict[str, str | bytes]:
    """File name -> contents of the output folder."""
    r = run.result
    rel = released_file(r.data, input_path=input_path, sep=sep, original=data)
    in_name = in_sha = None
    if input_path is not None:
        p = Path(input_path)
        in_name, in_sha = p.name, sha256_file(p)
    doc = search_document(run, input_name=in_name, input_sha256=in_sha, released_name=rel.name,
                          released_sha256=sha256_bytes(rel.data), command=command)
    files: dict[str, str | bytes] = {
        rel.name: rel.data,
        "search.json": json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n",
        "search.md": search_markdown(run, doc),
        "lattice.csv": r.lattice.to_csv(index=False, lineterminator="\n"),
        **run.transformation,
    }
    files.update(search_figures(r))
    for name, h in run.hierarchies.items():
        safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)
        files[f"hierarchies/{safe}.csv"] = h.to_csv()
    if run.dimension is not None:
        files["dimension.csv"] = run.dimension.table.to_csv(index=False, lineterminator="\n")
    if run.combinations is not None:
        files["combinations.csv"] = run.combinations.table.to_csv(index=False, lineterminator="\n")
    if run.comparison is not None:  # the release beside the original, as sdc compare writes it
        from sdc.report.compare import comparison_files

        sub = comparison_files(run.comparison, formats=("html", "md", "txt", "json", "csv", "png"),
                               released_name=rel.name)
        files.update({f"comparison/{k}": v for k, v in sub.items()})
    return files


def write_search(run: SearchRun, out: str | Path, *, data: pd.DataFrame | None = None,
                 input_path: str | Path | None = None, sep: str | None = None, command: str | None = None) -> Path:
    """Write the output folder of ``sdc search`` whole, or not at all."""
    files = search_files(run, data=data, input_path=input_path, sep=sep, command=command)
    from sdc.report.folder import source_files
    from sdc.workflow.search_config import hierarchy_files

    # The hierarchy files are copied into hierarchies/: they restrict the modes too.
    return write_folder(out, files, marker="sdc search\n", inputs=[input_path, run.config.source],
                        read_from=source_files(*hierarchy_files(run.config)))


def _local_md(r: Any) -> list[str]:
    """ARX's local recoding of the suppressed records, when the search did it."""
    loc = r.local
    if loc is None:
        return []
    mode = "optimizeIterative" if loc.records is None else f"optimizeIterativeFast, r = {fmt_num(loc.records)}"
    return [
        "## Local recoding\n",
        f"ARX's local transformation ({mode}): the records the optimum suppressed were searched again, "
        f"each step at its own levels (step 0 is the optimum above; the released file holds each record at its "
        f"step's levels, the mapping and plan describe step 0 only).  ",
        f"Loss ({r.metric}): **{fmt_num(loc.loss, 6)}** against {fmt_num(loc.loss_full, 6)} full-domain "
        f"(saving {fmt_num(100 * loc.relative_saving)}%); suppressed {fmt_num(loc.suppressed)} records "
        f"(full-domain: {fmt_num(loc.suppressed_full)}); {fmt_num(loc.classes)} classes.\n",
        _md_table(loc.to_frame()),
    ]

