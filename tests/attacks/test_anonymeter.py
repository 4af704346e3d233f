"""Singling out, linkability and inference (anonymeter's design): formulas, hand-made files, seeds."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sdc
from sdc.attacks.anonymeter import inference_attack, linkability_attack, residual_risk, split_control, success_rate
from sdc.attacks.singling_out import _condition, _count, _so_model, _Table, singling_out_attack


# ---------------------------------------------------------------- statistics
def test_wilson_hand_computed():
    r = success_rate(100, 50, 0.95)
    z = 1.959963984540054
    assert r.rate == pytest.approx(0.5)
    assert r.error == pytest.approx(z / (100 + z * z) * math.sqrt(25 + z * z / 4), rel=1e-12)
    assert r.error == pytest.approx(0.0961685, abs=1e-7)
    r0 = success_rate(10, 0, 0.95)  # the Wilson centre moves off 0
    assert r0.rate == pytest.approx((0 + z * z / 2) / (10 + z * z))
    assert r0.ci[0] == 0.0
    r1 = success_rate(10, 10, 0.95)
    assert r1.ci[1] == 1.0 and r1.rate < 1.0


def test_residual_risk_formula():
    main = sdc.attacks.SuccessRate(100, 50, 0.5, 0.1)
    ctrl = sdc.attacks.SuccessRate(100, 20, 0.2, 0.05)
    value, lo, hi = residual_risk(main, ctrl)
    err = math.sqrt((0.1 / 0.8) ** 2 + (0.05 * (0.5 - 1) / 0.64) ** 2)
    assert value == pytest.approx(0.375) and lo == pytest.approx(0.375 - err) and hi == pytest.approx(0.375 + err)
    # Below control: clipped to 0; no control: the main rate; control always right: undefined.
    assert residual_risk(sdc.attacks.SuccessRate(10, 1, 0.1, 0.01), ctrl)[0] == 0.0
    assert residual_risk(main, None) == (0.5, 0.4, 0.6)
    assert all(math.isnan(v) for v in residual_risk(main, sdc.attacks.SuccessRate(5, 5, 1.0, 0.0)))


def test_singling_out_model_integral():
    # norm x integral_0^w n x (1 - x)^(n-1) dx, checked numerically.
    from scipy.integrate import quad

    for n, w in ((10, 0.1), (200, 0.003), (1000, 0.0005)):
        val, _ = quad(lambda x: n * x * (1 - x) ** (n - 1), 0, w)
        assert float(_so_model(np.array([n]), w, 2.0)[0]) == pytest.approx(2 * val, rel=1e-8)


# ---------------------------------------------------------------- queries
def test_conditions_treat_missing_as_matching_nothing():
    a = np.array([1.0, np.nan, 3.0])
    assert _condition(a, True, "!=", 1.0).tolist() == [False, False, True]
    assert _condition(a, True, ">=", 1.0).tolist() == [True, False, True]
    assert _condition(a, True, "isna", 0).tolist() == [False, True, False]
    codes = np.array([0, -1, 1])
    assert _condition(codes, False, "!=", 0).tolist() == [False, False, True]
    assert _condition(codes, False, "notna", 0).tolist() == [True, False, True]


def test_count_with_index_lookup_equals_scan():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"c": rng.choice(["x", "y", None], 200), "v": rng.normal(size=200)})
    t = _Table(df, df, None, ("c", "v"))
    for code in (0, 1, 5):
        q = ((0, "==", float(code)), (1, ">=", 0.0))
        mask = (t.data["original"][0] == code) & (t.data["original"][1] >= 0)
        assert _count(t, "original", q) == int(mask.sum())


@given(st.integers(0, 10_000), st.integers(1, 3), st.booleans())
def test_count_over_distinct_rows_is_the_count_over_records(seed: int, n_cols: int, sub: bool) -> None:
    """Queries are counted over each file's distinct rows weighted by their records (and, for
    the control-size correction, by a subsample's records): the count over the records."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    df = pd.DataFrame({"c": rng.choice(["x", "y", None], n), "d": rng.choice(["1", "2"], n),
                       "v": np.where(rng.random(n) < 0.2, np.nan, rng.integers(0, 3, n).astype(float))})
    ctrl = df.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    t = _Table(df, df, ctrl, ("c", "d", "v"))
    ops = ("==", "!=", ">=", "<=", ">", "<", "isna", "notna")
    for which in ("released", "original", "control"):
        rows = rng.choice(n, size=int(rng.integers(0, n + 1)), replace=False) if sub else np.arange(n)
        weights = np.bincount(t.distinct[which][2][rows], minlength=t.distinct[which][1].size) if sub else None
        for _ in range(20):
            cols = rng.choice(3, size=n_cols, replace=False)
            q = tuple((int(j), str(rng.choice(ops)), float(rng.integers(-1, 3))) for j in sorted(cols))
            mask = np.ones(n, dtype=bool)
            for j, op, value in q:
                mask &= _condition(t.data[which][j], t.numeric[j], op, value)
            assert _count(t, which, q, weights) == int(mask[rows].sum())


