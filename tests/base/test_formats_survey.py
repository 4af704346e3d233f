"""The survey formats (issue 28 item 4): SPSS .sav/.zsav with variable and value labels and
user-missing values, SAS transport v5 and v8, R's .rds/.RData, Stata with labels, Parquet;
recognised by their content, read as codes with user-missing values as missing, assessed to
the same figures as the same data as CSV, and released in the input's format with its labels,
read back by R.

The fixtures are written by R's haven (and arrow, where R has it) at test time. Each file is
read through every route this machine has: pyreadstat / pyarrow (the extras ``spss`` and
``parquet``: Debian 13 and sid have them), and R through sdc's bridge (tests marked
``sdcmicro``: the bridge's R session, required in CI).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

import sdc._labelled as labelled
from sdc.cli.main import main
from sdc.exceptions import DataFileError
from sdc.io import read_data, read_data_details
from sdc.report.released import released_file

FIXTURES = r"""
library(haven)
set.seed(1)
n <- 300
df <- data.frame(
  sex = labelled_spss(sample(c(1, 2), n, TRUE), labels = c(male = 1, female = 2), label = "Sex of respondent"),
  region = labelled_spss(sample(c(1:4, 9), n, TRUE),
                         labels = c(North = 1, East = 2, South = 3, West = 4, "No answer" = 9),
                         na_values = 9, label = "Region"),
  age = labelled_spss(sample(c(18:80, 98, 99), n, TRUE), labels = c(refused = 98, "don't know" = 99),
                      na_range = c(98, 99), label = "Age in years"),
  w = round(runif(n, 1, 10), 2))
out <- commandArgs(TRUE)[1]
write_sav(df, file.path(out, "survey.sav"))
write_sav(df, file.path(out, "survey.zsav"), compress = TRUE)
plain <- as.data.frame(zap_labels(zap_missing(df)))
write.csv(plain, file.path(out, "survey.csv"), row.names = FALSE, na = "")
saveRDS(plain, file.path(out, "survey.rds"))
survey <- plain; save(survey, file = file.path(out, "survey.RData"))
write_xpt(plain, file.path(out, "survey5.xpt"), version = 5)
write_xpt(plain, file.path(out, "survey8.xpt"), version = 8)
st <- plain; st$sex <- labelled(st$sex, c(male = 1, female = 2), label = "Sex of respondent")
write_dta(st, file.path(out, "survey.dta"))
if (requireNamespace("arrow", quietly = TRUE)) arrow::write_parquet(plain, file.path(out, "survey.parquet"))
"""
KEYS = "sex,region,age"


def _rscript() -> str:
    path = shutil.which("Rscript")
    ok = path is not None and subprocess.run([path, "-e", "quit(status = !requireNamespace('haven', quietly=TRUE))"],
                                             capture_output=True).returncode == 0
    if not ok:
        import os

        reason = "the survey fixtures are written by R's haven (Debian: r-cran-haven)"
        if os.environ.get("SDC_REQUIRE_SDCMICRO", "") not in ("", "0"):
            pytest.fail(f"{reason}; required here", pytrace=False)
        pytest.skip(reason)
    return path  # type: ignore[return-value]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("survey")
    proc = subprocess.run([_rscript(), "-e", FIXTURES, str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    if not (out / "survey.parquet").exists() and labelled.has_module("pyarrow"):
        read_data(out / "survey.csv").to_parquet(out / "survey.parquet", index=False)
    return out


def _bridge_ok() -> bool:
    import r_bridge

    return r_bridge.is_available()


ROUTES = [pytest.param("python", id="python"), pytest.param("r", id="r", marks=pytest.mark.sdcmicro)]


@pytest.fixture(params=ROUTES)
def route(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The route a test reads through: Python's libraries (skipped where absent) or R."""
    if request.param == "r":
        monkeypatch.setattr(labelled, "has_module", lambda name: False)
    return request.param


def _need(route: str, module: str) -> None:
    if route == "python" and not labelled.has_module(module):
        pytest.skip(f"{module} is not installed here (Debian packages: python3-pyreadstat in 13 and sid, "
                    "python3-pyarrow in sid)")


