"""Every runnable code block of README.md and docs/*.md runs (issue 28 item 2), in page
order, from the repository (a copy of the checkout, with its .venv's sdc) and from a fresh
folder with the installed wheel (the same build as tests/project/test_wheel.py). The markers and the
rules are in tests/docs_blocks.py."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.docs_blocks import KINDS, PAGES, ROOT, blocks, copy_repository, repository_env, run_pages, selected_pages

ALL = [b for p in PAGES for b in blocks(p)]

#: Blocks that do not run yet (issue 28 item 2 is not finished): page and the block's first
#: line. Each must still fail (a fixed one is taken off this list by the test's message); every
#: other runnable block must pass. Fixing one: make it run on example/ (sdc example --save), or
#: mark it with its reason (tests/docs_blocks.py).
NOT_YET: dict[str, set[tuple[str, str]]] = {"repo": set(), "wheel": set()}
_KNOWN = Path(__file__).parents[1] / "docs_not_yet.json"
if _KNOWN.exists():
    for where, items in json.loads(_KNOWN.read_text()).items():
        NOT_YET[where] = {tuple(i) for i in items}


def _key(block_id: str) -> tuple[str, str]:
    page, line = block_id.rsplit(":", 1)
    b = next(b for b in ALL if b.id == block_id)
    return page, next(ln for ln in b.code.splitlines() if ln.strip())




def test_every_marker_is_known_and_says_why() -> None:
    for b in ALL:
        if b.mark:
            assert b.mark in KINDS, f"{b.id}: unknown marker {b.mark!r}"
            assert b.mark in ("output", "costly") or b.reason, f"{b.id}: a {b.mark} block says why"


def test_the_readme_keeps_two_commands_for_a_newcomer() -> None:
    first = blocks(ROOT / "README.md")[0]
    commands = [ln for ln in first.code.splitlines() if ln.strip() and not ln.startswith("#")]
    assert [c.split("#")[0].strip() for c in commands] == ["./quickstart.sh example", "./quickstart.sh test"]


def test_every_runnable_block_runs_from_the_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shipped = copy_repository(repo)
    lines = run_pages(repo, repository_env(repo, sys.executable), sys.executable, costly=True, shipped=shipped)
    _judge(lines, "repo")


def test_every_runnable_block_runs_with_the_installed_wheel(installed, tmp_path: Path) -> None:  # noqa: ANN001
    lines = run_pages(tmp_path, installed.env(), str(installed.python), costly=False)
    _judge(lines, "wheel")


def _judge(lines: list[str], where: str) -> None:
    failed = {_key(f.split()[1]): f for f in lines if f.startswith("FAIL ")}
    pages = {str(p.relative_to(ROOT)) for p in selected_pages()}
    listed = {k for k in NOT_YET[where] if k[0] in pages}
    if os.environ.get("SDC_DOCS_RECORD"):  # writes the list of blocks that fail now (of the pages run)
        doc = json.loads(_KNOWN.read_text()) if _KNOWN.exists() else {}
        kept = [tuple(k) for k in doc.get(where, []) if k[0] not in pages]
        doc[where] = sorted({*kept, *failed})
        _KNOWN.write_text(json.dumps(doc, indent=1) + "\n")
    new = [f for k, f in failed.items() if k not in listed]
    fixed = sorted(listed - set(failed))
    assert not new, "\n".join(new)
    assert not fixed, f"these blocks run now: take them off tests/docs_not_yet.json: {fixed}"
