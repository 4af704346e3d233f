"""Local suppression with l (cell mode): the l-aware suppression of
:mod:`sdc.protect.suppression_diverse`, by hand, by brute force (hypothesis) and on the
seeded public-health file.

The checks are written from the definitions, record by record, and share no code with sdc:
under the conservative reading (a suppressed cell a value of its own, ARX's) every class of
the release has k records and is l-diverse; under the wildcard rule (sdcMicro's) every record
has f_k >= k (``tests/brute.py``) and the records compatible with it hold l distinct values;
never a record dropped that naive class dropping would keep.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from sdc.protect.suppression import local_suppression
from tests import brute, scale

pytestmark = pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")


def _val(v):
    return None if (v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))) else v


def _diverse(values: list, l: int, variant: str, c: float) -> bool:
    """One class's sensitive values (None = missing) meet l (no observed value: no l, passes)."""
    cnt = Counter(v for v in values if v is not None)
    if not cnt:
        return True
    r = sorted(cnt.values(), reverse=True)
    if variant == "distinct":
        return len(r) >= l
    if variant == "entropy":
        n = sum(r)
        h = -sum(x / n * math.log(x / n) for x in r)
        return math.exp(h) >= l * (1 - 1e-9)
    return len(r) >= l and r[0] < c * sum(r[l - 1:])


def _classes(df: pd.DataFrame, cols) -> dict[tuple, list[int]]:
    out: dict[tuple, list[int]] = {}
    for i, row in enumerate(df[list(cols)].itertuples(index=False, name=None)):
        out.setdefault(tuple(_val(v) for v in row), []).append(i)
    return out


def _conservative_ok(df, keys, strata, sens, k, l, variant, c) -> bool:
    for members in _classes(df, list(strata) + list(keys)).values():
        if len(members) < k:
            return False
        for s in sens:
            if not _diverse([_val(df[s].iloc[i]) for i in members], l, variant, c):
                return False
    return True


def _wildcard_ok(df, keys, strata, sens, k, l, alpha) -> bool:
    """f_k >= k per record, and >= l distinct sensitive values among the records compatible with it."""
    parts = [df] if not strata else [p for _, p in df.groupby(strata[0], dropna=False)]
    for part in parts:
        if len(part) == 0:
            continue
        fk, _ = brute.frequencies(part, keys, alpha=alpha)
        if (np.asarray(fk) < k - 1e-9).any():
            return False
        rows = brute._rows(part, keys)
        for s in sens:
            vals = [_val(v) for v in part[s]]
            for i, ri in enumerate(rows):
                compat = {vals[j] for j, rj in enumerate(rows)
                          if all(a is None or b is None or a == b for a, b in zip(ri, rj))} - {None}
                own = {vals[j] for j, rj in enumerate(rows) if rj == ri} - {None}
                if own and len(compat) < l:
                    return False
    return True


def _naive_kept(df, keys, strata, sens, k, l, variant, c) -> np.ndarray:
    kept = np.ones(len(df), dtype=bool)
    for members in _classes(df, list(strata) + list(keys)).values():
        ok = len(members) >= k and all(_diverse([_val(df[s].iloc[i]) for i in members], l, variant, c)
                                       for s in sens)
        if not ok:
            kept[members] = False
    return kept


# --------------------------------------------------------------------------------------
# By hand
# --------------------------------------------------------------------------------------
@pytest.fixture
def seven() -> pd.DataFrame:
    # (1,x) x2 both flu and (1,y) x2 both cold fail l = 2; (2,x) x3 holds three values.
    return pd.DataFrame({"a": [1, 1, 1, 1, 2, 2, 2], "b": ["x", "x", "y", "y", "x", "x", "x"],
                         "s": ["flu", "flu", "cold", "cold", "flu", "cold", "hiv"]})


def test_hand_merge_by_the_less_important_key(seven):
    # Importance: a and b have 2 values each, the earlier key is the more important (a = 1),
    # so {b} is scored first: (1,*) holds 4 records and {flu, cold}: the 4 failing records are
    # rescued with 4 cells. {a} rescues nothing ((*,x) holds flu only, (*,y) cold only).
    res = local_suppression(seven, ["a", "b"], k=2, sensitive="s", l=2)
    assert res.details["records_dropped"] == 0 and res.changed.to_dict() == {"a": 0, "b": 4}
    assert res.data["b"].isna().tolist() == [True] * 4 + [False] * 3
    assert res.details["k_anonymous"] and res.details["k_anonymous_conservative"]
    # record mode drops the two failing classes (naive class dropping, the best it can do)
    rec = local_suppression(seven, ["a", "b"], k=2, sensitive="s", l=2, unit="record")
    assert rec.details["records_dropped"] == 4 and rec.n_changed == 0


