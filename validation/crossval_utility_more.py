"""Cross-validation of ``ai_utility_score`` against sdcMicro's (``sdcMicro:::ai_utility_score``) and
of ``analysis_validity``'s Poisson and Cox fits against R's ``glm(family = poisson)`` and
``survival::coxph(ties = "breslow")``, in the table's style (rows of
:class:`sdc.workflow.crosscheck.Diff`): the comparisons of ``tests/utility/test_sdcmicro_ai_score.py``
and ``tests/utility/test_sdcmicro_validity.py``, on the same data.

    .venv/bin/python -m validation.crossval_utility_more [--random 100]

* **ai_utility_score** (``mode="sdcmicro"``): the bundled example's first 400 records and a release
  with suppressed keys, a merged category and noise, three weightings and ``n_random // 10`` further
  seeds, and a release of ``local_suppression(k=3)``: total, suppression rate, category loss and IL1s
  to 1e-12 relative.
* **Poisson, Cox**: seeded random files (ties, censoring, exposures, suppressed cells), ``n_random //
  10`` of each, and an ACTG 175-shaped file: coefficients and standard errors of both files to 1e-6
  (the tests' tolerance), and the interval overlap from R's estimates to 1e-6. Cox only where R's
  survival package is installed.
"""

from __future__ import annotations

import argparse
import sys
import warnings

import numpy as np

import sdc
from sdc.workflow.crosscheck import Diff, compare_values, summarise

__all__ = ["utility_more_diffs", "ai_score_diffs", "validity_diffs"]

TOL = 1e-6


def ai_score_diffs(n_random: int = 100) -> list[Diff]:
    """sdcMicro's ai_utility_score on the example and its releases: the four figures, to 1e-12."""
    import r_bridge as rb
    from tests.utility.test_sdcmicro_ai_score import KEYS, NUM, _released

    df = sdc.load_example().head(400)
    weightings = [(1 / 3, 1 / 3, 1 / 3), (0.5, 0.2, 0.3), (1.0, 2.0, 0.0)]
    cases = [(f"example[:400], seed {s}, weights {w}", _released(df, s), w)
             for s, w in zip(range(1, 4 + max(0, n_random // 10)), weightings * 40)]
    cases.append(("example[:400], local_suppression(k=3)", sdc.local_suppression(df, KEYS, k=3).data, weightings[0]))
    out: list[Diff] = []
    for name, rel, w in cases:
        ours = sdc.ai_utility_score(df, rel, KEYS, NUM, weights=w, mode="sdcmicro")
        theirs = rb.ai_utility_score(df, rel, KEYS, NUM, w)
        fields = ("total", "suppression_rate", "category_loss", "il1")
        out.append(compare_values("ai_utility_score: total, suppression rate, category loss, IL1s", name, "example",
                                  [getattr(ours, f) for f in fields], [theirs[f] for f in fields], rtol=1e-12,
                                  atol=1e-15))
    return out


def _fit_rows(label: str, name: str, dataset: str, res: sdc.ValidityResult, fits: list) -> list[Diff]:
    from scipy.stats import norm

    from sdc.utility.validity import ci_overlap

    co = res.coefficients
    ours = np.concatenate([co[f"{q}_{side}"].to_numpy() for side in ("before", "after") for q in ("estimate", "se")])
    theirs = np.concatenate([np.asarray(getattr(f, q)) for f in fits for q in ("estimate", "se")])
    z = norm.ppf(1 - (1 - res.level) / 2)
    b, a = fits
    want = ci_overlap(b.estimate - z * b.se, b.estimate + z * b.se, a.estimate - z * a.se, a.estimate + z * a.se)
    return [compare_values(f"{label}: coefficients and standard errors, both files", name, dataset, ours, theirs,
                           rtol=TOL, atol=TOL),
            compare_values(f"{label}: interval overlap", name, dataset, co["ci_overlap"].to_numpy(), want, rtol=TOL,
                           atol=TOL)]


def validity_diffs(n_random: int = 100) -> list[Diff]:
    """Poisson against R's glm and Cox against R's coxph (Breslow ties) on random and ACTG-shaped files."""
    import r_bridge as rb
    from tests.utility.test_sdcmicro_validity import _random, _release, actg175_like

    out: list[Diff] = []
    cox = rb.survival_available()
    preds = ["x1", "x2", "x3"]
    for seed in range(max(6, n_random // 10)):
        df = _random(seed, 120 + 40 * (seed % 6))
        rel = _release(df, ["x1", "x3"], seed + 100)
        kw = {"exposure": "e"} if seed % 2 else {}
        res = sdc.analysis_validity(df, rel, "y ~ x1 + x2 + x3", model="poisson", **kw)
        out += _fit_rows("analysis_validity(poisson) vs glm", f"random {seed} (n={len(df)}{', exposure' * bool(kw)})",
                         "random", res, [rb.glm_poisson(f, "y", preds, **kw) for f in (df, rel)])
        if cox:
            rel = _release(df, ["x1", "x3"], seed + 200)
            res = sdc.analysis_validity(df, rel, "t ~ x1 + x2 + x3", model="cox", event="d", level=0.9)
            out += _fit_rows("analysis_validity(cox) vs coxph", f"random {seed} (n={len(df)})", "random", res,
                             [rb.coxph_breslow(f, "t", "d", preds) for f in (df, rel)])
    df = actg175_like()
    rel = _release(df, ["age", "wtkg", "cd40"], 7)
    preds = ["age", "wtkg", "cd40", "karnof", "arm1", "arm2", "arm3"]
    res = sdc.analysis_validity(df, rel, "cens ~ " + " + ".join(preds), model="poisson", exposure="days")
    out += _fit_rows("analysis_validity(poisson) vs glm", "ACTG 175-shaped (n=400)", "ACTG 175-shaped", res,
                     [rb.glm_poisson(f, "cens", preds, exposure="days") for f in (df, rel)])
    if cox:
        res = sdc.analysis_validity(df, rel, "days ~ " + " + ".join(preds), model="cox", event="cens")
        out += _fit_rows("analysis_validity(cox) vs coxph", "ACTG 175-shaped (n=400)", "ACTG 175-shaped", res,
                         [rb.coxph_breslow(f, "days", "cens", preds) for f in (df, rel)])
    return out


def utility_more_diffs(n_random: int = 100) -> list[Diff]:
    """Every row of this module (sdc's warnings about the data silenced)."""
    from sdc.exceptions import SdcWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SdcWarning)
        return ai_score_diffs(n_random) + validity_diffs(n_random)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=100)
    args = ap.parse_args(argv)
    table = summarise(utility_more_diffs(args.random))
    print(table.to_string(index=False))
    return 0 if bool(table["agree"].all()) else 1


if __name__ == "__main__":
    sys.exit(main())
