"""The output folder of ``sdc sweep``: one row per setting, in every format, with three plots.

::

    sweep.csv        one row per setting (row 0: the baseline), every figure unrounded
    sweep.md         the table and the non-dominated settings, for reading
    sweep.json       everything machine-readable (schema_version 1)
    sweep.xlsx       the tables as sheets
    sweep.html       one self-contained page with the three plots
    plan.toml        the resolved sweep plan: sdc sweep DATA --plan plan.toml reruns it
    plots/risk_by_parameter.png, plots/utility_by_parameter.png, plots/risk_utility.png

Written whole or not at all, never over a folder sdc did not write, never more readable than
the input (:mod:`sdc.report.folder`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sdc._files import csv_text
from sdc._stats import summary_values
from sdc._version import __version__
from sdc.report.content import FIGURES, SAFETY_NOTE, Report, Section, Table
from sdc.report.formatting import fmt_num
from sdc.report.safety import safe_frame
from sdc.report.serialize import frame_records, jsonable
from sdc.workflow.measure import SHARE
from sdc.workflow.registry import figure_named
from sdc.workflow.sweep import SweepResult, sweep_plan_toml
from sdc.workflow.utility_registry import utility_figure

__all__ = ["write_sweep", "sweep_files", "sweep_figures", "sweep_figure", "build_sweep_report", "SweepFolder", "SWEEP_FIGURES",
           "SWEEP_FIGURE_NAMES"]

SCHEMA_VERSION = 1

SWEEP_FIGURES = {
    "risk_by_parameter": "Risk by parameter: a row per measure, each on its own scale, a column per swept step "
                         "(dashed: the original data)",
    "utility_by_parameter": "Utility by parameter: a row per measure, each on its own scale, a column per swept "
                            "step (dashed: the original data)",
    "risk_utility": "The risk-utility plane; ringed and joined: the settings no other setting beats on both axes",
}
for _name, _caption in SWEEP_FIGURES.items():  # the renderers look captions up in FIGURES
    FIGURES.setdefault(_name, _caption)

_COLORS = ("#3b6ea5", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#17a589", "#7f8c8d", "#a04000")


#: The sweep's columns that are not a measure's figure, as a page heads them.
_OTHER_LABELS = {"non_dominated": "non-dominated", "records_dropped": "records dropped",
                 "cells_changed": "cells changed", "variables_changed": "variables changed",
                 "not_measured": "changed, loss not measured"}


def column_label(column: str, k: object = None) -> str:
    """The label of a sweep column, as its measure declares it (``il1[age]``: "IL1 [age]"), its
    thresholds filled with `k`, or as a table column heading without `k`; a column that is not
    a measure's figure keeps its name."""
    f = figure_named(column) or utility_figure(column)
    if f is None:
        return _OTHER_LABELS.get(column, column)
    text = f.heading({"k": k}) if k is not None else f.column_heading()
    text += " (0 to 1)" if f.unit == SHARE and "0 to 1" not in text else ""  # a column says its unit: a share is never read as a %
    return text + " " + column[len(str(f.sweep)):] if column.startswith(f"{f.sweep}[") else text


def axis_label(column: str, k: object = None) -> str:
    """The label of an axis (or a plotted series): the figure's label, its threshold filled with
    `k`, and "(lower is better)" for a utility figure that is a loss."""
    f = figure_named(column) or utility_figure(column)
    if f is None:
        return column
    loss = utility_figure(column) is not None and f.better == "lower"
    unit = " (0 to 1)" if f.unit == SHARE else ""  # an axis says its unit, as a column does
    return f.heading({"k": k} if k is not None else None) + unit + (" (lower is better)" if loss else "")


@dataclass(frozen=True)
class SweepFolder:
    path: Path
    files: tuple[str, ...]


def _groups(r: SweepResult) -> list[tuple[str, pd.DataFrame]]:
    t = r.table
    names = list(dict.fromkeys(g for g in t["group"] if g != "baseline"))
    return [(g, t[t["group"] == g]) for g in names]


def _x(part: pd.DataFrame) -> tuple[np.ndarray, list[str], str]:
    """Positions and tick labels: the parameter's values in the grid's order."""
    params = set(part["parameter"])
    name = params.pop() if len(params) == 1 else ""
    labels = [str(v) for v in part["value"]] if name else [str(s) for s in part["setting"]]
    return np.arange(len(part)), labels, name or "setting"


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width)) or text


#: The measures of the two by-parameter figures, one row of panels each, each on its own scale.
RISK_SERIES = ("pct_unique", "pct_fk_lt_k", "global_risk")
UTILITY_SERIES = ("il1_overall", "eigen_similarity_pct", "nue_utility_retained", "pct_records_retained")


