"""The report's figures, as PNG bytes (matplotlib, no display needed), and the same drawing
on a notebook's axes (:mod:`sdc.plot`).

Each figure is one drawing function, ``_draw_<name>(axes, a, sc)``, on the axes it is given
(:data:`PANELS`: how many). :func:`figures` gives it the axes of a
:class:`matplotlib.figure.Figure` with the Agg canvas, never through pyplot, so nothing
depends on (or changes) a global backend; the style is reset to matplotlib's defaults and the
PNG carries no "Software" stamp, so the same results give the same bytes on a given
installation. :func:`draw` gives it the caller's axes, or new ones from pyplot (which a
notebook shows).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from sdc.workflow.assess import Assessment, ScenarioResult

__all__ = ["figures", "draw", "panels", "FIGURE_NAMES", "notebook_figures"]

_DPI = 100
_BLUE, _RED, _GREY = "#3b6ea5", "#c0392b", "#7f7f7f"


def _png(fig) -> bytes:  # noqa: ANN001
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=_DPI, metadata={"Software": None})
    return buf.getvalue()


_PYPLOT: list[bool] = []  # non-empty: figures are made by pyplot (a notebook shows them)


@contextmanager
def notebook_figures() -> Iterator[None]:
    """Within it, the report's figure builders make their figures with pyplot, which a
    notebook shows under the cell (:mod:`sdc.plot`); outside, a bare Agg Figure."""
    _PYPLOT.append(True)
    try:
        yield
    finally:
        _PYPLOT.pop()


def _figure(w: float = 7.5, h: float = 3.6, **kw):  # noqa: ANN003, ANN202
    if _PYPLOT:
        import matplotlib.pyplot as plt

        return plt.figure(figsize=(w, h), layout="constrained", **kw)
    from matplotlib.figure import Figure

    return Figure(figsize=(w, h), layout="constrained", **kw)


def _draw_risk_distribution(axes, a: Assessment, sc: ScenarioResult) -> None:  # noqa: ANN001
    r = sc.risk
    thr = a.config.thresholds.risk
    risk = r.risk.to_numpy()
    ax1 = axes[0]
    ax1.hist(risk, bins=50, range=(0, max(1.0, float(risk.max(initial=0)))), color=_BLUE)
    ax1.set_yscale("symlog", linthresh=1)
    ax1.axvline(thr, color=_RED, linestyle="--", label=f"risk threshold {thr:g}")
    ax1.set_ylabel("records")
    ax1.legend(loc="upper right", frameon=False)
    ax1.set_title(f"Individual risk, scenario '{_name(sc)}'")
    if len(axes) < 2:  # one axes given: the histogram alone
        ax1.set_xlabel("individual re-identification risk")
        return
    ax2 = axes[1]
    box = {"widths": 0.6, "flierprops": {"markersize": 2, "markeredgecolor": _GREY}}
    try:  # matplotlib >= 3.10 names it `orientation` and deprecates `vert`
        ax2.boxplot(risk, orientation="horizontal", **box)
    except TypeError:
        ax2.boxplot(risk, vert=False, **box)
    ax2.set_yticks([])
    ax2.set_xlabel("individual re-identification risk")


def _draw_class_sizes(axes, a: Assessment, sc: ScenarioResult) -> None:  # noqa: ANN001
    p = sc.profile
    k = a.config.thresholds.k
    sizes = p.class_sizes
    cap = max(2 * k, 10)
    fk = sizes["fk"].to_numpy()
    n_classes = sizes["n_classes"].to_numpy()
    shown = np.zeros(cap + 1)
    np.add.at(shown, np.minimum(fk, cap + 1).astype(int) - 1, n_classes)
    labels = [str(i) for i in range(1, cap + 1)] + [f">{cap}"]
    ax = axes[0]
    ax.bar(range(len(labels)), shown, color=[_RED if i + 1 < k else _BLUE for i in range(len(labels))])
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlabel("class size f_k (records sharing the key values)")
    ax.set_ylabel("classes")
    ax.set_title(f"Equivalence-class sizes, scenario '{_name(sc)}'; red: below k = {k}")


def _top_subsets(sc: ScenarioResult):  # noqa: ANN202
    return sc.snapshots.to_frame().sort_values(["global_risk", "n_keys"], ascending=[False, True],
                                               kind="stable").head(20)


def _draw_risk_by_key_subset(axes, a: Assessment, sc: ScenarioResult) -> None:  # noqa: ANN001
    t = _top_subsets(sc)
    labels = [_short(" + ".join(k) if isinstance(k, (tuple, list)) else str(k)) for k in t["keys"]]
    ax = axes[0]
    y = np.arange(len(t))[::-1]
    ax.barh(y, 100 * t["global_risk"].to_numpy(), color=_BLUE)
    ax.set_yticks(y, labels, fontsize=8)
    ax.axvline(100 * a.config.thresholds.max_global_risk, color=_RED, linestyle="--", label="maximum global risk")
    ax.set_xlabel("global risk (%)")
    ax.legend(loc="lower right", frameon=False)
    ax.set_title(f"Global risk by subset of the keys (highest 20), scenario '{_name(sc)}'")


def _step_corners(risk: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points of the cumulative share i/n of the sorted `risk` that the step line turns at:
    the first and the last record of each run of equal risks (the others lie on the line's
    vertical rise), so the figure draws the same line from a few points per distinct risk
    where every record's point made matplotlib hold 2n vertices (seconds and GB at 10^7)."""
    n = risk.size
    keep = np.ones(n, dtype=bool)
    if n > 2:
        change = risk[1:] != risk[:-1]  # NaN != NaN: missing risks are all kept
        keep[1:-1] = change[1:] | change[:-1]
    idx = np.flatnonzero(keep)
    return risk[idx], (idx + 1) / n


