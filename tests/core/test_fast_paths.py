"""The fast paths of issue 15, each checked against the definition or the slow path it replaces.

* keys packed without hashing (sdc.core.keys.grouping_codes, pack_codes, levels_from_codes);
* the wildcard rule by sorted groups probed by range (sdc.core.compatible), brute force;
* SUDA2's pruned search (sdc.core.msu), brute force over every subset;
* k-anonymity's top-N by selection, per-record values made on demand, the weighted median;
* l-diversity's one-record classes and whole-c recursive shortcut, t-closeness's one-value classes;
* typed reading of some columns (sdc.io.read_columns) against read_data;
* the chunked two-pass risk of a file (sdc.risk.streamed) against the in-memory measures;
* the CSV assembly of sdc._files.csv_bytes against pandas' to_csv, byte for byte.
"""

from __future__ import annotations

import itertools
import warnings
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings

import sdc
import sdc._files as files
import sdc.core.compatible as compatible
import sdc.io as sio
from sdc.core.keys import column_levels, encode_keys, grouping_codes, levels_from_codes, pack_codes
from sdc.core.msu import minimal_uniques
from sdc.core.scenario import key_classes
from sdc.risk.kanonymity import _top_by
from sdc.risk.streamed import risk_from_file
from tests import brute, scale
from tests.strategies import microdata


# ---------------------------------------------------------------------------------------------
# Keys
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("values", [
    [3, 1, 3, 7], [1.0, np.nan, 3.0, 1.0], [-0.0, 0.0, 2.0, np.nan], [0.5, 1.5, 0.5, np.nan],
    [1e15, 1.0, 1e15, 2.0], [10**12, 5, 10**12, 7], ["a", None, "b", "a"], [True, False, True, True],
])
def test_grouping_codes_are_a_partition_like_factorize(values):
    s = pd.Series(values)
    codes, card, miss = grouping_codes(s)
    ref, _ = pd.factorize(s, use_na_sentinel=True)
    assert miss == bool((ref < 0).any())
    assert ((codes < 0) == (ref < 0)).all()
    assert codes.max() < card
    # equal values, equal codes, and nothing else: the same partition
    pairs = {(a, b) for a, b in zip(codes, ref)}
    assert len({a for a, _ in pairs}) == len(pairs) == len({b for _, b in pairs})


def test_whole_numbers_are_offset_and_fractions_fall_back():
    codes, card, _ = grouping_codes(pd.Series([5, 9, 5, 6]))
    assert codes.tolist() == [0, 4, 0, 1] and card == 5  # value - min, no hashing
    codes, card, _ = grouping_codes(pd.Series([0.5, 1.5, 0.5]))
    assert card == 2  # factorised: a fraction would be truncated onto another value


def test_pack_codes_reports_hashed_first_appearance_order(monkeypatch):
    import sdc.core.keys as keys_mod

    rng = np.random.default_rng(1)
    cols = [rng.integers(0, 50, 200) for _ in range(4)]
    # bucketed hashing only where the caller allows any order (strata number their groups by
    # these ids, so seeded PRAM within strata depends on it)
    monkeypatch.setattr(keys_mod, "BUCKETS_FROM", 1)
    ids, n_ids, hashed = pack_codes(cols, [50] * 4, 200)
    assert hashed and n_ids == len(np.unique(np.column_stack(cols), axis=0))
    first = [int(np.flatnonzero(ids == i)[0]) for i in range(n_ids)]
    assert first == sorted(first)
    any_ids, any_n, any_hashed = pack_codes(cols, [50] * 4, 200, any_order=True)
    assert not any_hashed and any_n == n_ids and len(np.unique(np.column_stack([ids, any_ids]), axis=0)) == n_ids
    ids, n_ids, hashed = pack_codes([c % 3 for c in cols[:2]], [3, 3], 200)
    assert not hashed and n_ids <= 16


def test_factorize_in_buckets_is_the_same_partition():
    import sdc.core.keys as keys_mod

    rng = np.random.default_rng(5)
    for n in (1, 7, 5000, 40_000):
        v = rng.integers(0, int(rng.integers(1, 3 * n + 2)), n) * int(rng.choice([1, 256, 1 << 20]))
        ids, n_ids = keys_mod.factorize_in_buckets(v)
        ref, uniq = pd.factorize(v)
        assert n_ids == len(uniq) and ids.min() == 0 and ids.max() == n_ids - 1
        # the same partition: one id per value and one value per id
        assert (np.bincount(ids, minlength=n_ids) == np.bincount(ref, minlength=n_ids)[
            ref[np.unique(ids, return_index=True)[1]]]).all()
        pairs = np.unique(np.column_stack([ids, ref]), axis=0)
        assert len(pairs) == n_ids