def _r_has(package: str) -> bool:
    return subprocess.run(["Rscript", "-e", f"quit(status = !requireNamespace('{package}', quietly=TRUE))"],
                          capture_output=True).returncode == 0


@pytest.mark.parametrize("name, fmt", [("survey.sav", "spss"), ("survey.zsav", "spss"), ("survey5.xpt", "sas"),
                                       ("survey8.xpt", "sas"), ("survey.rds", "r"), ("survey.RData", "r"),
                                       ("survey.dta", "stata"), ("survey.parquet", "parquet")])
def test_a_survey_file_is_recognised_by_its_content_whatever_its_name(files: Path, tmp_path: Path, name: str,
                                                                      fmt: str) -> None:
    from sdc._formats import format_of

    src = files / name
    if not src.exists():
        pytest.skip("no Parquet writer here (pyarrow or R's arrow)")
    assert format_of(src).name == fmt
    renamed = tmp_path / "export.csv"  # a misleading suffix: the content decides
    shutil.copy(src, renamed)
    assert format_of(renamed).name == fmt


@pytest.mark.parametrize("name, module", [("survey.sav", "pyreadstat"), ("survey.zsav", "pyreadstat"),
                                          ("survey8.xpt", "pyreadstat"), ("survey.parquet", "pyarrow")])
def test_each_route_reads_the_codes_with_user_missing_values_as_missing(files: Path, route: str, name: str,
                                                                        module: str) -> None:
    _need(route, module)
    if not (files / name).exists():
        pytest.skip("no Parquet writer here")
    if route == "r" and name.endswith(".parquet") and not _r_has("arrow"):
        pytest.skip("R has no arrow package here (Debian sid has r-cran-arrow)")
    df, details = read_data_details(files / name)
    csv = read_data(files / "survey.csv")
    assert list(df.columns) == ["sex", "region", "age", "w"]
    for c in csv.columns:
        assert df[c].astype(float).equals(csv[c].astype(float)), c
    assert int(df["region"].isna().sum()) == int((pd.Series(csv["region"]).isna()).sum()) > 0
    if name.endswith((".sav", ".zsav")):
        lab = details.labels.columns
        assert lab["sex"].values == {1: "male", 2: "female"} and lab["sex"].label == "Sex of respondent"
        assert lab["region"].missing == (9,) and lab["age"].missing_range == (98.0, 99.0)
        assert "Column 'region': user-missing 9 read as missing (as SPSS counts them)." in details.notes()


@pytest.mark.sdcmicro
@pytest.mark.parametrize("name", ["survey.rds", "survey.RData", "survey5.xpt", "survey8.xpt", "survey.dta"])
def test_r_files_and_sas_and_stata_read_like_the_csv(files: Path, name: str) -> None:
    df = read_data(files / name)
    csv = read_data(files / "survey.csv")
    if name.endswith(".dta"):
        df = df.assign(sex=df["sex"].map({"male": 1, "female": 2}).astype(float))
    for c in csv.columns:
        assert df[c].astype(float).equals(csv[c].astype(float)), (name, c)


def _figures(folder: Path) -> dict:
    doc = json.loads((folder / "report.json").read_text())
    return {k: doc[k] for k in ("verdicts", "scenarios", "inference")}


@pytest.mark.parametrize("name, module", [("survey.sav", "pyreadstat"), ("survey.parquet", "pyarrow")])
def test_sdc_assess_gives_the_same_figures_as_the_csv(files: Path, tmp_path: Path, route: str, name: str,
                                                      module: str) -> None:
    _need(route, module)
    if not (files / name).exists() or (route == "r" and name.endswith(".parquet") and not _r_has("arrow")):
        pytest.skip("no Parquet route in R here")
    for src in (name, "survey.csv"):
        assert main(["assess", str(files / src), "--keys", KEYS, "--weights", "w", "--formats", "json",
                     "--out", str(tmp_path / src)]) == 0
    assert _figures(tmp_path / name) == _figures(tmp_path / "survey.csv")


PLAN = '[plan]\nseed = 1\n[[steps]]\nmethod = "pram"\nvariables = ["sex"]\npd = 0.8\n' \
       '[[steps]]\nmethod = "local_suppression"\nkeys = ["sex", "region", "age"]\nk = 2\n'

