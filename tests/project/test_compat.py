"""Behaviour that must not depend on the numpy / pandas / scipy / statsmodels / rpy2 release.

Each test pins a difference found by running the suite on Debian trixie (numpy 2.2,
pandas 2.2, scipy 1.15, statsmodels 0.14) and sid (numpy 2.4, pandas 3) with
``scripts/compat-debian.sh`` (issue 12); where the newer behaviour can be provoked on any
stack, the test does so, so it fails here too.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc._validation import check_int, check_number, check_option, check_weights, plain


# ---------------------------------------------------------------- numpy 2 scalar reprs
@pytest.mark.parametrize(("value", "want"), [
    (np.float64(0.0), 0.0), (np.int64(102), 102), (np.bool_(True), True), (np.str_("x"), "x"),
    (1.5, 1.5), ("a", "a"), (None, None),
])
def test_plain_gives_python_scalars(value, want):
    out = plain(value)
    assert out == want and type(out) is type(want)
    assert "np." not in repr(out) and "numpy" not in repr(out)


def test_messages_show_plain_values():
    df = pd.DataFrame({"w": [2.0, 0.0, 3.0]}, index=np.array([101, 102, 103], dtype=np.int64))
    with pytest.raises(ValueError, match=r"^weight column 'w' must be positive; got 0\.0 at index 102\.$"):
        check_weights(df, "w")
    with pytest.raises(TypeError, match=r"got 2\.5\.$"):
        check_int(np.float64(2.5), "k")
    with pytest.raises(ValueError, match=r"got nan\.$"):
        check_number(np.float64("nan"), "x", low=0, high=1)
    with pytest.raises(ValueError, match=r"got 'z'\.$"):
        check_option(np.str_("z"), "method", ("a", "b"))


def test_household_and_combine_messages_show_plain_values():
    df = pd.DataFrame({"a": [1, 2, 3], "hid": [1.0, np.nan, 2.0]}, index=np.array([7, 8, 9], dtype=np.int64))
    with pytest.raises(ValueError, match=r"first at index 8; every record") as info:
        sdc.household_risk(df, ["a"], "hid")
    assert "np." not in str(info.value)
    dm = pd.DataFrame({"USUBJID": np.array([1, 1, 2], dtype=np.int64), "AGE": [30, 31, 40]})
    with pytest.raises(sdc.DataFileError, match=r"\(e\.g\. 1\)") as info:
        sdc.combine_domains({"DM": dm}, "USUBJID")
    assert "np." not in str(info.value)
    lb = pd.DataFrame({"USUBJID": np.array([5, 5], dtype=np.int64), "LBTESTCD": ["HB", "HB"],
                       "LBSTRESN": [1.0, 2.0]})
    with pytest.raises(sdc.DataFileError, match=r"more than one 'HB' result for subject 5;") as info:
        sdc.combine_domains({"DM": dm.drop_duplicates("USUBJID"), "LB": lb}, "USUBJID", long={"LB": "LBTESTCD"})
    assert "np." not in str(info.value)


# ---------------------------------------------------------------- scipy: judge roots by the equations
def _root_reporting_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    """optimize.root as scipy 1.15 answers for Pitman's equations: the root, flagged as a failure
    ("xtol too small": no further improvement is possible)."""
    import sdc.risk.uniqueness as uniqueness

    real = uniqueness.optimize.root

    def root(*args, **kwargs):  # noqa: ANN202
        sol = real(*args, **kwargs)
        sol.success, sol.status = False, 4
        sol.message = "xtol=0.000000 is too small, no further improvement in the approximate solution is possible."
        return sol

    monkeypatch.setattr(uniqueness.optimize, "root", root)


def test_pitman_does_not_depend_on_the_solver_flag(monkeypatch):
    from sdc.risk.uniqueness import class_size_histogram, pitman

    rng = np.random.default_rng(4)
    sizes = rng.zipf(1.8, size=400)
    i, c = class_size_histogram(sizes)
    n = int(sizes.sum())
    want = pitman(i, c, n, 20 * n)
    _root_reporting_failure(monkeypatch)
    got = pitman(i, c, n, 20 * n)
    assert got == pytest.approx(want, rel=1e-12)


def test_snb_does_not_depend_on_the_solver_flag(monkeypatch):
    from sdc.risk.uniqueness import class_size_histogram, snb

    rng = np.random.default_rng(7)
    sizes = rng.zipf(2.2, size=300)
    i, c = class_size_histogram(sizes)
    n = int(sizes.sum())
    want = snb(i, c, n, 3 * n)
    assert math.isfinite(want[0])
    _root_reporting_failure(monkeypatch)
    assert snb(i, c, n, 3 * n) == pytest.approx(want, rel=1e-12)


# ---------------------------------------------------------------- truncated binary files
@pytest.mark.parametrize("fmt", ["dta", "xpt"])
def test_truncated_binary_files_give_data_file_errors(tmp_path, fmt):
    # Cut at every length: pandas' readers raise struct.error, TypeError or StopIteration deep
    # inside on some cuts (pandas 3: struct.error for a short Stata file); each must be one line.
    from pathlib import Path

    from sdc.exceptions import DataFileError
    from sdc.io import read_data

    if fmt == "dta":
        full = tmp_path / "full.dta"
        pd.DataFrame({"a": [1, 2, 3] * 10, "b": ["x", "yy", "z"] * 10, "c": np.arange(30.0)}).to_stata(
            full, write_index=False)
        data = full.read_bytes()
    else:
        data = (Path(__file__).parents[1] / "data" / "small.xpt").read_bytes()
    cut = tmp_path / f"cut.{fmt}"
    for n in range(0, len(data), 3):
        cut.write_bytes(data[:n])
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "xport file may be corrupted."
                read_data(cut)
        except DataFileError as exc:
            assert str(exc).startswith(("cannot read data file", "data file")), (n, str(exc))


# ---------------------------------------------------------------- the set-up script
def test_skip_r_installs_nothing_of_r():
    # python3-rpy2 depends on r-base-core: with SDC_SKIP_R=1 it must not be installed either.
    import os
    import subprocess
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "scripts" / "install.sh"

    def packages(**env: str) -> list[str]:
        out = subprocess.run(["bash", str(script), "--print-packages"], env={**os.environ, **env},
                             capture_output=True, text=True, check=True)
        return out.stdout.split()

    skip = packages(SDC_SKIP_R="1")
    assert "python3-pandas" in skip
    assert not [p for p in skip if p.startswith("r-") or "rpy2" in p]
    full = packages(SDC_SKIP_R="0")
    assert "python3-rpy2" in full and "r-base-dev" in full


# ---------------------------------------------------------------- sort order of ties
def test_t_closeness_ties_keep_the_class_order():
    # 60 classes, two distributions: 40 classes far from the file's at one equal distance, 20 near.
    # An unstable sort (numpy's default quicksort) orders the 40 ties differently across numpy releases.
    rows = []
    for g in range(60):
        values = ["a", "a", "a", "b"] if g % 3 else ["a", "b", "b", "b"]
        rows += [{"g": f"g{g:02d}", "s": v} for v in values]
    df = pd.DataFrame(rows)
    tc = sdc.t_closeness(df, ["g"], "s", distance="equal", t=0.1)
    above = tc.classes_above()
    assert len(above) == 60 and above["distance"].is_monotonic_decreasing
    for _, part in above.groupby("distance", sort=False):
        assert part.index.is_monotonic_increasing, part.index.tolist()


# ---------------------------------------------------------------- statsmodels 0.13 vs 0.14: saturated modRisk
def _saturated_pml_data() -> pd.DataFrame:
    # 2 x 3 table; the cell (y, r) holds one record whose weight is small, so PML's response
    # round(W * n / sum W) is 0 there although the cell is a sample unique.
    rows = [("x", "p", 60.0), ("x", "p", 50.0), ("x", "q", 80.0), ("x", "r", 70.0), ("y", "p", 90.0),
            ("y", "q", 40.0), ("y", "q", 55.0), ("y", "r", 2.0)]
    return pd.DataFrame(rows, columns=["a", "b", "w"])


def test_saturated_pml_keeps_sample_uniques_with_response_zero():
    import warnings

    df = _saturated_pml_data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = sdc.model_risk(df, weights="w", method="PML", formula="~ a * b")
    c = r.cells.set_index(["a", "b"])
    cell = c.loc[("y", "r")]
    assert cell["counts"] == 1 and round(cell["weights"] * 8 / df["w"].sum()) == 0
    # R's glm (and statsmodels >= 0.14) iterate until the deviance settles: the fitted value
    # of a zero response is small but positive, so the cell stays in the risk sums.
    assert 0 < cell["fitted"] < 1e-6 and bool(cell["kept"])
    assert r.n_cells_kept == 6 and r.converged
    v = (1 - c["inclProb"]) * c["fitted"]
    uniq = c["kept"] & (c["counts"] == 1)
    assert r.gr1 == pytest.approx(float(np.exp(-v[uniq]).sum()) / 6, rel=1e-12)


def test_irls_matches_statsmodels_on_an_unsaturated_model():
    import statsmodels.formula.api as smf

    from sdc.risk.model import _irls_poisson, _r_poisson

    rng = np.random.default_rng(3)
    df = pd.DataFrame({"a": rng.choice(list("xyz"), 60), "b": rng.choice(list("pq"), 60)})
    cells = df.value_counts().rename("n").reset_index()
    model = smf.glm("n ~ a + b", data=cells, family=_r_poisson())
    sm = model.fit(method="IRLS", maxiter=25, tol=1e-9, rtol=1e-8, tol_criterion="deviance").fittedvalues
    ours, converged = _irls_poisson(model.exog, model.endog)
    assert converged and np.allclose(ours, sm, rtol=1e-8)


# ---------------------------------------------------------------- the stated ranges
def test_installed_versions_lie_in_the_tested_ranges():
    # pyproject.toml states the tested range of each dependency; a stack outside it (a new
    # Debian release in scripts/compat-debian.sh) must update the range, and the docs with it.
    import importlib.metadata as md
    import tomllib
    from pathlib import Path

    packaging = pytest.importorskip("packaging.requirements")
    meta = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]
    reqs = list(meta["dependencies"]) + [r for extra in meta["optional-dependencies"].values() for r in extra]
    outside = []
    for text in reqs:
        req = packaging.Requirement(text)
        try:
            have = md.version(req.name)
        except md.PackageNotFoundError:
            continue  # an optional part not installed here (rpy2 without R)
        if not req.specifier.contains(have, prereleases=True):
            outside.append(f"{req.name} {have} not in {req.specifier}")
    assert not outside, outside


def test_modrisk_gr2_is_stable_for_tiny_fitted_values():
    # documented difference 26: sdcMicro's (1 - exp(-v)) / v loses digits as v -> 0; sdc's
    # -expm1(-v) / v is exact. The saturated PML fit leaves one sample unique with v ~ 1e-9.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = sdc.model_risk(_saturated_pml_data(), weights="w", method="PML", formula="~ a * b")
    c = r.cells[r.cells["kept"] & (r.cells["counts"] == 1)]
    v = ((1 - c["inclProb"]) * c["fitted"]).to_numpy()
    exact = np.array([-math.expm1(-x) / x for x in v])  # math.expm1: correctly rounded
    assert r.gr2 == pytest.approx(exact.sum() / r.n_cells_kept, rel=1e-14)
    tiny = v < 1e-6
    assert tiny.any() and np.all(np.abs(exact[tiny] - 1) < 1e-6)


# ---------------------------------------------------------------- pandas 3: concat and groupby
def test_records_at_risk_stack_scenarios_with_different_keys_alike_on_every_pandas():
    # A key outside one scenario is all-missing in its rows: pandas 2 left such columns out of
    # the stacked dtype (float64, with a FutureWarning), pandas 3 does not (object).
    import warnings

    from sdc.report.records import record_tables
    from sdc.workflow.assess import assess
    from sdc.workflow.config import from_mapping

    df = pd.DataFrame({"sex": list("fffmmmfmmf"), "hh": [1.5, 1.5, 2.5, 3.5, 3.5, 4.5, 5.5, 6.5, 6.5, 7.5]})
    cfg = from_mapping({
        "data": {"path": "toy.csv"}, "variables": {"categorical_keys": ["sex", "hh"]},
        "scenarios": [{"name": "sex only", "keys": ["sex"]}, {"name": "both", "keys": ["sex", "hh"]}],
        "thresholds": {"k": 6}, "options": {"measures": ["k_anonymity", "risk"]},
    })
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        table = record_tables(assess(cfg, df)).files["records_at_risk_k6.csv"]
    assert table["hh"].dtype == object
    assert table["hh"].tolist()[:10] == [None] * 10 and table["hh"].tolist()[10:] == df["hh"].tolist()


def test_correlated_items_with_categorical_keys():
    # groupby on a categorical needs observed= (pandas 2.1+ warns, pandas 3 changed the default)
    import warnings

    from sdc.workflow.crosscheck import has_correlated_items

    df = pd.DataFrame({"a": ["x", "x", "y", "y"], "b": ["p", "p", "q", "r"]})
    cat = df.astype({"a": pd.CategoricalDtype(["x", "y", "z"]), "b": "category"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert has_correlated_items(cat, ("a", "b")) is has_correlated_items(df, ("a", "b")) is True


def test_compat_script_and_ci_entry_point_parse_and_refuse_unknown_suites():
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for script in ("scripts/compat-debian.sh", ".ci/run", "scripts/install.sh"):
        assert subprocess.run(["bash", "-n", str(root / script)]).returncode == 0, script
    for argv in ([], ["bookworm"], ["--worktree"]):
        proc = subprocess.run(["bash", str(root / "scripts/compat-debian.sh"), *argv], capture_output=True, text=True)
        assert proc.returncode == 2 and "usage: scripts/compat-debian.sh trixie|sid" in proc.stderr, argv
