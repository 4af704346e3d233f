"""Cross-validation of the protection methods against sdcMicro, in the table's style.

    .venv/bin/python -m validation.crossval_protect [--random 100] [--out validation/results]

Rows are :class:`sdc.workflow.crosscheck.Diff` (``measure``, ``case``, ``dataset``, values,
max abs/rel diff, ``agree``), one per compared quantity and case, on sdcMicro's datasets
(testdata, free1, CASCrefmicrodata) and on random datasets (missing values, ties, strings):

* deterministic methods cell for cell: ``globalRecode`` (edges, ``breaks = n`` with each
  method, custom labels; width bands against ``cut`` on the same edges), ``groupAndRename``,
  ``topBotCoding``;
* the deterministic part of the random methods exactly: PRAM's matrix from sdcMicro's own
  diagonal draws (replayed from its seed), ``addNoise``'s output from its own normal draws
  (``additive``, ``correlated2``) and the noise scale, ``rankSwap``'s values as a multiset
  (top/bottom means and the swapped values) and its rank window;
* the random part by a test with fixed seeds. Such rows are named ``(... test)``; their
  ``max_abs_diff`` is the test statistic, ``max_rel_diff`` is ``1 - p`` and they agree when
  ``p >= 0.0001`` (``rtol = 0.9999``). A final row per method tests that the p-values over
  all random cases are uniform (Kolmogorov-Smirnov), as they are when both sides draw from
  the same distribution;
* pseudonyms against R's ``openssl::sha256(x, key =)`` (HMAC-SHA-256) cell for cell.

:func:`protect_diffs` returns every row; ``validation/cross_validate.py`` can add them to the
published table. Run as a module it writes ``cross_validation_protect.{md,csv}``.
"""

from __future__ import annotations

import argparse
import math
import platform
import sys
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

import r_bridge as rb
from sdc.protect.noise import _additive, _correlated2, add_noise
from sdc.protect.pram import pram, pram_matrix
from sdc.protect.pseudonym import pseudonymise
from sdc.protect.recode import global_recode, top_bottom_code
from sdc.protect.swap import rank_swap
from sdc.workflow.crosscheck import Diff, compare_values, summarise

__all__ = [
    "protect_diffs", "recode_diffs", "pram_diffs", "noise_diffs", "swap_diffs", "pseudonym_diffs",
    "random_numeric", "random_categorical", "ALPHA", "RTOL_PROTECT",
]

ALPHA = 1e-4           # significance level of the per-case tests (fixed seeds)
RTOL_PROTECT = 1e-12   # floating results computed by the same formula
WORDS = np.array(["ab", "b", "c", "d d", "é", "zz", "10", "9"], dtype=object)


# --------------------------------------------------------------------------- rows

def _num_row(measure: str, case: str, dataset: str, ours: object, theirs: object, *, rtol: float | None) -> Diff:
    return compare_values(measure, case, dataset, ours, theirs, rtol=rtol)


def _label_row(measure: str, case: str, dataset: str, ours: Sequence[object], theirs: Sequence[object]) -> Diff:
    """Exact comparison of labels (missing == missing); the diffs are mismatch count and share."""
    a = pd.Series(list(ours), dtype=object)
    b = pd.Series(list(theirs), dtype=object)
    if len(a) != len(b):
        return Diff(measure, case, dataset, max(len(a), len(b)), math.inf, math.inf, False, True, None)
    na, nb = a.isna().to_numpy(), b.isna().to_numpy()
    same = (na & nb) | (~na & ~nb & (a.astype(str).to_numpy() == b.astype(str).to_numpy()))
    bad = int((~same).sum())
    return Diff(measure, case, dataset, len(a), float(bad), bad / max(len(a), 1), bad == 0, True, None)


def _test_row(measure: str, case: str, dataset: str, n: int, statistic: float, p: float) -> Diff:
    return Diff(measure, case, dataset, n, float(statistic), float(1 - p), bool(p >= ALPHA), False, 1 - ALPHA)


def _uniform_row(measure: str, dataset: str, pvalues: list[float]) -> Diff:
    """p-values of many independent cases: uniform on [0, 1] when both sides agree in distribution."""
    pv = np.asarray([p for p in pvalues if np.isfinite(p)])
    if pv.size < 5:
        return _test_row(measure, "all random cases", dataset, int(pv.size), 0.0, 1.0)
    res = stats.kstest(pv, "uniform")
    return _test_row(measure, "all random cases", dataset, int(pv.size), res.statistic, res.pvalue)


def _txt(v: object) -> str:
    """A value as R prints a factor level: whole numbers without '.0'."""
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return str(v)


def _str_values(s: pd.Series) -> list[object]:
    return [None if pd.isna(v) else _txt(v) for v in s]


