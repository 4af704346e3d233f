"""sdc.core.compatible against the naive O(P^2) definition of compatible-pattern sums.

Two patterns are compatible when they agree wherever both are observed (sdcMicro's wildcard
rule, ``freqCalc``). For every pattern the brute force below adds up, over every other
pattern, the counts and weights of the compatible ones, split as
:class:`sdc.core.compatible.CompatibleSums` documents; counts must be equal exactly and
weights within a few units in the last place of the exactly rounded sum (``math.fsum``),
whatever the order of the data. The strategies produce weights, keys missing in every
pattern, a single key, and ties (many patterns sharing long prefixes, equal weights); the
engine's chunk and enumeration limits are shrunk in one test so that every branch (ranges,
dropped orders, enumeration, direct comparison, several chunks) is taken on small data.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdc.core import compatible
from sdc.core.compatible import compatible_sums
from tests import scale


def naive(X: np.ndarray, c: np.ndarray, w: np.ndarray) -> dict[str, list]:
    """The definition, pair by pair (X: patterns x keys, -1 = missing)."""
    P = X.shape[0]
    miss = X < 0
    partial = miss.any(axis=1)
    all_missing = miss.all(axis=1)
    out = {"c_complete": [0] * P, "c_partial": [0] * P, "w_complete": [[] for _ in range(P)],
           "w_partial": [[] for _ in range(P)]}
    for i in range(P):
        for j in range(P):
            if i == j:
                continue
            if not all(X[i, k] == X[j, k] or miss[i, k] or miss[j, k] for k in range(X.shape[1])):
                continue
            if not partial[j]:
                out["c_complete"][i] += int(c[j])
                out["w_complete"][i].append(float(w[j]))
            elif partial[i] or not all_missing[j]:  # complete patterns leave out the all-missing one
                out["c_partial"][i] += int(c[j])
                out["w_partial"][i].append(float(w[j]))
    out["w_complete"] = [math.fsum(v) for v in out["w_complete"]]
    out["w_partial"] = [math.fsum(v) for v in out["w_partial"]]
    out["partial"] = partial
    out["all_missing"] = all_missing
    return out


def check(X: np.ndarray, cards: list[int], c: np.ndarray, w: np.ndarray) -> None:
    res = compatible_sums([X[:, k] for k in range(X.shape[1])], cards, c, w)
    assert res is not None
    ref = naive(X, c, w)
    np.testing.assert_array_equal(res.partial, ref["partial"])
    np.testing.assert_array_equal(res.all_missing, ref["all_missing"])
    keep = ~ref["all_missing"]  # values are undefined for the all-missing pattern
    for name in ("c_complete", "c_partial"):
        np.testing.assert_array_equal(getattr(res, name)[keep], np.asarray(ref[name])[keep], err_msg=name)
        assert getattr(res, name).dtype == np.int64
    scale = float(np.abs(w).sum())
    for name in ("w_complete", "w_partial"):
        got = getattr(res, name)[keep]
        want = np.asarray(ref[name])[keep]
        # A few roundings of the exact sum (and a hair of the total for the remainders).
        tol = 4 * np.spacing(np.abs(want)) + 1e-15 * scale
        assert np.all(np.abs(got - want) <= tol), (name, got, want)


@st.composite
def patterns(draw, max_keys: int = 5, max_card: int = 6, max_rows: int = 100):
    """Distinct patterns (-1 = missing), their cards, counts and weights."""
    K = draw(st.sampled_from(sorted({max_keys, 1, 2, 3, max_keys - 1} - {0}, reverse=True)))
    cards = [draw(st.sampled_from([max_card, 1, 2, max_card // 2 + 1])) for _ in range(K)]
    n = draw(st.sampled_from([max_rows, 3, max_rows // 3, max_rows]))
    p_missing = draw(st.sampled_from([0.0, 0.05, 0.2, 0.5, 0.9]))
    dead = [draw(st.booleans()) and draw(st.booleans()) for _ in range(K)]  # keys missing everywhere
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    # Skewed values: ties on long prefixes.
    X = np.column_stack([rng.choice(cards[k], size=n, p=rng.dirichlet(np.full(cards[k], 1.0))) for k in range(K)])
    X[rng.random(X.shape) < p_missing] = -1
    for k in range(K):
        if dead[k]:
            X[:, k] = -1
    X = np.unique(X, axis=0)
    P = X.shape[0]
    c = rng.integers(1, 6, size=P).astype(np.int64)
    kind = draw(st.sampled_from(["counts", "equal", "uniform", "wide"]))
    if kind == "counts":
        w = c.astype(np.float64)
    elif kind == "equal":
        w = np.full(P, 2.5)
    elif kind == "uniform":
        w = rng.uniform(1.0, 100.0, size=P)
    else:  # magnitudes far apart: the whole-part / remainder split matters
        w = np.exp(rng.uniform(0.0, 30.0, size=P))
    return X, cards, c, w


@settings(max_examples=scale.examples(200), deadline=None)
@given(patterns())
def test_matches_the_definition(case):
    check(*case)


@settings(max_examples=scale.examples(60), deadline=None)
@given(patterns(max_keys=1, max_card=8, max_rows=30))
def test_single_key(case):
    check(*case)


@settings(max_examples=scale.examples(80), deadline=None)
@given(case=patterns(max_keys=6, max_card=4, max_rows=120))
def test_every_branch_with_small_limits(case, monkeypatch_module):
    check(*case)


@pytest.fixture(scope="module")
def monkeypatch_module():
    # Several chunks of queries, almost no enumeration: the direct comparison and the
    # dropped orders carry most pairs.
    mp = pytest.MonkeyPatch()
    mp.setattr(compatible, "_CHUNK", 7)
    mp.setattr(compatible, "_ENUM_MAX", 2)
    yield mp
    mp.undo()


def test_hand_example():
    # keys (a, b); '-1' missing. Pattern (0, -1) is compatible with (0, 0), (0, 1), (-1, 0),
    # (-1, -1); (0, 0) with (0, -1), (-1, 0) and (-1, -1) (left out for complete patterns).
    X = np.array([[0, 0], [0, 1], [0, -1], [-1, 0], [-1, -1], [1, 1]])
    c = np.array([1, 2, 3, 4, 5, 6])
    w = c * 10.0
    res = compatible_sums([X[:, 0], X[:, 1]], [2, 2], c, w)
    assert res.c_complete.tolist()[:4] == [0, 0, 1 + 2, 1]
    assert res.c_partial.tolist()[:4] == [3 + 4, 3, 4 + 5, 3 + 5]
    assert res.c_partial[5] == 0 and res.c_complete[5] == 0
    assert res.w_partial.tolist()[:4] == [70.0, 30.0, 90.0, 80.0]
    check(X, [2, 2], c, w)


def test_no_partial_pattern_and_all_missing_only():
    X = np.array([[0, 1], [1, 0]])
    res = compatible_sums([X[:, 0], X[:, 1]], [2, 2], np.array([1, 1]), np.array([1.0, 1.0]))
    assert not res.partial.any() and res.c_partial.tolist() == [0, 0]
    X = np.array([[-1, -1]])
    res = compatible_sums([X[:, 0], X[:, 1]], [0, 0], np.array([3]), np.array([3.0]))
    assert res.all_missing.tolist() == [True]


def test_order_of_the_patterns_does_not_matter():
    rng = np.random.default_rng(5)
    X = np.unique(np.where(rng.random((400, 4)) < 0.2, -1, rng.integers(0, 5, (400, 4))), axis=0)
    c = rng.integers(1, 4, X.shape[0])
    w = rng.uniform(1, 50, X.shape[0])
    a = compatible_sums([X[:, k] for k in range(4)], [5] * 4, c, w)
    perm = rng.permutation(X.shape[0])
    b = compatible_sums([X[perm, k] for k in range(4)], [5] * 4, c[perm], w[perm])
    for name in ("c_complete", "c_partial", "w_complete", "w_partial"):
        np.testing.assert_array_equal(getattr(a, name)[perm], getattr(b, name), err_msg=name)


def test_packed_space_too_large_returns_none():
    X = np.zeros((2, 3), dtype=np.int64)
    X[1, 0] = -1
    assert compatible_sums([X[:, k] for k in range(3)], [2**21] * 3, np.array([1, 1]), np.array([1.0, 1.0])) is None


def test_large_packed_space_sorts_in_two_steps():
    # (groups - 1) x packed space beyond int64: the key sort and the group sort are separate.
    rng = np.random.default_rng(11)
    cards = [2**20] * 3
    X = rng.integers(0, 3, size=(80, 3)) * (2**19)
    X[rng.random(X.shape) < 0.35] = -1
    X = np.unique(X, axis=0)
    c = rng.integers(1, 4, X.shape[0])
    check(X, cards, c, rng.uniform(1, 10, X.shape[0]))
