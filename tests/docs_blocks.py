"""The code blocks of README.md and docs/*.md, and how the docs test runs them (issue 28 item 2).

A ```python or ```sh block is **runnable** unless the line just before its fence is a marker
comment ``<!-- sdc-docs: KIND: reason -->``:

* ``output`` — it shows output, not code to run;
* ``needs`` — it needs a file or a service that sdc does not ship (the reason names it);
* ``setup`` — it is the set-up itself (``./quickstart.sh``), which the test suite runs inside;
* ``costly`` — it runs, but only once (in the repository-root run), for its time.

Every runnable block runs in page order, one page at a time, in a folder that holds the
bundled example's files under ``example/`` (what ``sdc example --save example`` writes): the
python blocks of a page share one namespace, the sh blocks run with bash (``set -e``), with
``sdc`` on PATH. See docs/index.md, "Code in these pages".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
KINDS = ("output", "needs", "setup", "costly")
_FENCE = re.compile(r"^```(python|sh|bash)\s*$")
_MARK = re.compile(r"^<!--\s*sdc-docs:\s*(\w+)(?::\s*(.*?))?\s*-->\s*$")


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    lang: str  # "python" or "sh"
    code: str
    mark: str = ""  # one of KINDS, or "" (runnable)
    reason: str = ""

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The python and sh blocks of a page, in order, with their markers."""
    lines = page.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        mark = _MARK.match(lines[start - 1]) if start > 0 else None
        out.append(Block(str(page.relative_to(ROOT)), start + 1, "python" if m.group(1) == "python" else "sh",
                         "\n".join(lines[start + 1:j]) + "\n", mark.group(1) if mark else "",
                         (mark.group(2) or "") if mark else ""))
        i = j + 1
    return out


DRIVER = r'''
import json, os, subprocess, sys, traceback
blocks = json.load(open(sys.argv[1]))
ns = {"__name__": "__main__"}
for b in blocks:
    try:
        if b["lang"] == "python":
            exec(compile(b["code"], b["id"], "exec"), ns)
        else:
            p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", b["code"]], capture_output=True, text=True,
                               timeout=600)
            if p.returncode != 0:
                raise RuntimeError(f"exit {p.returncode}: {p.stderr.strip()[-1500:]}")
        print("OK", b["id"], flush=True)
    except BaseException as exc:
        print("FAIL", b["id"], (type(exc).__name__ + ": " + str(exc)).replace("\n", " | ")[:1500], flush=True)
'''
