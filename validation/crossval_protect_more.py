"""Cross-validation of ``localSupp``, ``riskyCells``, ``addNoise``'s additive0, restr, ROMM and
outdect, ``mvTopCoding``, ``addGhostVars`` and ``microaggregation``'s simple, single, pca, rmd and
mcdpca against sdcMicro, in the table's style (rows of :class:`sdc.workflow.crosscheck.Diff`):
the comparisons their live tests make (``tests/protect/test_suppression_risk.py``,
``tests/risk/test_risky_cells.py``, ``tests/protect/test_noise_more.py``,
``tests/protect/test_topcode_mv.py``, ``tests/protect/test_ghost.py``,
``tests/protect/test_microaggregation_sorted.py``, ``tests/protect/test_microaggregation_pca.py``),
on the same data.

    .venv/bin/python -m validation.crossval_protect_more [--random 100]

* **localSupp** (:func:`sdc.local_suppression_by_risk`): ``localSupp(createSdcObj(...), threshold,
  keyVar)`` on testdata (7 keys, ``sampling_weight``; urbrur at 0.045 and 0.02, roof at 0.02, sex at
  0.1) and ``n_random`` random files (3 keys with 5 % missing values, with and without weights,
  alpha 1 or 0.5, thresholds 0.01 to 0.5): the suppressed cells, cell for cell.
* **riskyCells** (:func:`sdc.risky_cells`): sdcMicro's four help-page calls on testdata2 and
  ``n_random`` random files with 5 % missing values: the unsafe cells of every combination, exactly.
* **addNoise** additive0 (R's normal draws replayed) and restr (no draw; one variable at a time,
  as sdcMicro's recycling of the means across variables is P19) on testdata's expend, income,
  savings and ``n_random`` random files; ROMM (R's N x N matrix replayed) on ``n_random`` random
  files of 30 to 250 records and outdect (R's covMcd center and covariance, then its draws) on those
  with two or three variables: values to 1e-12 relative to the largest value (ROMM 1e-10).
* **mvTopCoding** with sdcMicro's own MCD center and covariance given to sdc (testdata, random files):
  values to 1e-10, the records pulled back exactly. **addGhostVars**: sdcMicro's suppression of the
  key carried over by both (testdata's three links, random files): the ghosts' missing cells exactly.
* **microaggregation** simple and single with mean, median, trim and onestep (testdata, random
  files), pca, rmd and mcdpca (CASCrefmicrodata, random files; sdcMicro's MCD fit given to sdc):
  values to 1e-12.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

import sdc
from sdc.workflow.crosscheck import Diff, compare_values, summarise

__all__ = ["more_diffs", "local_supp_diffs", "risky_cells_diffs", "noise_diffs", "mv_top_code_diffs", "ghost_diffs",
           "microaggregation_more_diffs"]

TESTDATA_KEYS = ["urbrur", "roof", "walls", "water", "electcon", "relat", "sex"]


def _random_keys(rng: np.random.Generator, n: int, k: int) -> pd.DataFrame:
    df = pd.DataFrame({f"k{j}": rng.integers(0, int(rng.integers(2, 6)), n).astype(float) for j in range(k)})
    return df.mask(rng.random(df.shape) < 0.05)


def local_supp_diffs(n_random: int = 100, seed: int = 20261202) -> list[Diff]:
    """localSupp: testdata's four calls and `n_random` random files, the suppressed cells exactly."""
    import r_bridge as rb

    td = rb.load_dataset("testdata")
    out: list[Diff] = []
    for var, t in (("urbrur", 0.045), ("urbrur", 0.02), ("roof", 0.02), ("sex", 0.1)):
        theirs = rb.local_supp(td, TESTDATA_KEYS, var, threshold=t, weightVar="sampling_weight") | td[var].isna()
        ours = sdc.local_suppression_by_risk(td, TESTDATA_KEYS, variable=var, threshold=t, weights="sampling_weight")
        out.append(compare_values("localSupp: suppressed cells", f"testdata {var} at {t}", "testdata",
                                  ours.data[var].isna(), theirs, rtol=None))
    rng = np.random.default_rng(seed)
    for case in range(n_random):
        df = _random_keys(rng, int(rng.integers(20, 300)), 3)
        df["w"] = rng.uniform(1, 50, len(df)).round(2)
        weights = "w" if case % 2 else None
        alpha = float(rng.choice([1.0, 0.5]))
        t = float(rng.choice([0.01, 0.05, 0.1, 0.2, 0.5]))
        theirs = rb.local_supp(df, ["k0", "k1", "k2"], "k1", threshold=t, alpha=alpha, weightVar=weights)
        ours = sdc.local_suppression_by_risk(df, ["k0", "k1", "k2"], variable="k1", threshold=t, weights=weights,
                                             alpha=alpha)
        out.append(compare_values("localSupp: suppressed cells", f"random {case} (n={len(df)}, t={t})", "random",
                                  ours.data["k1"].isna(), theirs, rtol=None))
    return out


