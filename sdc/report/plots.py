"""The report's figures, as PNG bytes (matplotlib, no display needed).

Figures are drawn on :class:`matplotlib.figure.Figure` objects with the Agg canvas, never
through pyplot, so nothing depends on (or changes) a global backend. The style is reset to
matplotlib's defaults and the PNG carries no "Software" stamp, so the same results give the
same bytes on a given installation.
"""

from __future__ import annotations

import io

import numpy as np

from sdc.workflow.assess import Assessment, ScenarioResult

__all__ = ["figures"]

_DPI = 100
_BLUE, _RED, _GREY = "#3b6ea5", "#c0392b", "#7f7f7f"


def _png(fig) -> bytes:  # noqa: ANN001
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=_DPI, metadata={"Software": None})
    return buf.getvalue()


def _figure(w: float = 7.5, h: float = 3.6, **kw):  # noqa: ANN003, ANN202
    from matplotlib.figure import Figure

    return Figure(figsize=(w, h), layout="constrained", **kw)


def _risk_distribution(a: Assessment, sc: ScenarioResult) -> bytes:
    r = sc.risk
    thr = a.config.thresholds.risk
    risk = r.risk.to_numpy()
    fig = _figure(7.5, 4.2)
    ax1, ax2 = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 1]})
    ax1.hist(risk, bins=50, range=(0, max(1.0, float(risk.max(initial=0)))), color=_BLUE)
    ax1.set_yscale("symlog", linthresh=1)
    ax1.axvline(thr, color=_RED, linestyle="--", label=f"risk threshold {thr:g}")
    ax1.set_ylabel("records")
    ax1.legend(loc="upper right", frameon=False)
    ax1.set_title(f"Individual risk, scenario '{_name(sc)}'")
    box = {"widths": 0.6, "flierprops": {"markersize": 2, "markeredgecolor": _GREY}}
    try:  # matplotlib >= 3.10 names it `orientation` and deprecates `vert`
        ax2.boxplot(risk, orientation="horizontal", **box)
    except TypeError:
        ax2.boxplot(risk, vert=False, **box)
    ax2.set_yticks([])
    ax2.set_xlabel("individual re-identification risk")
    return _png(fig)


def _class_sizes(a: Assessment, sc: ScenarioResult) -> bytes:
    p = sc.profile
    k = a.config.thresholds.k
    sizes = p.class_sizes
    cap = max(2 * k, 10)
    fk = sizes["fk"].to_numpy()
    n_classes = sizes["n_classes"].to_numpy()
    shown = np.zeros(cap + 1)
    np.add.at(shown, np.minimum(fk, cap + 1).astype(int) - 1, n_classes)
    labels = [str(i) for i in range(1, cap + 1)] + [f">{cap}"]
    fig = _figure()
    ax = fig.subplots()
    ax.bar(range(len(labels)), shown, color=[_RED if i + 1 < k else _BLUE for i in range(len(labels))])
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlabel("class size f_k (records sharing the key values)")
    ax.set_ylabel("classes")
    ax.set_title(f"Equivalence-class sizes, scenario '{_name(sc)}'; red: below k = {k}")
    return _png(fig)


def _risk_by_key_subset(a: Assessment, sc: ScenarioResult) -> bytes | None:
    snap = sc.snapshots
    if snap is None:
        return None
    t = snap.to_frame().sort_values(["global_risk", "n_keys"], ascending=[False, True], kind="stable").head(20)
    labels = [_short(" + ".join(k) if isinstance(k, (tuple, list)) else str(k)) for k in t["keys"]]
    fig = _figure(7.5, 0.3 * len(t) + 1.2)
    ax = fig.subplots()
    y = np.arange(len(t))[::-1]
    ax.barh(y, 100 * t["global_risk"].to_numpy(), color=_BLUE)
    ax.set_yticks(y, labels, fontsize=8)
    ax.axvline(100 * a.config.thresholds.max_global_risk, color=_RED, linestyle="--", label="maximum global risk")
    ax.set_xlabel("global risk (%)")
    ax.legend(loc="lower right", frameon=False)
    ax.set_title(f"Global risk by subset of the keys (highest 20), scenario '{_name(sc)}'")
    return _png(fig)


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


