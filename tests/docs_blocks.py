"""The code blocks of README.md and docs/*.md, and how the docs test runs them (issue 28 item 2).

A ```python or ```sh block is **runnable** unless the line just before its fence is a marker
comment ``<!-- sdc-docs: KIND: reason -->``:

* ``output`` — it shows output, not code to run;
* ``needs`` — it needs a file or a service that sdc does not ship (the reason names it);
* ``setup`` — it is the set-up itself (``./quickstart.sh``), which the test suite runs inside;
* ``costly`` — it runs, but only once (in the repository-root run), for its time;
* ``excerpt`` — it quotes sdc's own source, elided with ``...``, to read (the reason names
  the file).

Every runnable block runs in page order, one page at a time, in a folder that holds the
bundled example's files under ``example/`` (what ``sdc example --save example`` writes): the
python blocks of a page share one namespace, the sh blocks run with bash (``set -e``), with
``sdc`` on PATH. See docs/index.md, "Code in these pages".
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def selected_pages() -> list[Path]:
    """The pages to run: all of PAGES, or those named in ``SDC_DOCS_PAGES`` (comma-separated,
    a path such as ``docs/attacks.md`` or a stem such as ``attacks``), in PAGES' order."""
    wanted = {w.strip() for w in os.environ.get("SDC_DOCS_PAGES", "").split(",") if w.strip()}
    if not wanted:
        return list(PAGES)
    chosen = [p for p in PAGES if {str(p.relative_to(ROOT)), p.name, p.stem} & wanted]
    known = {n for p in PAGES for n in (str(p.relative_to(ROOT)), p.name, p.stem)}
    if wanted - known:
        raise ValueError(f"SDC_DOCS_PAGES names no page: {sorted(wanted - known)}")
    return chosen
KINDS = ("output", "needs", "setup", "costly", "excerpt")
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


DRIVER = r"""
import json, os, subprocess, sys, time
blocks = json.load(open(sys.argv[1]))
ns = {"__name__": "__main__"}
for b in blocks:
    t0 = time.perf_counter()
    try:
        if b["lang"] == "python":
            exec(compile(b["code"], b["id"], "exec"), ns)
        else:
            p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", b["code"]], capture_output=True, text=True,
                               timeout=600)
            if p.returncode != 0:
                raise RuntimeError(f"exit {p.returncode}: {p.stderr.strip()[-1500:]}")
        print("OK", b["id"], f"{time.perf_counter() - t0:.1f}s", flush=True)
    except BaseException as exc:
        print("FAIL", b["id"], f"{time.perf_counter() - t0:.1f}s",
              (type(exc).__name__ + ": " + str(exc)).replace("\n", " | ")[:1500], flush=True)
"""

#: What a copy of the checkout leaves out (as tests/dist.py), and the folder the runs write.
SKIP = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", "build", "dist", "sdc-report", "example"}


def copy_repository(dest: Path) -> set[str]:
    """A copy of the checkout at `dest` (no .git, .venv or caches); the names at its top, and
    ``example`` (written by :func:`run_pages`), which every page of the run keeps."""
    shutil.copytree(ROOT, dest, ignore=lambda d, names: [n for n in names if n in SKIP or n.endswith(".egg-info")])
    return {p.name for p in dest.iterdir()} | {"example"}


def repository_env(repo: Path, python: str) -> dict[str, str]:
    """The environment of the repository-root run: the checkout copy's sdc and r_bridge first
    (PYTHONPATH), the .venv's ``sdc`` on PATH."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = f"{Path(python).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(repo)
    return env


def run_pages(where: Path, env: dict[str, str], python: str, *, costly: bool,
              shipped: set[str] | None = None) -> list[str]:
    """Run the runnable blocks of :func:`selected_pages`; one ``OK id time`` or ``FAIL id time
    message`` line per block, in page order.

    With `shipped` (the repository run) every page runs in `where` itself, and what a page
    wrote outside `shipped` is removed before the next; without it each page runs in its own
    folder ``where/<stem>``. The example is written once (``sdc example --save``) and copied
    into each page's folder. ``costly`` blocks run only when `costly` is true.
    """
    lines: list[str] = []
    shared = where / "example"
    subprocess.run([str(Path(python).with_name("sdc")), "example", "--save", str(shared)], cwd=where, env=env,
                   capture_output=True, check=True)
    for page in selected_pages():
        todo = [b for b in blocks(page) if not b.mark or (costly and b.mark == "costly")]
        if not todo:
            continue
        work = where if shipped is not None else where / page.stem
        work.mkdir(exist_ok=True)
        if not (work / "example").exists():
            shutil.copytree(shared, work / "example")
        spec = work / f".blocks-{page.stem}.json"
        spec.write_text(json.dumps([{"id": b.id, "lang": b.lang, "code": b.code} for b in todo]))
        proc = subprocess.run([python, "-c", DRIVER, str(spec)], cwd=work, env=env, capture_output=True, text=True,
                              timeout=1800)
        out = [ln for ln in proc.stdout.splitlines() if ln.startswith(("OK ", "FAIL "))]
        done = {ln.split()[1] for ln in out}
        lines += out + [f"FAIL {b.id} 0s did not run ({proc.stderr.strip()[-300:]})" for b in todo if b.id not in done]
        if shipped is not None:  # one checkout copy: each page starts from the same files
            for p in work.iterdir():
                if p.name not in shipped:
                    shutil.rmtree(p) if p.is_dir() else p.unlink()
    return lines


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.docs_blocks [--wheel] [PAGE ...]``: run pages and print each block's
    result (see the module's docstring)."""
    import argparse
    import sys
    import tempfile

    ap = argparse.ArgumentParser(prog="python -m tests.docs_blocks", description=__doc__.split("\n")[0])
    ap.add_argument("pages", nargs="*", help="docs/attacks.md, attacks, README.md ... (default: every page)")
    ap.add_argument("--wheel", action="store_true", help="run with the built and installed wheel, in fresh folders")
    ns = ap.parse_args(argv)
    if ns.pages:
        os.environ["SDC_DOCS_PAGES"] = ",".join(ns.pages)
    with tempfile.TemporaryDirectory(prefix="sdc-docs-") as tmp:
        if ns.wheel:
            from tests.dist import build_and_install

            inst = build_and_install(Path(tmp) / "dist")
            (Path(tmp) / "pages").mkdir()
            lines = run_pages(Path(tmp) / "pages", inst.env(), str(inst.python), costly=False)
        else:
            repo = Path(tmp) / "repo"
            shipped = copy_repository(repo)
            lines = run_pages(repo, repository_env(repo, sys.executable), sys.executable, costly=True, shipped=shipped)
    print("\n".join(lines))
    bad = sum(ln.startswith("FAIL") for ln in lines)
    print(f"{len(lines) - bad} ran, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