def _by_parameter(r: SweepResult, columns: Sequence[str], title: str):  # noqa: ANN202  (a Figure)
    """Small multiples: a row per measure (each on its own scale, its label and unit on the
    axis, the same scale across the methods), a column per swept step; dashed: the baseline."""
    from sdc.report.plots import _figure

    groups = _groups(r)
    t, base = r.table, r.baseline
    series = [c for c in columns if c in t and not t[c].isna().all()]
    if not series or not groups:
        fig = _figure(6.0, 1.6)
        fig.text(0.5, 0.5, "no figure to plot (every value is NA)", ha="center", va="center")
        return fig
    ncol, nrow = len(groups), len(series)
    fig = _figure(max(2.7 * ncol + 1.0, 5.0), 2.0 * nrow + 0.9)
    axes = fig.subplots(nrow, ncol, squeeze=False, sharey="row")
    for i, col in enumerate(series):
        color = _COLORS[i % len(_COLORS)]
        b = base.get(col)
        for j, (g, part) in enumerate(groups):
            ax = axes[i][j]
            x, labels, pname = _x(part)
            ax.plot(x, part[col].to_numpy(dtype=float), marker="o", color=color)
            if b is not None and not pd.isna(b):
                ax.axhline(float(b), color="black", linestyle="--", linewidth=0.8)
            ax.margins(x=0.08, y=0.15)
            ax.tick_params(labelsize=7)
            long = max(map(len, labels), default=0) > 6
            ax.set_xticks(x, labels if i == nrow - 1 else [""] * len(x), fontsize=7, rotation=30 if long else 0,
                          ha="right" if long else "center")
            if i == 0:
                ax.set_title(_wrap(g, 34), fontsize=8)
            if i == nrow - 1:
                ax.set_xlabel(pname, fontsize=8)
            if j == 0:
                ax.set_ylabel(_wrap(axis_label(col, r.k), 22), fontsize=8)
    fig.suptitle(title + "\n(each measure on its own scale; dashed line: the original data)", fontsize=9)
    return fig


def _plane(r: SweepResult):  # noqa: ANN202  (a Figure)
    """The risk-utility plane; the baseline drawn last, on top, and named, so that no setting
    hides it; the legend outside the axes."""
    from sdc.report.plots import _figure

    t = r.table
    fig = _figure(8.5, 5.0)
    ax = fig.subplots()
    xs, ys = t[r.risk_axis].to_numpy(dtype=float), t[r.utility_axis].to_numpy(dtype=float)
    for i, (g, part) in enumerate(_groups(r)):
        ax.scatter(part[r.risk_axis], part[r.utility_axis], color=_COLORS[i % len(_COLORS)], s=28,
                   label=_wrap(g, 30), zorder=3)
    nd = t[t["non_dominated"]].sort_values(r.risk_axis, kind="stable")
    ax.plot(nd[r.risk_axis], nd[r.utility_axis], color="#555555", linewidth=1, zorder=2)
    ax.scatter(nd[r.risk_axis], nd[r.utility_axis], s=110, facecolors="none", edgecolors="black", linewidths=1.2,
               label="non-dominated", zorder=4)
    for row in nd.itertuples(index=False):
        if int(row.setting) != 0:
            ax.annotate(str(row.setting), (getattr(row, r.risk_axis), getattr(row, r.utility_axis)),
                        textcoords="offset points", xytext=(6, 4), fontsize=7)
    if np.isfinite(xs[0]) and np.isfinite(ys[0]):
        ax.scatter([xs[0]], [ys[0]], marker="*", s=220, color="black", edgecolors="white", linewidths=0.8,
                   label="original data (row 0)", zorder=6)
        ax.annotate("original", (xs[0], ys[0]), textcoords="offset points", xytext=(8, -10), fontsize=7,
                    fontweight="bold", zorder=6)
    ax.margins(0.08)
    ax.set_xlabel(axis_label(r.risk_axis) + " (lower is safer)")
    ax.set_ylabel(axis_label(r.utility_axis))
    ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title("Risk against utility; numbers: the settings' rows", fontsize=9)
    return fig


def sweep_figures(r: SweepResult) -> dict[str, bytes]:
    """The three figures (PNG bytes by name)."""
    import matplotlib
    import matplotlib.style

    from sdc.report.plots import _png

    with matplotlib.style.context("default"), matplotlib.rc_context({"svg.hashsalt": "sdc", "font.size": 9}):
        return {name: _png(sweep_figure(name, r)) for name in SWEEP_FIGURE_NAMES}


#: The sweep's figures, as :func:`sweep_figures` keys them.
SWEEP_FIGURE_NAMES = tuple(SWEEP_FIGURES)