def _draw_cumulative_risk(axes, a: Assessment, sc: ScenarioResult) -> None:  # noqa: ANN001
    risk = np.sort(sc.risk.risk.to_numpy())
    n = risk.size
    thr = a.config.thresholds.risk
    above = 100 * float(np.mean(risk > thr)) if n else 0.0
    x, share = _step_corners(risk)
    ax = axes[0]
    ax.step(x, 100 * share, where="post", color=_BLUE, label="records with risk <= x")
    ax.axvline(thr, color=_RED, linestyle="--", label=f"risk threshold {thr:g}")
    ax.set_xlabel("individual re-identification risk")
    ax.set_ylabel("records (%)")
    ax.set_ylim(0, 101)
    ax.set_title(f"Cumulative share of records by risk; {above:.2f}% above the threshold")
    ax.legend(loc="lower right", frameon=False)


def _per_class_hist(axes, values: dict[str, np.ndarray], thresholds: list[float], xlabel: str, title: str,  # noqa: ANN001
                    integer: bool) -> None:
    for ax, (name, v), threshold in zip(axes, values.items(), thresholds):
        v = v[~np.isnan(v)]
        if integer:  # one bar per value; red where below the threshold
            levels = np.arange(1, int(v.max(initial=1)) + 1)
            counts = np.bincount(v.astype(np.int64), minlength=levels[-1] + 1)[1:]
            ax.bar(levels, counts, color=[_RED if x < threshold else _BLUE for x in levels])
            ax.set_xticks(levels)
        else:
            ax.hist(v, bins=40, range=(0, max(1.0, float(v.max(initial=0)))), color=_BLUE)
            ax.axvline(threshold, color=_RED, linestyle="--")
        ax.set_ylabel("classes")
        ax.set_title(_short(name), fontsize=10)
    axes[-1].set_xlabel(xlabel)
    axes[0].figure.suptitle(title)


def _ldiversity_values(sc: ScenarioResult) -> dict[str, np.ndarray]:
    ld = sc.ldiversity
    return {f"{s} (l = {ld.l_of(s)})": ld.classes[f"{s}_distinct"].to_numpy(dtype=float) for s in ld.sensitive}


def _tcloseness_values(sc: ScenarioResult) -> dict[str, np.ndarray]:
    return {f"{s} ({r.distance}, t = {r.t:g})": r.classes["distance"].to_numpy(dtype=float)
            for s, r in sc.tcloseness.items()}


def _draw_ldiversity(axes, a: Assessment, sc: ScenarioResult) -> None:  # noqa: ANN001
    ld = sc.ldiversity
    vals = _ldiversity_values(sc)
    thresholds = [ld.l_of(s) for s in ld.sensitive]
    _per_class_hist(axes, vals, thresholds, "distinct values of the sensitive variable in the class",
                           f"Distinct l-diversity across classes, scenario '{_name(sc)}'; red: below l", integer=True)


def _draw_tcloseness(axes, a: Assessment, sc: ScenarioResult) -> None:  # noqa: ANN001
    tc = sc.tcloseness
    _per_class_hist(axes, _tcloseness_values(sc), [r.t for r in tc.values()], "distance of the class's distribution from the file's",
                           f"t-closeness across classes, scenario '{_name(sc)}'; dashed: t", integer=False)


