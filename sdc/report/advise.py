"""The folder of ``sdc advise`` (:func:`sdc.workflow.advise.advise`): the ranked table, the kept
plans, the comparison of the best.

* ``advice.csv``: one row per candidate tried (the kept plans first, by rank);
* ``plan_1.toml`` ... ``plan_N.toml``: the kept plans, best first, each with its seed and the
  assessment configuration: ``sdc protect DATA --plan plan_1.toml --out DIR`` reruns it;
* ``comparison/``: the best plan's release beside the original, as ``sdc compare`` writes it.

It presents the result; it computes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from sdc._files import csv_text
from sdc.report.compare import comparison_files
from sdc.report.formatting import render_table
from sdc.workflow.advise import AdviceResult

__all__ = ["AdviceFolder", "write_advice", "advice_text"]

#: The columns of the printed table.
SHOWN = ("rank", "candidate", "label", "n_failing", "score", "suppression_rate", "category_loss", "il1")


@dataclass(frozen=True)
class AdviceFolder:
    path: Path
    files: tuple[str, ...]


def advice_text(res: AdviceResult, *, rows: int = 10) -> str:
    """The ranked table as printed: its first `rows` rows, and a line on what was kept."""
    t = res.table.loc[:, list(SHOWN)].head(rows).copy()
    t["rank"] = [("" if pd.isna(r) else str(int(r))) for r in t["rank"]]
    t = t.rename(columns={"n_failing": "failing verdicts", "suppression_rate": "suppressed",
                          "category_loss": "category loss", "il1": "IL1s per cell"})
    kept = len(res.runs)
    head = (f"{len(res.candidates)} candidate plans tried (seed {res.seed}); {kept} meet every threshold"
            + (f"; the best: {res.table.iloc[0]['label']} (score {res.table.iloc[0]['score']:.6g})." if kept
               else ": none kept (the rows are ranked by their failing verdicts, then the score)."))
    fmts = {c: ".6g" for c in ("score", "suppressed", "category loss", "IL1s per cell")}
    lines = [head, render_table(t, formats=fmts)]
    if len(res.table) > rows:
        lines.append(f"(the first {rows} of {len(res.table)} rows; every row, with its failing verdicts, in advice.csv)")
    if not kept and len(res.table):
        lines.append(_nearest(res.table.iloc[0]))
    return "\n".join(lines)


def _nearest(row: pd.Series, shown: int = 3) -> str:
    """Why the first plan of a table with none kept is not kept: its first failing verdicts (or its error)."""
    if row["error"]:
        return f"The nearest plan, candidate {row['candidate']}, could not run: {row['error']}"
    failing = [f for f in str(row["failing"]).split("; ") if f]
    more = f"; ... ({len(failing)} in all)" if len(failing) > shown else ""
    return f"The nearest plan, candidate {row['candidate']}, fails: {'; '.join(failing[:shown])}{more}."


def write_advice(res: AdviceResult, out: str | Path, *, inputs: Sequence[str | Path] = (), top: int | None = None,
                 formats: Sequence[str] | None = None) -> AdviceFolder:
    """Write the advice folder `out` (see the module docstring): at most `top` plans (default
    every kept plan), and the comparison of the best in `formats` (default the configuration's)."""
    from sdc.report.folder import source_files, write_folder

    if not isinstance(res, AdviceResult):
        raise TypeError(f"`res` must be an AdviceResult (what sdc.advise returns); got {type(res).__name__}.")
    files: dict[str, str | bytes] = {"advice.csv": csv_text(res.table)}
    plans = res.plans_toml()
    for i, text in enumerate(plans[:top] if top is not None else plans, start=1):
        files[f"plan_{i}.toml"] = text
    if res.best is not None and res.best.comparison is not None:
        for name, body in comparison_files(res.best.comparison, formats=formats).items():
            files[f"comparison/{name}"] = body
    write_folder(out, files, marker="This folder was written by sdc advise; sdc replaces it whole on the next run.\n",
                 inputs=inputs, read_from=source_files(res.config.source))
    return AdviceFolder(path=Path(out), files=tuple(sorted(files)))