@given(microdata(max_rows=60))
@settings(max_examples=scale.examples(60))
def test_bucketed_pattern_ids_give_the_same_measures(case):
    """From BUCKETS_FROM records the pattern ids are not numbered by first appearance; every
    result, the riskiest classes' order among ties included, is the same."""
    import sdc.core.keys as keys_mod

    df, keys, w = case
    before = (sdc.k_anonymity(df, keys, weights=w, k=2, top=3), sdc.individual_risk(df, keys, weights=w),
              key_classes(df, keys).classes)
    saved = keys_mod.BUCKETS_FROM
    keys_mod.BUCKETS_FROM = 1
    try:
        after = (sdc.k_anonymity(df, keys, weights=w, k=2, top=3), sdc.individual_risk(df, keys, weights=w),
                 key_classes(df, keys).classes)
    finally:
        keys_mod.BUCKETS_FROM = saved
    pd.testing.assert_frame_equal(before[0].riskiest_classes, after[0].riskiest_classes)
    pd.testing.assert_series_equal(before[0].sample_frequency, after[0].sample_frequency)
    pd.testing.assert_series_equal(before[1].risk, after[1].risk)
    pd.testing.assert_frame_equal(before[0].summary(), after[0].summary())
    assert np.array_equal(before[2].ids, after[2].ids) and np.array_equal(before[2].first, after[2].first)


def test_riskiest_classes_among_many_ties_are_the_first_met(monkeypatch):
    """Thousands of unique classes tie at the cut: the listed ones are those met first."""
    import sdc.core.keys as keys_mod

    rng = np.random.default_rng(6)
    n = 30_000
    df = pd.DataFrame({"a": rng.permutation(n) * 7919 % 100_003, "b": rng.integers(0, 50, n)})
    df.loc[5:9, ["a", "b"]] = [1, 1]  # one class of 5 records, early
    df.loc[rng.random(n) < 0.05, "b"] = np.nan  # and the wildcard rule
    ref = sdc.k_anonymity(df, ["a", "b"], top=8).riskiest_classes
    ref_risk, ref_classes = sdc.individual_risk(df, ["a", "b"]).risk, key_classes(df, ["a", "b"]).classes
    monkeypatch.setattr(keys_mod, "BUCKETS_FROM", 1)
    assert not key_classes(df, ["a", "b"]).encoded.first_order  # the bucketed path is taken
    got = sdc.k_anonymity(df, ["a", "b"], top=8).riskiest_classes
    pd.testing.assert_frame_equal(ref, got)
    pd.testing.assert_series_equal(ref_risk, sdc.individual_risk(df, ["a", "b"]).risk)
    classes = key_classes(df, ["a", "b"]).classes
    assert np.array_equal(ref_classes.ids, classes.ids) and np.array_equal(ref_classes.sizes, classes.sizes)
    uniq = df.drop(index=range(5, 10))
    pd.testing.assert_frame_equal(got[["a", "b"]], uniq.head(8)[["a", "b"]].reset_index(drop=True),
                                  check_dtype=False)


@given(microdata(max_rows=40))
@settings(max_examples=scale.examples(80))
def test_levels_from_codes_equal_column_levels(case):
    df, keys, _ = case
    enc = encode_keys(df, tuple(keys))
    for j, k in enumerate(keys):
        if isinstance(df[k].dtype, pd.CategoricalDtype):
            continue
        got, lv = levels_from_codes(df[k], enc.codes[j])
        ref, lv_ref = column_levels(df[k], sort=True)
        assert got.tolist() == ref.tolist() and list(lv) == list(lv_ref)


# ---------------------------------------------------------------------------------------------
# The wildcard rule by range probes
# ---------------------------------------------------------------------------------------------
def _brute_sums(X: np.ndarray, c: np.ndarray, w: np.ndarray):
    miss = X < 0
    partial, allm = miss.any(1), miss.all(1)
    P = len(X)
    out = [np.zeros(P, dtype=np.int64), np.zeros(P, dtype=np.int64), np.zeros(P), np.zeros(P)]
    for i in range(P):
        if allm[i]:
            continue
        both = ~miss[i] & ~miss
        comp = np.all((X == X[i]) | ~both, axis=1)
        comp[i] = False
        sel_c = comp & ~partial
        sel_p = comp & partial & (True if partial[i] else ~allm)
        if partial[i]:
            out[0][i], out[2][i] = c[sel_c].sum(), math.fsum(w[sel_c])
        out[1][i], out[3][i] = c[sel_p].sum(), math.fsum(w[sel_p])
    return out, partial, allm