def _as_categorical(x: pd.Series, levels: list[str]) -> pd.Series:
    return pd.Series(pd.Categorical(_str_values(x), categories=levels), index=x.index)


# --------------------------------------------------------------------------- random data

def random_numeric(rng: np.random.Generator, n: int, *, missing: bool = True, positive: bool = False,
                   distinct: bool = False) -> pd.Series:
    """Integers (many ties) or decimals, with missing values."""
    kind = rng.integers(3)
    if distinct:
        x = rng.permutation(np.arange(1, 10 * n + 1))[:n].astype(np.float64) + rng.random(n).round(3)
    elif kind == 0:
        x = rng.integers(0 if positive else -20, 121, n).astype(np.float64)
    elif kind == 1:
        x = np.round(rng.normal(50, 30, n), 1)
    else:
        x = np.round(rng.exponential(1000, n), 2)
    if positive:
        x = np.abs(x) + 1
    if missing and n > 2:
        x[rng.random(n) < rng.choice([0.0, 0.1, 0.3])] = np.nan
        if np.isnan(x).all():
            x[0] = 1.0
    s = pd.Series(x)
    if kind == 0 and not np.isnan(x).any() and not positive:
        s = s.astype(np.int64)
    return s


def random_categorical(rng: np.random.Generator, n: int, *, missing: bool = True, levels: int | None = None
                       ) -> pd.Series:
    L = int(levels or rng.integers(2, 7))
    words = rng.choice(WORDS, L, replace=False)
    p = rng.dirichlet(np.ones(L))
    x = rng.choice(words, n, p=p).astype(object)
    if missing:
        x[rng.random(n) < rng.choice([0.0, 0.1])] = None
    return pd.Series(x, dtype=object)


# --------------------------------------------------------------------------- recoding

def _recode_edges(name: str, dataset: str, x: pd.Series, edges: list[float], labels: list[str] | None = None
                  ) -> list[Diff]:
    df = pd.DataFrame({"x": x})
    ours = global_recode(df, "x", edges=edges, outside="missing", labels=labels if labels else "interval").data["x"]
    theirs = rb.global_recode(x, edges, labels=labels)
    return [
        _label_row("globalRecode(breaks = edges): labels", name, dataset, _str_values(ours), _str_values(theirs)),
        _label_row("globalRecode(breaks = edges): levels", name, dataset, list(ours.cat.categories),
                   list(theirs.cat.categories)),
    ]


def _recode_bins(name: str, dataset: str, x: pd.Series, bins: int, method: str) -> list[Diff]:
    df = pd.DataFrame({"x": x})
    ours = global_recode(df, "x", bins=bins, bin_method=method).data["x"]
    theirs = rb.global_recode(x, bins, method=method)
    m = f"globalRecode(breaks = n, {method})"
    return [
        _label_row(f"{m}: labels", name, dataset, _str_values(ours), _str_values(theirs)),
        _label_row(f"{m}: levels", name, dataset, list(ours.cat.categories), list(theirs.cat.categories)),
    ]


def _recode_width(name: str, dataset: str, x: pd.Series, width: float) -> list[Diff]:
    df = pd.DataFrame({"x": x})
    res = global_recode(df, "x", width=width)
    edges = res.details["x"]["edges"]
    theirs = rb.global_recode(x, edges)
    return [_label_row("width bands vs cut on the same edges: labels", name, dataset, _str_values(res.data["x"]),
                       _str_values(theirs))]


def _group_and_rename(name: str, dataset: str, x: pd.Series, before: list[str], after: str) -> list[Diff]:
    levels = sorted({_txt(v) for v in x.dropna()})
    cat = _as_categorical(x, levels)
    ours = global_recode(pd.DataFrame({"x": cat}), "x", mapping={b: after for b in before}).data["x"]
    theirs = rb.group_and_rename(x, before, after)
    return [
        _label_row("groupAndRename: labels", name, dataset, _str_values(ours), _str_values(theirs)),
        _label_row("groupAndRename: levels", name, dataset, list(ours.cat.categories), list(theirs.cat.categories)),
    ]


def _top_bot(name: str, dataset: str, x: pd.Series, value: float, replacement: float, kind: str) -> list[Diff]:
    df = pd.DataFrame({"x": x})
    kw = {"top": value, "top_value": replacement} if kind == "top" else {"bottom": value, "bottom_value": replacement}
    ours = top_bottom_code(df, "x", **kw).data["x"]
    theirs = rb.top_bot_coding(x.astype(np.float64), value, replacement, kind=kind)
    return [_num_row(f"topBotCoding({kind})", name, dataset, ours.to_numpy(dtype=np.float64, na_value=np.nan),
                     theirs, rtol=None)]