def _name(sc: ScenarioResult) -> str:
    return _short(sc.scenario.name, 40)


def _short(text: str, width: int = 60) -> str:
    """A name as a figure shows it: one line, control characters escaped, cut to `width`."""
    from sdc.report.formatting import one_line_text

    t = one_line_text(text).replace("$", r"\$")  # a $ would start mathtext
    return t if len(t) <= width else t[: width - 1] + "…"


#: Each figure: its drawing function, how many axes it draws on (0: not computed for the
#: scenario) and the figure's size in the report, by panels.
_FIGURES = {
    "risk_distribution": (_draw_risk_distribution, lambda sc: 2, lambda n: (7.5, 4.2)),
    "class_sizes": (_draw_class_sizes, lambda sc: 1, lambda n: (7.5, 3.6)),
    "risk_by_key_subset": (_draw_risk_by_key_subset, lambda sc: 0 if sc.snapshots is None else 1,
                           lambda sc: (7.5, 0.3 * len(_top_subsets(sc)) + 1.2)),
    "cumulative_risk": (_draw_cumulative_risk, lambda sc: 1, lambda n: (7.5, 3.6)),
    "ldiversity_distribution": (_draw_ldiversity, lambda sc: 0 if sc.ldiversity is None else len(_ldiversity_values(sc)),
                                lambda sc: (7.5, 2.6 * len(_ldiversity_values(sc)) + 0.4)),
    "tcloseness_distribution": (_draw_tcloseness, lambda sc: len(sc.tcloseness or {}),
                                lambda sc: (7.5, 2.6 * len(sc.tcloseness) + 0.4)),
}

#: The figures' names, as :func:`figures` keys them (``s1_<name>``) and :mod:`sdc.plot` names them.
FIGURE_NAMES = tuple(_FIGURES)


def _report_axes(name: str, sc: ScenarioResult, n: int):  # noqa: ANN202
    """The axes of a report figure: a new Figure (no pyplot), laid out as the report shows it."""
    fig = _figure(*_FIGURES[name][2](sc))
    if name == "risk_distribution":
        return fig, fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 1]})
    return fig, np.atleast_1d(fig.subplots(n, 1))


def panels(name: str, sc: ScenarioResult) -> int:
    """How many axes figure `name` draws on for scenario `sc` (0: its measure was not computed)."""
    return _FIGURES[name][1](sc)


def draw(name: str, a: Assessment, sc: ScenarioResult, ax=None):  # noqa: ANN001, ANN201
    """Draw figure `name` of scenario `sc` on `ax` (an Axes, or one per panel), or on new axes
    from pyplot (which a notebook shows); return the axes drawn on, as an array when several."""
    n = panels(name, sc)
    if n == 0:
        raise ValueError(f"the figure {name!r} needs a measure not computed for scenario {sc.scenario.name!r}")
    if ax is None:
        import matplotlib.pyplot as plt

        w, h = _FIGURES[name][2](sc)
        if name == "risk_distribution":
            fig, axes = plt.subplots(2, 1, sharex=True, figsize=(w, h), layout="constrained",
                                     gridspec_kw={"height_ratios": [3, 1]})
        else:
            fig, axes = plt.subplots(n, 1, figsize=(w, h), layout="constrained", squeeze=False)
            axes = axes[:, 0]
    else:
        axes = np.atleast_1d(np.asarray(ax, dtype=object))
        need = (1, 2) if name == "risk_distribution" else (n,)
        if len(axes) not in need:
            raise ValueError(f"ax: the figure {name!r} draws on {' or '.join(map(str, need))} axes here; got "
                             f"{len(axes)}.")
    _FIGURES[name][0](list(axes), a, sc)
    return axes[0] if len(axes) == 1 or name == "risk_distribution" else np.asarray(axes, dtype=object)


def figures(a: Assessment) -> dict[str, bytes]:
    """The report's PNG figures by id, ``s<i>_<name>`` for the i-th scenario (names in
    :data:`sdc.report.content.FIGURES`); absent when not computed."""
    import matplotlib
    import matplotlib.style

    out = {}
    with matplotlib.style.context("default"), matplotlib.rc_context({"svg.hashsalt": "sdc", "font.size": 9}):
        for i, sc in enumerate(a.scenarios):
            for name, (build, n_axes, _) in _FIGURES.items():
                n = n_axes(sc)
                if n:
                    fig, axes = _report_axes(name, sc, n)
                    build(list(np.atleast_1d(axes)), a, sc)
                    out[f"s{i + 1}_{name}"] = _png(fig)
    return out