@given(st.integers(0, 10_000))
def test_table_codes_are_those_of_the_files_coded_together(seed: int) -> None:
    """The table codes each file's distinct rows, then codes only those together: every
    record's code means what the three files coded together (stacked) would give it."""
    from sdc.core.matching import encode_joint

    rng = np.random.default_rng(seed)

    def frame(n: int) -> pd.DataFrame:
        return pd.DataFrame({"t": pd.Series(rng.choice(["a", "b", "c", None], n), dtype=object),
                             "c": pd.Categorical(rng.choice(["p", "q"], n)),
                             "v": np.where(rng.random(n) < 0.2, np.nan, rng.integers(0, 3, n).astype(float))})

    rel, orig, ctrl = frame(int(rng.integers(1, 40))), frame(int(rng.integers(1, 40))), frame(int(rng.integers(0, 20)))
    t = _Table(rel, orig, ctrl, ("t", "c", "v"))
    stacked = encode_joint(rel, pd.concat([orig, ctrl], ignore_index=True), ("t", "c"))
    for j, col in ((0, 0), (1, 1)):
        new = np.concatenate([t.data[w][j] for w in ("released", "original", "control")])
        old = np.concatenate([stacked.left_codes[col], stacked.right_codes[col]])
        assert np.array_equal(new < 0, old < 0)
        pairs = set(zip(new.tolist(), old.tolist()))
        assert len(pairs) == len(set(new.tolist())) == len(set(old.tolist()))  # one-to-one
    for w, f in (("released", rel), ("original", orig), ("control", ctrl)):
        np.testing.assert_array_equal(t.data[w][2], f["v"].to_numpy())


def test_univariate_candidates_are_the_values_held_once_in_value_order():
    from sdc.attacks.singling_out import _univariate_queries

    df = pd.DataFrame({"c": ["b", "a", "b", "c", None, "d"], "v": [1.0, 2.0, 2.0, 5.0, np.nan, 7.0]})
    t = _Table(df, df, None, ("c", "v"))
    got = sorted(_univariate_queries(t, np.random.default_rng(0)), key=repr)
    codes = {v: t.data["released"][0][i] for i, v in enumerate(df["c"]) if v is not None}
    want = sorted([(((0, "isna", 0.0),), (None,)), (((1, "isna", 0.0),), (None,)),
                   (((1, "<=", 1.0),), (1.0,)), (((1, ">=", 7.0),), (7.0,)),
                   (((1, "==", 1.0),), (1.0,)), (((1, "==", 5.0),), (5.0,)), (((1, "==", 7.0),), (7.0,))]
                  + [(((0, "==", float(codes[v])),), (v,)) for v in ("a", "c", "d")], key=repr)
    assert got == want


# ---------------------------------------------------------------- singling out
@pytest.fixture
def people():
    rng = np.random.default_rng(5)
    n = 400
    return pd.DataFrame({
        "age": rng.integers(18, 90, n), "sex": rng.choice(["f", "m"], n), "zip": rng.choice(list("abcdefgh"), n),
        "income": rng.lognormal(10, 1, n).round(-2), "dx": rng.choice(["flu", "ulcer", "none"], n),
    })


def test_singling_out_on_the_original_itself(people):
    train, control = split_control(people, share=0.5, seed=1)
    r = singling_out_attack(train, train, control=control, n_attacks=100, seed=2)
    # A query that singles out a released record singles out the same training record.
    assert r.main.n_success == r.main.n_attacks > 0
    assert r.details["main_success"].all()
    assert r.control.rate < r.main.rate and r.risk > 0.5
    assert r.risk_ci[0] <= r.risk <= r.risk_ci[1]
    # Same seed, same result; another seed, other queries.
    r2 = singling_out_attack(train, train, control=control, n_attacks=100, seed=2)
    pd.testing.assert_frame_equal(r.details, r2.details)
    pd.testing.assert_frame_equal(r.summary(), r2.summary())
    r3 = singling_out_attack(train, train, control=control, n_attacks=100, seed=3)
    assert not r3.details["query"].equals(r.details["query"])