def _sdcmicro_numeric() -> list[tuple[str, pd.Series]]:
    td = rb.load_dataset("testdata")
    f1 = rb.load_dataset("free1")
    cc = rb.load_dataset("CASCrefmicrodata")
    return [("testdata/age", td["age"]), ("testdata/income", td["income"]), ("free1/AGE", f1["AGE"]),
            ("free1/INCOME", f1["INCOME"]), ("CASCrefmicrodata/AGI", cc["AGI"]),
            ("CASCrefmicrodata/FEDTAX", cc["FEDTAX"])]


def recode_diffs(n_random: int = 100, seed: int = 9100) -> list[Diff]:
    """globalRecode, groupAndRename and topBotCoding on sdcMicro's datasets and random data."""
    out: list[Diff] = []
    for name, x in _sdcmicro_numeric():
        ds = name.split("/")[0]
        q = np.nanquantile(x.to_numpy(dtype=np.float64), [0.1, 0.5, 0.9])
        edges = sorted({float(np.floor(q[0])), float(np.round(q[1])), float(np.ceil(q[2]))})
        if len(edges) >= 2:
            out += _recode_edges(name, ds, x, edges)
            out += _recode_edges(name + "/labels", ds, x, edges, [f"L{i}" for i in range(1, len(edges))])
        for b in (1, 3, 6):
            for method in ("equidistant", "logEqui", "equalAmount"):
                if method == "logEqui" and (x <= 0).any():
                    continue
                out += _recode_bins(f"{name}/bins={b}", ds, x, b, method)
        out += _recode_width(name, ds, x, float(np.round((q[2] - q[0]) / 4, 1) or 1.0))
        out += _top_bot(name, ds, x, float(q[2]), float(q[2]), "top")
        out += _top_bot(name, ds, x, float(q[0]), float(q[0]) - 1, "bottom")
    td = rb.load_dataset("testdata")
    for v, before, after in (("roof", ["2", "4"], "2-4"), ("water", ["1", "2", "3"], "1"), ("relat", ["9"], "9+")):
        out += _group_and_rename(f"testdata/{v}", "testdata", td[v], before, after)
    rng = np.random.default_rng(seed)
    for i in range(n_random):
        name = f"random/{seed + i}"
        n = int(rng.integers(1, 80))
        x = random_numeric(rng, n)
        lo, hi = -30, 130
        ne = int(rng.integers(2, 7))
        step = rng.choice([1.0, 0.5, 0.1])
        edges = sorted(set(np.round(rng.uniform(lo, hi, ne) / step) * step))
        if len(edges) >= 2:
            out += _recode_edges(name, "random", x, [float(e) for e in edges])
        obs = x.dropna()
        if obs.size >= 1:
            b = int(rng.integers(1, 6))
            if b == 1 and x.isna().any():
                b = 2  # sdcMicro's breaks = 1 takes min(x) without na.rm: NA edges, an error
            method = str(rng.choice(["equidistant", "logEqui", "equalAmount"]))
            if method == "logEqui" and (obs <= 0).any():
                method = "equidistant"
            xs = np.sort(obs.to_numpy(dtype=np.float64))
            if method == "equalAmount":
                qs = np.quantile(xs, np.linspace(0, 1, b + 1))
                if np.unique(qs).size < qs.size:
                    method = "equidistant"  # sdcMicro jitters duplicated quantiles at random
            if b > 1 or not x.isna().any():
                out += _recode_bins(name, "random", x, b, method)
            out += _recode_width(name, "random", x, float(rng.choice([1, 2.5, 5, 10, 0.1])))
            v = float(rng.choice(obs.to_numpy()))
            out += _top_bot(name, "random", x, v, float(np.round(rng.normal(v, 5), 1)), str(rng.choice(["top", "bottom"])))
        c = random_categorical(rng, max(n, 2))
        levels = sorted({_txt(v) for v in c.dropna()})
        if levels:
            before = list(rng.choice(levels, int(rng.integers(1, len(levels) + 1)), replace=False))
            after = str(rng.choice(list(WORDS) + ["new"]))
            out += _group_and_rename(name, "random", c, before, after)
    return out


# --------------------------------------------------------------------------- PRAM

