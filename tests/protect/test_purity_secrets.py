"""Review of the protection methods' purity, secrets and output modes (defects found by an audit
of every method and file-writing path; each test failed before its fix)."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

import sdc
from sdc.cli import main
from sdc.workflow.plan import PlanError, plan_from_mapping

KEY = "Zq7secretKEY0123456789abcdefXYZ"  # 31 characters of letters and digits: could be a key


@pytest.fixture
def frame() -> pd.DataFrame:
    df = sdc.load_example().head(300).reset_index(drop=True)
    df["sex"] = df["sex"].astype("category")
    return df


def _modes(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root.parent)): p.stat().st_mode & 0o777 for p in [root, *root.rglob("*")]}


# --- purity -------------------------------------------------------------------------------------

def test_pseudonymise_with_drop_gives_a_release_that_shares_nothing_with_the_input(frame: pd.DataFrame) -> None:
    # drop() shares extension arrays (a categorical) with its input when pandas does not copy on
    # write: a write to the release changed the input.
    before = frame.copy(deep=True)
    r = sdc.pseudonymise(frame, [], drop="relation")
    r.data.loc[0, "sex"] = "male" if frame.loc[0, "sex"] == "female" else "female"
    pd.testing.assert_frame_equal(frame, before)


@pytest.mark.parametrize("call", [
    lambda d: sdc.global_recode(d, "age", width=10),
    lambda d: sdc.pram(d, "marital_status", seed=1),
    lambda d: sdc.pseudonymise(d, [], drop="relation"),
])
def test_a_release_does_not_share_the_inputs_nested_attrs(frame: pd.DataFrame, call) -> None:  # noqa: ANN001
    # pandas before 2.1 copies attrs shallowly: a nested value was shared with the input.
    frame.attrs = {"provenance": {"steps": ["collected"]}}
    r = call(frame)
    r.data.attrs["provenance"]["steps"].append("released")
    assert frame.attrs == {"provenance": {"steps": ["collected"]}}


# --- secrets --------------------------------------------------------------------------------------

def test_a_key_given_for_the_variables_name_or_the_files_path_is_not_echoed(frame: pd.DataFrame,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # `--key-env "$SDC_KEY"` instead of `--key-env SDC_KEY`: the message printed the key.
    monkeypatch.setenv("SDC_KEY", KEY)
    with pytest.raises(ValueError) as e:
        sdc.pseudonymise(frame, "subject_id", key_env=KEY)
    assert KEY not in str(e.value) and "not set" in str(e.value)
    with pytest.raises(ValueError) as e:
        sdc.pseudonymise(frame, "subject_id", key_file=KEY)
    assert KEY not in str(e.value)
    for source in ({"key_env": KEY}, {"key_file": KEY}):
        plan = plan_from_mapping({"steps": [{"method": "pseudonymise", "variables": ["subject_id"], **source}]})
        with pytest.raises(PlanError) as e:
            sdc.protect_data(frame, plan, reassess=False)
        assert KEY not in str(e.value)


def test_ordinary_names_and_paths_are_still_named() -> None:
    from sdc.protect.pseudonym import key_source_text

    assert key_source_text("SDC_KEY", "env") == "'SDC_KEY'"
    assert key_source_text("SDC_PSEUDONYMISATION_KEY_2024", "env") == "'SDC_PSEUDONYMISATION_KEY_2024'"
    assert key_source_text("/secure/study.key", "file") == "'/secure/study.key'"
    assert key_source_text("secret.key", "file") == "'secret.key'"
    for text, kind in ((KEY, "env"), ("DEADBEEF0123456789ABCDEF", "env"), ("3fa9c0d1e2f3a4b5c6d7e8f9", "file"),
                       ("q83+/abcdEFGHijklMN==", "file")):
        assert text not in key_source_text(text, kind)


# --- reproducibility of a written run ---------------------------------------------------------------

def test_the_written_plan_reruns_from_the_output_folder_with_a_relative_key_file(
        frame: pd.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # plan.toml kept key_file = "key.txt", which `--plan OUT/plan.toml` reads as OUT/key.txt.
    monkeypatch.chdir(tmp_path)
    Path("key.txt").write_text(KEY + "\n")
    Path("key.txt").chmod(0o600)
    Path("plan.toml").write_text('[plan]\nseed = 5\n[[steps]]\nmethod = "pram"\nvariables = ["sex"]\n'
                                 '[[steps]]\nmethod = "pseudonymise"\nvariables = ["subject_id"]\nkey_file = "key.txt"\n')
    frame.to_csv("data.csv", index=False)
    assert main(["protect", "data.csv", "--plan", "plan.toml", "--out", "out", "--no-assess"]) == 0
    assert main(["protect", "data.csv", "--plan", "out/plan.toml", "--out", "again", "--no-assess"]) == 0
    assert Path("out/released.csv").read_bytes() == Path("again/released.csv").read_bytes()
    assert KEY not in Path("out/plan.toml").read_text()


# --- output modes ---------------------------------------------------------------------------------

def test_outputs_are_no_more_readable_than_the_config_or_plan_they_copy(
        frame: pd.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The data readable by all, the configuration and the plan by their owner only: config.toml
    # and plan.toml were copied into 0644 files.
    monkeypatch.chdir(tmp_path)
    frame.to_csv("data.csv", index=False)
    os.chmod("data.csv", 0o644)
    Path("cfg.toml").write_text('[variables]\ncategorical_keys = ["sex", "region"]\n')
    Path("plan.toml").write_text('[plan]\nseed = 5\n[[steps]]\nmethod = "pram"\nvariables = ["sex"]\n')
    os.chmod("cfg.toml", 0o600)
    os.chmod("plan.toml", 0o600)
    old = os.umask(0o022)
    try:
        assert main(["assess", "data.csv", "--config", "cfg.toml", "--out", "rep", "--formats", "md,json"]) == 0
        assert main(["protect", "data.csv", "--plan", "plan.toml", "--out", "prot", "--no-assess"]) == 0
    finally:
        os.umask(old)
    for root in (Path("rep"), Path("prot")):
        modes = _modes(tmp_path / root)
        assert all(m & 0o077 == 0 for m in modes.values()), modes


def test_rerunning_into_the_folder_that_holds_the_plan_is_still_allowed(
        frame: pd.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the plan restricts the modes only; it is not an input the folder must keep
    monkeypatch.chdir(tmp_path)
    frame.to_csv("data.csv", index=False)
    Path("plan.toml").write_text('[plan]\nseed = 5\n[[steps]]\nmethod = "pram"\nvariables = ["sex"]\n')
    assert main(["protect", "data.csv", "--plan", "plan.toml", "--out", "prot", "--no-assess"]) == 0
    first = Path("prot/released.csv").read_bytes()
    assert main(["protect", "data.csv", "--plan", "prot/plan.toml", "--out", "prot", "--no-assess"]) == 0
    assert Path("prot/released.csv").read_bytes() == first


def test_search_outputs_are_no_more_readable_than_a_hierarchy_file_they_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # sdc search copies each hierarchy into hierarchies/: a 0600 hierarchy file gave 0644 copies.
    monkeypatch.chdir(tmp_path)
    pd.DataFrame({"sex": ["f", "m"] * 20, "zip": ["12345", "12399"] * 20}).to_csv("data.csv", index=False)
    Path("sex.csv").write_text("f;*\nm;*\n")
    Path("search.toml").write_text('[keys]\nsex = "sex.csv"\nzip = { prefix = true }\n'
                                   '[models]\nk = 2\n')
    os.chmod("data.csv", 0o644)
    os.chmod("search.toml", 0o644)
    os.chmod("sex.csv", 0o600)
    old = os.umask(0o022)
    try:
        assert main(["search", "data.csv", "--config", "search.toml", "--out", "found"]) == 0
    finally:
        os.umask(old)
    modes = _modes(tmp_path / "found")
    assert all(m & 0o077 == 0 for m in modes.values()), modes
