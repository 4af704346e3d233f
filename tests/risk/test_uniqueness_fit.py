"""Pitman's and SNB's fits at the edges of their parameter spaces, against ARX's recorded values.

ARX (master aacd487, built by validation/arx/build.sh, run through validation/arx/ArxRisk.java;
tests/risk/test_arx_live.py reruns it when built) fits Pitman over alpha < 1, theta >= 0 (alpha may
be negative) and gives no estimate where its Newton-Raphson solver finds no root. The values
below were printed by that harness; these tests need no Java.
"""

from __future__ import annotations

import math
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.exceptions import SdcWarning
from sdc.report.content import measure_run_report
from sdc.report.text import console_text
from sdc.workflow.single import run_uniqueness
from sdc.risk.uniqueness import class_size_histogram, pitman_fit, snb_fit

REL = 1e-6  # the bar; measured 1.3e-7 at most (ARX stops its solver at |score| <= 1e-6)

# ARX on ACTG 175 (R package speff2trial), keys age, gender, race: fraction ->
# (Zayatz, Pitman, Dankar, Dankar's model); ARX's SNB is not available at any of them.
ARX_ACTG = {
    0.01: (53.677679657542086, 13.62715467677602, 13.62715467677602, "pitman"),
    0.05: (23.934897294586193, 19.276327370484, 19.276327370484, "pitman"),
    0.1: (19.851034964203834, 22.381666091633832, 22.381666091633832, "pitman"),
    0.2: (18.323950558295696, 25.98726237677576, 18.323950558295696, "zayatz"),
}
# ARX on the bundled example (sdc.load_example()), keys age, sex, region
ARX_EXAMPLE = {
    0.01: (3138.134275391542, 0.1300825048892432, 0.1300825048892432, "pitman"),
    0.05: (726.9705053727257, 3.9195540806159825, 3.9195540806159825, "pitman"),
    0.1: (432.23354889568486, 16.99084365041031, 16.99084365041031, "pitman"),
    0.2: (297.52206175993064, 73.65347231216644, 297.52206175993064, "zayatz"),
}
# ARX on survey(1) below: with 3 keys Pitman is not available (its likelihood rises towards
# alpha -> -inf; ARX's solver stops on that flat side, at alpha = -1.3e7, where the estimate is
# far above N) and Dankar falls back to Zayatz; with 4 keys alpha < 0.
ARX_SURVEY = {
    ("age", "sex", "region"): {
        0.01: (3.6211478180997334, None, 3.6211478180997334, "zayatz"),
        0.05: (0.9538021909222056, None, 0.9538021909222056, "zayatz"),
        0.1: (0.6723345566860068, None, 0.6723345566860068, "zayatz"),
        0.2: (0.6664229824182244, None, 0.6664229824182244, "zayatz"),
    },
    ("age", "sex", "region", "education"): {
        0.01: (88671.49825679947, 0.9519435721139228, 0.9519435721139228, "pitman"),
        0.05: (19171.351079612006, 66.2283873167934, 66.2283873167934, "pitman"),
        0.1: (10547.907051442446, 411.6582957977112, 411.6582957977112, "pitman"),
        0.2: (6347.89610866206, 2558.760062939138, 6347.89610866206, "zayatz"),
    },
}


def survey(seed: int, n: int = 20_000) -> pd.DataFrame:
    """A seeded 20,000-record survey: near-uniform age, sex and region, skewed education."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"age": rng.integers(18, 91, n), "sex": rng.choice(["f", "m"], n),
                         "region": rng.integers(1, 21, n), "education": rng.choice(5, n, p=[.4, .3, .15, .1, .05]),
                         "household": np.minimum(rng.geometric(0.4, n), 8)})


def actg175(tmp: Path) -> pd.DataFrame:
    """ACTG 175 from CRAN's speff2trial, written to CSV by R at test time (not redistributed)."""
    if shutil.which("Rscript") is None:
        pytest.skip("R (Rscript) is not installed: ACTG 175 comes from R's speff2trial package")
    out = tmp / "actg175.csv"
    done = subprocess.run(["Rscript", "-e", "if (!requireNamespace('speff2trial', quietly = TRUE)) quit(status = 3); "
                           f"data(ACTG175, package = 'speff2trial'); write.csv(ACTG175, '{out}', row.names = FALSE)"],
                          capture_output=True, text=True)
    if done.returncode == 3:
        pytest.skip("R's speff2trial package (ACTG 175) is not installed: "
                    "install.packages('speff2trial') or scripts/install.sh")
    assert done.returncode == 0, done.stderr[-500:]
    return pd.read_csv(out)


def _estimates(df: pd.DataFrame, keys: list[str], fraction: float, variant: str) -> sdc.PopulationUniquenessResult:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SdcWarning)
        return sdc.population_uniqueness(df, keys, sampling_fraction=fraction, variant=variant)


def _check_arx(r: sdc.PopulationUniquenessResult, expected: tuple) -> None:
    zay, pit, dankar, model = expected
    assert r.zayatz == pytest.approx(zay, rel=1e-9)
    if pit is None:
        assert math.isnan(r.pitman) and r.pitman_note
    else:
        assert r.pitman == pytest.approx(pit, rel=REL) and r.pitman_note == ""
    assert r.chosen == pytest.approx(dankar, rel=REL) and r.model == model
    assert math.isnan(r.snb) and r.snb_note  # ARX's SNB equations have no root here either


