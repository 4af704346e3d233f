"""A built wheel works without the repository beside it.

The wheel is built from this checkout, installed into a fresh virtual environment (with the
system's site packages for numpy, pandas and the rest, as on this project's machines), and
`sdc assess` runs on the bundled example from a folder outside the repository. The wheel
ships every subpackage of sdc and the bundled data, and not the validation harness.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
                 "-w", str(out), str(ROOT)], cwd=out)
    if proc.returncode != 0:
        pytest.fail(f"building the wheel failed: {proc.stderr.strip()[-2000:]}")
    (whl,) = out.glob("sdc-*.whl")
    return whl


def test_the_wheel_holds_every_subpackage_and_no_harness(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    packages = {str(p.parent.relative_to(ROOT)).replace(os.sep, "/") for p in (ROOT / "sdc").rglob("__init__.py")}
    for pkg in packages:
        assert f"{pkg}/__init__.py" in names, f"{pkg} is missing from the wheel"
    assert "r_bridge/_helpers.R" in names and "sdc/data/health_survey.csv" in names
    assert not any(n.startswith(("validation/", "tests/")) for n in names)


def test_the_installed_wheel_runs_sdc_assess_outside_the_repository(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    proc = _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    py = venv / "bin" / "python"
    proc = _run([str(py), "-m", "pip", "install", "-q", "--no-index", "--no-deps", str(wheel)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    work = tmp_path / "elsewhere"
    work.mkdir()
    proc = _run([str(py), "-c", "import sdc, sys; print(sdc.__file__); "
                 "import importlib.util as u; print(u.find_spec('validation') is None)"], cwd=work, env=env)
    assert proc.returncode == 0, proc.stderr
    where, no_harness = proc.stdout.split()
    assert str(venv) in where and str(ROOT) not in where
    assert no_harness == "True"
    proc = _run([str(venv / "bin" / "sdc"), "assess", "--formats", "json,md", "--out", str(work / "rep")], cwd=work,
                env=env)
    assert proc.returncode == 0, proc.stderr
    assert (work / "rep" / "report.json").is_file() and (work / "rep" / "report.md").is_file()