def risky_cells_diffs(n_random: int = 100, seed: int = 20261202) -> list[Diff]:
    """riskyCells: the help page's four calls on testdata2 and `n_random` random files, exactly."""
    import r_bridge as rb

    td = rb.load_dataset("testdata2")
    five = ["urbrur", "roof", "walls", "water", "electcon"]
    cases = [(td, "testdata2", five, {"threshold": [50, 25, 10, 5], "max_dim": 4}),
             (td, "testdata2", five, {"threshold": 10, "max_dim": 3}),
             (td, "testdata2", [*five, "relat"], {"threshold": 20, "level": [1, 1, 2, 3, 3, 5]}),
             (td, "testdata2", ["urbrur", "walls", "water", "relat"], {"threshold": 10, "level": [1, 2, 2, 4]})]
    rng = np.random.default_rng(seed)
    for _ in range(n_random):
        df = _random_keys(rng, int(rng.integers(5, 200)), 4)
        cases.append((df, "random", list(df.columns),
                      {"threshold": int(rng.integers(1, 6)), "max_dim": int(rng.integers(1, 5))}))
    out: list[Diff] = []
    for i, (df, dataset, keys, kw) in enumerate(cases):
        theirs = rb.risky_cells(df, keys, **kw)
        ours = sdc.risky_cells(df, keys, **kw).table
        same_cells = ours[[c for c in theirs.columns if c.startswith("dim")]].equals(
            theirs[[c for c in theirs.columns if c.startswith("dim")]])
        name = f"{dataset} {i} {kw}"
        out.append(compare_values("riskyCells: unsafe cells per combination", name, dataset,
                                  ours["unsafe_cells"] if same_cells else [np.nan], theirs["unsafe_cells"]
                                  if same_cells else [0.0], rtol=None))
    return out


def _noise_cases(rng: np.random.Generator, n: int, n_max: int = 900) -> list[pd.DataFrame]:
    from tests.protect.test_noise_more import _random

    return [_random(rng, n_max) for _ in range(n)]


def noise_diffs(n_random: int = 100) -> list[Diff]:
    """addNoise additive0 and restr (testdata and random files), ROMM and outdect (random files)."""
    import r_bridge as rb
    from sdc.protect.noise_more import additive0, outdect, outliers, romm

    td = rb.load_dataset("testdata")
    rng = np.random.default_rng(20261202)
    out: list[Diff] = []
    for i, df in enumerate([td[["expend", "income", "savings"]], *_noise_cases(rng, n_random)]):
        dataset, cols, noise = ("testdata" if i == 0 else "random"), list(df.columns), float(rng.choice([10, 50, 150]))
        X, scale = df.to_numpy(float), max(1.0, float(np.abs(df.to_numpy(float)).max()))
        theirs = rb.add_noise(df, cols, method="additive0", noise=noise, seed=i + 1)
        out.append(compare_values("addNoise(additive0): values (R's draws replayed)", f"{dataset} {i}", dataset,
                                  additive0(X, noise, theirs.z).ravel(), theirs.xm.to_numpy().ravel(), rtol=1e-12,
                                  atol=1e-12 * scale))
        ours = sdc.add_noise(df, cols, method="restr", noise=noise).data
        for v in cols:
            r = rb.add_noise(df[[v]], [v], method="restr", noise=noise).xm[v].to_numpy()
            out.append(compare_values("addNoise(restr): values, one variable at a time", f"{dataset} {i} {v}",
                                      dataset, ours[v].to_numpy(), r, rtol=1e-12, atol=1e-9))
    rng = np.random.default_rng(7)
    for i in range(n_random):
        df = _noise_cases(rng, 1, 250)[0]
        cols, X = list(df.columns), df.to_numpy(float)
        p = float(rng.choice([0.001, 0.01, 0.1]))
        r = rb.add_noise_draws(df, cols, method="ROMM", p=p, seed=i + 1)
        out.append(compare_values("addNoise(ROMM): values (R's matrix replayed)", f"random {i} (n={len(df)}, p={p})",
                                  "random", romm(X, p, r.z).ravel(), r.xm.to_numpy().ravel(), rtol=1e-10,
                                  atol=1e-10 * float(np.abs(X).max())))
        if len(cols) < 2:
            continue
        df = _noise_cases(rng, 1)[0]
        cols, X = list(df.columns), df.to_numpy(float)
        if len(cols) < 2:
            continue
        noise = float(rng.choice([50, 150, 500]))
        r = rb.add_noise_draws(df, cols, method="outdect", noise=noise, seed=i + 1)
        rows = outliers(X, r.center, r.cov)
        Z = np.column_stack([r.z[j * rows.size:(j + 1) * rows.size] for j in range(len(cols))])
        out.append(compare_values("addNoise(outdect): values (R's MCD and draws)", f"random {i} (n={len(df)})",
                                  "random", outdect(X, noise, rows, Z).ravel(), r.xm.to_numpy().ravel(), rtol=1e-12,
                                  atol=1e-12 * float(np.abs(X).max())))
    return out


