"""The distribution works without the repository beside it (issue 28 item 1).

The sdist is built from a copy of this checkout, the wheel from the unpacked sdist, and the
wheel installed into a fresh virtual environment (with the system's site packages for numpy,
pandas and the rest, as on this project's machines) — tests/dist.py, once per session. From a
folder outside the repository the README's main job runs: ``sdc assess`` on the bundled
example. The wheel ships every subpackage of sdc, the bundled data, ``py.typed``, the LICENSE
and the bridge under its own name (``sdc_r_bridge``, never ``r_bridge``), and not the harness;
the sdist ships the tests, so that its ``[test]`` extra is usable.
"""

from __future__ import annotations

import email
import os
import sys
import tarfile
import zipfile
from pathlib import Path

from tests.dist import ROOT, Installed, run


def _metadata(wheel: Path) -> email.message.Message:
    z = zipfile.ZipFile(wheel)
    (name,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
    return email.message_from_bytes(z.read(name))


def test_the_wheel_holds_every_subpackage_the_bridge_under_its_own_name_and_no_harness(installed: Installed) -> None:
    names = zipfile.ZipFile(installed.wheel).namelist()
    packages = {str(p.parent.relative_to(ROOT)).replace(os.sep, "/") for p in (ROOT / "sdc").rglob("__init__.py")}
    for pkg in packages:
        assert f"{pkg}/__init__.py" in names, f"{pkg} is missing from the wheel"
    assert "sdc/data/health_survey.csv" in names and "sdc/py.typed" in names
    bridge = {Path(n).name for n in names if n.startswith("sdc_r_bridge/")}
    assert bridge >= {p.name for p in (ROOT / "r_bridge").iterdir() if p.suffix in (".py", ".R")}
    assert not any(n.startswith(("validation/", "tests/", "r_bridge/")) for n in names)
    # .dist-info/LICENSE, or .dist-info/licenses/LICENSE (PEP 639: setuptools >= 77, Debian 13 and sid)
    assert any(n.endswith(("/LICENSE")) and ".dist-info/" in n for n in names)


def test_the_wheel_is_named_sdc_microdata_with_its_licence_and_every_tested_python(installed: Installed) -> None:
    assert installed.wheel.name.startswith("sdc_microdata-")
    meta = _metadata(installed.wheel)
    assert meta["Name"] == "sdc-microdata"
    classifiers = meta.get_all("Classifier")
    assert "License :: OSI Approved :: MIT License" in classifiers and "Typing :: Typed" in classifiers
    for minor in (11, 12, 13, 14):  # the CI's Pythons: Debian 12, (3.12: none), 13, sid
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    assert any(u.startswith("Documentation, ") for u in meta.get_all("Project-URL"))
    assert {"spss", "parquet", "r", "test", "dask"} <= set(meta.get_all("Provides-Extra"))


def test_the_sdist_holds_the_tests_docs_and_licence_and_its_tests_run(installed: Installed) -> None:
    names = tarfile.open(installed.sdist).getnames()
    top = names[0].split("/")[0]
    for rel in ("LICENSE", "tests/conftest.py", "tests/base/test_schema.py", "docs/index.md", "r_bridge/_helpers.R",
                "sdc/py.typed", "validation/cases.py", "scripts/install.sh"):
        assert f"{top}/{rel}" in names, f"{rel} is missing from the sdist"
    proc = run([str(installed.python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/base/test_schema.py"],
               cwd=installed.unpacked, env=installed.env())
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]


def test_the_installed_wheel_runs_the_readme_job_outside_the_repository(installed: Installed, tmp_path: Path) -> None:
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = installed.env()
    proc = run([str(installed.python), "-c", "import sdc, sdc._rbridge as b, importlib.util as u; "
                "print(sdc.__file__, b.bridge().__name__, u.find_spec('validation') is None, "
                "u.find_spec('r_bridge') is None)"], cwd=work, env=env)
    assert proc.returncode == 0, proc.stderr
    where, bridge, no_harness, no_r_bridge = proc.stdout.split()
    assert str(installed.venv) in where and str(ROOT) not in where
    assert (bridge, no_harness, no_r_bridge) == ("sdc_r_bridge", "True", "True")
    proc = run([str(installed.sdc), "assess", "--formats", "json,md", "--out", str(work / "rep")], cwd=work, env=env)
    assert proc.returncode == 0, proc.stderr
    assert (work / "rep" / "report.json").is_file() and (work / "rep" / "report.md").is_file()


def test_sdc_never_imports_a_foreign_r_bridge(tmp_path: Path) -> None:
    """PyPI's r-bridge installs a top-level r_bridge: first on the path, sdc still finds its own."""
    foreign = tmp_path / "site" / "r_bridge"
    foreign.mkdir(parents=True)
    (foreign / "__init__.py").write_text("raise ImportError('the foreign r_bridge was imported')\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(tmp_path / "site")
    code = ("import sys, sdc._rbridge as b; m = b.bridge(); "
            "print(m.__name__, 'r_bridge' in sys.modules, m.__file__)")
    proc = run([sys.executable, "-c", code], cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    name, loaded, where = proc.stdout.split()
    assert (name, loaded) == ("sdc_r_bridge", "False")
    assert Path(where).parent == ROOT / "r_bridge"
