"""``sdc app`` through its HTTP API: the token, the host check, the paths it never opens, the
upload limit and its temporary files; the numbers equal the CLI's; the plan with undo and redo;
the export that ``sdc protect`` reruns to the same release, byte for byte."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

import sdc
from sdc.cli.main import main
from sdc.report.formatting import passes_if
from tests.app.conftest import Running, serving
from tests.helpers import ROOT, run_cli, sigint_default

PLAN = [{"method": "global_recode", "variables": ["age"], "width": 10, "closed": "left"},
        {"method": "pram", "variables": ["marital_status"], "pd": 0.8},
        {"method": "local_suppression", "keys": ["age", "sex", "region", "marital_status"], "k": 3}]


def _get(url: str, headers: dict[str, str] | None = None) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=60) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def test_every_request_needs_the_token(running: Running) -> None:
    base = f"http://127.0.0.1:{running.port}"
    assert _get(f"{base}/") == 403 and _get(f"{base}/?token=wrong") == 403
    assert _get(running.url) == 200
    status, doc = running.call("state", token="")
    assert status == 403 and "token" in doc["error"]
    assert running.call("state", token=running.app.token[:-1] + "x")[0] == 403
    # another host name (DNS rebinding) is refused even with the token
    assert _get(running.url, headers={"Host": "attacker.example:80"}) == 403


def test_the_page_is_one_self_contained_file(running: Running) -> None:
    with urllib.request.urlopen(running.url, timeout=60) as r:
        page = r.read().decode()
        csp = r.headers["Content-Security-Policy"]
    assert "/*JS*/" not in page and "/*CSS*/" not in page and "function refresh" in page
    assert 'src="http' not in page and 'href="http' not in page and "cdn" not in page.lower()  # offline
    assert "default-src 'self'" in csp


def test_unknown_actions_and_bad_json_get_one_line(running: Running) -> None:
    status, doc = running.call("nope")
    assert status == 400 and doc["error"] == "unknown action 'nope'."
    status, doc = running.call("assess", raw=b"{not json", headers={"Content-Type": "application/json"})
    assert status == 400 and doc["error"] == "the request is not JSON."


def test_the_browser_never_names_a_path(running: Running) -> None:
    status, doc = running.call("open", {"source": "/etc/passwd"})
    assert status == 400 and "unknown source" in doc["error"]
    status, doc = running.call("open", {"source": "start"})  # no DATA was given
    assert status == 400 and "no data file was given" in doc["error"]


@pytest.fixture(scope="module")
def example(running: Running) -> Running:
    status, doc = running.call("open", {"source": "example"})
    assert status == 200 and doc["records"] == 4125
    return running


def test_the_assessment_is_the_cli_one(example: Running, tmp_path: Path) -> None:
    status, doc = example.call("assess")
    assert status == 200
    sdc.datasets.save_example(tmp_path)
    cli = sdc.assess(sdc.load_config(tmp_path / "example.toml")).to_frame()
    shown = doc["verdicts"]
    assert shown["columns"] == ["scenario", "measure", "statistic", "value", "passes if", "verdict"]
    text = ["scenario", "measure", "statistic", "verdict"]
    assert [[r[0], r[1], r[2], r[5]] for r in shown["rows"]] == cli[text].values.tolist()
    assert [r[3] for r in shown["rows"]] == pytest.approx(cli["value"].tolist(), rel=1e-12)
    assert [r[4] for r in shown["rows"]] == [passes_if(t) for t in cli["threshold"]]  # the report's vocabulary
    assert doc["page"].startswith("<!DOCTYPE html>") and "Executive summary" in doc["page"]
    assert "health_survey.csv" in doc["page"] and "(a DataFrame)" not in doc["page"]


def test_roles_are_checked_as_a_configuration_and_undone(example: Running) -> None:
    status, doc = example.call("roles", {"roles": {"sensitive": ["no_such_column"]}})
    assert status == 400 and "no_such_column" in doc["error"] and "\n" not in doc["error"]
    status, before = example.call("state")
    assert before["roles"]["id"] == "subject_id" and before["roles"]["weights"] == "weight"  # [data].id too
    status, doc = example.call("roles", {"roles": {"categorical_keys": ["sex", "region"]}, "thresholds": {"k": 5}})
    assert status == 200 and doc["roles"]["categorical_keys"] == ["sex", "region"] and doc["thresholds"]["k"] == 5
    status, doc = example.call("undo")
    assert doc["roles"] == before["roles"] and doc["thresholds"] == before["thresholds"] and doc["can_redo"]


def test_scenarios_are_added_changed_removed_and_assessed(example: Running) -> None:
    status, before = example.call("state")
    assert [s["name"] for s in before["scenarios"]] == ["demographics", "demographics + marital status"]
    for body, says in [({"name": "x", "keys": []}, "scenario 'x': choose at least one key."),
                       ({"name": "x", "keys": ["age", "nope"]}, "scenario 'x': no column 'nope' in the data."),
                       ({"name": "x", "keys": ["bmi"]}, "'bmi' is not a key variable"),
                       ({"name": " ", "keys": ["age"]}, "scenario: give it a name."),
                       ({"name": "x", "keys": "age"}, "keys must be a list")]:
        status, doc = example.call("set_scenario", body)
        assert status == 400 and says in doc["error"] and "\n" not in doc["error"], (body, doc)
    status, doc = example.call("remove_scenario", {"name": "nope"})
    assert status == 400 and "'nope' does not exist" in doc["error"]
    status, doc = example.call("set_scenario", {"name": "age and sex", "keys": ["sex", "age", "sex"]})
    assert status == 200 and doc["scenarios"][-1] == {"name": "age and sex", "keys": ["sex", "age"]}
    status, doc = example.call("set_scenario", {"name": "demographics", "keys": ["age", "region"]})
    assert doc["scenarios"][0] == {"name": "demographics", "keys": ["age", "region"]} and len(doc["scenarios"]) == 3
    status, doc = example.call("remove_scenario", {"name": "demographics + marital status"})
    assert [s["name"] for s in doc["scenarios"]] == ["demographics", "age and sex"]
    status, doc = example.call("assess")  # the assessment takes the scenarios as edited
    assert {r[0] for r in doc["verdicts"]["rows"]} >= {"demographics", "age and sex"}
    assert "demographics + marital status" not in {r[0] for r in doc["verdicts"]["rows"]}
    for _ in range(3):
        status, doc = example.call("undo")
    assert doc["scenarios"] == before["scenarios"]


def test_the_plan_is_built_checked_moved_and_undone(example: Running) -> None:
    for step in PLAN:
        status, doc = example.call("add_step", {"step": step})
        assert status == 200, doc
    assert [s["method"] for s in doc["steps"]] == ["global_recode", "pram", "local_suppression"]
    status, doc = example.call("add_step", {"step": {"method": "top_bottom_code", "variables": ["nope"], "top": 1}})
    assert status == 400 and doc["error"].startswith("plan step 4 (top_bottom_code)") and "'nope'" in doc["error"]
    status, doc = example.call("move_step", {"index": 1, "to": 2})
    assert [s["method"] for s in doc["steps"]] == ["global_recode", "local_suppression", "pram"]
    status, doc = example.call("undo")
    assert [s["method"] for s in doc["steps"]] == ["global_recode", "pram", "local_suppression"]
    status, doc = example.call("remove_step", {"index": 2})
    assert len(doc["steps"]) == 2
    status, doc = example.call("undo")
    status, doc = example.call("redo")
    assert len(doc["steps"]) == 2
    status, doc = example.call("undo")
    assert doc["steps"] == PLAN and example.call("move_step", {"index": 0, "to": 9})[0] == 400


def test_a_key_file_is_refused_a_key_variable_is_not_asked_for(example: Running) -> None:
    status, doc = example.call("add_step", {"step": {"method": "pseudonymise", "variables": ["subject_id"],
                                                     "key_file": "/etc/hostname"}})
    assert status == 400 and "`key_file`" in doc["error"] and "key_env" in doc["error"]
    status, doc = example.call("methods")
    pseudo = next(m for m in doc["methods"] if m["name"] == "pseudonymise")
    assert "key_file" not in [p["name"] for p in pseudo["params"]]
    assert {"global_recode", "local_suppression", "pram", "add_noise"} <= {m["name"] for m in doc["methods"]}


def test_a_preview_runs_the_step_without_keeping_it(example: Running) -> None:
    status, doc = example.call("preview_step", {"step": {"method": "add_noise", "variables": ["bmi"], "noise": 20}})
    assert status == 200 and "page" not in doc
    steps = dict((r[0], r[1]) for r in doc["summary"]["rows"])["the steps, in order (number: method)"]
    assert steps.endswith("4: add_noise")
    assert len(example.call("state")[1]["steps"]) == 3


def test_long_actions_report_their_stages(example: Running) -> None:
    """While an action runs, /api/progress answers (without waiting for the action) with its
    stage and count; after it, no action."""
    import threading
    import time

    heard: list[tuple] = []
    app = example.app
    plain = app._heard
    seen: list[dict] = []
    waits: list[float] = []
    app._heard = lambda m, d, t: (heard.append((m, d, t)), plain(m, d, t))  # type: ignore[method-assign]
    try:
        worker = threading.Thread(target=example.call, args=("run",))
        worker.start()
        while worker.is_alive():
            t0 = time.monotonic()
            status, doc = example.call("progress")
            waits.append(time.monotonic() - t0)
            assert status == 200
            seen.append(doc)
            time.sleep(0.05)
        worker.join()
    finally:
        app._heard = plain  # type: ignore[method-assign]
    assert any(m.startswith("the plan's") for m, _, _ in heard)  # the app's own stage
    assert any(m == "protect" and d == t for m, d, t in heard if t)  # the steps counted to the end
    assert any(m.startswith("frequencies of") for m, _, _ in heard)  # the comparison's assessments
    assert any(d.get("action") == "run" and d.get("stage") for d in seen)
    # Answered beside the action, not after it: a typical poll is quick even on a loaded machine
    # (one slow poll may wait for the run's thread to release the interpreter).
    assert sorted(waits)[len(waits) // 2] < 1.0, waits
    assert example.call("progress") == (200, {"action": None})


def test_the_run_and_its_export_rerun_to_the_same_release(example: Running, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture) -> None:
    if not example.call("state")[1]["steps"]:  # run alone (-k): the plan the earlier test builds
        for step in PLAN:
            example.call("add_step", {"step": step})
    status, doc = example.call("set_scenario", {"name": "age only", "keys": ["age"]})
    assert status == 200, doc
    status, doc = example.call("run")
    assert status == 200 and doc["page"].startswith("<!DOCTYPE html>")
    run_summary = dict((r[0], r[1]) for r in doc["summary"]["rows"])
    status, exp = example.call("export", {"external": True})
    assert status == 200, exp
    folder = Path(exp["folder"])
    assert {"plan.toml", "plan.R", "rerun.py", "release/released.csv", "release/comparison/report.html",
            "input/health_survey.csv"} <= set(exp["files"])
    assert (folder.stat().st_mode & 0o077) == 0 and ((folder / "plan.toml").stat().st_mode & 0o077) == 0
    plan = (folder / "plan.toml").read_text()  # the assessment configuration with the scenarios as edited
    assert 'name = "age only"\nkeys = ["age"]' in plan and 'name = "demographics"' in plan
    # the data users' folder: the release without its seeds and plan
    external = folder / "release-external"
    assert (external / "released.csv").read_bytes() == (folder / "release" / "released.csv").read_bytes()
    assert not (external / "plan.toml").exists() and "20240611" not in (external / "protection.md").read_text()
    # the command shown reruns the plan with sdc protect: the same release, byte for byte
    argv = exp["command"].split()[1:]
    status, _, err = run_cli(capsys, *argv)
    assert status == 0, err
    assert (folder / "rerun" / "released.csv").read_bytes() == (folder / "release" / "released.csv").read_bytes()
    assert run_summary["cells changed (original vs release; a cell two steps changed counts once)"] > 0


def test_uploads_are_limited_saved_privately_and_removed(tmp_path: Path) -> None:
    with serving(tmp_path, max_upload=1000) as r:
        status, doc = r.call("upload", raw=b"x" * 1001, headers={"X-Filename": "big.csv"})
        assert status == 413 and "1,001 bytes" in doc["error"] and "--max-upload" in doc["error"]
        csv = b"sex,region\nf,n\nm,s\nf,n\n"
        status, doc = r.call("upload", raw=csv, headers={"X-Filename": "../../x/small.csv"})
        assert status == 200 and doc["records"] == 3 and doc["name"] == "small.csv"
        saved = r.app.tmp / "small.csv"
        assert saved.read_bytes() == csv and (saved.stat().st_mode & 0o777) == 0o600
        assert (r.app.tmp.stat().st_mode & 0o077) == 0
    assert not r.app.tmp.exists()


def test_the_command_refuses_a_missing_file_and_a_bad_port(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    status, _, err = run_cli(capsys, "app", str(tmp_path / "nope.csv"), "--no-browser")
    assert status == 2 and err.strip().count("\n") == 0 and "nope.csv" in err
    with pytest.raises(SystemExit):
        main(["app", "--port", "70000"])
    assert "0..65535" in capsys.readouterr().err


def test_the_command_prints_its_url_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path / "t")}
    p = subprocess.Popen([sys.executable, "-m", "sdc", "app", "--no-browser", "--export", str(tmp_path / "e")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
                         preexec_fn=sigint_default)
    try:
        line = p.stdout.readline()
        assert line.startswith("sdc app: http://127.0.0.1:") and "?token=" in line
        url = line.split()[2]
        assert _get(url) == 200 and _get(url.split("?")[0]) == 403
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 130 and "Traceback" not in err and "sdc app: stopped" in err
    assert list((tmp_path / "t").iterdir()) == []  # its temporary folder is gone


def test_the_sweep_of_a_step_is_sdc_sweep_on_the_same_plan(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The Compare page's sweep: the plane's points are the rows `sdc sweep` writes for the plan
    the answer carries; a step, parameter or value that does not do is refused in one line."""
    import pandas as pd

    from sdc.app import steps, sweeping
    from sdc.app.session import AppError, AppSession

    s = AppSession(None, tmp_path / "exports", tmp_path)
    s.open("example")
    for step in (PLAN[0], PLAN[2]):
        steps.add_step(s, step)
    doc = sweeping.sweep_step(s, 1, "k", [2, 3, 5], utility_axis="nue_normalised")
    points = doc["plane"]["points"]
    assert [p["label"] for p in points] == ["baseline (original data)", "local_suppression k=2",
                                            "local_suppression k=3", "local_suppression k=5"]
    plan = tmp_path / "sweep.toml"
    plan.write_text(doc["plan_toml"], encoding="utf-8")
    code, _, err = run_cli(capsys, "sweep", str(s.path), "--plan", str(plan), "--no-png",
                           "--out", str(tmp_path / "sweep"))
    assert code == 0, err
    cli = pd.read_csv(tmp_path / "sweep" / "sweep.csv")
    assert [p["x"] for p in points] == pytest.approx(cli["global_risk"].tolist(), rel=1e-12)
    assert [p["y"] for p in points] == pytest.approx(cli["nue_normalised"].tolist(), rel=1e-12)
    assert [p["non_dominated"] for p in points] == cli["non_dominated"].tolist()
    assert doc["plane"]["x_label"] == "global risk (0 to 1) (lower is safer)"
    assert s.state.steps[1]["k"] == 3  # the plan itself is untouched
    for args, says in [((5, "k", [2]), "sweep: step 5 does not exist (the plan has 2)."),
                       ((1, "", [2]), "sweep: name the parameter to vary"),
                       ((1, "k", []), "sweep: give the values of `k` to try"),
                       ((1, "nope", [2]), "unknown parameter `nope`"),
                       ((1, "k", ["x"]), "parameter `k` must be a whole number >= 2")]:
        with pytest.raises(AppError) as e:
            sweeping.sweep_step(s, *args)
        assert says in str(e.value) and "\n" not in str(e.value), (args, e.value)


def test_the_sweep_is_an_action_of_the_api(example: Running) -> None:
    status, doc = example.call("sweep_axes")
    assert status == 200 and ["global_risk", "global risk (0 to 1)"] in doc["risk"]
    assert doc["default_utility"] == "il1_overall" and all(len(a) == 2 for a in doc["utility"])
    status, doc = example.call("sweep", {"index": 99, "parameter": "k", "values": [2]})
    said = doc["error"]  # the module's plan may have steps by now, or none when run alone
    assert status == 400 and ("sweep: step 99 does not exist" in said or "no step yet" in said) and "\n" not in said