def mv_top_code_diffs(n_random: int = 100, seed: int = 20261202) -> list[Diff]:
    """mvTopCoding with sdcMicro's own MCD center and covariance given to sdc: values to 1e-10 and
    the records pulled back, exactly (testdata and `n_random` random files)."""
    import r_bridge as rb
    from tests.protect.test_topcode_mv import _random_case

    td = rb.load_dataset("testdata")
    cases = [(td, "testdata", ["expend", "income", "savings"], 0.025), (td, "testdata", ["income", "savings"], 0.1)]
    rng = np.random.default_rng(seed)
    cases += [(df, "random", list(df.columns), float(rng.choice([0.01, 0.025, 0.05, 0.2]))) for df in
              (_random_case(rng) for _ in range(n_random))]
    out: list[Diff] = []
    for i, (df, dataset, cols, alpha) in enumerate(cases):
        theirs = rb.mv_top_coding(df, cols, alpha=alpha, seed=i + 1)
        ours = sdc.mv_top_code(df, cols, alpha=alpha, center=theirs.center.tolist(), cov=theirs.cov.tolist())
        name = f"{dataset} {i} (n={len(df)}, alpha={alpha})"
        out.append(compare_values("mvTopCoding: values (sdcMicro's MCD center and covariance)", name, dataset,
                                  ours.data[cols].to_numpy().ravel(), theirs.x.to_numpy().ravel(), rtol=1e-10,
                                  atol=1e-10))
        out.append(compare_values("mvTopCoding: records pulled back", name, dataset, ours.details["flagged"],
                                  int(theirs.flagged.sum()), rtol=None))
    return out


def ghost_diffs(n_random: int = 100, seed: int = 20261202) -> list[Diff]:
    """addGhostVars: sdcMicro's suppression of the key (localSupp or localSuppression) carried to
    the ghost variables by both; their missing cells exactly (testdata and `n_random` random files)."""
    import r_bridge as rb

    td = rb.load_dataset("testdata")
    cases = [(td, "testdata", TESTDATA_KEYS, "urbrur", ["hhcivil", "expend"], {"threshold": 0.02}, False),
             (td, "testdata", TESTDATA_KEYS, "roof", ["hhcivil"], {"threshold": 0.02}, True),
             (td, "testdata", TESTDATA_KEYS, "relat", ["hhcivil", "income"], {"k": 5}, False)]
    rng = np.random.default_rng(seed)
    for i in range(n_random):
        df = _random_keys(rng, int(rng.integers(20, 300)), 3)
        df["g1"] = rng.normal(size=len(df)).round(2)
        df["g2"] = pd.Series(rng.choice(["x", "y", None], len(df)), dtype=object)
        opts = {"threshold": float(rng.choice([0.05, 0.1, 0.3]))} if i % 2 else {"k": int(rng.choice([2, 3, 5]))}
        cases.append((df, "random", ["k0", "k1", "k2"], "k1", ["g1", "g2"], opts, bool(i % 3 == 0)))
    out: list[Diff] = []
    for i, (df, dataset, keys, key, ghosts, opts, via_add) in enumerate(cases):
        key_na, ghost_na = rb.ghost_vars(df, keys, key, ghosts, via_add=via_add, **opts)
        ours = sdc.add_ghost_vars(df.assign(**{key: df[key].mask(key_na)}), ghosts, key_var=key).data
        out.append(compare_values("addGhostVars: missing cells of the ghost variables", f"{dataset} {i} {opts}",
                                  dataset, np.concatenate([ours[g].isna().to_numpy() for g in ghosts]),
                                  np.concatenate([(ghost_na[g] | df[g].isna()).to_numpy() for g in ghosts]),
                                  rtol=None))
    return out


