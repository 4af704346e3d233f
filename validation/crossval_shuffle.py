"""Cross-validation of ``shuffle`` against sdcMicro's ``shuffle`` (Muralidhar and Sarathy 2006,
data shuffling), in the table's style (rows of :class:`sdc.workflow.crosscheck.Diff`).

    .venv/bin/python -m validation.crossval_shuffle [--random 100]

* **ds, covmethod spearman and pearson** (R's one ``MASS::mvrnorm`` draw replayed under the same
  seed, ``r_bridge.shuffle``'s ``e``): sdcMicro's testdata (expend, income, savings ~ age, urbrur,
  water, electcon, sex, spearman; income, savings ~ age, hhcivil, pearson) and ``n_random``
  random files (skewed response with ties; the cases of ``tests/protect/test_shuffling.py``).
  sdc's conditional mean plus R's draw is the perturbed value (to 1e-9 relative or absolute) and its reverse
  map the shuffled value, cell for cell (exact).
* **ds, covmethod mcd** (``robustbase::covMcd``): ``n_random // 8`` contaminated files; where
  sdc's and robustbase's searches find the same h-subset, the MCD correlations (to 1e-9) and the
  shuffle with sdc's own correlation and R's draw, cell for cell (the row's case count is the
  cases with the same h-subset; another subset is another local optimum of the search).
* **mlm** (sdcMicro 5.8.2 stops with an error before using its prediction): sdc's
  prediction against R's ``fitted(lm(Y ~ X))`` on ``n_random`` random files, to 1e-10 relative.
* **mvn** (each side with its own draws, 30 seeds): every shuffled column of both sides a
  permutation of the original (exact: 0 broken files), and the mean Spearman correlation of
  each shuffled variable with each predictor and with its original, sdc against sdcMicro, as a
  ``(... test)`` row: ``max_abs_diff`` the largest difference in standard errors, agreeing
  below 4 (the table's tolerance column shows that bound as ``rel 4``).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

import sdc
from sdc.workflow.crosscheck import Diff, compare_values, summarise

__all__ = ["shuffle_diffs", "ds_diffs", "mcd_diffs", "mlm_diffs", "mvn_diffs"]

Z_MAX = 4.0


def _replayed(df: pd.DataFrame, resp: list[str], pred: list[str], theirs, R=None, cm: str = "spearman"):  # noqa: ANN001, ANN202
    from sdc.protect.shuffling import ds_model, reverse_map

    Y, X = df[resp].to_numpy(float), df[pred].to_numpy(float)
    mean, _ = ds_model(Y, X, cm, R=R)
    ystar = mean + theirs.e
    return ystar, np.column_stack([reverse_map(Y[:, j], ystar[:, j]) for j in range(len(resp))])


def ds_diffs(n_random: int = 100, seed: int = 20261202) -> list[Diff]:
    """Method ds, spearman and pearson: testdata and `n_random` random files, R's draw replayed."""
    import r_bridge as rb
    from tests.protect.test_shuffling import _random

    td = rb.load_dataset("testdata")
    cases = [("testdata: expend, income, savings ~ age, urbrur, water, electcon, sex", "testdata", td,
              ["expend", "income", "savings"], ["age", "urbrur", "water", "electcon", "sex"], "spearman"),
             ("testdata: income, savings ~ age, hhcivil", "testdata", td, ["income", "savings"], ["age", "hhcivil"],
              "pearson")]
    rng = np.random.default_rng(seed)
    for i in range(n_random):
        df, resp, pred = _random(rng)
        cases.append((f"random {i} (n={len(df)}, q={len(resp)}, p={len(pred)})", "random", df, resp, pred,
                      str(rng.choice(["spearman", "pearson"]))))
    out: list[Diff] = []
    for i, (name, dataset, df, resp, pred, cm) in enumerate(cases):
        theirs = rb.shuffle(df, resp, pred, covmethod=cm, seed=i + 1)
        ystar, ours = _replayed(df, resp, pred, theirs, cm=cm)
        out.append(compare_values(f"shuffle ds {cm}: perturbed values (R's draw replayed)", name, dataset,
                                  ystar.ravel(), theirs.perturbed.to_numpy().ravel(), rtol=1e-9, atol=1e-9))
        out.append(compare_values(f"shuffle ds {cm}: shuffled values (R's draw replayed)", name, dataset,
                                  ours.ravel(), theirs.shuffled.to_numpy().ravel(), rtol=None))
    return out