@pytest.mark.parametrize("seed", range(4))
def test_compatible_sums_match_brute_force(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    for trial in range(scale.cases(120)):
        monkeypatch.setattr(compatible, "_CHUNK", int(rng.choice([3, 50, 1 << 21])))
        monkeypatch.setattr(compatible, "_ORDER_COST", float(rng.choice([0.0, 0.5, 1e9])))
        K = int(rng.integers(2, 7))
        n = int(rng.integers(1, 300))
        cards = [int(rng.integers(1, 12)) for _ in range(K)]
        X = np.column_stack([rng.integers(0, cd, n) for cd in cards])
        X[rng.random((n, K)) < rng.choice([0.02, 0.1, 0.3, 0.6])] = -1
        X = np.unique(X, axis=0)
        c = rng.integers(1, 5, len(X))
        w = c * rng.uniform(1, 50, len(X)) if trial % 2 else c.astype(float) * 3
        got = compatible.compatible_sums([X[:, j].copy() for j in range(K)], cards, c, w)
        ref, partial, allm = _brute_sums(X, c, w)
        ok = ~allm
        assert (got.partial == partial).all() and (got.all_missing == allm).all()
        assert (got.c_complete[ok] == ref[0][ok]).all() and (got.c_partial[ok] == ref[1][ok]).all()
        # weight sums to about one rounding, whatever the order of the data
        np.testing.assert_allclose(got.w_complete[ok], ref[2][ok], rtol=4e-16, atol=0)
        np.testing.assert_allclose(got.w_partial[ok], ref[3][ok], rtol=4e-16, atol=0)


@given(microdata(min_keys=2, max_keys=5, max_rows=30), st_alpha := __import__("hypothesis").strategies.sampled_from(
    [1.0, 0.5, 0.0]))
@settings(max_examples=scale.examples(150))
def test_wildcard_frequencies_match_the_rule_record_by_record(case, st_alpha):
    df, keys, w = case
    f = sdc.frequencies(df, keys, weights=w, alpha=st_alpha)
    fk, Fk = brute.frequencies(df, keys, w, st_alpha)
    np.testing.assert_allclose(f.sample_frequency.to_numpy(dtype=float), fk, rtol=0, atol=1e-9)
    np.testing.assert_allclose(f.population_frequency.to_numpy(), Fk, rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# SUDA2's pruned search
# ---------------------------------------------------------------------------------------------
def _brute_msus(cols, max_size):
    X = np.column_stack(cols)
    n, K = X.shape
    unique = {}
    for size in range(0, max_size + 1):
        for S in itertools.combinations(range(K), size):
            u = np.zeros(n, dtype=bool)
            for i in range(n):
                if (X[i, list(S)] < 0).any():
                    continue
                same = np.all(X[:, list(S)] == X[i, list(S)], axis=1) & np.all(X[:, list(S)] >= 0, axis=1)
                u[i] = same.sum() == 1
            unique[S] = u
    out = {}
    for size in range(1, max_size + 1):
        for S in itertools.combinations(range(K), size):
            m = unique[S].copy()
            for v in S:
                m &= ~unique[tuple(x for x in S if x != v)]
            if m.any():
                out[S] = np.flatnonzero(m).tolist()
    return out


@pytest.mark.parametrize("seed", range(3))
def test_minimal_uniques_match_brute_force(seed):
    rng = np.random.default_rng(seed)
    for _ in range(40):
        n, K = int(rng.integers(1, 40)), int(rng.integers(1, 5))
        cols = [rng.integers(-1 if rng.random() < 0.5 else 0, int(rng.integers(1, 4)), n) for _ in range(K)]
        cards = [int(max(c.max(), 0)) + 1 for c in cols]
        size = int(rng.integers(1, K + 1))
        got = {S: rows.tolist() for S, rows in minimal_uniques(cols, cards, size)}
        assert got == _brute_msus(cols, size)


# ---------------------------------------------------------------------------------------------
# k-anonymity, individual risk
# ---------------------------------------------------------------------------------------------
def test_top_by_selects_the_lexicographic_top():
    rng = np.random.default_rng(3)
    for _ in range(300):
        n, top = int(rng.integers(1, 200)), int(rng.integers(0, 15))
        a, b, c = rng.integers(0, 4, n).astype(float), rng.integers(0, 3, n), rng.permutation(n)
        pick = _top_by([a, b], top)
        keep = _top_by([a[pick], b[pick], c[pick]], top)
        pick = pick[keep]
        got = pick[np.lexsort((c[pick], b[pick], a[pick]))][:top]
        assert got.tolist() == np.lexsort((c, b, a))[:top].tolist()


@given(microdata(max_rows=40))
@settings(max_examples=scale.examples(60))
def test_profile_and_risk_from_patterns_equal_record_figures(case):
    df, keys, w = case
    prof = sdc.k_anonymity(df, keys, weights=w, k=2, top=5)
    risk = sdc.individual_risk(df, keys, weights=w)
    f = prof.sample_frequency.to_numpy(dtype=float)
    assert prof.median_k == float(np.median(f)) and prof.min_k == float(f.min())
    sizes = prof.class_sizes
    assert int(sizes["n_records"].sum()) == len(df)
    r = risk.risk.to_numpy()
    n_high = int(np.count_nonzero((r > np.median(r) + 3 * sdc._stats.mad(r)) & (r > 0.1)))
    assert risk.n_higher_risk() == n_high
    assert risk.max_risk == float(r.max())


def test_weighted_median_of_whole_numbers_without_sorting():
    rng = np.random.default_rng(4)
    for _ in range(500):
        v = rng.integers(0, 30, int(rng.integers(1, 40)))
        c = rng.integers(1, 5, v.size)
        assert sdc._stats.weighted_median(v, c) == float(np.median(np.repeat(v, c)))


# ---------------------------------------------------------------------------------------------
# l-diversity, t-closeness
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["sdcmicro", "correct"])
def test_ldiversity_one_record_classes_shortcut(mode, monkeypatch):
    import sdc.attribute.ldiversity as ld

    rng = np.random.default_rng(5)
    for _ in range(30):
        n = int(rng.integers(5, 300))
        df = pd.DataFrame({"a": rng.integers(0, 40, n), "b": rng.integers(0, 30, n),
                           "s": rng.choice([1.0, 2.0, 3.0, -999.0, np.nan], n)})
        for c in (2.0, 1.5):
            fast = sdc.l_diversity(df, ["a", "b"], "s", mode=mode, c=c)
            with monkeypatch.context() as m:
                # every class through the class-by-value table: the slow path
                m.setattr(ld, "_assess_sensitive", _no_shortcut(ld))
                slow = sdc.l_diversity(df, ["a", "b"], "s", mode=mode, c=c)
            pd.testing.assert_frame_equal(fast.records, slow.records)
            pd.testing.assert_frame_equal(fast.classes, slow.classes)


def _no_shortcut(ld):
    def assess(classes, s, miss_code, c, mode, key_order):
        table = ld.cells(classes, s)
        vals = ld._class_values(table, classes, miss_code, c, mode)
        if key_order is not None and np.isnan(vals["recursive"]).any():
            vals["recursive"] = ld._carry_forward(vals["recursive"], key_order())
        return vals, lambda: ld.dominant_values(table, s, miss_code)
    return assess


def test_recursive_shortcut_equals_the_loop():
    import inspect

    import sdc.attribute.ldiversity as ld

    src = inspect.getsource(ld._recursive).replace("def _recursive(", "def _slow(").replace(
        "if float(c).is_integer()", "if False and float(c).is_integer()")
    ns = dict(ld.__dict__)
    exec(src, ns)  # noqa: S102 - the same function with the shortcut switched off
    rng = np.random.default_rng(6)
    for _ in range(1000):
        G, n = int(rng.integers(1, 30)), int(rng.integers(0, 120))
        cls, cnt = rng.integers(0, G, n), rng.integers(1, 20, n)
        for c in (1.0, 2.0, 3.0):
            for dt in (np.float32, np.float64):
                assert np.array_equal(ld._recursive(cls, cnt, G, c, dt), ns["_slow"](cls, cnt, G, c, dt), equal_nan=True)


@pytest.mark.parametrize("distance", ["ordered", "equal", "wasserstein"])
def test_tcloseness_one_value_classes_shortcut(distance, monkeypatch):
    import sdc.attribute.closeness as cl

    rng = np.random.default_rng(7)
    n = 2000
    df = pd.DataFrame({"a": rng.integers(0, 300, n), "b": rng.integers(0, 50, n),
                       "s": rng.choice([1.0, 2.5, 4.0, 8.0, np.nan], n)})
    fast = sdc.t_closeness(df, ["a", "b"], "s", distance=distance)
    monkeypatch.setattr(cl, "_single_value_classes", lambda prep: None)
    slow = sdc.t_closeness(df, ["a", "b"], "s", distance=distance)
    np.testing.assert_array_equal(fast.records.to_numpy(), slow.records.to_numpy())


# ---------------------------------------------------------------------------------------------
# Typed reading of some columns; the chunked risk of a file
# ---------------------------------------------------------------------------------------------
def _write(tmp_path, text):
    p = tmp_path / "d.csv"
    p.write_text(text, encoding="utf-8")
    return p


def test_read_columns_equals_read_data(tmp_path, monkeypatch):
    monkeypatch.setattr(sio, "CHUNK_ROWS", 3)  # chunks that disagree on types
    rows = ["id,a,b,c,zip,t", "1,1,2.5,x,02134,NA", "2,,3,7,00501,ok", "3,4,1,y,12345,NA", "4,5,,8,02134,z",
            "5,6,2,9,00501,NA", "6,7,3.5,z,99999,q", "7,8,4,1,02134,NA"]
    p = _write(tmp_path, "\n".join(rows) + "\n")
    ref = sio.read_data(p)
    for cols in (["a"], ["a", "b"], ["c", "zip", "t"], ["b", "id"]):
        got = sio.read_columns(p, cols)
        pd.testing.assert_frame_equal(got, ref[cols])
        small = sio.read_columns(p, cols, compact=True)
        assert small.astype(object).equals(ref[cols].astype(object))
    # a column the file lacks: every column, so that the caller's checks name what is there
    assert list(sio.read_columns(p, ["a", "nope"]).columns) == list(ref.columns)


def test_read_columns_refuses_what_read_data_refuses(tmp_path):
    p = _write(tmp_path, "a,b\n1,2\n3\n")
    with pytest.raises(sdc.exceptions.DataFileError, match="line 3"):
        sio.read_columns(p, ["a"])


def test_risk_from_file_equals_in_memory(tmp_path, monkeypatch):
    import sdc.core.stream as stream

    rng = np.random.default_rng(8)
    monkeypatch.setattr(stream, "_MERGE_AT", 5)  # chunk lists merged often
    for trial in range(25):
        # Patterns counted in dense arrays, or as hashed lists merged along the way.
        monkeypatch.setattr(stream, "_DENSE", 1 << 25 if trial % 3 else 0)
        n, K = int(rng.integers(5, 2000)), int(rng.integers(1, 5))
        df = pd.DataFrame({f"k{j}": rng.integers(0, int(rng.integers(1, 8)), n) for j in range(K)})
        if rng.random() < 0.5:
            df["k0"] = df["k0"].astype(float)
            df.loc[rng.random(n) < 0.1, "k0"] = np.nan
        if K > 1 and rng.random() < 0.4:
            df["k1"] = np.array(["a", "b", "NA", "x"])[rng.integers(0, 4, n)]
        if rng.random() < 0.3:
            df["k0"] = df["k0"] * 1e9
        if rng.random() < 0.3:
            df["k0"] = df["k0"] + 0.5
        df["w"] = np.round(rng.uniform(1, 10, n), 3)
        path = tmp_path / f"t{trial}.csv"
        df.to_csv(path, index=False)
        keys = [f"k{j}" for j in range(K)]
        wt = "w" if trial % 2 else None
        data = sio.read_data(path)
        p1, r1 = sdc.k_anonymity(data, keys, weights=wt), sdc.individual_risk(data, keys, weights=wt)
        p2, r2 = risk_from_file(path, keys, weights=wt, chunk_rows=int(rng.integers(1, 400)))
        assert (p1.n_classes, p1.n_unique, p1.n_k_lt_threshold, p1.min_k, p1.median_k) == \
               (p2.n_classes, p2.n_unique, p2.n_k_lt_threshold, p2.min_k, p2.median_k)
        assert r2.expected_reidentifications == pytest.approx(r1.expected_reidentifications, rel=1e-12)
        assert r2.global_threshold == pytest.approx(r1.global_threshold, rel=1e-12, nan_ok=True)
        assert r1.n_higher_risk() == r2.n_higher_risk()
        pd.testing.assert_frame_equal(p1.class_sizes, p2.class_sizes)
        a, b = p1.riskiest_classes, p2.riskiest_classes
        assert a[keys].astype(str).values.tolist() == b[keys].astype(str).values.tolist()
        with pytest.raises(ValueError, match="chunks"):
            _ = r2.risk


def test_risk_from_file_checks_the_file_once(tmp_path, monkeypatch):
    """Its passes (values of the keys, distinct values of text keys, counting) read the file
    three times but check its structure once."""
    path = tmp_path / "once.csv"
    pd.DataFrame({"a": ["x", "y", "x", "z"], "b": [1, 2, 1, 2], "w": [1.0, 2.0, 3.0, 4.0]}).to_csv(path, index=False)
    calls = []
    real = sio.check_structure
    monkeypatch.setattr(sio, "check_structure", lambda *a: calls.append(a) or real(*a))
    prof, _ = risk_from_file(path, ["a", "b"], weights="w", chunk_rows=2)
    assert len(calls) == 1 and prof.n_classes == 3
    with pytest.raises(ValueError, match="were not checked"):
        next(sio.ColumnFile(path, ["a"]).chunks(["b"]))
    with pytest.raises(sdc.exceptions.DataFileError, match="no such file"):
        sio.ColumnFile(tmp_path / "nope.csv", ["a"])
    with pytest.raises(sdc.exceptions.DataFileError, match="it is a directory"):
        sio.ColumnFile(tmp_path, ["a"])


def test_cli_risk_in_chunks_prints_the_same(tmp_path, capsys):
    rng = np.random.default_rng(9)
    df = pd.DataFrame({"a": rng.integers(0, 5, 3000), "b": rng.integers(0, 7, 3000), "w": rng.uniform(1, 9, 3000)})
    p = tmp_path / "f.csv"
    df.to_csv(p, index=False)
    from sdc.cli.main import main

    assert main(["risk", str(p), "--keys", "a,b", "--weights", "w"]) == 0
    whole = capsys.readouterr().out
    assert main(["risk", str(p), "--keys", "a,b", "--weights", "w", "--chunks", "700"]) == 0
    assert capsys.readouterr().out == whole
    assert main(["risk", str(p), "--keys", "a,b", "--household", "a", "--chunks", "700"]) == 2


# ---------------------------------------------------------------------------------------------
# CSV bytes
# ---------------------------------------------------------------------------------------------
def test_csv_bytes_are_pandas_bytes(monkeypatch):
    monkeypatch.setattr(files, "_FAST_CSV_ROWS", 5)
    monkeypatch.setattr(files, "_CSV_CHUNK_ROWS", 7)
    rng = np.random.default_rng(10)
    words = np.array(["a", "b,c", 'q"u', "x\ry", "", "é", "line\nbreak", "  sp", "=1", "s;t", "p|q", "t\tu"],
                     dtype=object)
    for _ in range(200):
        n = int(rng.integers(5, 60))
        cols = {}
        for j in range(int(rng.integers(2, 7))):
            kind = rng.integers(0, 7)
            if kind == 0:
                cols[f"c{j}"] = rng.integers(-5, 5, n)
            elif kind == 1:
                v = rng.normal(size=n) * 10.0 ** rng.integers(-8, 20)
                v[rng.random(n) < 0.2] = np.nan
                cols[f"c{j}"] = v
            elif kind == 2:
                cols[f"c{j}"] = rng.random(n) < 0.5
            elif kind == 3:
                v = words[rng.integers(0, len(words), n)]
                v[rng.random(n) < 0.2] = None
                cols[f"c{j}"] = v
            elif kind == 4:
                cols[f"c{j}"] = pd.Categorical(rng.choice(["lo", "mid", "hi"], n), categories=["hi", "lo", "mid", "z"])
            elif kind == 5:
                v = pd.array(rng.integers(0, 3, n), dtype="Int64")
                v[rng.random(n) < 0.3] = pd.NA
                cols[f"c{j}"] = v
            else:
                cols[f"c{j}"] = np.round(rng.random(n), 2)
        df = pd.DataFrame(cols)
        assert files.csv_bytes(df) == files.csv_text(df).encode("utf-8")
        # A released file keeps its input's delimiter and line ends: the bytes to_csv writes.
        sep, end = [(",", "\n"), (";", "\r\n"), (";", "\n"), ("\t", "\n"), ("|", "\r\n")][int(rng.integers(0, 5))]
        want = df.to_csv(index=False, sep=sep, lineterminator=end).encode("utf-8")
        assert files.csv_bytes(df, sep=sep, lineterminator=end) == want



def test_csv_chunks_numbers_are_pandas_bytes(monkeypatch):
    """Whole numbers written digit by digit, floats by their distinct values (signed zeros
    apart), at the ends of their ranges: the bytes pandas writes."""
    monkeypatch.setattr(files, "_FAST_CSV_ROWS", 5)
    rng = np.random.default_rng(11)
    i64 = np.iinfo(np.int64)
    edge = np.array([0, 1, -1, 9, 10, -10, 99, 100, i64.max, i64.min + 1, 10**18, -(10**18)], dtype=np.int64)
    for _ in range(100):
        n = int(rng.integers(5, 80))
        df = pd.DataFrame({
            "i": rng.choice(edge, n),
            "small": rng.integers(-3, 1000, n).astype(np.int16),
            "u": rng.integers(0, 2**63, n, dtype=np.uint64) * np.uint64(2),  # beyond int64 too
            "z": rng.choice(np.array([0.0, -0.0, 1.5, np.nan]), n),
            "f": rng.choice(np.array([0.1, 1e-300, 1e22, -np.inf, np.nan, 2.5]), n),
            "f32": rng.normal(size=n).astype(np.float32),
            "one": np.int64(i64.min),
        })
        want = files.csv_text(df).encode("utf-8")
        assert files.csv_bytes(df) == want
        assert b"".join(bytes(c) for c in files.csv_chunks(df)) == want

def test_key_classes_shared_by_the_cli_measures_give_the_same_results():
    rng = np.random.default_rng(11)
    df = pd.DataFrame({"a": rng.integers(0, 9, 500), "b": rng.choice(["x", "y", None], 500), "w": rng.uniform(1, 5, 500)})
    kc = key_classes(df, ["a", "b"])
    for fn in (sdc.k_anonymity, sdc.individual_risk):
        r1, r2 = fn(df, ["a", "b"], weights="w"), fn(df, kc, weights="w")
        for name in ("sample_frequency",):
            pd.testing.assert_series_equal(getattr(r1, name), getattr(r2, name))


def test_read_columns_mixed_pieces_of_one_chunk(tmp_path):
    """pandas parses a chunk in pieces typed on their own: numbers in one piece and text in
    another make an object column of both (10 and "10"); such a column is read whole."""
    n = 300_000
    first = np.arange(n) < 280_000
    df = pd.DataFrame({"a": np.where(first, "10", "abc"), "b": np.arange(n),
                       "c": np.where(first, "1.5", "10"), "t": np.where(np.arange(n) % 7 == 0, "True", "False"),
                       # int64 and uint64 pieces, and a big whole number with a fraction: pandas
                       # joins them as float64, which a whole read does not give
                       "u": np.where(first, "1", str(2 ** 63 + 5)),
                       "f": np.where(first, "9223372036854775807", "0.5")})
    df.loc[n - 1, "t"] = ""
    path = tmp_path / "mixed.csv"
    df.to_csv(path, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pd.errors.DtypeWarning)
        raw = pd.read_csv(path, usecols=["a"], low_memory=True)["a"]
    assert sio._mixed(raw)  # the case this guards against does occur
    ref = sio.read_data(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = sio.read_columns(path, ["a", "b", "c", "t", "u", "f"])
    pd.testing.assert_frame_equal(got, ref[["a", "b", "c", "t", "u", "f"]])
    assert got["u"].dtype == np.uint64 and int(got["u"].iloc[-1]) == 2 ** 63 + 5


def test_read_columns_chunks_of_signed_and_unsigned_integers(tmp_path, monkeypatch):
    monkeypatch.setattr(sio, "CHUNK_ROWS", 2)  # chunks of int64, then uint64, then float64
    path = _write(tmp_path, "u,f\n1,1\n2,2\n" + f"{2 ** 63 + 5},{2 ** 62 + 1}\n3,0.5\n")
    ref = sio.read_data(path)
    pd.testing.assert_frame_equal(sio.read_columns(path, ["u"]), ref[["u"]])
    pd.testing.assert_frame_equal(sio.read_columns(path, ["f"]), ref[["f"]])


def test_risk_from_file_reads_mixed_pieces_again_whole(tmp_path, monkeypatch):
    """`sdc risk --chunks` parses chunks in pandas' low-memory pieces; a chunk whose pieces are
    typed differently (numbers in one, text in another: 10 and "10") is read again without
    pieces, and the figures are those of reading the whole file."""
    import sdc.core.stream as streamed

    n = 300_000
    first = np.arange(n) < 280_000
    df = pd.DataFrame({"a": np.where(first, "10", "abc"), "b": np.arange(n) % 50,
                       "c": np.where(np.arange(n) % 3 == 0, "10", "x")})
    path = tmp_path / "mixed.csv"
    df.to_csv(path, index=False)
    runs = []
    real = streamed._file_patterns
    monkeypatch.setattr(streamed, "_file_patterns", lambda *a, **kw: runs.append(kw["pieces"]) or real(*a, **kw))
    data = sio.read_data(path)
    for keys in (["a", "b"], ["c", "b"]):
        runs.clear()
        prof, risk = risk_from_file(path, keys, chunk_rows=n)
        assert runs == ([True, False] if keys[0] == "a" else [True])  # only the mixed column restarts
        ref = sdc.k_anonymity(data, keys)
        assert (prof.n_classes, prof.n_unique, prof.min_k) == (ref.n_classes, ref.n_unique, ref.min_k)
        assert risk.expected_reidentifications == pytest.approx(
            sdc.individual_risk(data, keys).expected_reidentifications, rel=1e-12)


def test_risk_from_file_wide_offsets_packed_in_mixed_radix(tmp_path):
    """Keys whose offset codes need 21 bits each: 63 bits of fields do not fit, the mixed
    radix (about 2^60) does; the figures are those of the in-memory measures."""
    import sdc.core.stream as stream

    rng = np.random.default_rng(3)
    n = 400
    df = pd.DataFrame({f"k{j}": rng.choice([0, 7, 2 ** 20 - 1], n).astype(float) for j in range(3)})
    df.loc[rng.random(n) < 0.1, "k1"] = np.nan
    path = tmp_path / "wide.csv"
    df.to_csv(path, index=False)
    keys = ["k0", "k1", "k2"]
    doms = []
    for c in keys:
        d = stream.KeyDomain(c)
        d.update(df[c])
        d.finish()
        doms.append(d)
    counter = stream.PatternCounter(doms, weighted=False)
    assert counter.bits is None and not counter.dense  # the case under test
    data = sio.read_data(path)
    prof, risk = risk_from_file(path, keys, chunk_rows=37)
    ref = sdc.k_anonymity(data, keys)
    assert (prof.n_classes, prof.n_unique, prof.min_k) == (ref.n_classes, ref.n_unique, ref.min_k)
    pd.testing.assert_frame_equal(prof.class_sizes, ref.class_sizes)
    assert risk.expected_reidentifications == pytest.approx(
        sdc.individual_risk(data, keys).expected_reidentifications, rel=1e-12)
    a, b = ref.riskiest_classes, prof.riskiest_classes
    assert a[keys].astype(str).values.tolist() == b[keys].astype(str).values.tolist()


def test_csv_bytes_keep_the_text_of_equal_values(monkeypatch):
    """Values equal to Python but written differently (1, 1.0, True; Decimal("1.0") and 1; -0.0
    and 0.0 in nullable floats and complex numbers) keep their own text, as to_csv writes them."""
    import decimal

    monkeypatch.setattr(files, "_FAST_CSV_ROWS", 5)
    rng = np.random.default_rng(12)
    n = 40
    pick = lambda pool: np.array([pool[i] for i in rng.integers(0, len(pool), n)], dtype=object)  # noqa: E731
    df = pd.DataFrame({
        "one": pick([1, 1.0, True, "x", None]),
        "zero": pick([0, 0.0, -0.0, False]),
        "dec": pick([decimal.Decimal("1.0"), decimal.Decimal("1"), 1]),
        "f64": pd.array(rng.choice([0.0, -0.0, 1.5], n), dtype="Float64"),
        "cx": rng.choice(np.array([0j, complex(0, -0.0), complex(-0.0, 1)]), n),
        "text": pick(["a", "b;c", None]),
    })
    for sep, end in [(",", "\r\n"), (";", "\n"), ("\t", "\n"), ("|", "\r\n")]:
        want = df.to_csv(index=False, sep=sep, lineterminator=end).encode("utf-8")
        assert files.csv_bytes(df, sep=sep, lineterminator=end) == want