def sweep_figure(name: str, r: SweepResult):  # noqa: ANN201
    """Figure `name` of the sweep as a Figure (:mod:`sdc.plot`)."""
    if name == "risk_by_parameter":
        return _by_parameter(r, RISK_SERIES, f"Risk by parameter (keys: {', '.join(r.keys)})")
    if name == "utility_by_parameter":
        return _by_parameter(r, UTILITY_SERIES, "Utility by parameter")
    if name == "risk_utility":
        return _plane(r)
    raise ValueError(f"no sweep figure named {name!r}; the figures: {', '.join(SWEEP_FIGURE_NAMES)}.")


def build_sweep_report(r: SweepResult, *, files: dict[str, str] | None = None) -> Report:
    t = r.table
    prov = r.provenance
    nd = t[t["non_dominated"]]
    sections = []
    s = Section("setup", "The sweep", [
        f"{len(t) - 1} settings ({r.mode} mode) and the baseline, the original data (row 0). Risk over the keys "
        f"{', '.join(r.keys)} (missing values: {r.missing}; k = {r.k}"
        + (f"; sampling weights {r.weights}" if r.weights else "; no weights: risk 1/fk") + "). Utility over "
        f"{', '.join(r.variables)}.",
        "Every random step has the same seed in every setting (derived from the plan's seed, "
        f"{r.plan.seed}, and the step number), so settings differ only by their parameters."])
    rows = [("data", prov.get("input_file", "(a DataFrame)")), ("SHA-256", prov.get("input_sha256", "")),
            ("plan", r.plan.source), ("plan seed", str(r.plan.seed)), ("records", int(t["n_records"].iloc[0]))]
    s.tables.append(Table("setup", "Data and plan", pd.DataFrame(rows, columns=["item", "value"])))
    sections.append(s)
    s = Section("front", "Settings no other setting beats on both axes", [
        f"Axes: {axis_label(r.risk_axis)} (lower is better) and "
        f"{axis_label(r.utility_axis)}. {len(nd)} setting(s) are non-dominated: "
        + "; ".join(f"{int(x.setting)}: {x.label} ({fmt_num(float(getattr(x, r.risk_axis)))}, "
                    f"{fmt_num(float(getattr(x, r.utility_axis)))})" for x in nd.itertuples(index=False)) + "."])
    cols = ["setting", "label", r.risk_axis, r.utility_axis]
    s.tables.append(Table("non-dominated", "Non-dominated settings", nd[list(dict.fromkeys(cols))],
                          labels={c: column_label(c) for c in cols}))
    s.figures.append("risk_utility")
    sections.append(s)
    s = Section("table", "Every setting", [
        "One row per setting; row 0 is the original data. Risk: sample uniques, records violating "
        f"{r.k}-anonymity (in classes of fewer than k = {r.k} records, fk < {r.k}, as sdc assess counts them; the "
        f"other count, records in classes of at most k (fk <= {r.k}), is offered beside it), expected "
        "re-identifications and global risk. Utility: information loss as a share of the range (per variable "
        "and its mean; categorical: the share changed; not sdcMicro's IL1), eigenvalue similarity, utility "
        "retained by the non-uniform entropy, records retained. Every column says its unit; sweep.csv holds "
        "every column under its code name (docs/compare-sweep.md)."])
    risk_cols = [c for c in ("setting", "label", "pct_unique", "pct_fk_lt_k", "pct_fk_le_k",
                             "expected_reidentifications", "global_risk") if c in t.columns]
    risk_cols += [c for c in t.columns if c not in risk_cols and c not in _UTILITY_SHOWN and c not in _NOT_SHOWN
                  and utility_figure(str(c)) is None]  # the other utility figures are in sweep.csv
    s.tables.append(Table("settings", "Risk by setting", t, show=risk_cols,
                          labels={c: column_label(c) for c in t.columns}))
    shown = [*_UTILITY_SHOWN[:-1], *([r.utility_axis] if r.utility_axis not in _UTILITY_SHOWN else []), "non_dominated"]
    util_cols = ["setting", "label", *(c for c in shown if c in t.columns)]  # the utility axis always among them
    s.tables.append(Table("settings utility", "Utility by setting", t, show=util_cols,
                          labels={c: column_label(c) for c in t.columns}))
    if "cells_changed" in t.columns:
        s.tables.append(Table("settings changes", "What each setting changed", _changes(t),
                              note="cells changed: the cells that differ from the original's (as sdc compare counts "
                                   "them); a setting that changes nothing is marked so, and a change outside the "
                                   "utility variables is named: its loss is not measured, its setting never "
                                   "non-dominated."))
    per_var = [c for c in t.columns if str(c).startswith("il1[")]
    if per_var:
        s.tables.append(Table("settings il1", "Information loss per variable (share of the range, 0 to 1)", t,
                              show=["setting", "label", *per_var], labels={c: str(c)[4:-1] for c in per_var}))
    s.figures += ["risk_by_parameter", "utility_by_parameter"]
    sections.append(s)
    if files:
        s = Section("files", "Files in this folder")
        s.tables.append(Table("files", "Files", pd.DataFrame(list(files.items()), columns=["file", "contents"])))
        sections.append(s)
    sections.append(Section("notes", "Notes", list(prov.get("notes") or []) + [SAFETY_NOTE]))
    s = Section("reproduce", "How to reproduce", [
        f"Command: {prov.get('command') or 'sdc sweep ...'}",
        "plan.toml holds the resolved plan with its seed: the same data and plan give the same table."])
    sections.append(s)
    return Report(title="Risk-utility sweep", generated=str(prov.get("generated_utc", "")), sections=sections)