def _transition_test(orig: np.ndarray, a: np.ndarray, b: np.ndarray, R: np.ndarray) -> tuple[float, float, int]:
    """Chi-square homogeneity of the transitions of two PRAM runs, summed over the rows of `R`
    (`orig` gives each record's row: its original level, or stratum * L + level). In each row the
    target levels expected fewer than 5 times (under `R`) are pooled, and a pool still expected
    fewer than 5 times joins the most likely target, so the chi-square approximation holds."""
    L = R.shape[1]
    chi2 = 0.0
    df = 0
    for i in range(R.shape[0]):
        m = orig == i
        n_i = int(m.sum())
        if n_i == 0:
            continue
        expected = n_i * R[i]
        big = expected >= 5
        if big.sum() == 0:
            continue
        groups = np.where(big, np.arange(L), L)          # small targets pooled as group L
        if expected[~big].sum() < 5:
            groups = np.where(big, groups, int(np.argmax(expected)))
        ta = np.bincount(groups[a[m]], minlength=L + 1)
        tb = np.bincount(groups[b[m]], minlength=L + 1)
        keep = (ta + tb) > 0
        if keep.sum() < 2:
            continue
        res = stats.chi2_contingency(np.vstack([ta[keep], tb[keep]]), correction=False)
        chi2 += res[0]
        df += res[2]
    p = 1.0 if df == 0 else float(stats.chi2.sf(chi2, df))
    return chi2, p, df


def _codes(values: pd.Series, levels: list[str]) -> np.ndarray:
    where = {lv: i for i, lv in enumerate(levels)}
    return np.array([-1 if pd.isna(v) else where[_txt(v)] for v in values], dtype=np.int64)


def _pram_case(name: str, dataset: str, x: pd.Series, pd_: float, alpha: float, seed: int,
               pvalues: list[float] | None = None) -> list[Diff]:
    out: list[Diff] = []
    draws = rb.pram_draws(x, pd_=pd_, alpha=alpha, seed=seed)
    levels = draws.levels
    codes = _codes(x, levels)
    counts = np.bincount(codes[codes >= 0], minlength=len(levels))
    mine = pram_matrix(counts, draws.diagonal, alpha)
    out.append(_num_row("pram: transition matrix Rs from sdcMicro's diagonal draws", name, dataset, mine,
                        draws.Rs.to_numpy(), rtol=1e-9))
    # The matrix applied: sdcMicro's pram(pd = Rs) and sdc's pram(matrix = Rs), same data.
    cat = _as_categorical(x, levels)
    ours = pram(pd.DataFrame({"x": cat}), "x", matrix={"x": draws.Rs}, seed=seed).data["x"]
    theirs = rb.pram_with_matrix(x, draws.Rs, seed=seed)
    ok = codes >= 0
    out.append(_label_row("pram: missing values kept", name, dataset, _str_values(ours[~ok]),
                          _str_values(theirs[~ok])))
    a, b = _codes(ours, levels)[ok], _codes(theirs, levels)[ok]
    chi2, p, df = _transition_test(codes[ok], a, b, draws.Rs.to_numpy())
    if df:  # else every row is too small (or certain) to test
        out.append(_test_row("pram: transitions, sdc vs sdcMicro (chi-square test)", name, dataset, int(ok.sum()),
                             chi2, p))
        if pvalues is not None:
            pvalues.append(p)
    return out


def _pram_strata_case(name: str, dataset: str, df: pd.DataFrame, var: str, strata: list[str], seed: int,
                      pd_: float, alpha: float, pvalues: list[float]) -> list[Diff]:
    """Strata: every stratum's matrix from sdcMicro's replayed diagonal draws (the last one
    checked against the matrix sdcMicro keeps), then those matrices applied by sdc's sampler and
    the transitions compared with sdcMicro's (chi-square test)."""
    from sdc.protect.pram import _sample

    r = rb.pram_strata(df, var, strata, pd_=pd_, alpha=alpha, seed=seed)
    L = len(r.levels)
    codes = _codes(df[var], r.levels)
    ok = codes >= 0
    tables = np.empty((len(r.strata_levels), L, L))
    for k, d in enumerate(r.diagonals):
        counts = np.bincount(codes[ok & (r.strata == k)], minlength=L)
        tables[k] = pram_matrix(counts, d, alpha) if counts.sum() else np.eye(L)
    out = []
    if (ok & (r.strata == len(r.strata_levels) - 1)).any():  # sdcMicro keeps the last stratum's matrix
        out.append(_num_row("pram(strata): last stratum's matrix from sdcMicro's replayed draws", name, dataset,
                            tables[-1], r.Rs_last.to_numpy(), rtol=1e-9))
    rows = r.strata[ok] * L + codes[ok]
    flat = tables.reshape(-1, L)
    mine = _sample(rows, flat, np.random.default_rng(seed).random(rows.size))
    theirs = _codes(r.pramed, r.levels)[ok]
    chi2, p, dof = _transition_test(rows, mine, theirs, flat)
    if dof:
        pvalues.append(p)
        out.append(_test_row("pram(strata): transitions, sdc vs sdcMicro (chi-square test)", name, dataset,
                             int(ok.sum()), chi2, p))
    return out


