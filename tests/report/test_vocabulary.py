"""Issue 26, items 2 and 4: one vocabulary (k-anonymity's count, "passes if", units, human
labels, sdcMicro's names) and bounded, readable pages (key levels capped, band to band, the
comparison folder of a raw date key over 150k records under 10 MB, the sweep's figures)."""

from __future__ import annotations

import json
import time

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.report.compare import comparison_files
from sdc.report.formatting import format_cell
from sdc.report.sweep import sweep_files
from sdc.workflow.compare import compare
from sdc.workflow.compare_records import KEY_LEVELS_SHOWN
from sdc.workflow.config import from_mapping
from sdc.workflow.plan import plan_from_mapping
from sdc.workflow.sweep import sweep

SWEEP = """
[sweep]
keys = ["age", "sex", "region"]
k = 3
[plan]
seed = 11
[[steps]]
method = "pram"
variables = ["sex"]
grid = { flip = [0.01, 0.05] }
[[steps]]
method = "pram"
variables = ["region"]
grid = { flip = [0.01, 0.05] }
"""


def _cfg(keys: list[str], **extra) -> sdc.RunConfig:  # noqa: ANN003
    return from_mapping({"data": {"path": "x.csv", "id": "id"}, "variables": {"categorical_keys": keys},
                         "options": {"measures": ["k_anonymity", "risk"]}, "thresholds": {"k": 3}, **extra})


@pytest.fixture(scope="module")
def swept():
    from sdc.workflow.config import _toml_module

    return sweep(sdc.load_example(), plan_from_mapping(_toml_module().loads(SWEEP), sweep=True))


def test_sweep_labels_name_their_variable(swept) -> None:
    labels = list(swept.table["label"])
    assert "pram sex flip=0.05" in labels and "pram region flip=0.05" in labels
    assert len(set(labels)) == len(labels)


def test_sweep_counts_k_anonymity_as_assess_does(swept) -> None:
    data = sdc.load_example()
    prof = sdc.k_anonymity(data, ["age", "sex", "region"], k=3)
    base = swept.table.iloc[0]
    assert base["pct_fk_lt_k"] == pytest.approx(prof.pct_k_lt_threshold)
    assert base["pct_fk_le_k"] == pytest.approx(prof.pct_k_le_threshold)
    md = sweep_files(swept, png=False)["sweep.md"]
    assert "violating k-anonymity (fk < k)" in md and "fk <= k" in md


def test_sweep_pages_have_human_labels_and_units(swept) -> None:
    files = sweep_files(swept, png=False)
    md = files["sweep.md"]
    for code in ("il1_overall", "eigen_similarity_pct", "nue_utility_retained", "pct_fk_lt_k", "non_dominated",
                 "| True", "| False"):
        assert code not in md, code
    assert "information loss (0 to 1)" in md and "global risk (0 to 1)" in md
    # the code names stay in the CSV header and the JSON
    assert "il1_overall" in files["sweep.csv"].splitlines()[0]
    assert "il1_overall" in files["sweep.json"]
    # no table of the page wider than eight columns
    for line in md.splitlines():
        if line.startswith("|---"):
            assert line.count("|") - 1 <= 8, line


def test_bools_read_as_words() -> None:
    assert format_cell(True) == "yes" and format_cell(np.bool_(False)) == "no" and format_cell(3.0) == "3"


def test_il1s_has_sdcmicro_names() -> None:
    x = pd.DataFrame({"v": [1.0, 2.0, 3.0, 4.0]})
    r = sdc.il1s(x, x.assign(v=[0.0, 2.0, 2.0, 1.0]))
    assert r.il1 == r.relative_total and r.il1s == r.total and r.il1old == r.mean


def test_compare_verdicts_say_passes_if_and_units() -> None:
    orig = pd.DataFrame({"id": [f"r{i}" for i in range(8)], "sex": list("mmffmmff"), "region": list("aabbaabb"),
                         "x": np.arange(8.0)})
    c = compare(orig, orig.assign(x=orig["x"] + 1), _cfg(["sex", "region"]))
    md = comparison_files(c, formats=["md", "json"])["report.md"]
    head = next(line for line in md.splitlines() if line.startswith("| scenario | measure | statistic"))
    assert "passes if" in head and "threshold" not in head
    assert "| scenario | measure | unit | before | after | change |" in md
    assert "share (0 to 1)" in md and "| % |" in md
    util = next(line for line in md.splitlines() if line.startswith("| measure | unit | variable | value"))
    assert util
    assert "| il1_overall |" not in md and "information loss (share of the range)" in md
    assert set(c.utility_table.columns) >= {"measure", "label", "unit"}


def test_key_levels_capped_and_the_date_folder_is_bounded() -> None:
    # issue 26: a raw date key over 150k records: the comparison folder stays under 10 MB
    rng = np.random.default_rng(1)
    n = 150_000
    dob = pd.Timestamp("1930-01-01") + pd.to_timedelta(rng.integers(0, 365 * 70, n), unit="D")
    orig = pd.DataFrame({"id": np.arange(n).astype(str), "dob": dob.strftime("%Y-%m-%d"),
                         "sex": rng.choice(["f", "m"], n)})
    rel = orig.copy()
    flip = rng.random(n) < 0.05
    rel.loc[flip, "sex"] = np.where(rel.loc[flip, "sex"] == "f", "m", "f")
    t0 = time.perf_counter()
    c = compare(orig, rel, _cfg(["dob", "sex"]), match="id")
    files = comparison_files(c)
    seconds = time.perf_counter() - t0
    sizes = {k: len(v.encode() if isinstance(v, str) else v) for k, v in files.items()}
    assert sum(sizes.values()) < 10_000_000, sizes
    assert sizes["report.json"] < 3_000_000 and sizes["report.html"] < 3_000_000, sizes
    shown = c.key_levels_shown
    assert (shown.groupby("variable").size() <= KEY_LEVELS_SHOWN).all()
    assert c.key_levels_left_out["dob"] == c.key_frequencies["variable"].eq("dob").sum() - KEY_LEVELS_SHOWN
    doc = json.loads(files["report.json"])
    assert len(doc["key_frequencies"]) == len(shown) and doc["key_frequencies_left_out"]["dob"] > 0
    # the CSV holds every level
    assert files["key_frequencies.csv"].count("\n") == len(c.key_frequencies) + 1
    assert "key_frequencies.csv" in files["report.md"]
    assert seconds < 60, seconds


def test_recoded_key_compared_band_to_band() -> None:
    orig = pd.DataFrame({"id": [f"r{i}" for i in range(12)], "age": [21, 23, 25, 27, 31, 33, 35, 37, 41, 43, 45, 47],
                         "sex": list("mfmfmfmfmfmf")})
    rel = sdc.global_recode(orig, ["age"], width=10, closed="left", labels="midpoint").data
    c = compare(orig, rel, _cfg(["age", "sex"]), match="id", recoded=["age"])
    kf = c.key_frequencies[c.key_frequencies["variable"] == "age"]
    # the same levels on both sides, nothing moved between bands
    assert (kf["change"] == 0).all() and (kf["before"] == 4).all(), kf
    assert any("band to band" in n for n in c.notes)


def test_xlsx_bools_read_as_words(swept) -> None:
    import io

    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.load_workbook(io.BytesIO(sweep_files(swept, png=False)["sweep.xlsx"]))
    values = [c.value for ws in wb.worksheets for row in ws.iter_rows() for c in row]
    assert not any(isinstance(v, bool) for v in values) and "yes" in values