def _cumulative_risk(a: Assessment, sc: ScenarioResult) -> bytes:
    risk = np.sort(sc.risk.risk.to_numpy())
    n = risk.size
    thr = a.config.thresholds.risk
    above = 100 * float(np.mean(risk > thr)) if n else 0.0
    x, share = _step_corners(risk)
    fig = _figure()
    ax = fig.subplots()
    ax.step(x, 100 * share, where="post", color=_BLUE, label="records with risk <= x")
    ax.axvline(thr, color=_RED, linestyle="--", label=f"risk threshold {thr:g}")
    ax.set_xlabel("individual re-identification risk")
    ax.set_ylabel("records (%)")
    ax.set_ylim(0, 101)
    ax.set_title(f"Cumulative share of records by risk; {above:.2f}% above the threshold")
    ax.legend(loc="lower right", frameon=False)
    return _png(fig)


def _per_class_hist(values: dict[str, np.ndarray], thresholds: list[float], xlabel: str, title: str,
                    integer: bool) -> bytes | None:
    if not values:
        return None
    fig = _figure(7.5, 2.6 * len(values) + 0.4)
    axes = np.atleast_1d(fig.subplots(len(values), 1))
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
    fig.suptitle(title)
    return _png(fig)


def _ldiversity(a: Assessment, sc: ScenarioResult) -> bytes | None:
    ld = sc.ldiversity
    if ld is None:
        return None
    vals = {f"{s} (l = {ld.l_of(s)})": ld.classes[f"{s}_distinct"].to_numpy(dtype=float) for s in ld.sensitive}
    thresholds = [ld.l_of(s) for s in ld.sensitive]
    return _per_class_hist(vals, thresholds, "distinct values of the sensitive variable in the class",
                           f"Distinct l-diversity across classes, scenario '{_name(sc)}'; red: below l", integer=True)


def _tcloseness(a: Assessment, sc: ScenarioResult) -> bytes | None:
    tc = sc.tcloseness
    vals = {f"{s} ({r.distance}, t = {r.t:g})": r.classes["distance"].to_numpy(dtype=float) for s, r in tc.items()}
    return _per_class_hist(vals, [r.t for r in tc.values()], "distance of the class's distribution from the file's",
                           f"t-closeness across classes, scenario '{_name(sc)}'; dashed: t", integer=False)


def _name(sc: ScenarioResult) -> str:
    return _short(sc.scenario.name, 40)


def _short(text: str, width: int = 60) -> str:
    """A name as a figure shows it: one line, control characters escaped, cut to `width`."""
    from sdc.report.formatting import one_line_text

    t = one_line_text(text).replace("$", r"\$")  # a $ would start mathtext
    return t if len(t) <= width else t[: width - 1] + "…"


def figures(a: Assessment) -> dict[str, bytes]:
    """The report's PNG figures by id, ``s<i>_<name>`` for the i-th scenario (names in
    :data:`sdc.report.content.FIGURES`); absent when not computed."""
    import matplotlib
    import matplotlib.style

    builders = {
        "risk_distribution": _risk_distribution,
        "class_sizes": _class_sizes,
        "risk_by_key_subset": _risk_by_key_subset,
        "cumulative_risk": _cumulative_risk,
        "ldiversity_distribution": _ldiversity,
        "tcloseness_distribution": _tcloseness,
    }
    out = {}
    with matplotlib.style.context("default"), matplotlib.rc_context({"svg.hashsalt": "sdc", "font.size": 9}):
        for i, sc in enumerate(a.scenarios):
            for name, build in builders.items():
                png = build(a, sc)
                if png is not None:
                    out[f"s{i + 1}_{name}"] = png
    return out
