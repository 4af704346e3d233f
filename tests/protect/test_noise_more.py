"""add_noise's methods additive0, restr, ROMM and outdect (sdcMicro's addNoise): hand-computed
values, properties on random data (hypothesis), a plan step, and sdcMicro (marker ``sdcmicro``):
its draws replayed, cell for cell; restr per variable (sdcMicro recycles the means across
variables, P19)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sdc
from sdc.protect.noise_more import additive0, outdect, outliers, restr, restr_factor, romm
from sdc.workflow.protect import protect_data
from tests import scale


def test_restr_hand_computed() -> None:
    assert restr_factor(10, 50) == pytest.approx(math.sqrt((9 - 0.5) / (11 * 1.5)))
    assert restr_factor(500, 50) == pytest.approx(math.sqrt(499 / (500 + 250 - 1)))
    df = pd.DataFrame({"a": [1.0, 2.0, 3.0, np.nan], "b": [10.0, 20.0, 60.0, 30.0]})
    r = sdc.add_noise(df, ["a", "b"], method="restr", noise=100)
    c3, c4 = restr_factor(4, 100), restr_factor(4, 100)
    assert r.data["a"].tolist()[:3] == pytest.approx([c3 * x + (1 - c3) * 2.0 for x in (1, 2, 3)])
    assert np.isnan(r.data.loc[3, "a"]) and r.seed is not None
    assert r.data["b"].tolist() == pytest.approx([c4 * x + (1 - c4) * 30.0 for x in (10, 20, 60, 30)])
    assert r.details == {"factor": c4}


def test_additive0_keeps_zeros_and_romm_is_orthogonal() -> None:
    df = pd.DataFrame({"a": [0.0, 1.0, 2.0, 0.0, 5.0], "b": [3.0, 0.0, 1.0, 2.0, 2.0]})
    r = sdc.add_noise(df, ["a", "b"], method="additive0", noise=50, seed=1)
    assert (r.data[df == 0] == 0).sum().sum() == 3 and r.changed.to_dict() == {"a": 3, "b": 4}
    M = np.random.default_rng(2).standard_normal((5, 5))
    X = df.to_numpy()
    Q, _ = np.linalg.qr(np.eye(5) + 0.3 * M)
    T = romm(np.eye(5), 0.3, M)                       # T itself: orthogonal, Gram-Schmidt's signs
    np.testing.assert_allclose(T.T @ T, np.eye(5), atol=1e-12)
    np.testing.assert_allclose(np.abs(T), np.abs(Q), atol=1e-12)
    assert (np.diag(T.T @ (np.eye(5) + 0.3 * M)) > 0).all()
    np.testing.assert_allclose(romm(X, 0.3, M), T @ X, atol=1e-12)


def test_outdect_changes_only_outliers() -> None:
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 2))
    X[0] = [6.0, -6.0]                                 # far in distance, not above the 99 % quantile of b
    df = pd.DataFrame(X, columns=["a", "b"])
    r = sdc.add_noise(df, ["a", "b"], method="outdect", noise=150, seed=3)
    moved = (r.data != df).any(axis=1)
    assert moved[0] and r.details["outliers"] == int(moved.sum()) >= 1 + 3   # and the 3 above a's 99 %
    rows = outliers(X, np.zeros(2), np.eye(2))
    assert 0 in rows and set(np.flatnonzero(X[:, 0] > np.quantile(X[:, 0], 0.99))) <= set(rows)
    Z = np.ones((rows.size, 2))
    sd = X.std(axis=0, ddof=1)
    np.testing.assert_allclose(outdect(X, 100, rows, Z)[rows] - X[rows], np.tile(1.96 * sd / math.sqrt(300), (rows.size, 1)))


@settings(max_examples=scale.examples(40), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(4, 60), st.floats(1, 300))
def test_properties(seed: int, n: int, noise: float) -> None:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)) * [1, 10, 100]
    X[rng.random((n, 3)) < 0.2] = 0.0
    df = pd.DataFrame(X, columns=list("abc"))
    a0 = sdc.add_noise(df, list("abc"), method="additive0", noise=noise, seed=seed).data.to_numpy()
    assert (a0[X == 0] == 0).all()
    rs = sdc.add_noise(df, list("abc"), method="restr", noise=noise).data.to_numpy()
    np.testing.assert_allclose(rs.mean(axis=0), X.mean(axis=0), rtol=1e-9, atol=1e-9)     # the mean kept
    np.testing.assert_allclose(rs.std(axis=0), restr_factor(n, noise) * X.std(axis=0), rtol=1e-9, atol=1e-12)
    rm = sdc.add_noise(df, list("abc"), method="ROMM", p=0.05, seed=seed).data.to_numpy()
    np.testing.assert_allclose(rm.T @ rm, X.T @ X, rtol=1e-9, atol=1e-8)                     # X'X kept


def test_restr_refuses_a_noise_beyond_its_factor() -> None:
    with pytest.raises(ValueError, match="'restr' with 3 records needs `noise` <= 200"):
        sdc.add_noise(pd.DataFrame({"a": [1.0, 2.0, 4.0]}), ["a"], method="restr", noise=201)


def test_romm_refusals_in_one_line() -> None:
    df = pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match="may have no missing value"):
        sdc.add_noise(df, ["a", "b"], method="ROMM")
    big = pd.DataFrame({"a": np.arange(10_001.0), "b": np.ones(10_001)})
    with pytest.raises(ValueError, match="at most 10,000 records; got 10,001"):
        sdc.add_noise(big, ["a", "b"], method="ROMM")


def test_a_plan_step_runs_each() -> None:
    df = sdc.load_example().head(300)
    for method in ("additive0", "restr", "ROMM", "outdect"):
        step = {"method": "add_noise", "variables": ["bmi", "systolic_bp"], "params": {"method": method, "noise": 20},
                "seed": 2}
        run = protect_data(df, [step], reassess=False)
        direct = sdc.add_noise(df, ["bmi", "systolic_bp"], method=method, noise=20, seed=2)
        pd.testing.assert_frame_equal(run.released, direct.data)


# --- sdcMicro -------------------------------------------------------------------------------

def _random(rng: np.random.Generator, n_max: int = 900) -> pd.DataFrame:
    n, k = int(rng.integers(30, n_max)), int(rng.integers(1, 4))
    X = rng.normal(size=(n, k)) @ rng.normal(size=(k, k)) * rng.uniform(1, 50) + rng.normal(0, 100, k)
    X[rng.random((n, k)) < 0.1] = 0.0
    m = int(n * rng.uniform(0, 0.1))
    X[:m] += rng.normal(0, 20, size=(m, k)) * X.std(axis=0)
    return pd.DataFrame(X.round(3), columns=[f"v{j}" for j in range(k)])


@pytest.mark.sdcmicro
def test_sdcmicro_additive0_and_restr_cell_for_cell() -> None:
    import r_bridge as rb

    td = rb.load_dataset("testdata")
    rng = np.random.default_rng(20261202)
    cases = [td[["expend", "income", "savings"]]] + [_random(rng) for _ in range(scale.cases(100))]
    worst, n_restr = 0.0, 0
    for i, df in enumerate(cases):
        cols, noise = list(df.columns), float(rng.choice([10, 50, 150]))
        X = df.to_numpy(float)
        theirs = rb.add_noise(df, cols, method="additive0", noise=noise, seed=i + 1)
        ours = additive0(X, noise, theirs.z)
        worst = max(worst, float(np.abs(ours - theirs.xm.to_numpy()).max() / max(1, np.abs(X).max())))
        for j, v in enumerate(cols):                      # one variable at a time: sdcMicro recycles the means
            r = rb.add_noise(df[[v]], [v], method="restr", noise=noise)
            ours_r = sdc.add_noise(df, cols, method="restr", noise=noise).data[v].to_numpy()
            assert np.allclose(ours_r, r.xm[v].to_numpy(), rtol=1e-12, atol=1e-9), (i, v)
            n_restr += 1
    assert worst < 1e-12
    print(f"addNoise additive0 (R's draws replayed): {len(cases)} of {len(cases)} cases, max relative difference "
          f"{worst:.1e}; restr: {n_restr} of {n_restr} variables cell for cell")


@pytest.mark.sdcmicro
def test_sdcmicro_restr_recycles_the_means_across_variables() -> None:
    import r_bridge as rb

    df = pd.DataFrame({"a": np.arange(7.0), "b": np.arange(7.0) + 100})
    theirs = rb.add_noise(df, ["a", "b"], method="restr", noise=50).xm
    ours = sdc.add_noise(df, ["a", "b"], method="restr", noise=50).data
    assert abs(theirs["a"].mean() - 3.0) > 10 and ours["a"].mean() == pytest.approx(3.0)


@pytest.mark.sdcmicro
def test_sdcmicro_romm_and_outdect_with_the_draws_replayed() -> None:
    import r_bridge as rb

    rng = np.random.default_rng(7)
    worst_romm = worst_out = 0.0
    n_romm = n_out = flagged = 0
    for i in range(scale.cases(100)):
        df = _random(rng, n_max=250)
        cols, X = list(df.columns), df.to_numpy(float)
        p = float(rng.choice([0.001, 0.01, 0.1]))
        r = rb.add_noise_draws(df, cols, method="ROMM", p=p, seed=i + 1)
        worst_romm = max(worst_romm, float(np.abs(romm(X, p, r.z) - r.xm.to_numpy()).max() / np.abs(X).max()))
        n_romm += 1
        if len(cols) < 2:
            continue
        df = _random(rng)
        cols, X = list(df.columns), df.to_numpy(float)
        if len(cols) < 2:
            continue
        noise = float(rng.choice([50, 150, 500]))
        r = rb.add_noise_draws(df, cols, method="outdect", noise=noise, seed=i + 1)
        rows = outliers(X, r.center, r.cov)
        Z = np.column_stack([r.z[j * rows.size:(j + 1) * rows.size] for j in range(len(cols))])
        ours = outdect(X, noise, rows, Z)
        assert rows.size == int((r.xm.to_numpy() != X).any(axis=1).sum()), i
        worst_out = max(worst_out, float(np.abs(ours - r.xm.to_numpy()).max() / np.abs(X).max()))
        n_out, flagged = n_out + 1, flagged + rows.size
    assert worst_romm < 1e-10 and worst_out < 1e-12 and n_out >= 3 * scale.cases(100) // 10
    print(f"addNoise ROMM (R's matrix replayed): {n_romm} of {n_romm}, max relative difference {worst_romm:.1e}; "
          f"outdect (R's MCD and draws): {n_out} of {n_out}, {flagged} outliers the same, max {worst_out:.1e}")
