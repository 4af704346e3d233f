"""Building and installing the distribution, once per test session (tests/project/test_wheel.py and
tests/project/test_docs_run.py share one build).

:func:`installed` copies the checkout's files (no .git, .venv or caches) into a temporary
folder, builds the sdist there with setuptools' own PEP 517 hook (offline, no isolation: the
build needs only setuptools), unpacks the sdist and builds the wheel from it (as ``python -m
build`` does: the sdist must hold everything the wheel needs), then installs the wheel with pip
(offline, ``--no-deps``: numpy, pandas and the rest come from the system's site packages, as
on this project's machines) into a fresh virtual environment outside the checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_SKIP = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", "build", "dist", "sdc-report"}


@dataclass(frozen=True)
class Installed:
    sdist: Path
    wheel: Path
    venv: Path
    unpacked: Path  # the unpacked sdist

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    @property
    def sdc(self) -> Path:
        return self.venv / "bin" / "sdc"

    def env(self) -> dict[str, str]:
        """The environment of a user outside the checkout: no PYTHONPATH, the venv first on PATH."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        return env


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = 600
        ) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _hook(hook: str, src: Path, out: Path) -> Path:
    code = f"from setuptools import build_meta as b; print(b.{hook}({str(out)!r}))"
    proc = run([sys.executable, "-c", code], cwd=src)
    if proc.returncode != 0:
        raise RuntimeError(f"{hook} failed in {src}: {proc.stderr.strip()[-2000:]}")
    return out / proc.stdout.strip().splitlines()[-1]


def build_and_install(base: Path) -> Installed:
    """The sdist and the wheel built under `base`, the wheel installed in a venv there."""
    tree = base / "tree"
    shutil.copytree(ROOT, tree, ignore=lambda d, names: [n for n in names if n in _SKIP or n.endswith(".egg-info")])
    dist = base / "dist"
    dist.mkdir()
    sdist = _hook("build_sdist", tree, dist)
    with tarfile.open(sdist) as tar:
        tar.extractall(base / "unpacked", **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    (unpacked,) = (base / "unpacked").iterdir()
    wheel = _hook("build_wheel", unpacked, dist)
    venv = base / "venv"
    proc = run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], cwd=base)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr)
    proc = run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-index", "--no-deps", str(wheel)],
               cwd=base)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr)
    return Installed(sdist, wheel, venv, unpacked)