def _changes(t: pd.DataFrame) -> pd.DataFrame:
    """The "What each setting changed" table: the baseline, an untouched setting and a change
    whose loss is not measured said in words."""
    def what(x: Any) -> str:
        if int(x.setting) == 0:
            return "(the original data)"
        if int(x.cells_changed) == 0 and int(x.records_dropped) == 0:
            return "nothing: the data as they are"
        return str(x.variables_changed) or "records only"

    return pd.DataFrame({"setting": t["setting"], "label": t["label"],
                         "cells changed": t["cells_changed"].astype("int64"),
                         "records dropped": t["records_dropped"].astype("int64"),
                         "variables changed": [what(x) for x in t.itertuples(index=False)],
                         "changed, loss not measured": t["not_measured"].fillna("")})


#: The utility columns of the "Utility by setting" table (the rest of a row is in the risk table).
_UTILITY_SHOWN = ("il1_overall", "eigen_similarity_pct", "nue_utility_retained", "pct_records_retained",
                  "cells_suppressed", "non_dominated")
#: Columns of sweep.csv the pages leave out (the group, parameter and value are in the label).
_NOT_SHOWN = ("group", "parameter", "value", "n_records", "global_risk_pct", "records_dropped", "nue", "nue_normalised",
              "records_retained", "cells_changed", "variables_changed", "not_measured")


def _file_list(png: bool) -> dict[str, str]:
    files = {"sweep.html": "the sweep with its three plots, self-contained", "sweep.md": "the sweep in Markdown",
             "sweep.csv": "one row per setting (row 0: the original data)",
             "sweep.json": "everything machine-readable (schema_version 1)", "sweep.xlsx": "the tables as sheets",
             "plan.toml": "the resolved sweep plan; sdc sweep DATA --plan plan.toml reruns it"}
    if png:
        files.update({f"plots/{n}.png": c for n, c in SWEEP_FIGURES.items()})
    return files


def sweep_document(report: Report, r: SweepResult, files: dict[str, str]) -> dict[str, Any]:
    return jsonable({
        "schema_version": SCHEMA_VERSION, "generator": f"sdc {__version__}", "title": report.title,
        "generated_utc": report.generated,
        "provenance": {k: v for k, v in r.provenance.items() if k != "generated_utc"},
        "plan": {"source": r.plan.source, "seed": r.plan.seed, "mode": r.mode},
        "keys": list(r.keys), "k": r.k, "weights": r.weights, "missing": r.missing, "variables": list(r.variables),
        "risk_axis": r.risk_axis, "utility_axis": r.utility_axis,
        "settings": frame_records(r.table), "summary": summary_values(r.summary()), "files": files,
    })


def sweep_files(r: SweepResult, *, png: bool = True) -> dict[str, str | bytes]:
    """Every file of the sweep folder (name -> content)."""
    from sdc.report.html import render_html
    from sdc.report.text import render_markdown
    from sdc.report.xlsx import render_xlsx

    figs = sweep_figures(r)
    files = _file_list(png)
    report = build_sweep_report(r, files=files)
    out: dict[str, str | bytes] = {
        "sweep.html": render_html(report, figs),
        "sweep.md": render_markdown(report, figs, png_files=png),
        "sweep.csv": csv_text(safe_frame(r.table)),
        "sweep.json": json.dumps(sweep_document(report, r, files), indent=2, ensure_ascii=False,
                                 allow_nan=False) + "\n",
        "sweep.xlsx": render_xlsx(report),
        "plan.toml": sweep_plan_toml(r),
    }
    if png:
        out.update({f"plots/{n}.png": b for n, b in figs.items()})
    return out


def write_sweep(r: SweepResult, out: str | Path, *, inputs: Sequence[str | Path] = (), png: bool = True) -> SweepFolder:
    """Write the sweep folder `out` (see the module docstring)."""
    from sdc.report.folder import source_files, write_folder

    files = sweep_files(r, png=png)
    write_folder(out, files, marker="This folder was written by sdc sweep; sdc replaces it whole on the next run.\n",
                 inputs=inputs, read_from=source_files(r.plan.source, r.plan.config_path))
    return SweepFolder(path=Path(out), files=tuple(files))