def microaggregation_more_diffs(n_random: int = 100) -> list[Diff]:
    """microaggregation simple and single with every measure (testdata and `n_random` random files),
    and pca, rmd, mcdpca (CASCrefmicrodata and random files; sdcMicro's MCD fit given to sdc), to 1e-12
    relative to max(1, |value|)."""
    import r_bridge as rb
    from tests.protect.test_microaggregation_pca import _cases, _ours

    td = rb.load_dataset("testdata")
    cols = ["expend", "income", "savings"]
    cases = [(td, "testdata", cols, 3, m, ms, t, 2, None) for m in ("simple", "single")
             for ms, t in (("mean", 0), ("median", 0), ("trim", 0.2), ("onestep", 0))]
    rng = np.random.default_rng(20261202)
    for _ in range(n_random):
        n, p = int(rng.integers(10, 500)), int(rng.integers(2, 5))
        df = pd.DataFrame({f"v{j}": rng.lognormal(3, 1, n).round(int(rng.integers(0, 3))) for j in range(p)})
        ms = str(rng.choice(["mean", "median", "trim", "onestep"]))
        cases.append((df, "random", list(df.columns), int(rng.integers(2, max(3, min(8, n // 4)))),
                      str(rng.choice(["simple", "single"])), ms, float(rng.choice([0.1, 0.25])) if ms == "trim" else 0.0,
                      int(rng.integers(1, p + 1)), None))
    out: list[Diff] = []
    for i, (df, dataset, vs, k, m, ms, t, vsort, strata) in enumerate(cases):
        theirs = rb.microaggregation_measure(df, vs, aggr=k, method=m, measure=ms, trim=t, varsort=vsort,
                                             strata_variables=strata).to_numpy()
        ours = sdc.microaggregation(df, vs, k=k, method=m, measure=ms, trim=t, varsort=vs[vsort - 1]).data[vs].to_numpy()
        out.append(compare_values(f"microaggregation {m}: values ({ms})", f"{dataset} {i}", dataset,
                                  ours.ravel(), theirs.ravel(), rtol=1e-12, atol=1e-12))
    for method, n, n_max, seed in (("pca", n_random, 300, 100), ("rmd", n_random, 150, 300),
                                   ("mcdpca", max(1, n_random * 3 // 10), 150, 400)):
        batch = _cases(method, n, n_max, seed)
        for i, (case, res) in enumerate(zip(batch, rb.microaggregation_batch(batch))):
            dataset = "CASCrefmicrodata" if i < len(batch) - n else "random"   # _cases: CASCrefmicrodata first
            theirs = res.mx.to_numpy()
            out.append(compare_values(f"microaggregation {method}: values", f"{dataset} {i} ({case.measure})", dataset,
                                      _ours(case, res.fit).ravel(), theirs.ravel(), rtol=1e-12, atol=1e-12))
    return out


def more_diffs(n_random: int = 100) -> list[Diff]:
    """Every row of this module: localSupp, riskyCells, addNoise additive0, restr, ROMM, outdect
    (sdc's warnings about the data, which sdcMicro does not give, silenced)."""
    import warnings

    from sdc.exceptions import SdcWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SdcWarning)
        return (local_supp_diffs(n_random) + risky_cells_diffs(n_random) + noise_diffs(n_random)
                + mv_top_code_diffs(n_random) + ghost_diffs(n_random) + microaggregation_more_diffs(n_random))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=100)
    args = ap.parse_args(argv)
    table = summarise(more_diffs(args.random))
    print(table.to_string(index=False))
    return 0 if bool(table["agree"].all()) else 1


if __name__ == "__main__":
    sys.exit(main())
