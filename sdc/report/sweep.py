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
from sdc.workflow.registry import figure_named
from sdc.workflow.sweep import SweepResult, sweep_plan_toml
from sdc.workflow.utility_registry import utility_figure

__all__ = ["write_sweep", "sweep_files", "sweep_figures", "build_sweep_report", "SweepFolder", "SWEEP_FIGURES"]

SCHEMA_VERSION = 1

SWEEP_FIGURES = {
    "risk_by_parameter": "Risk by parameter, per protection method (dashed: the original data)",
    "utility_by_parameter": "Utility by parameter, per protection method (dashed: the original data)",
    "risk_utility": "The risk-utility plane; ringed and joined: the settings no other setting beats on both axes",
}
for _name, _caption in SWEEP_FIGURES.items():  # the renderers look captions up in FIGURES
    FIGURES.setdefault(_name, _caption)

_COLORS = ("#3b6ea5", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#17a589", "#7f8c8d", "#a04000")


def column_label(column: str, k: object = None) -> str:
    """The label of a sweep column, as its measure declares it (``il1[age]``: "IL1 [age]"), its
    thresholds filled with `k`, or as a table column heading without `k`; a column that is not
    a measure's figure keeps its name."""
    f = figure_named(column) or utility_figure(column)
    if f is None:
        return column
    text = f.heading({"k": k}) if k is not None else f.column_heading()
    return text + " " + column[len(str(f.sweep)):] if column.startswith(f"{f.sweep}[") else text


def axis_label(column: str, k: object = None) -> str:
    """The label of an axis (or a plotted series): the figure's label, its threshold filled with
    `k`, and "(lower is better)" for a utility figure that is a loss."""
    f = figure_named(column) or utility_figure(column)
    if f is None:
        return column
    loss = utility_figure(column) is not None and f.better == "lower"
    return f.heading({"k": k} if k is not None else None) + (" (lower is better)" if loss else "")


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


def _by_parameter(r: SweepResult, series: list[tuple[str, str, float]], title: str, ylabel: str) -> bytes:
    from sdc.report.plots import _figure, _png

    groups = _groups(r)
    ncol = min(3, len(groups))
    nrow = -(-len(groups) // ncol)
    fig = _figure(3.6 * ncol + 0.6, 2.9 * nrow + 0.8)
    axes = np.atleast_1d(fig.subplots(nrow, ncol, squeeze=False)).ravel()
    base = r.baseline
    for ax, (g, part) in zip(axes, groups):
        x, labels, pname = _x(part)
        for i, (col, label, scale) in enumerate(series):
            if col not in part or part[col].isna().all():
                continue
            color = _COLORS[i % len(_COLORS)]
            ax.plot(x, part[col].to_numpy(dtype=float) * scale, marker="o", color=color, label=label)
            b = base.get(col)
            if b is not None and not pd.isna(b):
                ax.axhline(float(b) * scale, color=color, linestyle="--", linewidth=0.8)
        ax.set_xticks(x, labels, fontsize=7, rotation=30 if max(map(len, labels), default=0) > 6 else 0)
        ax.set_xlabel(pname)
        ax.set_title(g, fontsize=8)
        ax.set_ylabel(ylabel, fontsize=8)
    for ax in axes[len(groups):]:
        ax.set_visible(False)
    if axes[0].get_legend_handles_labels()[0]:
        axes[0].legend(frameon=False, fontsize=7, loc="best")
    fig.suptitle(title)
    return _png(fig)


def _plane(r: SweepResult) -> bytes:
    from sdc.report.plots import _figure, _png

    t = r.table
    fig = _figure(7.5, 5.0)
    ax = fig.subplots()
    xs, ys = t[r.risk_axis].to_numpy(dtype=float), t[r.utility_axis].to_numpy(dtype=float)
    ax.scatter([xs[0]], [ys[0]], marker="*", s=160, color="black", label="original data", zorder=3)
    for i, (g, part) in enumerate(_groups(r)):
        ax.scatter(part[r.risk_axis], part[r.utility_axis], color=_COLORS[i % len(_COLORS)], s=28, label=g, zorder=3)
    nd = t[t["non_dominated"]].sort_values(r.risk_axis, kind="stable")
    ax.plot(nd[r.risk_axis], nd[r.utility_axis], color="#555555", linewidth=1, zorder=2)
    ax.scatter(nd[r.risk_axis], nd[r.utility_axis], s=110, facecolors="none", edgecolors="black", linewidths=1.2,
               label="non-dominated", zorder=4)
    for row in nd.itertuples(index=False):
        ax.annotate(str(row.setting), (getattr(row, r.risk_axis), getattr(row, r.utility_axis)),
                    textcoords="offset points", xytext=(6, 4), fontsize=7)
    ax.set_xlabel(axis_label(r.risk_axis) + " (lower is safer)")
    ax.set_ylabel(axis_label(r.utility_axis))
    ax.legend(fontsize=7, frameon=False, loc="best")
    ax.set_title("Risk against utility; numbers: the settings' rows")
    return _png(fig)


def sweep_figures(r: SweepResult) -> dict[str, bytes]:
    """The three figures (PNG bytes by name)."""
    import matplotlib
    import matplotlib.style

    with matplotlib.style.context("default"), matplotlib.rc_context({"svg.hashsalt": "sdc", "font.size": 9}):
        return {
            "risk_by_parameter": _by_parameter(
                r, [(c, axis_label(c, r.k), 1.0) for c in ("global_risk_pct", "pct_unique", "pct_fk_le_k")],
                f"Risk by parameter (keys: {', '.join(r.keys)})", "% of records"),
            "utility_by_parameter": _by_parameter(
                r, [("il1_overall", "IL1 overall (loss)", 1.0),
                    ("eigen_similarity_pct", "eigenvalue similarity / 100", 0.01),
                    ("nue_utility_retained", "utility retained (NUE)", 1.0),
                    ("pct_records_retained", "records retained / 100", 0.01)],
                "Utility by parameter", "share (0 to 1)"),
            "risk_utility": _plane(r),
        }


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
    s = Section("table", "Every setting", ["One row per setting; row 0 is the original data. Risk: pct_unique "
                                           "(sample uniques), pct_fk_le_k, expected re-identifications, global "
                                           "risk. Utility: IL1 (share of the range; categorical: share changed) "
                                           "per variable and overall, eigenvalue similarity (%), non-uniform "
                                           "entropy (nue, bits; normalised; utility retained), records retained."])
    s.tables.append(Table("settings", "Risk and utility by setting", t,
                          labels={c: column_label(c) for c in t.columns}))
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