@pytest.fixture(scope="module")
def actg(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    return actg175(tmp_path_factory.mktemp("actg"))


@pytest.mark.parametrize("fraction", sorted(ARX_ACTG))
def test_arx_variant_equals_arx_on_actg175(actg: pd.DataFrame, fraction: float) -> None:
    # Before: sdc's fit stopped at alpha = 1.57e-14 (47.365 at every fraction); ARX's maximum
    # has alpha = -0.2155, a higher likelihood (-9161.94 against -9165.38).
    r = _estimates(actg, ["age", "gender", "race"], fraction, "arx")
    _check_arx(r, ARX_ACTG[fraction])
    assert r.pitman_alpha == pytest.approx(-0.2154872, rel=1e-5) and r.pitman_theta == pytest.approx(75.661945, rel=1e-6)


def test_papers_variant_on_actg175_gives_no_pitman_estimate_at_alpha_zero(actg: pd.DataFrame) -> None:
    keys = ["age", "gender", "race"]
    with pytest.warns(SdcWarning, match="Pitman gives no estimate .*alpha = 0.*falls back to Zayatz"):
        r = sdc.population_uniqueness(actg, keys, sampling_fraction=0.01)
    assert math.isnan(r.pitman) and "alpha = 0" in r.pitman_note
    assert 0 < r.pitman_alpha < 1e-10  # the edge, which the old guard "alpha <= 0" let through
    assert r.model == "zayatz" and r.chosen == pytest.approx(ARX_ACTG[0.01][0], rel=1e-9)
    # SNB with the papers' equations: the one root (checked from 725 start points when this was
    # written), alpha 1.5575, beta 0.003258: 0.0293 population uniques. A number, not 0.
    assert r.snb == pytest.approx(0.0293447513, rel=1e-6) and r.snb_note == ""
    assert r.snb_alpha == pytest.approx(1.557512, rel=1e-5) and r.snb_beta == pytest.approx(0.00325824, rel=1e-5)


@pytest.mark.parametrize("fraction", sorted(ARX_EXAMPLE))
def test_arx_variant_equals_arx_on_the_example(fraction: float) -> None:
    r = _estimates(sdc.load_example(), ["age", "sex", "region"], fraction, "arx")
    _check_arx(r, ARX_EXAMPLE[fraction])
    assert r.pitman_alpha < 0  # ARX's space: the maximum has alpha = -2.116


@pytest.mark.parametrize(("keys", "fraction"), [(k, f) for k in ARX_SURVEY for f in sorted(ARX_SURVEY[k])])
def test_arx_variant_equals_arx_on_a_survey(keys: tuple[str, ...], fraction: float) -> None:
    r = _estimates(survey(1), list(keys), fraction, "arx")
    _check_arx(r, ARX_SURVEY[keys][fraction])
    if len(keys) == 3:
        # ARX's solver finds a root with alpha < 0 whose estimate is far above N: no estimate
        assert r.pitman_alpha < 0 and "is outside [0, N]" in r.pitman_note


def test_theta_zero_edge_is_not_available_in_arx_space() -> None:
    # Heavy-tailed classes: the likelihood rises towards theta < 0, which Hoshino's space
    # allows (theta > -alpha) and ARX's solver does not (theta >= 0; ARX: not available at
    # pi = 0.01 and 0.1 on this partition).
    sizes = np.random.default_rng(2).zipf(1.9, 500)
    i, c = class_size_histogram(sizes)
    n = int(sizes.sum())
    arx = pitman_fit(i, c, n, 100 * n, "arx")
    assert math.isnan(arx.estimate) and "theta = 0" in arx.note
    paper = pitman_fit(i, c, n, 100 * n, "paper")
    assert paper.note == "" and -paper.alpha < paper.theta < 0 and paper.estimate == pytest.approx(6485.1168, rel=1e-6)
    assert paper.log_likelihood > arx.log_likelihood


def test_uniform_classes_have_no_pitman_fit_in_arx_space() -> None:
    # A uniform draw from m cells is the limit alpha -> -inf of Pitman's formula (theta = -m alpha)
    rng = np.random.default_rng(0)
    sizes = np.bincount(rng.integers(0, 3000, 8000))
    sizes = sizes[sizes > 0]
    i, c = class_size_histogram(sizes)
    f = pitman_fit(i, c, int(sizes.sum()), 800_000, "arx")
    # ARX's solver stops where the equations flatten (|score| <= 1e-6, alpha about -1e7), and
    # the estimate there is far above N: no estimate, as ARX
    assert math.isnan(f.estimate) and f.alpha < -1e6 and "is outside [0, N]" in f.note


def test_missing_estimates_are_reported_with_a_reason_never_as_zero(actg: pd.DataFrame) -> None:
    r = _estimates(actg, ["age", "gender", "race"], 0.01, "paper")
    frame = r.to_frame().set_index("estimator")
    assert math.isnan(frame.loc["pitman", "population_uniques"])
    assert frame.loc["pitman", "note"].startswith("no estimate: the likelihood is largest at alpha = 0")
    # What `sdc uniqueness` prints: the one-measure report as text.
    text = console_text(measure_run_report(run_uniqueness(
        actg, ["age", "gender", "race"], population_size=None, sampling_fraction=0.01, variant="paper",
        threshold=0.2, weights=None, interval=False, progress=False, key_bins=None, source="actg")))
    snb_line = next(line for line in text.splitlines() if line.strip().startswith("snb"))
    assert "0.02934" in snb_line and " 0.0 " not in snb_line + " "
    pitman_line = next(line for line in text.splitlines() if line.strip().startswith("pitman"))
    assert "NA" in pitman_line and "no estimate" in pitman_line


def test_snb_notes() -> None:
    i, c = class_size_histogram(np.array([1, 1, 1, 3, 4]))  # no class of size 2
    est, *_, note = snb_fit(i, c, 10, 100)
    assert math.isnan(est) and "no class of size 2" in note
