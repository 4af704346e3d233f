"""Figures of a generalisation search, as PNG bytes: the lattice, and the risk-utility plane.

Drawn on :class:`matplotlib.figure.Figure` with the Agg canvas (never pyplot), with no
"Software" stamp: the same search gives the same bytes on one installation.
"""

from __future__ import annotations

import io
import textwrap

import numpy as np
import pandas as pd

from sdc.identify.search import GeneralisationResult

__all__ = ["search_figures", "lattice_png", "risk_utility_png"]

_DPI = 100
_BLUE, _RED, _GREY, _LIGHT, _ORANGE = "#3b6ea5", "#c0392b", "#7f7f7f", "#d9d9d9", "#e69f00"


def _png(fig) -> bytes:  # noqa: ANN001
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=_DPI, metadata={"Software": None})
    return buf.getvalue()


def _figure(w: float, h: float):  # noqa: ANN202
    from matplotlib.figure import Figure

    return Figure(figsize=(w, h), layout="constrained")


def _positions(lat: pd.DataFrame, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """x in [-1, 1] spread evenly within each height, in lexicographic order; y = height."""
    h = lat["height"].to_numpy()
    x = np.zeros(len(lat))
    order = np.lexsort([lat[n].to_numpy() for n in reversed(names)] + [h])
    hs = h[order]
    starts = np.flatnonzero(np.r_[True, hs[1:] != hs[:-1]])
    counts = np.diff(np.r_[starts, hs.size])
    rank = np.arange(hs.size) - np.repeat(starts, counts)
    width = np.repeat(counts, counts)
    x[order] = np.where(width > 1, 2 * rank / np.maximum(width - 1, 1) - 1, 0.0)
    return x, h.astype(float)


def lattice_png(res: GeneralisationResult) -> bytes:
    """Every node at its height; colour by status; the optimum and runner-ups marked."""
    lat = res.lattice
    names = list(res.quasi_identifiers)
    x, y = _positions(lat, names)
    fig = _figure(8.0, 5.0)
    ax = fig.subplots()
    size = 30 if len(lat) <= 500 else (8 if len(lat) <= 20000 else 2)
    if len(lat) <= 400:
        lv = lat[names].to_numpy()
        index = {tuple(r): i for i, r in enumerate(lv)}
        for i, r in enumerate(lv):
            for j in range(len(names)):
                up = r.copy()
                up[j] += 1
                k = index.get(tuple(up))
                if k is not None:
                    ax.plot([x[i], x[k]], [y[i], y[k]], color=_LIGHT, linewidth=0.5, zorder=1)
    status = lat["status"].to_numpy()
    evaluated = lat["evaluated"].to_numpy(dtype=bool)
    for label, mask, colour in (
        ("not evaluated", status == "not evaluated", _LIGHT),
        ("not anonymous (tagged)", (status == "not anonymous") & ~evaluated, "#bdbdbd"),
        ("not anonymous (checked)", (status == "not anonymous") & evaluated, _GREY),
        ("anonymous (tagged)", (status == "anonymous") & ~evaluated, "#9ecae1"),
        ("anonymous (checked)", (status == "anonymous") & evaluated, _BLUE),
    ):
        if mask.any():
            ax.scatter(x[mask], y[mask], s=size, color=colour, label=f"{label}: {int(mask.sum())}", zorder=2,
                       linewidths=0)
    rank = lat["rank"].to_numpy(dtype=float, na_value=np.nan)
    ups = rank > 1
    if ups.any():
        ax.scatter(x[ups], y[ups], s=max(size, 20) * 2.5, facecolors="none", edgecolors=_ORANGE, linewidths=1.2,
                   label="runner-ups", zorder=3)
    opt = rank == 1
    best = "optimum" if res.optimal else "best found (not proven optimal)"
    ax.scatter(x[opt], y[opt], s=max(size, 20) * 5, marker="*", color=_RED, label=best, zorder=4)
    ax.set_xticks([])
    ax.set_ylabel("height (sum of generalisation levels)")
    opt_text = textwrap.fill(f"{best}: " + ", ".join(f"{q}={res.levels[q]}" for q in names), 95)
    ax.set_title(f"Lattice: {res.n_nodes:,} transformations, {res.n_evaluated:,} evaluated"
                 f"{'' if res.algorithm == 'exact' else f' ({res.algorithm}; only those are drawn)'}\n{opt_text}", fontsize=9)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8)
    return _png(fig)


def risk_utility_png(res: GeneralisationResult) -> bytes | None:
    """Evaluated anonymous transformations: information loss against the average
    re-identification risk of the release (classes / records); optimum and runner-ups marked."""
    lat = res.lattice
    ok = lat["loss"].notna() & lat["avg_risk"].notna()
    if not ok.any():
        return None
    d = lat[ok]
    fig = _figure(7.5, 4.2)
    ax = fig.subplots()
    ax.scatter(d["loss"], d["avg_risk"], s=10, color=_BLUE, alpha=0.6, linewidths=0, label="anonymous, evaluated")
    rank = d["rank"].to_numpy(dtype=float, na_value=np.nan)
    ups = rank > 1
    if ups.any():
        ax.scatter(d["loss"][ups], d["avg_risk"][ups], s=40, facecolors="none", edgecolors=_ORANGE, label="runner-ups")
    opt = rank == 1
    ax.scatter(d["loss"][opt], d["avg_risk"][opt], s=120, marker="*", color=_RED, label="optimum")
    ax.set_xlabel(f"information loss ({res.metric})")
    ax.set_ylabel("average re-identification risk (classes / records)")
    if (d["loss"] > 0).all() and d["loss"].max() / max(d["loss"].min(), 1e-300) > 100:
        ax.set_xscale("log")
    ax.set_title("Risk and information loss of the anonymous transformations evaluated", fontsize=9)
    ax.legend(loc="upper right", frameon=False, fontsize=8)
    return _png(fig)


def search_figures(res: GeneralisationResult) -> dict[str, bytes]:
    """File name -> PNG bytes."""
    out = {"lattice.png": lattice_png(res)}
    ru = risk_utility_png(res)
    if ru is not None:
        out["risk_utility.png"] = ru
    return out
