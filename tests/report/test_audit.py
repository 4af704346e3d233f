"""Issue 11, the report an auditor reads: every scenario detailed, an executive summary first,
human labels, escaped text, unique names, notes for what was not computed, per-record files
that show why a record is at risk, and a workbook of numbers with named sheets.

Each test names the item of issue 11 it pins; each failed on the tree before the fix.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.report import write_report
from sdc.workflow.assess import assess
from sdc.workflow.config import from_mapping

T1 = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
MEASURES = ["k_anonymity", "risk", "snapshots", "ldiversity", "tcloseness", "inference", "suda"]


@pytest.fixture(scope="module")
def example(example_report: Path) -> Path:
    """The session's example report folder (tests/conftest.py): read only."""
    return example_report


def _run(df: pd.DataFrame, variables: dict, measures: list[str], **sections: object) -> sdc.Assessment:
    """assess(cfg, data) with a config built from sections: the call both the earlier and the
    present API take, so that each test below fails on the earlier tree for its own defect."""
    cfg = from_mapping({"data": {"path": "data.csv"}, "variables": variables,
                        "options": {"measures": measures}, **sections})
    return assess(cfg, df, now=T1)


def _data(n: int = 60, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "pid": [f"p{i}" for i in range(n)], "age": rng.integers(20, 80, n), "sex": rng.choice(["f", "m"], n),
        "region": rng.choice(list("abc"), n), "diag": rng.choice(["flu", "cold", "hiv"], n),
        "chol": np.round(rng.uniform(3, 9, n), 2), "site": "H1",
    })


# ---- item 14: every scenario gets its detail and its figures ------------------------------------------

def test_every_scenario_has_its_sections_tables_and_figures(example: Path) -> None:
    doc = json.loads((example / "report.json").read_text())
    for tag in ("s1", "s2"):
        assert {f"{tag} profile", f"{tag} riskiest", f"{tag} risk", f"{tag} snapshots", f"{tag} ldiv",
                f"{tag} ldiv below diagnosis", f"{tag} tclose", f"{tag} t above cholesterol"} <= set(doc["tables"])
        for name in ("risk_distribution", "class_sizes", "risk_by_key_subset", "cumulative_risk",
                     "ldiversity_distribution", "tcloseness_distribution"):
            assert (example / "plots" / f"{tag}_{name}.png").exists(), (tag, name)
    html = (example / "report.html").read_text()
    assert html.count("<img ") == 12
    assert "t-closeness — scenario &#x27;demographics + marital status&#x27;" in html


# ---- item 15: executive summary first, human labels, print stylesheet, the workbook ------------------

def test_the_report_opens_with_an_executive_summary(example: Path) -> None:
    md = (example / "report.md").read_text()
    sections = re.findall(r"^## (.+)$", md, flags=re.M)
    assert sections[0] == "Audience" and sections[1] == "Executive summary" and sections[2] == "Input"
    summary = md.split("## Input")[0]
    assert "health\\_survey.csv: 4,125 records, 14 variables, assessed against 2 intruder scenarios" in summary or \
        "health_survey.csv: 4,125 records, 14 variables, assessed against 2 intruder scenarios" in summary
    assert "### Verdict per scenario" in summary and "### Worst findings" in summary
    assert "| demographics + marital status |" in summary and "| fail |" in summary
    html = (example / "report.html").read_text()
    assert html.index('<section id="summary">') < html.index("<nav>") < html.index('<section id="input">')


def test_human_labels_not_code_names(example: Path) -> None:
    for name in ("report.md", "summary.txt", "report.html"):
        text = (example / name).read_text()
        for code in ("n_k_lt_threshold", "distinct l < l", "pct_records_below_l", "n_records_above_t",
                     "expected_reidentifications", "records with fk < k"):
            assert code not in text, (name, code)
    md = (example / "report.md").read_text()
    assert "records in classes of fewer than 3 records (fk < 3)" in md
    assert "records in classes with fewer than 2 distinct values of diagnosis" in md
    doc = json.loads((example / "report.json").read_text())  # the machine-readable names stay
    assert "n_k_lt_threshold" in doc["tables"]["s1 profile"]["columns"] or \
        "n_k_lt_threshold" in [r["statistic"] for r in doc["tables"]["s1 profile"]["rows"]]


