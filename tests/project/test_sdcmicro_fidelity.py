"""Three sdcMicro behaviours that change its results on the same data (docs/sdcmicro-differences.md,
rows 29-31), run live (marker ``sdcmicro``): localSuppression reads ``importance`` by data-frame
column with ``combs``; R's ``read.csv`` keeps empty text as ""; ``dUtility`` with a matrix
``xm`` (``addNoise(df)$xm``) reads single elements for whole columns.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.io import read_data

pytestmark = [pytest.mark.sdcmicro, pytest.mark.filterwarnings("ignore::sdc.exceptions.SdcWarning")]


def _r(code: str):  # noqa: ANN202
    import rpy2.robjects as ro

    from r_bridge._session import session

    session()  # R started, sdcMicro checked
    return ro.r(code)


# ------------------------------------------------------------------ 29: importance by data-frame column
def test_localsuppression_reads_importance_by_data_frame_column():
    # sdcMicro's own test (tests/testthat/test_localSuppression.R): keys Var3..Var5 are columns
    # 3..5 of a 6-column frame; importance = c(3, 2, 1), combs = 3:2, k = 2. sdcMicro expects 11
    # suppressions; with the key columns alone (or moved first) it gives 10, as sdc does.
    import r_bridge
    from validation.crossval_suppression import compare_suppression, sdcmicro_test_frame_case

    case = sdcmicro_test_frame_case()
    df, keys = case.data, list(case.keys)
    kw = dict(k=2, importance=[3, 2, 1], combs=[3, 2])
    whole = r_bridge.local_suppression(df, keys, **kw)
    alone = r_bridge.local_suppression(df[keys], keys, **kw)
    assert whole.totalSupps.iloc[-1].sum() == 11 and alone.totalSupps.iloc[-1].sum() == 10
    ours = sdc.local_suppression(df, keys, mode="sdcmicro", **kw)
    assert ours.n_changed == 10
    assert (ours.data[keys].isna().to_numpy() == alone.is_na.to_numpy()).all()
    # Why: each subset's importance is rank(importance[kV]) with kV the subset's positions in
    # the frame (3, 4, 5), not in the keys: importance[3] = 1 and NA beyond, ranked last in key
    # order: the keys' importance read as 1, 2, 3. sdc with that importance gives sdcMicro's cells.
    misread = sdc.local_suppression(df, keys, mode="sdcmicro", k=2, importance=[1, 2, 3], combs=[3, 2])
    assert (misread.data[keys].isna().to_numpy() == whole.is_na.to_numpy()).all()
    # The cross-validation passes whole frames and shows this case as the documented difference
    diffs = {d.measure: d for d in compare_suppression(case)}
    assert diffs["localSuppression: suppressed cells"].max_abs_diff == 0
    assert diffs["localSuppression: whole frame, importance read by column (documented, not required)"].max_abs_diff == 1


# ------------------------------------------------------------------ 30: read.csv keeps "" as a value
def test_read_csv_keeps_empty_text_as_a_value(tmp_path: Path):
    # An empty field of a text column: R's read.csv (na.strings = "NA") reads "" (a value), so
    # sdcMicro treats it as a category; sdc reads it as missing, which sdcMicro's risk measures
    # treat as a wildcard. read.csv(na.strings = c("", "NA")) gives sdc's figures.
    path = tmp_path / "keys.csv"
    path.write_text("region,sex\nnorth,f\nnorth,f\n,m\nsouth,m\nsouth,m\n,f\n", encoding="utf-8")
    # text keys become factors, as createSdcObj makes them (factor("") is the level "")
    default = _r(f'local({{x <- read.csv("{path}"); n <- sum(is.na(x$region)); x[] <- lapply(x, factor); '
                 f'list(na = n, fk = sdcMicro::freqCalc(x, keyVars = c("region", "sex"))$fk)}})')
    assert list(default.rx2("na")) == [0]
    assert list(default.rx2("fk")) == [2, 2, 1, 2, 2, 1]  # "" is a region of its own
    declared = _r(f'local({{x <- read.csv("{path}", na.strings = c("", "NA")); x[] <- lapply(x, factor); '
                  f'as.numeric(sdcMicro::freqCalc(x, keyVars = c("region", "sex"))$fk)}})')
    data = read_data(path)  # sdc reads an empty field as missing
    assert data["region"].isna().sum() == 2
    ours = sdc.frequencies(data, ["region", "sex"]).sample_frequency.tolist()
    assert ours == list(declared) == [3, 3, 3, 3, 3, 3]  # a missing region matches every region


# ------------------------------------------------------------------ 31: dUtility with a matrix xm
def test_dutility_with_a_matrix_xm_reads_elements_not_columns():
    # addNoise(df)$xm is a matrix; dUtility(x, xm = matrix) indexes it with xm[[i]], which for
    # a matrix is the i-th element, not column i: each column of x is compared with one number.
    res = _r('local({data(testdata, package = "sdcMicro", envir = environment()); '
             'x <- testdata[, c("expend", "income", "savings")]; set.seed(1); '
             'xm <- sdcMicro::addNoise(x)$xm; '
             'list(is_matrix = is.matrix(xm), x = x, xm = as.data.frame(xm), '
             'il1_m = sdcMicro::dUtility(x, xm = xm, method = "IL1"), '
             'il1s_m = sdcMicro::dUtility(x, xm = xm, method = "IL1s"), '
             'il1_df = sdcMicro::dUtility(x, xm = as.data.frame(xm), method = "IL1"), '
             'il1s_df = sdcMicro::dUtility(x, xm = as.data.frame(xm), method = "IL1s"))})')
    assert res.rx2("is_matrix")[0]
    from r_bridge.convert import from_r_frame
    from r_bridge._session import session

    fp = session()["frame_parts"]
    x, xm = from_r_frame(fp(res.rx2("x"))), from_r_frame(fp(res.rx2("xm")))
    ours = sdc.il1s(x, xm)
    assert ours.relative_total == pytest.approx(res.rx2("il1_df")[0], rel=1e-12)
    assert ours.total == pytest.approx(res.rx2("il1s_df")[0], rel=1e-12)
    assert res.rx2("il1_m")[0] != pytest.approx(res.rx2("il1_df")[0], rel=1e-3)
    # sdcMicro's matrix figures: column i of x against the single element xm[i] (column-major)
    flat = xm.to_numpy().ravel(order="F")
    il1_m = sum(np.nansum(np.where(x[c] != 0, 100 * np.abs(x[c] - flat[i]) / np.abs(x[c]), np.nan))
                for i, c in enumerate(x.columns))
    il1s_m = sum(np.nansum(np.abs(x[c] - flat[i]) / (x[c].std() * math.sqrt(2))) for i, c in enumerate(x.columns))
    assert res.rx2("il1_m")[0] == pytest.approx(il1_m, rel=1e-12)
    assert res.rx2("il1s_m")[0] == pytest.approx(il1s_m, rel=1e-12)
