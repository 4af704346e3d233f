"""The comparison report's figures (``sdc compare``), as PNG bytes: risk before and after, the
distributions of the changed variables before and after, and the correlation matrices with
their difference. Drawn like :mod:`sdc.report.plots` (Agg canvas, default style, no
"Software" stamp), so the same comparison gives the same bytes.
"""

from __future__ import annotations

import re
import textwrap

import numpy as np
import pandas as pd

from sdc._validation import is_numeric_column
from sdc.report.content import FIGURES
from sdc.report.plots import _figure, _png
from sdc.workflow.compare import Comparison
from sdc.workflow.registry import figure_named

__all__ = ["comparison_figures", "comparison_figure", "COMPARE_FIGURES"]

_BEFORE, _AFTER, _RED = "#7f7f7f", "#3b6ea5", "#c0392b"

#: The caps of the figures, said in their captions.
_MAX_VARIABLES = 9
_MAX_LEVELS = 12
_MAX_CORR = 20

#: Figure files of the comparison report and their captions.
COMPARE_FIGURES = {
    "risk_before_after": "Risk before and after protection (per scenario) and the cumulative distribution of "
                         "individual risk",
    "changed_distributions": f"Distributions of the changed variables before and after protection (at most the "
                             f"first {_MAX_VARIABLES} variables, each with at most {_MAX_LEVELS} levels)",
    "correlations": f"Correlations of the numeric variables before and after protection, and their difference (at "
                    f"most the first {_MAX_CORR} numeric columns, in file order; the associations table lists "
                    f"every pair that changed)",
}
# The renderers look captions up in one table (sdc.report.content.FIGURES); register ours there.
for _name, _caption in COMPARE_FIGURES.items():
    FIGURES.setdefault(_name, _caption)