def test_print_stylesheet_and_tables_that_fit(example: Path) -> None:
    html = (example / "report.html").read_text()
    css = html[html.index("<style>"):html.index("</style>")]
    assert "@media print" in css and "@page" in css
    printed = css[css.index("@media print"):]
    for rule in (".scroll { max-height: none; overflow: visible", "thead { display: table-header-group",
                 "break-inside: avoid", "table.wide"):
        assert rule in printed, rule
    assert '<table class="wide">' in html  # many columns: the compact style


def test_workbook_numbers_fails_and_sheet_names(example: Path) -> None:
    import openpyxl

    wb = openpyxl.load_workbook(example / "report.xlsx")
    assert wb.sheetnames[0] == "Contents"
    assert "Verdict per measure" in wb.sheetnames and "s2 Individual and global risk" in wb.sheetnames
    assert all(len(n) <= 31 for n in wb.sheetnames)
    ws = wb["Verdict per measure"]
    header = [c.value for c in ws[2]]
    assert header == ["scenario", "measure", "statistic", "value", "passes if", "verdict"]
    rows = list(ws.iter_rows(min_row=3, values_only=False))
    fails = [r for r in rows if r[5].value == "fail"]
    assert fails and all(r[5].fill.fgColor.rgb.endswith("FBE3E1") for r in fails)
    assert all(isinstance(r[3].value, (int, float)) for r in rows)  # numbers stored as numbers
    profile = wb["s1 k-anonymity profile"]
    counts = {r[0].value: r[1] for r in profile.iter_rows(min_row=3)}
    cell = counts["records assessed"]
    assert isinstance(cell.value, int) and cell.value == 4125 and cell.number_format == "#,##0"
    contents = wb["Contents"]
    links = [c.hyperlink.location for c in contents["A"] if c.hyperlink is not None]
    assert "'Verdict per measure'!A1" in links


# ---- item 16: skipped measures, per-record files, formats, no noise --------------------------------------

def test_a_measure_asked_for_and_skipped_gets_a_note(tmp_path: Path) -> None:
    a = _run(_data(), {"categorical_keys": ["sex", "region"]}, ["k_anonymity", "risk", "uniqueness", "household"])
    assert dict(a.skipped) == {
        "household risk": "it needs a household id column ([variables].household, --household)",
        "population uniqueness": "it needs the population size or the sampling fraction ([options].population_size "
                                 "or sampling_fraction; --population-size, --sampling-fraction)"}
    write_report(a, tmp_path / "r", formats=("md",))
    md = (tmp_path / "r" / "report.md").read_text()
    assert "Not computed: population uniqueness, because it needs the population size" in md
    assert "Not computed: household risk (it needs a household id column" in md  # in the executive summary


def test_at_risk_files_carry_the_sensitive_value_and_band(tmp_path: Path) -> None:
    df = _data()
    a = sdc.assess(df, keys=["sex", "region"], continuous_keys=["age"], key_bins={"age": {"width": 20}},
                   sensitive=["chol"], sensitive_bins={"chol": [0, 5, 7, 10]}, l=3, id="pid",
                   measures=["k_anonymity", "risk", "ldiversity", "tcloseness"])
    write_report(a, tmp_path / "r", formats=("csv",))
    ld = pd.read_csv(tmp_path / "r" / "records_at_risk_l3_chol.csv")
    assert ["chol", "chol_band", "distinct_chol_values_in_class"] == ld.columns.tolist()[-3:]
    row = ld.iloc[0]
    orig = df.set_index("pid").loc[row["pid"], "chol"]
    assert row["chol"] == orig
    assert row["chol_band"] == ("0--5" if orig < 5 else "5--7" if orig < 7 else "7--10")
    t = pd.read_csv(tmp_path / "r" / "records_at_risk_t0.2_chol.csv")
    assert {"chol", "distance_measure", "chol_distance_to_file"} <= set(t.columns)


