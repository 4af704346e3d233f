"""The two audiences of a report (issue 26, item 5): an external folder for data users holds no
seed of the plan and no byte of the pseudonymisation key; every page says which audience it is."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers import run_cli


def _seeds(folder: Path) -> set[str]:
    log = json.loads((folder / "protection.json").read_text(encoding="utf-8"))
    seeds = {str(st["seed"]) for st in log["steps"] if st.get("seed") is not None}
    return seeds | {str(log["plan"]["seed"])}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path, bytes]:
    tmp = tmp_path_factory.mktemp("audience")
    capsys = pytest.CaptureFixture  # noqa: F841 (run_cli wants a capsys; use main directly below)
    from sdc.cli.main import main

    assert main(["example", "--save", str(tmp / "ex")]) == 0
    key = tmp / "study.key"
    secret = b"7f3a9c0e5b1d2468ace0fdb97531eca8"
    key.write_bytes(secret + b"\n")
    os.chmod(key, 0o600)
    data, plan = tmp / "ex" / "health_survey.csv", tmp / "ex" / "example_plan.toml"
    common = [str(data), "--plan", str(plan), "--pseudonymise", "subject_id", "--key-file", str(key)]
    assert main(["protect", *common, "--out", str(tmp / "internal")]) == 0
    assert main(["protect", *common, "--out", str(tmp / "external"), "--audience", "external"]) == 0
    return tmp / "internal", tmp / "external", data, secret


def test_the_external_folder_holds_no_seed_and_no_key(runs) -> None:  # noqa: ANN001
    internal, external, _, secret = runs
    seeds = _seeds(internal)
    assert "20240611" in seeds and len(seeds) >= 3  # the plan's seed and the random steps' seeds
    files = [p for p in external.rglob("*") if p.is_file()]
    assert any(p.name == "report.html" for p in files) and not (external / "plan.toml").exists()
    for p in files:
        raw = p.read_bytes()
        assert secret not in raw, p
        for s in seeds:
            assert s.encode() not in raw, (p, s)
    # The internal folder does hold them (the test would find a leak).
    assert any("20240611".encode() in p.read_bytes() for p in internal.rglob("*") if p.is_file())


def test_every_page_says_its_audience(runs) -> None:  # noqa: ANN001
    internal, external, _, _ = runs
    for folder, word in ((internal, "Audience: internal"), (external, "Audience: external")):
        for name in ("protection.md", "comparison/report.md", "comparison/report.html", "comparison/summary.txt",
                     "comparison/report.json"):
            text = (folder / name).read_text(encoding="utf-8")
            assert word in text[:4000], (folder, name)


def test_an_unknown_audience_is_refused(runs, capsys: pytest.CaptureFixture) -> None:  # noqa: ANN001
    _, _, data, _ = runs
    code, _, err = run_cli(capsys, "protect", str(data), "--drop", "household_id", "--out",
                           str(data.parent / "x"), "--audience", "public")
    assert code == 2 and "invalid choice: 'public'" in err


def test_the_workbook_says_its_audience_and_holds_the_notes(runs) -> None:  # noqa: ANN001
    from openpyxl import load_workbook

    _, external, _, _ = runs
    wb = load_workbook(external / "comparison" / "report.xlsx")
    first = [str(r[0].value) for r in wb["Contents"].iter_rows(max_row=6)]
    assert any(v.startswith("Audience: external") for v in first)
    assert "Notes" in wb.sheetnames and wb["Notes"].max_row > 1


def test_an_external_assessment_has_no_per_record_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from sdc.datasets import example_path

    cfg = str(Path(example_path()).with_name("example.toml"))
    code, _, err = run_cli(capsys, "assess", str(example_path()), "--config", cfg, "--out", str(tmp_path / "int"),
                           "--measures", "k_anonymity,risk")
    assert code == 0, err
    code, _, err = run_cli(capsys, "assess", str(example_path()), "--config", cfg, "--out", str(tmp_path / "ext"),
                           "--measures", "k_anonymity,risk", "--audience", "external")
    assert code == 0, err
    internal = {p.name for p in (tmp_path / "int").rglob("*.csv")}
    external = {p.name for p in (tmp_path / "ext").rglob("*.csv")}
    assert "records.csv" in internal and not external
    md = (tmp_path / "ext" / "report.md").read_text(encoding="utf-8")
    assert "Audience: external" in md[:3000] and "sdc assess " + str(example_path()) not in md
    assert "Audience: internal" in (tmp_path / "int" / "report.md").read_text(encoding="utf-8")[:3000]


def test_the_external_comparison_holds_no_attack_seed(runs) -> None:  # noqa: ANN001
    internal, external, _, _ = runs
    inside = json.loads((internal / "comparison" / "report.json").read_text(encoding="utf-8"))
    outside = json.loads((external / "comparison" / "report.json").read_text(encoding="utf-8"))
    assert "seed" in inside["attacks"]["settings"] and "seed" not in outside["attacks"]["settings"]
    assert outside["attacks"]["settings"]["n_control"] == inside["attacks"]["settings"]["n_control"]
    assert "control records (seed" in (internal / "comparison" / "summary.txt").read_text(encoding="utf-8")
    for name in ("summary.txt", "report.md", "report.html"):
        assert "control records (seed" not in (external / "comparison" / name).read_text(encoding="utf-8"), name