def pram_diffs(n_random: int = 100, seed: int = 9200) -> list[Diff]:
    """PRAM's matrix exactly (sdcMicro's diagonal replayed); its application by a test."""
    out: list[Diff] = []
    td = rb.load_dataset("testdata")
    f1 = rb.load_dataset("free1")
    pv_ds: list[float] = []
    for name, x, pd_, alpha in (("testdata/roof", td["roof"], 0.8, 0.5), ("testdata/water", td["water"], 0.6, 0.9),
                                ("testdata/relat", td["relat"], 0.9, 0.2), ("free1/MARSTAT", f1["MARSTAT"], 0.8, 0.5),
                                ("free1/EDUC1", f1["EDUC1"], 0.5, 1.0)):
        out += _pram_case(name, name.split("/")[0], x, pd_, alpha, seed=11, pvalues=pv_ds)
    out += _pram_strata_case("testdata/walls by urbrur+sex", "testdata", td, "walls", ["urbrur", "sex"], 3, 0.8, 0.5,
                             pv_ds)
    rng = np.random.default_rng(seed)
    pv: list[float] = []
    pv_s: list[float] = []
    for i in range(n_random):
        name = f"random/{seed + i}"
        n = int(rng.integers(20, 2000))
        x = random_categorical(rng, n)
        if x.dropna().nunique() < 2:
            x.iloc[:2] = ["ab", "b"]
        pd_ = float(rng.choice([0.0, 0.3, 0.5, 0.8, 0.95]))
        alpha = float(rng.choice([0.1, 0.5, 0.9, 1.0]))
        out += _pram_case(name, "random", x, pd_, alpha, seed=int(seed + i), pvalues=pv)
        if i % 4 == 0:
            df = pd.DataFrame({"v": x, "s": rng.integers(0, 3, n)})
            out += _pram_strata_case(name, "random", df, "v", ["s"], int(seed + i), pd_, alpha, pv_s)
    out.append(_uniform_row("pram: transitions p-values uniform (KS test)", "random", pv))
    out.append(_uniform_row("pram(strata): p-values uniform (KS test)", "random", pv_s))
    return out


# --------------------------------------------------------------------------- noise

def _noise_case(name: str, dataset: str, df: pd.DataFrame, variables: list[str], method: str, noise: float,
                delta: float, seed: int, pvalues: list[float]) -> list[Diff]:
    out: list[Diff] = []
    r = rb.add_noise(df, variables, noise=noise, method=method, delta=delta, seed=seed)
    ours = add_noise(df, variables, method=method, noise=noise, delta=delta, seed=seed)
    for j, v in enumerate(variables):
        x = df[v].to_numpy(dtype=np.float64, na_value=np.nan)
        z = r.z[:, j]
        if method == "additive":
            replay, scale = _additive(x, noise, z)
            out.append(_num_row("addNoise(additive): output from sdcMicro's draws", name, dataset, replay,
                                r.xm[v], rtol=RTOL_PROTECT))
            ok = ~np.isnan(x) & (np.abs(z) > 1e-3)
            theirs_scale = float(np.median((r.xm[v].to_numpy()[ok] - x[ok]) / z[ok])) if ok.any() else scale
            out.append(_num_row("addNoise(additive): noise scale", name, dataset, ours.details[v]["noise_sd"],
                                theirs_scale, rtol=1e-9))
            sd_noise = scale
        else:
            replay, info = _correlated2(x, delta, z)
            out.append(_num_row("addNoise(correlated2): output from sdcMicro's draws", name, dataset, replay,
                                r.xm[v], rtol=RTOL_PROTECT))
            out.append(_num_row("addNoise(correlated2): noise scale", name, dataset, ours.details[v]["noise_sd"],
                                delta * info["sd"], rtol=RTOL_PROTECT))
            sd_noise = info["noise_sd"]
        y = ours.data[v].to_numpy(dtype=np.float64)
        if method == "additive":
            e_ours, e_theirs = (y - x) / sd_noise, (r.xm[v].to_numpy() - x) / sd_noise
        else:
            d1 = info["d1"]
            e_ours = (y - d1 * x) / sd_noise
            e_theirs = (r.xm[v].to_numpy() - d1 * x) / sd_noise
        e_ours, e_theirs = e_ours[~np.isnan(e_ours)], e_theirs[~np.isnan(e_theirs)]
        if e_ours.size >= 5 and np.isfinite(sd_noise) and sd_noise > 0:
            ks = stats.ks_2samp(e_ours, e_theirs)
            pvalues.append(float(ks.pvalue))
            out.append(_test_row(f"addNoise({method}): noise, sdc vs sdcMicro (KS test)", name, dataset,
                                 int(e_ours.size), ks.statistic, ks.pvalue))
    return out