def _risk(c: Comparison):  # noqa: ANN202  (a Figure)
    names = [r.scenario.name for r in c.before.scenarios][:6]
    k = c.config.thresholds.k
    # The rows of the risk table, by their figures' labels (sdc.workflow.registry), and a short name.
    measures = [(figure_named(name).heading({"k": k}), short) for name, short in  # type: ignore[union-attr]
                (("pct_unique", "uniques (%)"), ("pct_k_lt_threshold", f"fk < {k} (%)"),
                 ("global_risk_pct", "global risk (%)"))]
    risk = c.risk
    ncol = min(len(names), 3) + 1
    nrow = -(-len(names) // 3)
    fig = _figure(3.0 * ncol + 0.5, 3.4 * nrow + 0.4)
    grid = fig.add_gridspec(nrow, ncol)
    width = 0.38
    for i, sc in enumerate(names):
        ax = fig.add_subplot(grid[i // 3, i % 3])
        before, after = [], []
        for m, _ in measures:
            row = risk[(risk["scenario"] == sc) & (risk["measure"] == m)]
            b = float(row["before"].iloc[0]) if len(row) and pd.notna(row["before"].iloc[0]) else 0.0
            a = float(row["after"].iloc[0]) if len(row) and pd.notna(row["after"].iloc[0]) else 0.0
            before.append(b)
            after.append(a)
        x = np.arange(len(measures))
        ax.bar(x - width / 2, before, width, color=_BEFORE, label="original")
        ax.bar(x + width / 2, after, width, color=_AFTER, label="released")
        ax.set_xticks(x, [short for _, short in measures], fontsize=7)
        ax.set_title("\n".join(textwrap.wrap(sc, 32)[:3]) or sc, fontsize=8)  # wrapped, never clipped
        if i % 3 == 0:
            ax.set_ylabel("percent (see each bar's label)", fontsize=8)
        if i == 0:
            ax.legend(frameon=False, fontsize=7)
    ax2 = fig.add_subplot(grid[:, ncol - 1])
    for res, color, lab in ((c.before.primary, _BEFORE, "original"), (c.after.primary, _AFTER, "released")):
        r = np.sort(res.risk.risk.to_numpy(dtype=float))
        if r.size:
            ax2.step(r, 100 * np.arange(1, r.size + 1) / r.size, where="post", color=color, label=lab)
    thr = c.config.thresholds.risk
    ax2.axvline(thr, color=_RED, linestyle="--", label=f"risk threshold {thr:g}")
    ax2.set_xlabel("individual re-identification risk")
    ax2.set_ylabel("records with risk <= x (%)")
    ax2.set_ylim(0, 101)
    ax2.set_title("\n".join(textwrap.wrap(f"Cumulative risk, '{c.before.primary.scenario.name}'", 36)[:3]),
                  fontsize=8)
    ax2.legend(loc="lower center", frameon=False, fontsize=7)  # clear of the threshold line at the right
    fig.suptitle("Risk before and after protection")
    return fig


_NUM = r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+|inf|Inf)"
_INTERVALS = (re.compile(rf"^\s*[\[(]\s*({_NUM})\s*,\s*({_NUM})\s*[\])]\s*$"),
              re.compile(rf"^\s*({_NUM})\s*--\s*({_NUM})\s*$"))


def _bands(s: pd.Series) -> tuple[np.ndarray, np.ndarray] | None:
    """Each released value's band (low, high), when every value is an interval label like
    "(30,40]" or "30--40"; None otherwise."""
    vals = s.dropna().astype(str)
    if vals.empty:
        return None
    parsed = {}
    for u in pd.unique(vals):
        m = next((p.match(u) for p in _INTERVALS if p.match(u)), None)
        if m is None:
            return None
        parsed[u] = (float(m.group(1)), float(m.group(2)))
    lo = vals.map(lambda u: parsed[u][0]).to_numpy(dtype=float)
    hi = vals.map(lambda u: parsed[u][1]).to_numpy(dtype=float)
    return lo, hi


_numeric = is_numeric_column  # the one numeric predicate (sdc._validation)


def _levels(s: pd.Series) -> pd.Series:
    return s.astype(object).where(s.notna(), "(missing)").astype(str).value_counts(sort=False)


def _distributions(c: Comparison):  # noqa: ANN202  (a Figure, or None)
    kept = c.changes[(c.changes["status"] == "kept") & (c.changes["cells_changed"] > 0)]
    pseudonymised = {v for st in (c.protection or {}).get("steps", []) if st.get("method") == "pseudonymise"
                     for v in (st.get("variables") or [])}
    variables = [v for v in kept.sort_values("cells_changed", ascending=False, kind="stable")["variable"]
                 if v not in pseudonymised][:_MAX_VARIABLES]
    if not variables:
        return None
    ncol = min(3, len(variables))
    nrow = -(-len(variables) // ncol)
    fig = _figure(3.3 * ncol + 0.5, 2.7 * nrow + 0.6)
    axes = np.atleast_1d(fig.subplots(nrow, ncol)).ravel()
    for ax, v in zip(axes, variables):
        b, a = c.original[v], c.released[v]
        bands = _bands(a) if _numeric(b) and not _numeric(a) else None
        if bands is not None:  # a numeric variable released in bands: both as densities over x
            vb = b.to_numpy(dtype=float, na_value=np.nan)
            vb = vb[~np.isnan(vb)]
            lo, hi = bands
            finite = np.isfinite(lo) & np.isfinite(hi) & (hi > lo)
            edges = np.unique(np.concatenate([lo[finite], hi[finite]]))
            if vb.size:
                ax.hist(vb, bins=30, density=True, color=_BEFORE, alpha=0.6, label="original")
            if edges.size > 1:
                pairs = np.unique(np.stack([lo[finite], hi[finite]], axis=1), axis=0)
                n = max(len(lo), 1)
                for l_, h_ in pairs:
                    cnt = np.count_nonzero((lo == l_) & (hi == h_))
                    ax.bar(l_, cnt / n / (h_ - l_), width=h_ - l_, align="edge", fill=False, edgecolor=_AFTER,
                           linewidth=1.5)
                ax.plot([], [], color=_AFTER, label="released bands")
            ax.set_ylabel("density")
        elif _numeric(b) and _numeric(a):
            vb, va = b.to_numpy(dtype=float, na_value=np.nan), a.to_numpy(dtype=float, na_value=np.nan)
            both = np.concatenate([vb[~np.isnan(vb)], va[~np.isnan(va)]])
            if both.size:
                lo, hi = float(both.min()), float(both.max())
                bins = np.linspace(lo, hi if hi > lo else lo + 1, 31)
                ax.hist(vb[~np.isnan(vb)], bins=bins, color=_BEFORE, alpha=0.6, label="original")
                ax.hist(va[~np.isnan(va)], bins=bins, histtype="step", color=_AFTER, linewidth=1.5, label="released")
            ax.set_ylabel("records")
        else:
            cb, ca = _levels(b), _levels(a)
            levels = list(dict.fromkeys([*cb.sort_values(ascending=False, kind="stable").index,
                                         *ca.sort_values(ascending=False, kind="stable").index]))
            try:  # numbers and interval labels in their natural order when they have one
                levels = sorted(levels[:_MAX_LEVELS], key=lambda x: (x == "(missing)", float(x)))
            except ValueError:
                levels = levels[:_MAX_LEVELS]
            x = np.arange(len(levels))
            ax.bar(x - 0.2, cb.reindex(levels).fillna(0).to_numpy(), 0.4, color=_BEFORE, label="original")
            ax.bar(x + 0.2, ca.reindex(levels).fillna(0).to_numpy(), 0.4, color=_AFTER, label="released")
            ax.set_xticks(x, [lv if len(lv) <= 14 else lv[:13] + "…" for lv in levels], rotation=60, ha="right",
                          fontsize=7)
            ax.set_ylabel("records")
        ax.set_title(v, fontsize=9)
    for ax in axes[len(variables):]:
        ax.set_visible(False)
    axes[0].legend(frameon=False, fontsize=7)
    fig.suptitle("Changed variables: original (grey) and released (blue)")
    return fig


def _correlations(c: Comparison):  # noqa: ANN202  (a Figure, or None)
    skip = {x for x in (c.config.id, c.config.weights, c.config.household) if x}
    cols = [v for v in c.original.columns if v in c.released.columns and v not in skip
            and _numeric(c.original[v]) and _numeric(c.released[v])][:_MAX_CORR]
    if len(cols) < 2:
        return None
    before = c.original[cols].astype(float).corr()
    after = c.released[cols].astype(float).corr()
    diff = after - before
    size = max(3.0, 0.42 * len(cols) + 1.6)
    fig = _figure(3 * size, size)
    axes = fig.subplots(1, 3)
    for ax, m, title, cmap in ((axes[0], before, "original", "RdBu_r"), (axes[1], after, "released", "RdBu_r"),
                               (axes[2], diff, "released - original", "PuOr_r")):
        vmax = 1.0 if title != "released - original" else max(0.05, float(np.nanmax(np.abs(diff.to_numpy()))))
        im = ax.imshow(m.to_numpy(), vmin=-vmax, vmax=vmax, cmap=cmap)
        ax.set_xticks(range(len(cols)), cols, rotation=70, ha="right", fontsize=7)
        ax.set_yticks(range(len(cols)), cols, fontsize=7)
        ax.set_title(title, fontsize=9)
        fig.colorbar(im, ax=ax, shrink=0.7)
    fig.suptitle("Pearson correlations (pairwise-complete)")
    return fig


def comparison_figures(c: Comparison) -> dict[str, bytes]:
    """The comparison's PNG figures by name (see :data:`COMPARE_FIGURES`); absent when empty."""
    import matplotlib
    import matplotlib.style

    out = {}
    with matplotlib.style.context("default"), matplotlib.rc_context({"svg.hashsalt": "sdc", "font.size": 9}):
        for name, build in _BUILDERS.items():
            fig = build(c)
            if fig is not None:
                out[name] = _png(fig)
    return out


#: Each figure's builder: ``build(c)`` draws it on a new Figure and returns it (None: nothing to draw).
_BUILDERS = {"risk_before_after": _risk, "changed_distributions": _distributions, "correlations": _correlations}


def comparison_figure(name: str, c: Comparison):  # noqa: ANN201
    """Figure `name` of the comparison as a Figure (:mod:`sdc.plot`; None: nothing to draw)."""
    return _BUILDERS[name](c)