def test_hand_importance_decides_between_equal_scores():
    # Both {a} and {b} rescue the two failing classes; the less important key is suppressed.
    df = pd.DataFrame({"a": [1, 2, 3, 3, 3], "b": [1, 1, 2, 2, 2], "s": ["u", "v", "u", "v", "w"]})
    # (1,1) and (2,1) fail k = 2; {a}: (*,1) holds both, {u, v}; {b}: (1,*), (2,*) apart: fail.
    res = local_suppression(df, ["a", "b"], k=2, sensitive="s", l=2)
    assert res.changed.to_dict() == {"a": 2, "b": 0}


def test_hand_unrescuable_classes_are_dropped_and_no_more():
    # (1,x) x2 and (2,y) x2 all flu: every merge of them holds flu only -> dropped, as naive dropping does.
    df = pd.DataFrame({"a": [1, 1, 2, 2, 3, 3], "b": ["x", "x", "y", "y", "z", "z"],
                       "s": ["flu"] * 4 + ["flu", "cold"]})
    res = local_suppression(df, ["a", "b"], k=2, sensitive="s", l=2)
    assert res.details["kept"].tolist() == [False] * 4 + [True] * 2 and res.n_changed == 0


def test_hand_entropy_and_recursive_variants():
    # (1,x) x3 all flu, (1,y) cold and (1,z) hiv fail k = 2, l = 2; suppressing b merges them
    # into (1,*): flu x3, cold, hiv.
    df = pd.DataFrame({"a": [1, 1, 1, 1, 1, 2, 2, 2, 2], "b": list("xxxyz") + list("xxxx"),
                       "s": ["flu", "flu", "flu", "cold", "hiv", "flu", "cold", "hiv", "tb"]})
    for variant in ("distinct", "entropy", "recursive"):
        res = local_suppression(df, ["a", "b"], k=2, sensitive="s", l=2, l_variant=variant, c=2.0)
        assert _conservative_ok(res.data, ["a", "b"], [], ["s"], 2, 2, variant, 2.0), variant
    # {flu x3, cold, hiv}: exp(H) = 2.59 >= 2 and recursive (2, 2): 3 < 2 * (1 + 1) -> rescued
    rec = local_suppression(df, ["a", "b"], k=2, sensitive="s", l=2, l_variant="recursive", c=2.0)
    assert rec.details["records_dropped"] == 0
    strict = local_suppression(df, ["a", "b"], k=2, sensitive="s", l=2, l_variant="recursive", c=1.0)
    # recursive (1, 2): 3 < 1 * 2 fails on (1,*), and so on (*,*) of the same 5 records: dropped,
    # as naive dropping drops them
    assert strict.details["records_dropped"] == 5


def test_bad_l_variant(seven):
    with pytest.raises(ValueError, match="`l_variant` must be one of"):
        local_suppression(seven, ["a", "b"], k=2, sensitive="s", l=2, l_variant="shannon")
    with pytest.raises(ValueError, match="`c` must be"):
        local_suppression(seven, ["a", "b"], k=2, sensitive="s", l=2, l_variant="recursive", c=0)


# --------------------------------------------------------------------------------------
# Brute force on small random data
# --------------------------------------------------------------------------------------
@settings(max_examples=scale.examples(120), deadline=None)
@given(data=st.data())
def test_brute_force_both_readings_and_never_worse_than_dropping(data):
    n = data.draw(st.integers(3, 14))
    K = data.draw(st.integers(1, 3))
    k = data.draw(st.integers(2, 3))
    l = data.draw(st.integers(2, 3))
    variant = data.draw(st.sampled_from(["distinct", "distinct", "entropy", "recursive"]))
    c = data.draw(st.sampled_from([1.0, 2.0, 3.0]))
    alpha = data.draw(st.sampled_from([1.0, 0.5, 0.0]))
    n_sens = data.draw(st.integers(1, 2))
    cols = {f"k{j}": data.draw(st.lists(st.sampled_from([1, 2, 3, None]), min_size=n, max_size=n))
            for j in range(K)}
    for j in range(n_sens):
        cols[f"s{j}"] = data.draw(st.lists(st.sampled_from(["a", "b", "c", "d", None]), min_size=n, max_size=n))
    strata = data.draw(st.sampled_from([[], ["g"]]))
    if strata:
        cols["g"] = data.draw(st.lists(st.sampled_from(["u", "v"]), min_size=n, max_size=n))
    df = pd.DataFrame(cols)
    for j in range(K):
        df[f"k{j}"] = df[f"k{j}"].astype("Float64")
    keys, sens = [f"k{j}" for j in range(K)], [f"s{j}" for j in range(n_sens)]
    try:
        res = local_suppression(df, keys, k=k, sensitive=sens, l=l, l_variant=variant, c=c, alpha=alpha,
                                strata=strata or None)
    except ValueError as e:
        assert "fewer than k" in str(e)
        return
    out = res.data
    assert _conservative_ok(out, keys, strata, sens, k, l, variant, c)
    assert res.details["k_anonymous_conservative"] and res.details["k_anonymous"]
    assert _wildcard_ok(out, keys, strata, sens, k, l if variant == "distinct" else 0, alpha)
    naive = _naive_kept(df, keys, strata, sens, k, l, variant, c)
    kept = res.details["kept"].to_numpy()
    assert not (naive & ~kept).any()                       # only records naive dropping drops
    # never more cells than dropping them (a dropped record: K cells removed)
    assert res.n_changed + K * int((~kept).sum()) <= K * int((~naive).sum())
    assert not (naive & ~kept).any() and (kept | ~naive).all()
    orig = df.loc[out.index]
    for kcol in keys:                                       # only value -> missing
        assert not (orig[kcol].isna() & out[kcol].notna()).any()
        same = out[kcol].notna()
        assert (out[kcol][same] == orig[kcol][same]).all()
    for s in sens + strata:
        assert out[s].equals(orig[s])