def _correlated_case(name: str, dataset: str, df: pd.DataFrame, variables: list[str], noise: float, seed: int,
                     pvalues: list[float]) -> list[Diff]:
    out: list[Diff] = []
    r = rb.add_noise(df, variables, noise=noise, method="correlated", seed=seed)
    ours = add_noise(df, variables, method="correlated", noise=noise, seed=seed)
    X = df[variables].to_numpy(dtype=np.float64)
    complete = X[~np.isnan(X).any(axis=1)]
    cov = noise / 100 * np.cov(complete, rowvar=False)
    out.append(_num_row("addNoise(correlated): noise covariance", name, dataset,
                        ours.details["covariance"].to_numpy(), cov, rtol=RTOL_PROTECT))
    for j, v in enumerate(variables):
        s = math.sqrt(cov[j, j])
        a = (ours.data[v].to_numpy() - X[:, j]) / s
        b = (r.xm[v].to_numpy() - X[:, j]) / s
        a, b = a[~np.isnan(a)], b[~np.isnan(b)]
        if a.size >= 5 and s > 0:
            ks = stats.ks_2samp(a, b)
            pvalues.append(float(ks.pvalue))
            out.append(_test_row("addNoise(correlated): noise, sdc vs sdcMicro (KS test)", name, dataset,
                                 int(a.size), ks.statistic, ks.pvalue))
    return out


def noise_diffs(n_random: int = 100, seed: int = 9300) -> list[Diff]:
    out: list[Diff] = []
    td = rb.load_dataset("testdata")
    f1 = rb.load_dataset("free1")
    cc = rb.load_dataset("CASCrefmicrodata")
    pv_ds: list[float] = []
    for name, df, cols in (("testdata", td, ["expend", "income", "savings"]), ("free1", f1, ["INCOME", "MONEY", "ASSETS", "DEBTS"]),
                           ("CASCrefmicrodata", cc, ["AGI", "FEDTAX", "PTOTVAL"])):
        out += _noise_case(name, name, df, cols, "additive", 150, 0.1, 5, pv_ds)
        out += _noise_case(name, name, df, cols, "correlated2", 150, 0.1, 6, pv_ds)
        out += _correlated_case(name, name, df, cols, 50, 7, pv_ds)
    rng = np.random.default_rng(seed)
    pv = {"additive": [], "correlated2": [], "correlated": []}
    for i in range(n_random):
        name = f"random/{seed + i}"
        n = int(rng.integers(30, 300))
        p = int(rng.integers(1, 4))
        cols = {}
        for j in range(p):
            s = random_numeric(rng, n, missing=bool(rng.random() < 0.5))
            if s.dropna().nunique() < 2:
                s = pd.Series(rng.normal(size=n))
            cols[f"v{j}"] = s
        df = pd.DataFrame(cols)
        method = ("additive", "correlated2", "correlated")[i % 3]
        if method == "correlated" and p < 2:
            method = "additive"
        noise = float(rng.choice([10, 50, 150]))
        delta = float(rng.choice([0.05, 0.1, 0.5]))
        if method == "correlated":
            X = df.to_numpy(dtype=np.float64)
            if (~np.isnan(X).any(axis=1)).sum() < p + 2:
                method = "additive"
        if method == "correlated":
            out += _correlated_case(name, "random", df, list(df.columns), noise, seed + i, pv[method])
        else:
            out += _noise_case(name, "random", df, list(df.columns), method, noise, delta, seed + i, pv[method])
    for m, ps in pv.items():
        out.append(_uniform_row(f"addNoise({m}): p-values uniform (KS test)", "random", ps))
    return out


# --------------------------------------------------------------------------- rank swapping

def _displacement(x: np.ndarray, y: np.ndarray, middle: np.ndarray, *, once: bool = False) -> np.ndarray:
    """Rank distance between each middle record's value and the value it received (distinct
    values). ``once``: one value per swapped pair (the record that received the smaller value),
    so that the values fed to a test are not duplicated."""
    xv, yv = x[middle], y[middle]
    ranks = {v: i for i, v in enumerate(np.sort(xv)[::-1])}
    d = np.array([abs(ranks[a] - ranks.get(b, ranks[a])) for a, b in zip(xv, yv)], dtype=np.int64)
    return d[yv <= xv] if once else d