def test_formats_md_does_not_announce_html(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from sdc.cli import main

    p = tmp_path / "d.csv"
    _data().to_csv(p, index=False)
    assert main(["assess", str(p), "--keys", "sex,region", "--formats", "md", "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "report.html" not in out and f"Report: {tmp_path / 'r' / 'report.md'}" in out
    md = (tmp_path / "r" / "report.md").read_text()
    assert "report.html" not in md
    assert main(["assess", str(p), "--keys", "sex,region", "--formats", "md,png", "--out", str(tmp_path / "s")]) == 0
    md = (tmp_path / "s" / "report.md").read_text()
    assert "report.html" not in md and "](plots/s1_risk_distribution.png)" in md


def test_third_party_warnings_stay_off_the_console(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import warnings

    import sdc.report.safety as safety
    from sdc.cli import main

    real = safety.safe_frame

    def noisy(df):  # noqa: ANN001, ANN202 - as pandas' deprecations did, once per call
        warnings.warn("Setting an item of incompatible dtype is deprecated", FutureWarning)
        warnings.warn("something is deprecated", DeprecationWarning)
        return real(df)

    monkeypatch.setattr(safety, "safe_frame", noisy)
    monkeypatch.setattr("sdc.report.safe_frame", noisy)
    p = tmp_path / "d.csv"
    _data().to_csv(p, index=False)
    assert main(["assess", str(p), "--keys", "sex,region", "--formats", "csv", "--out", str(tmp_path / "r")]) == 0
    err = capsys.readouterr().err
    assert "deprecated" not in err and "Warning" not in err, err


# ---- item 17: identifier-like and constant columns --------------------------------------------------------

def test_identifier_like_and_constant_columns_are_flagged(tmp_path: Path) -> None:
    a = _run(_data(), {"categorical_keys": ["sex", "site"]}, ["k_anonymity", "risk"])
    flags = a.columns.set_index("variable")["flags"]
    assert flags["pid"] == "one value per record (identifier-like)" and flags["site"] == "constant"
    assert flags["sex"] == ""
    assert any("Column 'pid' has a different value in every record" in n for n in a.notes)
    assert any("Key 'site' is constant" in n for n in a.notes)
    write_report(a, tmp_path / "r", formats=("md",))
    md = (tmp_path / "r" / "report.md").read_text()
    assert "| pid | other | text | 0 | 60 | one value per record (identifier-like) |" in md


# ---- item 2: the missing-value markers in the report ------------------------------------------------------

def test_the_report_states_the_missing_value_markers_and_counts(tmp_path: Path) -> None:
    p = tmp_path / "d.csv"
    p.write_text("pc,age,sex\nNA,30,f\nNA,,m\nAB,41,f\nAB,50,f\nNA,33,m\n")
    a = assess(p, keys=["pc", "sex"], measures=["k_anonymity", "risk"], k=2)
    # NA is a postcode, not a wildcard that would match AB too
    assert a.primary.profile.sample_frequency.tolist() == [1, 2, 2, 2, 2]
    cols = a.columns.set_index("variable")
    assert cols.loc["pc", "read as missing"] == 0 and cols.loc["age", "read as missing"] == 1
    write_report(a, tmp_path / "r", formats=("md",))
    md = (tmp_path / "r" / "report.md").read_text()
    assert "| read as missing | empty fields only (the default: markers such as NA are values) |" in md
    assert "Column 'pc' holds 'NA' (3), read as value(s), not as missing" in md
    b = assess(p, keys=["pc", "sex"], measures=["k_anonymity", "risk"], k=2, na_values=["NA"])
    assert b.columns.set_index("variable").loc["pc", "read as missing"] == 3


# ---- item 8: unique names after sanitising ------------------------------------------------------------------

def test_names_that_collide_after_sanitising_stay_apart(tmp_path: Path) -> None:
    df = _data().assign(**{"diag x": lambda d: d["diag"], "diag_x": lambda d: d["diag"].iloc[::-1].to_numpy()})
    a = _run(df, {"categorical_keys": ["sex", "region", "age"], "sensitive": ["diag x", "diag_x"]},
             ["k_anonymity", "risk", "ldiversity", "tcloseness"], thresholds={"t": 0.5},
             scenarios=[{"name": "a b", "keys": ["sex", "region"]}, {"name": "a_b", "keys": ["sex", "age"]}])
    write_report(a, tmp_path / "r", formats=("csv", "json", "xlsx"))
    names = {p.name for p in (tmp_path / "r").iterdir()}
    assert {"records_at_risk_l2_diag_x.csv", "records_at_risk_l2_diag_x-2.csv", "records_at_risk_t0.5_diag_x.csv",
            "records_at_risk_t0.5_diag_x-2.csv"} <= names
    rec = pd.read_csv(tmp_path / "r" / "records.csv")
    assert rec.columns.is_unique
    assert {"a_b.class_size_fk", "a_b-2.class_size_fk"} <= set(rec.columns)
    np.testing.assert_array_equal(rec["a_b.class_size_fk"], a.scenarios[0].profile.sample_frequency)
    np.testing.assert_array_equal(rec["a_b-2.class_size_fk"], a.scenarios[1].profile.sample_frequency)


def test_every_table_has_its_json_entry_and_its_sheet(tmp_path: Path) -> None:
    import openpyxl

    long = [f"a_very_long_sensitive_variable_name_{i}" for i in range(3)]  # equal in their first 31 characters
    rng = np.random.default_rng(2)
    df = _data().assign(**{c: rng.choice(list("xyz"), 60) for c in long})
    a = _run(df, {"categorical_keys": ["sex", "region"], "sensitive": long},
             ["k_anonymity", "risk", "ldiversity", "tcloseness", "inference"], thresholds={"t": 0.5})
    write_report(a, tmp_path / "r", formats=("json", "xlsx"))
    doc = json.loads((tmp_path / "r" / "report.json").read_text())
    n_tables = sum(1 for _ in doc["tables"])
    assert {f"inference {c}" for c in long} <= set(doc["tables"])
    assert {f"s1 ldiv below {c}" for c in long} <= set(doc["tables"])
    wb = openpyxl.load_workbook(tmp_path / "r" / "report.xlsx")
    assert len(wb.sheetnames) == 1 + n_tables + ("Notes" in wb.sheetnames) and len(set(n.lower() for n in wb.sheetnames)) == len(wb.sheetnames)


# ---- item 11: escaping in every text output -----------------------------------------------------------------

class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, dict(attrs)))


def _markdown_html(md: str) -> str | None:
    try:
        import markdown  # type: ignore[import-not-found]
    except ImportError:
        return None
    return markdown.markdown(md, extensions=["tables"])


EVIL_SCENARIO = "x\n## Verdict: all pass <script>alert(1)</script>"
EVIL_VALUE = '<img src=x onerror="alert(2)">'


def test_names_and_values_cannot_inject_markup(tmp_path: Path) -> None:
    df = _data().assign(region=lambda d: np.where(d["region"] == "a", EVIL_VALUE, d["region"]),
                        **{"[link](javascript:alert(3))": lambda d: d["diag"]})
    a = _run(df, {"categorical_keys": ["sex", "region"], "sensitive": ["[link](javascript:alert(3))"]},
             ["k_anonymity", "risk", "ldiversity"], scenarios=[{"name": EVIL_SCENARIO, "keys": ["sex", "region"]}])
    write_report(a, tmp_path / "r", formats=("md", "html", "txt"))
    md = (tmp_path / "r" / "report.md").read_text()
    # no heading of the data's own, no element, no link
    assert not any(line.startswith("## Verdict: all pass") for line in md.splitlines())
    # every < that could open an element, and every bracket, is backslash-escaped (CommonMark)
    assert re.search(r"(?<!\\)<(script|img|/script)", md) is None and re.search(r"(?<!\\)\]\(javascript", md) is None
    assert "\\<script>alert(1)\\</script>" in md and "\\<img src=x" in md
    rendered = _markdown_html(md)
    if rendered is not None:  # a real renderer: no live element or link
        p = _Elements()
        p.feed(rendered)
        assert not [t for t, _ in p.tags if t in ("script", "img", "a")]
    html = (tmp_path / "r" / "report.html").read_text()
    p = _Elements()
    p.feed(html)
    assert not [t for t, _ in p.tags if t == "script"]
    imgs = [attrs for t, attrs in p.tags if t == "img"]
    assert imgs and all(set(a) == {"alt", "src"} and a["src"].startswith("data:image/png;base64,") for a in imgs)
    txt = (tmp_path / "r" / "summary.txt").read_text()
    assert "\n## Verdict" not in txt


def test_control_characters_are_shown_not_run(tmp_path: Path) -> None:
    df = _data().assign(region=lambda d: np.where(d["region"] == "a", "a\x1b[2J\x1b]0;pwned\x07", d["region"]))
    a = _run(df, {"categorical_keys": ["sex", "region"]}, ["k_anonymity", "risk"], thresholds={"k": 100})
    write_report(a, tmp_path / "r", formats=("md", "html", "txt"))
    for name in ("report.md", "report.html", "summary.txt"):
        text = (tmp_path / "r" / name).read_text()
        assert "\x1b" not in text and "\x07" not in text, name
        assert ("\\\\x1b\\[2J" if name == "report.md" else "\\x1b[2J") in text, name  # shown escaped


@pytest.mark.parametrize("text, shown", [
    # numbers and signs that cannot open a Markdown block stay as they are
    ("0.3049", "0.3049"), ("3.5 %", "3.5 %"), ("-2", "-2"), ("+3", "+3"), ("2)x", "2)x"),
    # what would open a list, a heading, a quote or a thematic break is escaped
    ("1. item", "1\\. item"), ("12) z", "12\\) z"), ("1.", "1\\."), ("- x", "\\- x"), ("+ y", "\\+ y"),
    ("---", "\\---"), ("# h", "\\# h"), ("> q", "\\> q"),
])
def test_markdown_text_escapes_block_openers_only(text: str, shown: str) -> None:
    from sdc.report.formatting import md_text

    assert md_text(text) == shown
    assert md_text(text, start=False) == text


def test_the_executive_summary_lists_every_failure_it_counts(tmp_path: Path) -> None:
    """Issue 26: "6 of 6 checked measures fail" listed 5 (the first five by share)."""
    import tomllib

    import sdc
    from sdc.datasets import example_path
    from sdc.report.content import _executive_summary

    cfg_path = Path(example_path()).with_name("example.toml")
    raw = tomllib.loads(cfg_path.read_text(encoding="utf-8"))
    raw["data"]["path"] = str(example_path())
    raw.setdefault("thresholds", {})["k"] = 20
    a = sdc.assess(str(example_path()), raw)
    fails = int((a.to_frame()["verdict"] == "fail").sum())
    assert fails > 5
    s = _executive_summary(a, ["health_survey.csv"])
    assert f"Overall: {fails} of" in s.paragraphs[1]
    worst = next(t for t in s.tables if t.key == "worst findings")
    assert len(worst.frame) == fails and f"all {fails} failing measures" in worst.title


def test_the_thresholds_table_shows_the_values_in_force_per_variable() -> None:
    """Issue 26: the table showed l = 2, t = 0.2 ordered while l = 5, t = 30 Wasserstein were in force."""
    import numpy as np
    import pandas as pd

    import sdc
    from sdc.report.content import _setup_section

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"sex": rng.choice(["m", "f"], 200), "region": rng.choice(list("abc"), 200),
                       "chol": rng.normal(200, 30, 200).round()})
    a = sdc.assess(df, {"variables": {"categorical_keys": ["sex", "region"], "sensitive": ["chol"]},
                        "sensitive_thresholds": {"chol": {"l": 5, "t": 30, "distance": "wasserstein"}},
                        "options": {"measures": ["k_anonymity", "ldiversity", "tcloseness"]}})
    thr = next(t for t in _setup_section(a).tables if t.key == "thresholds").frame
    text = " ".join(str(v) for v in thr["value"])
    assert "in force: 5 (chol)" in text and "in force: 30 wasserstein (chol)" in text


