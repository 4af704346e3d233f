"""Cross-validation of ``microaggregation_gower`` and the clustering microaggregation methods
against sdcMicro 5.8, in the table's style (rows of :class:`sdc.workflow.crosscheck.Diff`).

    .venv/bin/python -m validation.crossval_microaggr [--random 100]

* **gower** (``microaggrGower``, its body ``maGowerWORK``, one R call for every case): sdcMicro's
  testdata (the first 1,000 records, strata urbrur x roof) and testdata2 (weights, mode, median)
  and ``n_random`` small random mixed files (numeric with missing values, nominal, ordinal,
  semi-continuous; random weights, k, strata) -- the cases of
  ``tests/protect/test_sdcmicro_microaggregation_gower.py``. Rows: each record's k nearest records
  (exact), the numeric and semi-continuous aggregates (1e-12), and the records whose released
  category is not among its neighbours' or, for ``cat = "mode"`` with a unique mode, not that mode
  (exact: 0). The categories are drawn from different generators, so they are compared by this
  rule, not cell for cell.
* **clust** (``microaggregation(method = clustpca, clustpppca, influence; clustermethod = pam,
  clara)``, and ``mafast``): testdata's first 300 records (expend, income, savings) and
  ``n_random // 4`` random lognormal files per method (sdcMicro's ``transf = "log"``, which it
  computes and does not use), cell for cell to 1e-12 relative (a case where sdcMicro fails, its
  robust PCA giving NaN in clustpppca, is left out: the row's case count is the cases compared);
  ``mafast`` on ``n_random // 10`` random files with ties, with and without a stratum, to 1e-12.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

import sdc
from sdc.workflow.crosscheck import Diff, compare_values, summarise

__all__ = ["gower_diffs", "clust_diffs"]

CLUST = tuple((m, cm) for m in ("clustpca", "clustpppca", "influence") for cm in ("pam", "clara"))


def _gower_case_diffs(name: str, dataset: str, c, theirs) -> list[Diff]:
    from tests.protect.test_sdcmicro_microaggregation_gower import _ours, _text

    r = _ours(c)
    nb = r.details["neighbours"]
    out = [compare_values("microaggrGower: each record's k nearest records", name, dataset, nb.ravel(),
                          theirs.neighbours.ravel(), rtol=None)]
    num = [v for v in c.variables if r.details["kinds"][v] in ("numeric", "mixed")]
    if num:
        out.append(compare_values("microaggrGower: numeric aggregates", name, dataset,
                                  r.data[num].to_numpy(np.float64).ravel(),
                                  theirs.out[num].to_numpy(np.float64).ravel(), rtol=1e-12, atol=1e-12))
    broken = 0
    for v in (v for v in c.variables if v not in num):
        vals, ours, rs = _text(c.data[v]), _text(r.data[v]), _text(theirs.out[v])
        have = vals[nb]                                     # (n, k) the neighbours' values
        bad = ~((have == ours[:, None]).any(axis=1) & (have == rs[:, None]).any(axis=1))
        if c.cat == "mode":
            for i in np.flatnonzero(~bad):
                labels, counts = np.unique(have[i], return_counts=True)
                if (counts == counts.max()).sum() == 1:
                    bad[i] = not ours[i] == rs[i] == labels[counts.argmax()]
        broken += int(bad.sum())
    out.append(compare_values("microaggrGower: categories not among the neighbours' (or not the unique mode)",
                              name, dataset, broken, 0, rtol=None))
    return out


def gower_diffs(n_random: int = 100) -> list[Diff]:
    """Every gower row: testdata, testdata2 and `n_random` random mixed files, one R call."""
    from r_bridge.protection import microaggr_gower_batch
    from tests.protect.test_sdcmicro_microaggregation_gower import _dataset_cases, _random_case

    cases = [(n, n, c) for n, c in zip(("testdata[1:1000]", "testdata2"), _dataset_cases())]
    cases += [(f"random {s}", "random", _random_case(s)) for s in range(n_random)]
    outs = microaggr_gower_batch([c for _, _, c in cases])
    return [d for (name, ds, c), o in zip(cases, outs) for d in _gower_case_diffs(name, ds, c, o)]


def _lognormal(rng: np.random.Generator, n: int, p: int) -> pd.DataFrame:
    return pd.DataFrame(rng.lognormal(size=(n, p)).round(3), columns=[f"v{j}" for j in range(p)])


def clust_diffs(n_random: int = 100, seed: int = 20261205) -> list[Diff]:
    """clustpca / clustpppca / influence (pam, clara) and mafast on random files, cell for cell."""
    import r_bridge as rb
    from r_bridge.errors import RBridgeError
    from tests.protect.test_sdcmicro_microaggregation import mafast_case

    rng = np.random.default_rng(seed)
    td = rb.load_dataset("testdata").iloc[:300][["expend", "income", "savings"]].astype(float)
    files = [("testdata[1:300] expend, income, savings (nc=4, k=3)", "testdata", td, 4, 3)]
    for i in range(max(1, n_random // 4)):
        n, p = int(rng.integers(12, 90)), int(rng.integers(2, 5))
        nc, k = int(rng.integers(2, min(9, n // 4))), int(rng.integers(2, 5))
        files.append((f"random {i} (n={n}, p={p}, nc={nc}, k={k})", "random", _lognormal(rng, n, p), nc, k))
    out: list[Diff] = []
    for name, dataset, df, nc, k in files:
        vs = list(df.columns)
        for method, cm in CLUST:
            try:
                theirs = rb.microaggregation_clust(df, vs, aggr=k, method=method, nc=nc, clustermethod=cm,
                                                   transf="log").to_numpy()
            except RBridgeError:  # prcompRob: a record at a cluster's median gives NaN (sdc skips it)
                continue
            ours = sdc.microaggregation(df, vs, k=k, method=method, nc=nc, clustermethod=cm).data[vs].to_numpy()
            out.append(compare_values(f"microaggregation(clust) {method}, {cm}: values", name, dataset,
                                      ours.ravel(), theirs.ravel(), rtol=1e-12, atol=1e-12))
    for i in range(max(1, n_random // 10)):
        df, vs, k, by = mafast_case(rng, i)
        n, p = len(df), len(vs)
        theirs = rb.mafast(df, vs, by=by, aggr=k).to_numpy()
        ours = sdc.microaggregation(df, vs, k=k, method="mafast", strata=by).data[vs].to_numpy()
        out.append(compare_values(f"mafast{' (strata)' if by else ''}: values", f"random {i} (n={n}, p={p}, k={k})",
                                  "random", ours.ravel(), theirs.ravel(), rtol=1e-12, atol=0.0))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=100)
    args = ap.parse_args(argv)
    table = summarise(gower_diffs(args.random) + clust_diffs(args.random))
    print(table.to_string(index=False))
    return 0 if bool(table["agree"].all()) else 1


if __name__ == "__main__":
    sys.exit(main())