def _swap_case(name: str, dataset: str, df: pd.DataFrame, v: str, *, p: float | None, r0: float | None,
               top: float, bottom: float, seed: int, pvalues: list[float], distinct: bool) -> list[Diff]:
    out: list[Diff] = []
    theirs = rb.rank_swap(df, [v], TopPercent=top, BottomPercent=bottom, R0=r0,
                          P=None if p is None else p / 100, seed=seed)[v].to_numpy()
    res = rank_swap(df, v, p=p, r0=r0 if p is None else None, top_percent=top, bottom_percent=bottom, seed=seed)
    ours = res.data[v].to_numpy(dtype=np.float64, na_value=np.nan)
    x = df[v].to_numpy(dtype=np.float64, na_value=np.nan)
    out.append(_num_row("rankSwap: values as a multiset (top/bottom means, swapped values)", name, dataset,
                        np.sort(ours), np.sort(theirs), rtol=RTOL_PROTECT))
    out.append(_num_row("rankSwap: missing values kept", name, dataset, np.isnan(ours), np.isnan(theirs), rtol=None))
    det = res.details[v]
    if distinct:
        def coded(y: np.ndarray) -> np.ndarray:
            # sdcMicro sums the group in another order: its mean may differ in the last bit.
            m = np.zeros(y.size, dtype=bool)
            for val in (det["top_value"], det["bottom_value"]):
                if val is not None:
                    with np.errstate(invalid="ignore"):
                        m |= np.isclose(y, val, rtol=RTOL_PROTECT, atol=0)
            return m

        out.append(_num_row("rankSwap: top/bottom coded records", name, dataset, coded(ours), coded(theirs),
                            rtol=None))
        middle = ~np.isnan(x) & ~coded(ours)
        d_ours = _displacement(x, ours, middle)
        d_theirs = _displacement(x, theirs, middle & ~coded(theirs))
        w = det["window"]
        bound_ok = (d_theirs.max(initial=0) < max(w, 1)) and (d_ours.max(initial=0) < max(w, 1))
        out.append(Diff("rankSwap: rank distance < window m P (sdc's P) on both sides", name, dataset,
                        int(d_theirs.size), float(max(d_theirs.max(initial=0), d_ours.max(initial=0))),
                        0.0 if bound_ok else math.inf, bool(bound_ok), True, None))
        a = _displacement(x, ours, middle, once=True)
        b = _displacement(x, theirs, middle & ~coded(theirs), once=True)
        test = _binned_chi2(a, b, max(w, 1))
        if test is not None:
            pvalues.append(test[1])
            out.append(_test_row("rankSwap: rank distances, sdc vs sdcMicro (chi-square test)", name, dataset,
                                 int(a.size), *test))
    return out