def test_singling_out_univariate_hand_made():
    rel = pd.DataFrame({"a": [1, 2, 2, 3], "b": ["x", "x", "y", None]})
    orig = pd.DataFrame({"a": [1, 2, 2, 3], "b": ["x", "x", "y", None]})
    r = singling_out_attack(orig, rel, mode="univariate", n_attacks=50, seed=0)
    queries = set(r.details["query"])
    # a <= 1, a >= 3, a == 1, a == 3, b == 'y', b is missing: each selects one record.
    assert queries == {"a <= 1", "a >= 3", "a == 1", "a == 3", "b == 'y'", "b is missing"}
    assert r.main.n_success == 6
    assert any("found 6 singling-out queries" in n for n in r.notes)


def test_singling_out_fails_on_coarsened_release(people):
    train, control = split_control(people[["age", "sex", "zip"]], share=0.5, seed=1)
    coarse = train.assign(age=(train["age"] // 30) * 30)
    truth_view = train.assign(age=(train["age"] // 30) * 30)
    ctrl_view = control.assign(age=(control["age"] // 30) * 30)
    r = singling_out_attack(truth_view, coarse, control=ctrl_view, n_attacks=50, seed=1, max_attempts=3000)
    r_raw = singling_out_attack(train, train, control=control, n_attacks=50, seed=1, max_attempts=3000)
    assert r.main.n_attacks <= r_raw.main.n_attacks
    assert r.risk <= r_raw.risk


def test_singling_out_control_size_correction(people):
    train, control = split_control(people, share=0.25, seed=4)
    r = singling_out_attack(train, train, control=control, n_attacks=60, seed=5)
    raw = float(r.details["control_success"].sum())
    # The fitted model rescales control successes to the training size (or notes why not).
    assert r.control.n_success != raw or any("could not be fitted" in n for n in r.notes)


def test_singling_out_errors(people):
    with pytest.raises(ValueError, match="`n_cols` must be an integer <= 2"):
        singling_out_attack(people, people, columns=["age", "sex"], n_cols=3)
    with pytest.raises(ValueError, match="`mode` must be one of"):
        singling_out_attack(people, people, mode="bivariate")
    with pytest.raises(ValueError, match="`confidence` must lie in"):
        singling_out_attack(people, people, confidence=1.0)
    with pytest.raises(ValueError, match="`columns` names columns not in the original: 'dx'"):
        singling_out_attack(people.drop(columns="dx"), people, columns=["dx"])
    # each file is named, and the secret as the secret (it was called an aux column)
    train, control = split_control(people, share=0.3, seed=0)
    with pytest.raises(ValueError, match="`secret` names columns not in the control file: 'dx'"):
        inference_attack(train, train, ["age"], "dx", control=control.drop(columns="dx"))
    with pytest.raises(ValueError, match="`aux_cols` names columns not in the released file: 'age'"):
        inference_attack(train, train.drop(columns="age"), ["age"], "dx")


# ---------------------------------------------------------------- linkability
def test_linkability_unique_records_link_fully():
    n = 60
    df = pd.DataFrame({"a": np.arange(n), "b": np.arange(n) * 7 % n, "c": np.arange(n)[::-1] * 1.0,
                       "d": [f"v{i}" for i in range(n)]})
    train, control = df.iloc[:40], df.iloc[40:]
    r = linkability_attack(train, train, (["a", "b"], ["c", "d"]), control=control, n_attacks=30, seed=1)
    assert r.main.n_success == 30 and r.main.n_attacks == 30
    assert r.control.n_attacks == 20 and r.control.n_success < 20
    assert r.parameters["aux_cols"] == [["a", "b"], ["c", "d"]]


def test_linkability_reproducible_and_ties_random(people):
    train, control = split_control(people, share=0.3, seed=0)
    aux = (["age", "sex"], ["zip", "dx"])
    r1 = linkability_attack(train, train, aux, control=control, n_attacks=80, seed=9)
    r2 = linkability_attack(train, train, aux, control=control, n_attacks=80, seed=9)
    pd.testing.assert_frame_equal(r1.summary(), r2.summary())
    r3 = linkability_attack(train, train, aux, control=control, n_attacks=80, n_neighbors=10, seed=9)
    assert r3.main.n_success >= r1.main.n_success
    with pytest.raises(ValueError, match="must be disjoint; 'age' is in both"):
        linkability_attack(train, train, (["age"], ["age", "zip"]))
    with pytest.raises(TypeError, match="pair of column lists"):
        linkability_attack(train, train, ["age"])


# ---------------------------------------------------------------- inference
def test_inference_hand_made():
    orig = pd.DataFrame({"a": [1, 2, 3, 4], "s": ["x", "y", "x", "y"]})
    r = inference_attack(orig, orig, ["a"], "s", n_attacks=4, seed=0)
    assert r.main.n_success == 4  # each target's nearest released record is itself
    rel = orig.assign(s=["y", "x", "y", "x"])  # every secret swapped
    assert inference_attack(orig, rel, ["a"], "s", n_attacks=4, seed=0).main.n_success == 0


def test_inference_numeric_tolerance_and_missing():
    orig = pd.DataFrame({"a": [1, 2, 3], "s": [100.0, 200.0, np.nan]})
    rel = pd.DataFrame({"a": [1, 2, 3], "s": [104.0, 211.0, np.nan]})
    r = inference_attack(orig, rel, ["a"], "s", n_attacks=3, seed=0)
    assert r.parameters["regression"] is True
    # 104 is within 5% of 100; 211 is not within 5% of 200; two missing values agree.
    d = r.details.set_index("target")
    assert d["main_success"].tolist() == [True, False, True]
    assert inference_attack(orig, rel, ["a"], "s", n_attacks=3, tolerance=0.06, seed=0).main.n_success == 3


def test_inference_example_with_control():
    df = sdc.load_example()
    train, control = split_control(df, share=0.2, seed=1)
    aux = ["age", "sex", "region", "marital_status", "bmi"]
    r = inference_attack(train, train, aux, "diagnosis", control=control, n_attacks=200, seed=1)
    assert r.main.rate > r.control.rate > 0
    assert 0 < r.risk <= 1
    t = r.to_frame()
    assert t["attack"].tolist() == ["main", "baseline", "control"]
    d = r.to_dict()
    assert d["attack"] == "inference" and len(d["rates"]) == 3 and d["seed"] == 1
    with pytest.raises(ValueError, match="also in `aux_cols`"):
        inference_attack(train, train, ["age", "diagnosis"], "diagnosis")


def test_control_as_good_as_main_gives_zero_risk():
    df = pd.DataFrame({"a": [1, 1, 1, 1], "s": ["x", "x", "x", "x"]})
    r = inference_attack(df, df, ["a"], "s", control=df, n_attacks=4, seed=0)
    # Wilson's centre stays below 1 even for 4/4: the risk is defined, and 0.
    assert r.main.rate == r.control.rate < 1 and r.risk == 0.0
    assert any("no better than random guessing" in n for n in r.notes)


# ---------------------------------------------------------------- split_control
def test_split_control():
    df = sdc.load_example()
    train, control = split_control(df, share=0.2, seed=3)
    assert len(train) + len(control) == len(df) and len(control) == 825
    assert train.index.intersection(control.index).empty
    assert train.index.is_monotonic_increasing and control.index.is_monotonic_increasing
    t2, c2 = split_control(df, share=0.2, seed=3)
    assert c2.index.equals(control.index)
    with pytest.raises(ValueError, match="leaves no records"):
        split_control(df.head(2), share=0.1)


def test_singling_out_on_a_k_anonymous_release_is_zero():
    df = pd.DataFrame({"a": [1, 1, 2, 2], "b": ["x", "x", "y", "y"]})
    r = singling_out_attack(df, df, control=df, n_attacks=5, max_attempts=50, n_cols=2)
    assert r.main.n_attacks == 0 and r.risk == 0.0 and r.risk_ci == (0.0, 0.0)
    assert any("nothing to try" in n for n in r.notes)


def _knn_reference(md, k, rng):
    """The plain definition (the code before the fast paths): every distance, NaN rule on every
    numeric column, a partition for the k-th distance, strict ones sorted, ties drawn."""
    d = np.zeros((md.n_queries, md.n_candidates))
    for j in range(md.cnum.shape[1]):
        a, b = md.qnum[:, j][:, None], md.cnum[:, j][None, :]
        na_a, na_b = np.isnan(a), np.isnan(b)
        with np.errstate(invalid="ignore"):
            diff = np.where(np.isinf(a) | np.isinf(b), np.where(a == b, 0.0, 1.0), np.abs(a - b))
        d += np.where(na_a & na_b, 0.0, np.where(na_a | na_b, 1.0, diff))
    for j in range(md.ccat.shape[1]):
        d += md.qcat[:, j][:, None] != md.ccat[:, j][None, :]
    k = min(k, md.n_candidates)
    kth = np.partition(d, k - 1, axis=1)[:, k - 1]
    out = []
    for i in range(d.shape[0]):
        strict = np.flatnonzero(d[i] < kth[i])
        strict = strict[np.argsort(d[i, strict], kind="stable")]
        pick = rng.choice(np.flatnonzero(d[i] == kth[i]), size=k - strict.size, replace=False)
        out.append(np.concatenate([strict, pick]))
    return np.array(out)


@given(st.integers(0, 10_000), st.integers(1, 6), st.booleans(), st.integers(1, 3), st.sampled_from([(2, 2), (2, 0), (0, 2), (1, 1)]))
def test_knn_fast_paths_give_the_definition(seed: int, k: int, nan: bool, budget_rows: int, shape) -> None:
    """knn works on the distinct candidate rows, skips the missing-value rule for columns
    without NaN, takes the minimum for k = 1 and reuses one scratch array: the same
    neighbours, ties drawn alike, as the definition over every record."""
    from sdc.attacks._neighbors import MixedData, knn

    rng = np.random.default_rng(seed)
    m, nq = int(rng.integers(1, 60)), 7
    n_num, n_cat = shape
    cnum = rng.integers(0, 4, (m, n_num)) / 4.0  # few values: many ties, many repeated rows
    qnum = rng.integers(0, 4, (nq, n_num)) / 4.0
    if nan and n_num:
        cnum[rng.random(m) < 0.2, 0] = np.nan
        qnum[rng.random(nq) < 0.3, 0] = np.nan
        cnum[rng.random(m) < 0.1, -1] = rng.choice([np.inf, -np.inf])
        qnum[rng.random(nq) < 0.2, -1] = rng.choice([np.inf, -np.inf])
    md = MixedData(qnum, cnum, rng.integers(-1, 3, (nq, n_cat)), rng.integers(-1, 3, (m, n_cat)))
    got = knn(md, k, np.random.default_rng(seed), budget=budget_rows * md.counts.size)
    assert np.array_equal(got, _knn_reference(md, k, np.random.default_rng(seed)))


def _prepare_every_record(queries, candidates, columns):
    """The encoding over every candidate record (before distinct rows were found from the
    values): numbers scaled by the range of both files, other columns coded jointly."""
    from sdc.attacks._common import is_numeric_column
    from sdc.attacks._neighbors import MixedData
    from sdc.core.matching import encode_joint

    num = [c for c in columns if is_numeric_column(queries[c]) and is_numeric_column(candidates[c])]
    cat = tuple(c for c in columns if c not in num)
    qn = queries[num].to_numpy(dtype=np.float64, na_value=np.nan).reshape(len(queries), len(num))
    cn = candidates[num].to_numpy(dtype=np.float64, na_value=np.nan).reshape(len(candidates), len(num))
    if num:
        both = np.vstack([qn, cn])
        fin = np.where(np.isfinite(both), both, np.nan)
        lo = np.nan_to_num(np.nanmin(fin, axis=0)) if np.isfinite(both).any() else np.zeros(len(num))
        hi = np.nan_to_num(np.nanmax(fin, axis=0)) if np.isfinite(both).any() else np.ones(len(num))
        span = np.where(hi - lo > 0, hi - lo, 1.0)
        qn, cn = (qn - lo) / span, (cn - lo) / span
    if cat:
        j = encode_joint(queries, candidates, cat)
        qc, cc = np.column_stack(j.left_codes).astype(np.int64), np.column_stack(j.right_codes).astype(np.int64)
    else:
        qc, cc = np.empty((len(queries), 0), dtype=np.int64), np.empty((len(candidates), 0), dtype=np.int64)
    return MixedData(qn, cn, qc, cc)


@given(st.integers(0, 10_000), st.integers(1, 4))
def test_neighbours_from_distinct_value_rows_are_those_over_every_record(seed: int, k: int) -> None:
    """prepare() finds the candidates' distinct rows from their values (once per file and
    columns, reused for the control targets): the same neighbours as the encoding of every
    record, on text, numbers, missing values, booleans and categoricals."""
    from sdc.attacks._neighbors import CandidateRows, knn, prepare

    rng = np.random.default_rng(seed)
    m, nq = int(rng.integers(1, 50)), 6

    def frame(n: int) -> pd.DataFrame:
        return pd.DataFrame({
            "t": pd.Series(rng.choice(["a", "b", None], n), dtype=object),
            "x": np.where(rng.random(n) < 0.2, np.nan, rng.integers(0, 3, n).astype(float)),
            "i": rng.integers(0, 2, n),
            "b": rng.random(n) < 0.5,
            "c": pd.Categorical(rng.choice(["p", "q"], n)),
        })

    cand, queries = frame(m), frame(nq)
    cols = tuple(str(c) for c in rng.permutation(["t", "x", "i", "b", "c"])[: int(rng.integers(1, 6))])
    rows = CandidateRows(cand, cols)
    for q in (queries, queries.iloc[::-1]):
        got = knn(prepare(q, rows, cols), k, np.random.default_rng(seed))
        want = knn(_prepare_every_record(q, cand, cols), k, np.random.default_rng(seed))
        assert np.array_equal(got, want)


@given(st.lists(st.tuples(st.sampled_from([-5, -1, 0, 3, 10**12]), st.sampled_from([0.5, np.nan, -0.0, 2.0])),
                min_size=1, max_size=30))
def test_distinct_rows_of_values_and_codes(rows) -> None:
    """distinct_rows: one id per distinct row (NaN a value; integers beyond the codes' range
    factorised, not packed), the first record of each row, and its record count."""
    from sdc.core.patterns import distinct_rows

    a = np.array([r[0] for r in rows], dtype=np.int64)
    b = np.array([r[1] for r in rows], dtype=np.float64)
    ids, first, counts = distinct_rows([a, b])
    keys = [(int(x), "nan" if np.isnan(y) else float(y)) for x, y in zip(a, b)]
    order = list(dict.fromkeys(keys))
    assert ids.tolist() == [order.index(k) for k in keys]
    assert first.tolist() == [keys.index(k) for k in order]
    assert counts.tolist() == [keys.count(k) for k in order]


def test_infinite_values_are_values_of_their_own_in_distances():
    """An infinite value is at distance 0 from the same infinity, 1 from any other value (it
    was NaN, so no record was nearest and the attack failed on the draw)."""
    o = pd.DataFrame({"x": [np.inf, 1.0, 2.0, 3.0, -np.inf], "s": ["a", "b", "a", "b", "c"]})
    r = inference_attack(o, o.copy(), ["x"], "s", n_attacks=5, seed=1)
    assert r.main.n_attacks == 5 and bool(r.details["main_success"].all())
    r2 = linkability_attack(o.assign(y=o["x"]), o.assign(y=o["x"]), (["x"], ["y"]), n_attacks=5, seed=1)
    assert r2.main.n_success == 5


@pytest.mark.parametrize("seed", range(12))
def test_nearest_neighbour_measures_only_the_rows_that_can_be_nearest(seed):
    """k = 1 (issue 33): the rows measured are those within the number of numeric columns of
    the fewest mismatched categories; the neighbour drawn is the one drawn over every row's
    distance (the same distances, ties in row order, the same generator calls), with missing
    and infinite numbers, tied rows and duplicated records, in chunks of queries."""
    from sdc.attacks import _neighbors

    rng = np.random.default_rng(seed)
    n, nq = int(rng.integers(5, 80)), int(rng.integers(1, 30))

    def frame(size: int) -> pd.DataFrame:
        x = rng.choice([0.0, 0.5, 1.0, 2.0, np.nan, np.inf, 0.1, 0.2, 0.3], size)
        return pd.DataFrame({"x": x, "y": rng.integers(0, 3, size).astype(float),
                             "a": rng.choice(list("abc"), size), "b": rng.choice(list("pq"), size)})

    cands, queries = frame(n), frame(nq)
    cols = ("x", "y", "a", "b")[: int(rng.integers(1, 5))] if seed % 2 else ("a", "x", "b")
    md = _neighbors.prepare(queries, cands, cols)
    d = _neighbors._distances(md, slice(0, md.n_queries))
    draws = np.random.default_rng(seed)
    want = [int(t[draws.choice(t.size, size=1, replace=False)][0])
            for t in (md.records(np.flatnonzero(row == row.min())) for row in d)]
    for budget in (4_000_000, max(1, 3 * md.counts.size)):
        got = _neighbors.knn(md, 1, np.random.default_rng(seed), budget=budget)[:, 0]
        assert got.tolist() == want