def test_the_worst_findings_give_the_global_risk_its_unit() -> None:
    """Issue 26: the global risk sat under "% of records" (it is expected re-identifications /
    records, a share); each value now carries the registry's unit."""
    import numpy as np
    import pandas as pd

    import sdc
    from sdc.report.content import _executive_summary

    rng = np.random.default_rng(1)
    df = pd.DataFrame({"a": rng.integers(0, 40, 300), "b": rng.integers(0, 9, 300)})
    a = sdc.assess(df, {"variables": {"categorical_keys": ["a", "b"]}, "thresholds": {"max_global_risk": 0.01},
                        "options": {"measures": ["k_anonymity", "risk"]}})
    v = a.to_frame().set_index("measure")
    assert v.loc["global risk", "unit"] == "share" and v.loc["3-anonymity", "unit"] == "count"
    worst = next(t for t in _executive_summary(a, ["x.csv"]).tables if t.key == "worst findings")
    shown = worst.display()
    assert "% of records" not in shown.columns and "unit" in shown.columns
    rows = shown.set_index("measure")
    assert rows.loc["global risk", "unit"] == "share (0 to 1)"
    assert rows.loc["global risk", "value"] == pytest.approx(v.loc["global risk", "value"])
    assert rows.loc["global risk", "share of the records (0 to 1)"] == "-"
    assert rows.loc["3-anonymity", "unit"] == "count"
    assert rows.loc["3-anonymity", "share of the records (0 to 1)"] == pytest.approx(
        v.loc["3-anonymity", "value"] / 300)
