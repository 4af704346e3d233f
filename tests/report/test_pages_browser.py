"""Issue 26, item 4: the compare and sweep pages in headless Chromium: no table wider than the
page's column, no clipped heading, figure caption or table header, no image outside the page;
and the check itself catches a wide table and a clipped title. docs/img/compare.png and
docs/img/sweep.png are screenshots of these pages (python -m validation.browser --page ...)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sdc.cli.main import main
from sdc.datasets import save_example
from validation.browser import layout_problems, render

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def _cli(*argv: str) -> None:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # pragma: no cover - a usage error
        code = exc.code
    assert code == 0, argv


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("pages")
    save_example(tmp / "ex")
    ex = tmp / "ex"
    plan = (ex / "example_sweep.toml").read_text(encoding="utf-8").replace(
        'grid = { flip = [0.01, 0.05, 0.10] }',
        'grid = { flip = [0.01, 0.05, 0.10] }\n\n[[steps]]\nmethod = "pram"\nvariables = ["region"]\n'
        'grid = { flip = [0.01, 0.05, 0.10] }', 1)
    (ex / "sweep2.toml").write_text(plan, encoding="utf-8")
    _cli("sweep", str(ex / "health_survey.csv"), "--plan", str(ex / "sweep2.toml"), "--out", str(tmp / "sw"))
    _cli("protect", str(ex / "health_survey.csv"), "--plan", str(ex / "example_plan.toml"), "--out", str(tmp / "pr"))
    return {"sweep": tmp / "sw" / "sweep.html", "compare": tmp / "pr" / "comparison" / "report.html"}


@pytest.mark.parametrize("page", ["compare", "sweep"])
def test_no_overflowing_table_and_no_clipped_title(chromium: str, pages: dict[str, Path], page: str,
                                                   tmp_path: Path) -> None:
    tables, bad = layout_problems(chromium, pages[page])
    assert tables >= 5 and bad == [], bad
    shot = tmp_path / f"{page}.png"
    r = render(chromium, pages[page], screenshot=shot, width=1280, height=2400)
    assert r.returncode == 0 and shot.stat().st_size > 20_000


def test_the_layout_check_catches_a_wide_table_and_a_clipped_title(chromium: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.html"
    cells = "".join(f"<td>{'x' * 30}{i}</td>" for i in range(40))
    bad.write_text('<!DOCTYPE html><html><body style="max-width: 800px">'
                   '<h2 style="overflow: hidden; white-space: nowrap; width: 100px">a title far too long for its box</h2>'
                   f"<h3>Wide</h3><table><tr>{cells}</tr></table></body></html>", encoding="utf-8")
    tables, found = layout_problems(chromium, bad)
    assert tables == 1
    assert any(f.startswith("table Wide") for f in found) and any(f.startswith("clipped H2") for f in found), found
