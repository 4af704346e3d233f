"""docs/img/search-local-adult.png: the Loss of ARX's local recoding on adult against the
full-domain optimum, for the four configurations checked against ARX (the values recorded in
``ARX_LOCAL`` of tests/identify/test_local.py). Run: ``PYTHONPATH=. python -m validation.local_recoding_figure``."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from tests.identify.test_local import ARX_LOCAL  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "img" / "search-local-adult.png"


def main() -> None:
    names = [f"k = {k}, {100 * lim:g} %\n" + ("iterative" if r is None else f"fast r = {r:g}")
             for k, lim, r, *_ in ARX_LOCAL]
    full = np.array([c[5] for c in ARX_LOCAL])
    local = np.array([c[6] for c in ARX_LOCAL])
    x = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=110)
    ax.bar(x - 0.2, full, 0.4, label="full-domain optimum", color="#9aa5b1")
    ax.bar(x + 0.2, local, 0.4, label="local recoding (= ARX's output)", color="#2f6f9f")
    for i, (f, lo) in enumerate(zip(full, local)):
        ax.text(i + 0.2, lo + 0.004, f"-{100 * (f - lo) / f:.1f} %", ha="center", fontsize=8)
    ax.set_xticks(x, names, fontsize=8)
    ax.set_ylabel("ARX's Loss (0 = untouched)")
    ax.set_title("adult, 9 attributes, k-anonymity: Loss saved by local recoding", fontsize=10)
    ax.set_ylim(0, 0.38)
    ax.legend(fontsize=8, loc="upper center", ncol=2)
    fig.tight_layout()
    fig.savefig(OUT)


if __name__ == "__main__":
    main()