READ_BACK = r"""
library(haven)
x <- read_sav(commandArgs(TRUE)[1], user_na = TRUE)
cat(jsonlite::toJSON(list(
  sex = list(label = attr(x$sex, "label"), labels = as.list(attr(x$sex, "labels"))),
  region = list(label = attr(x$region, "label"), na_values = attr(x$region, "na_values"),
                labels = as.list(attr(x$region, "labels"))),
  age = list(label = attr(x$age, "label"), na_range = attr(x$age, "na_range")),
  n = nrow(x)), auto_unbox = TRUE))
"""


@pytest.mark.parametrize("name", ["survey.sav", "survey.zsav"])
def test_a_released_sav_reads_back_in_r_with_its_labels(files: Path, tmp_path: Path, route: str, name: str) -> None:
    _need(route, "pyreadstat")
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN)
    outs = []
    for i in (1, 2):
        out = tmp_path / f"p{i}"
        assert main(["protect", str(files / name), "--plan", str(plan), "--keys", KEYS, "--out", str(out)]) == 0
        outs.append(out)
    rel = outs[0] / ("released" + Path(name).suffix)
    assert rel.read_bytes() == (outs[1] / rel.name).read_bytes()  # the same data and plan, the same bytes
    assert rel.read_bytes()[:4] == (b"$FL3" if name.endswith(".zsav") else b"$FL2")
    proc = subprocess.run([_rscript(), "-e", READ_BACK, str(rel)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    back = json.loads(proc.stdout)
    assert back["sex"] == {"label": "Sex of respondent", "labels": {"male": 1, "female": 2}}
    assert back["region"]["na_values"] == 9 and back["region"]["labels"]["No answer"] == 9
    assert back["age"] == {"label": "Age in years", "na_range": [98, 99]}
    assert back["n"] == 300


def test_a_released_stata_file_keeps_its_codes_and_labels(files: Path, tmp_path: Path) -> None:
    _rscript()
    df = read_data(files / "survey.dta")
    assert list(df["sex"].cat.categories) == ["male", "female"]
    rel = released_file(df, input_path=files / "survey.dta")
    (tmp_path / rel.name).write_bytes(rel.data)
    code = ("library(haven); x <- read_dta(commandArgs(TRUE)[1]); "
            "cat(attr(x$sex, 'label'), paste(names(attr(x$sex, 'labels')), attr(x$sex, 'labels'), collapse=','), "
            "sum(x$sex == 2), sep='|')")
    proc = subprocess.run(["Rscript", "-e", code, str(tmp_path / rel.name)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"Sex of respondent|male 1,female 2|{int((df['sex'] == 'female').sum())}"


def test_a_released_parquet_file_is_parquet(files: Path, tmp_path: Path, route: str) -> None:
    _need(route, "pyarrow")
    if not (files / "survey.parquet").exists() or (route == "r" and not _r_has("arrow")):
        pytest.skip("no Parquet route here")
    df = read_data(files / "survey.parquet")
    rel = released_file(df, input_path=files / "survey.parquet")
    assert rel.name == "released.parquet" and rel.data[:4] == b"PAR1"
    (tmp_path / rel.name).write_bytes(rel.data)
    pd.testing.assert_frame_equal(read_data(tmp_path / rel.name).astype(float), df.astype(float))


def test_without_any_route_the_refusal_names_the_extra(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sdc._formats_r as formats_r

    monkeypatch.setattr(labelled, "has_module", lambda name: False)
    monkeypatch.setattr(formats_r, "r_route", lambda package="haven": "rpy2 cannot start R")
    with pytest.raises(DataFileError, match=r"^cannot read data file '.*survey\.sav': SPSS files need pyreadstat "
                                            r"\(pip install 'sdc-microdata\[spss\]'\) or R with haven \(rpy2 cannot "
                                            r"start R\); neither is installed\.$"):
        read_data(files / "survey.sav")
    parquet = files / "x.parquet"
    parquet.write_bytes(b"PAR1" + bytes(16) + b"PAR1")
    with pytest.raises(DataFileError, match=r"Parquet files need pyarrow \(pip install 'sdc-microdata\[parquet\]'\)"):
        read_data(parquet)