# --------------------------------------------------------------------------------------
# The seeded public-health file (a 30,000-record draw of the benchmark's generator)
# --------------------------------------------------------------------------------------
def test_public_health_file_keeps_records():
    from validation.make_health_data import KEYS, SENSITIVE, health_data

    df = health_data(30_000)
    cell = local_suppression(df, list(KEYS), k=3, sensitive=SENSITIVE, l=3)
    rec = local_suppression(df, list(KEYS), k=3, sensitive=SENSITIVE, l=3, unit="record")
    assert len(cell.data) >= 0.98 * len(df) > len(rec.data)
    assert cell.details["k_anonymous"] and cell.details["k_anonymous_conservative"]
    ld = sdc.l_diversity(cell.data, list(KEYS), SENSITIVE, l=3)
    assert int(ld.by_sensitive["n_records_below_l"].iloc[0]) == 0
    assert sdc.k_anonymity(cell.data, list(KEYS), k=3, missing="category").n_below(3) == 0
    assert sdc.k_anonymity(cell.data, list(KEYS), k=3).n_below(3) == 0


def test_hand_residue_joins_the_all_suppressed_class():
    # k = 2, l = 2. (1,x) flu and (1,y) cold are alone; (2,x) x2 and (2,y) x2 hold flu only;
    # (3,z) x3 is fine. Level 1: {a} rescues (*,y) = {cold, flu, flu} (3 records) before {b}
    # ((1,*) would rescue 2); then (1,x) and (2,x) x2 (all flu) fail everywhere, the
    # all-suppressed (*,*) too. Step 4: the cheapest settled group, (*,y) (3 records x 1 key),
    # brings cold to (*,*): 6 records {flu, cold}. Cells: 6 x 2 = 12 = what dropping the 6
    # failing records removes (slack 2 x 6 - 3 - 2 x 3 = 3 >= the 3 extra cells).
    df = pd.DataFrame({"a": [1, 1, 2, 2, 2, 2, 3, 3, 3], "b": list("xyxxyy") + list("zzz"),
                       "s": ["flu", "cold", "flu", "flu", "flu", "flu", "flu", "cold", "hiv"]})
    res = local_suppression(df, ["a", "b"], k=2, sensitive="s", l=2)
    assert res.details["records_dropped"] == 0 and res.n_changed == 12
    assert res.data[["a", "b"]].isna().all(axis=1).tolist() == [True] * 6 + [False] * 3
    assert _conservative_ok(res.data, ["a", "b"], [], ["s"], 2, 2, "distinct", 2.0)


def test_plan_step_and_its_refusal():
    # k and l in a plan: the step runs the l-aware suppression; a bad l_variant is refused in one line.
    from sdc.workflow.plan import PlanError, plan_from_mapping

    df = sdc.load_example()
    keys = ["sex", "region", "age"]
    step = {"method": "local_suppression", "keys": keys, "k": 3, "sensitive": "diagnosis", "l": 2,
            "l_variant": "entropy"}
    run = sdc.protect_data(df, plan_from_mapping({"plan": {"seed": 1}, "steps": [step]}),
                           overrides={"variables": {"categorical_keys": keys}})
    logged = run.log()["steps"][0]["method_parameters"]
    assert logged["l_variant"] == "entropy" and logged["l"] == 2
    released = run.released
    assert len(released) >= 0.9 * len(df)
    assert _conservative_ok(released, keys, [], ["diagnosis"], 3, 2, "entropy", 2.0)
    with pytest.raises(PlanError, match=r"plan step 1 \(local_suppression\): parameter `l_variant` must be one of"):
        plan_from_mapping({"plan": {"seed": 1}, "steps": [{**step, "l_variant": "shannon"}]})
