"""Every runnable code block of README.md and docs/*.md runs (issue 28 item 2), in page
order, from the repository (a copy of the checkout, with its .venv's sdc) and from a fresh
folder with the installed wheel (the same build as tests/test_wheel.py). The markers and the
rules are in tests/docs_blocks.py."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs_blocks import DRIVER, KINDS, PAGES, ROOT, blocks

ALL = [b for p in PAGES for b in blocks(p)]

#: Blocks that do not run yet (issue 28 item 2 is not finished): page and the block's first
#: line. Each must still fail (a fixed one is taken off this list by the test's message); every
#: other runnable block must pass. Fixing one: make it run on example/ (sdc example --save), or
#: mark it with its reason (tests/docs_blocks.py).
NOT_YET: dict[str, set[tuple[str, str]]] = {"repo": set(), "wheel": set()}
_KNOWN = Path(__file__).with_name("docs_not_yet.json")
if _KNOWN.exists():
    for where, items in json.loads(_KNOWN.read_text()).items():
        NOT_YET[where] = {tuple(i) for i in items}


def _key(block_id: str) -> tuple[str, str]:
    page, line = block_id.rsplit(":", 1)
    b = next(b for b in ALL if b.id == block_id)
    return page, next(ln for ln in b.code.splitlines() if ln.strip())
_SKIP = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", "build", "dist", "sdc-report", "example"}


def test_every_marker_is_known_and_says_why() -> None:
    for b in ALL:
        if b.mark:
            assert b.mark in KINDS, f"{b.id}: unknown marker {b.mark!r}"
            assert b.mark in ("output", "costly") or b.reason, f"{b.id}: a {b.mark} block says why"


def test_the_readme_keeps_two_commands_for_a_newcomer() -> None:
    first = blocks(ROOT / "README.md")[0]
    commands = [ln for ln in first.code.splitlines() if ln.strip() and not ln.startswith("#")]
    assert [c.split("#")[0].strip() for c in commands] == ["./quickstart.sh example", "./quickstart.sh test"]


def _run_pages(where: Path, env: dict[str, str], python: str, *, costly: bool) -> list[str]:
    failures = []
    for page in PAGES:
        todo = [b for b in blocks(page) if not b.mark or (costly and b.mark == "costly")]
        if not todo:
            continue
        work = where / page.stem if where.name != "repo" else where
        work.mkdir(exist_ok=True)
        if not (work / "example").exists():
            subprocess.run([str(Path(python).with_name("sdc")), "example", "--save", "example"], cwd=work, env=env,
                           capture_output=True, check=True)
        spec = work / f".blocks-{page.stem}.json"
        spec.write_text(json.dumps([{"id": b.id, "lang": b.lang, "code": b.code} for b in todo]))
        proc = subprocess.run([python, "-c", DRIVER, str(spec)], cwd=work, env=env, capture_output=True, text=True,
                              timeout=1800)
        done = {ln.split()[1] for ln in proc.stdout.splitlines() if ln.startswith(("OK ", "FAIL "))}
        failures += [ln for ln in proc.stdout.splitlines() if ln.startswith("FAIL ")]
        failures += [f"FAIL {b.id} did not run ({proc.stderr.strip()[-300:]})" for b in todo if b.id not in done]
        if where.name == "repo":  # one checkout copy: each page starts from the same files
            for p in work.iterdir():
                if p.name not in _SHIPPED:
                    shutil.rmtree(p) if p.is_dir() else p.unlink()
    return failures


_SHIPPED: set[str] = set()


def test_every_runnable_block_runs_from_the_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=lambda d, names: [n for n in names if n in _SKIP or n.endswith(".egg-info")])
    _SHIPPED.clear()
    _SHIPPED.update(p.name for p in repo.iterdir())
    _SHIPPED.add("example")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(repo)  # the checkout's sdc and r_bridge, as from its root
    failures = _run_pages(repo, env, sys.executable, costly=True)
    _judge(failures, "repo")


def test_every_runnable_block_runs_with_the_installed_wheel(installed, tmp_path: Path) -> None:  # noqa: ANN001
    failures = _run_pages(tmp_path, installed.env(), str(installed.python), costly=False)
    _judge(failures, "wheel")


def _judge(failures: list[str], where: str) -> None:
    failed = {_key(f.split()[1]): f for f in failures}
    if os.environ.get("SDC_DOCS_RECORD"):  # writes the list of blocks that fail now
        doc = json.loads(_KNOWN.read_text()) if _KNOWN.exists() else {}
        doc[where] = sorted(failed)
        _KNOWN.write_text(json.dumps(doc, indent=1) + "\n")
    new = [f for k, f in failed.items() if k not in NOT_YET[where]]
    fixed = sorted(NOT_YET[where] - set(failed))
    assert not new, "\n".join(new)
    assert not fixed, f"these blocks run now: take them off tests/docs_not_yet.json: {fixed}"