def mcd_diffs(n_cases: int = 12, seed: int = 20261204) -> list[Diff]:
    """Method ds, covmethod mcd on contaminated files: rows only where the h-subsets agree."""
    import r_bridge as rb
    from sdc.core.robust import robust_covariance
    from sdc.protect.shuffling import correlations
    from tests.protect.test_shuffling import _contaminated

    rng = np.random.default_rng(seed)
    out: list[Diff] = []
    for i in range(n_cases):
        df, resp, pred = _contaminated(rng)
        theirs = rb.shuffle(df, resp, pred, covmethod="mcd", seed=i + 1)
        M = df[[*resp, *pred]].to_numpy(float)
        if not np.array_equal(robust_covariance(M, seed=i).best, theirs.best):
            continue
        name = f"contaminated {i} (n={len(df)}, p={len(pred)})"
        R = correlations(M, "mcd", i)
        out.append(compare_values("shuffle ds mcd: MCD correlations (same h-subset)", name, "random",
                                  R.ravel(), theirs.cor.ravel(), rtol=1e-9, atol=1e-9))
        ystar, ours = _replayed(df, resp, pred, theirs, R=R)
        out.append(compare_values("shuffle ds mcd: perturbed values (same h-subset, R's draw replayed)", name,
                                  "random", ystar.ravel(), theirs.perturbed.to_numpy().ravel(), rtol=1e-9, atol=1e-9))
        out.append(compare_values("shuffle ds mcd: shuffled values (same h-subset, R's draw replayed)", name,
                                  "random", ours.ravel(), theirs.shuffled.to_numpy().ravel(), rtol=None))
    return out


def mlm_diffs(n_random: int = 100, seed: int = 5) -> list[Diff]:
    """Method mlm: sdc's prediction against R's lm fit on `n_random` random files."""
    import r_bridge as rb
    from sdc.protect.shuffling import mlm_prediction
    from tests.protect.test_shuffling import _random

    rng = np.random.default_rng(seed)
    out: list[Diff] = []
    for i in range(n_random):
        df, resp, pred = _random(rng)
        theirs = rb.lm_fitted(df, resp, pred).to_numpy()
        ours = mlm_prediction(df[resp].to_numpy(float), df[pred].to_numpy(float))
        scale = float(np.abs(theirs).max())
        out.append(compare_values("shuffle mlm: prediction vs R's fitted(lm)", f"random {i} (n={len(df)})", "random",
                                  ours.ravel(), theirs.ravel(), rtol=1e-10, atol=1e-10 * scale))
    return out


def mvn_diffs(n_seeds: int = 30, seed: int = 31) -> list[Diff]:
    """Method mvn by its invariants: marginals kept on both sides; rank correlations over seeds."""
    import r_bridge as rb
    from tests.protect.test_shuffling import _contaminated, rank_correlation_gaps

    df, resp, pred = _contaminated(np.random.default_rng(seed))
    name = f"contaminated (n={len(df)}, p={len(pred)}), {n_seeds} seeds"
    ours = [sdc.shuffle(df, resp, predictors=pred, method="mvn", seed=s + 500).data for s in range(n_seeds)]
    theirs = [rb.shuffle(df, resp, pred, method="mvn", seed=s + 1).shuffled for s in range(n_seeds)]
    out: list[Diff] = []
    for side, runs in (("sdc", ours), ("sdcMicro", theirs)):
        broken = sum(not all(np.array_equal(np.sort(r[v].to_numpy(float)), np.sort(df[v].to_numpy(float)))
                             for v in resp) for r in runs)
        out.append(compare_values(f"shuffle mvn: {side}'s shuffled files not a permutation of the original", name,
                                  "random", broken, 0, rtol=None))
    gaps = rank_correlation_gaps(ours, theirs, df, resp, pred)
    worst, n = float(gaps["z"].max()), len(gaps)
    out.append(Diff("shuffle mvn: mean rank correlations with predictors and originals (z test)", name, "random",
                    n, worst, 0.0, worst < Z_MAX, False, Z_MAX))
    return out


def shuffle_diffs(n_random: int = 100) -> list[Diff]:
    """Every shuffle row: ds (spearman, pearson, mcd) replayed, mlm vs lm, mvn by invariants."""
    return ds_diffs(n_random) + mcd_diffs(max(4, n_random // 8)) + mlm_diffs(n_random) + mvn_diffs()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=100)
    args = ap.parse_args(argv)
    table = summarise(shuffle_diffs(args.random))
    print(table.to_string(index=False))
    return 0 if bool(table["agree"].all()) else 1


if __name__ == "__main__":
    sys.exit(main())