def _binned_chi2(a: np.ndarray, b: np.ndarray, window: int) -> tuple[float, float] | None:
    """Chi-square homogeneity of two samples of rank distances (0, then up to 8 equal bins of the
    window), merging bins until each expects 5 records. None when too few records to test."""
    if a.size < 20 or b.size < 20:
        return None
    k = 8
    bins = lambda d: np.where(d == 0, 0, 1 + np.minimum((d - 1) * k // window, k - 1))  # noqa: E731
    ta = np.bincount(bins(a), minlength=k + 1).astype(float)
    tb = np.bincount(bins(b), minlength=k + 1).astype(float)
    cols: list[list[float]] = []
    cur = [0.0, 0.0]
    for x, y in zip(ta, tb):
        cur = [cur[0] + x, cur[1] + y]
        if min(cur[0] + cur[1], 10) >= 10:
            cols.append(cur)
            cur = [0.0, 0.0]
    if cols and (cur[0] + cur[1]) > 0:
        cols[-1] = [cols[-1][0] + cur[0], cols[-1][1] + cur[1]]
    if len(cols) < 2:
        return None
    res = stats.chi2_contingency(np.array(cols).T, correction=False)
    return float(res[0]), float(res[1])


def swap_diffs(n_random: int = 100, seed: int = 9400) -> list[Diff]:
    out: list[Diff] = []
    td = rb.load_dataset("testdata")
    cc = rb.load_dataset("CASCrefmicrodata")
    f1 = rb.load_dataset("free1")
    pv_ds: list[float] = []
    for name, df, v in (("testdata/income", td, "income"), ("CASCrefmicrodata/AGI", cc, "AGI"),
                        ("free1/INCOME", f1, "INCOME")):
        out += _swap_case(name, name.split("/")[0], df, v, p=None, r0=0.95, top=5, bottom=5, seed=3,
                          pvalues=pv_ds, distinct=False)
        out += _swap_case(name + "/p=5", name.split("/")[0], df, v, p=5, r0=None, top=0, bottom=0, seed=4,
                          pvalues=pv_ds, distinct=False)
    rng = np.random.default_rng(seed)
    pv: list[float] = []
    for i in range(n_random):
        name = f"random/{seed + i}"
        n = int(rng.integers(20, 400))
        distinct = bool(rng.random() < 0.7)
        x = random_numeric(rng, n, distinct=distinct, missing=bool(rng.random() < 0.4))
        if x.dropna().size < 4:
            x = pd.Series(np.arange(n, dtype=np.float64))
        df = pd.DataFrame({"v": x})
        mode = int(rng.integers(3))
        p = float(rng.choice([1, 5, 10, 30])) if mode == 0 else None
        r0 = float(rng.choice([0.5, 0.9, 0.95, 0.99])) if mode != 0 else None
        top = float(rng.choice([0, 2.5, 5, 10]))
        bottom = float(rng.choice([0, 2.5, 5, 10]))
        nn = np.float32(int(x.notna().sum()))
        if (int(nn * np.float32(np.float32(top) * np.float32(0.01))) == 0) or (
                int(np.floor(nn * np.float32(np.float32(bottom) * np.float32(0.01)))) == 0):
            top = bottom = 0.0  # sdcMicro's C++ crashes when exactly one group is empty
        out += _swap_case(name, "random", df, "v", p=p, r0=r0, top=top, bottom=bottom, seed=seed + i, pvalues=pv,
                          distinct=distinct)
    out.append(_uniform_row("rankSwap: rank-distance p-values uniform (KS test)", "random", pv))
    return out


# --------------------------------------------------------------------------- pseudonyms

def pseudonym_diffs(n_random: int = 100, seed: int = 9500) -> list[Diff]:
    """HMAC-SHA-256 pseudonyms (length 64) vs R's ``openssl::sha256(x, key = key)``."""
    import os
    import tempfile

    out: list[Diff] = []
    rng = np.random.default_rng(seed)
    alphabet = list("abcdefghijklmnopqrstuvwxyz0123456789-_ ÄéßΩ中")
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(n_random):
            key = bytes(rng.integers(0, 256, int(rng.integers(16, 100)), dtype=np.uint8))
            n = int(rng.integers(1, 60))
            vals = ["".join(rng.choice(alphabet, int(rng.integers(1, 30)))) for _ in range(n)]
            path = os.path.join(tmp, f"k{i}")
            with open(path, "wb") as fh:
                fh.write(key)
            os.chmod(path, 0o600)  # a key file must be private
            key_used = key.rstrip(b"\r\n")  # the key file's line ending is not part of the key
            if len(key_used) < 16:
                continue
            ours = pseudonymise(pd.DataFrame({"id": vals}), "id", key_file=path, length=64).data["id"]
            theirs = rb.hmac_sha256(vals, key_used)
            out.append(_label_row("pseudonymise: HMAC-SHA-256 vs R openssl::sha256(key =)", f"random/{seed + i}",
                                  "random", list(ours), theirs))
    return out


# --------------------------------------------------------------------------- all

def protect_diffs(n_random: int = 100) -> list[Diff]:
    """Every row: recoding, PRAM, noise, rank swapping, pseudonyms (``n_random`` random cases each)."""
    return (recode_diffs(n_random) + pram_diffs(n_random) + noise_diffs(n_random) + swap_diffs(n_random)
            + pseudonym_diffs(n_random))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=100)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results")
    args = ap.parse_args(argv)
    diffs = protect_diffs(args.random)
    table = summarise(diffs)
    ver = rb.versions()
    args.out.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out / "cross_validation_protect.csv", index=False, lineterminator="\n")
    lines = [
        "# Protection methods: sdc vs sdcMicro",
        "",
        f"Generated {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} by `validation/crossval_protect.py "
        f"--random {args.random}`; R {ver.get('R', '?')}, sdcMicro {ver.get('sdcMicro', '?')}, Python "
        f"{platform.python_version()}, pandas {pd.__version__}, numpy {np.__version__}.",
        "",
        "Exact rows compare cell for cell (labels: `max abs diff` counts mismatching cells). Rows named "
        "`(... test)` compare random output by a test with fixed seeds: `max abs diff` is the statistic, "
        f"`max rel diff` is 1 - p, and they agree when p >= {ALPHA:g}.",
        "",
        "| measure | dataset | cases | values | max abs diff | max rel diff | agree | tolerance |",
        "|---|---|---:|---:|---:|---:|:-:|---|",
    ]
    for r in table.itertuples(index=False):
        lines.append(f"| {r.measure} | {r.dataset} | {r.cases} | {r.values} | {r.max_abs_diff:.3g} | "
                     f"{r.max_rel_diff:.3g} | {'yes' if r.agree else '**NO**'} | {r.tolerance} |")
    n_bad = int((~table["agree"]).sum())
    lines += ["", f"{len(diffs)} comparisons, {len(table)} rows; rows that disagree: {n_bad}.", ""]
    (args.out / "cross_validation_protect.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0 if n_bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
