"""The HTML report in a real browser: headless Chromium renders it with no console messages,
every embedded figure decodes, and a screenshot is taken (docs/img/report.png is one)."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from validation.browser import render

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def report_html(example_report: Path) -> Path:
    """The session's example report (tests/conftest.py): read only."""
    return example_report / "report.html"


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_renders_without_console_messages_and_screenshots(chromium: str, report_html: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    r = render(chromium, report_html, screenshot=shot, width=1280, height=2400)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.console == (), r.console
    assert shot.exists() and shot.stat().st_size > 20_000
    assert _png_size(shot) == (1280, 2400)


def test_every_figure_decodes(chromium: str, report_html: Path) -> None:
    r = render(chromium, report_html, instrument=True)
    checks = [c for c in r.console if "SDC-CHECK" in c]
    assert len(checks) == 1, r.console
    n = int(re.search(r"images=(\d+)", checks[0]).group(1))
    assert n == report_html.read_text().count("<img ") and n >= 6
    assert "broken=0" in checks[0], checks[0]
    assert [c for c in r.console if "SDC-CHECK" not in c] == []


def test_the_page_is_self_contained(report_html: Path) -> None:
    text = report_html.read_text()
    assert "<script" not in text
    # every image is embedded; no stylesheet, font or image is fetched from anywhere
    assert re.findall(r'src="(?!data:image/png;base64,)', text) == []
    assert "<link" not in text and "@import" not in text and "url(" not in text


def test_the_console_check_catches_errors(chromium: str, tmp_path: Path) -> None:
    # the detector itself: a page with a script error must be caught
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html><body><script>console.error("oops"); missing();</script></body></html>')
    r = render(chromium, bad)
    assert any("oops" in c for c in r.console) and any("missing is not defined" in c for c in r.console)


def test_the_report_prints_to_a4_pages(chromium: str, report_html: Path, tmp_path: Path) -> None:
    # issue 11, item 15: a print stylesheet; Chromium prints the page as a reader would
    import subprocess

    pdf = tmp_path / "report.pdf"
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-pdf-header-footer",
           f"--user-data-dir={tmp_path / 'profile'}", f"--print-to-pdf={pdf}", report_html.as_uri()]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0 and pdf.exists(), r.stderr[-2000:]
    data = pdf.read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page\b", data))
    boxes = {tuple(round(float(x)) for x in m.split()) for m in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", data)}
    assert boxes == {(0, 0, 595, 842)}  # A4, from the stylesheet's @page
    assert 10 <= pages <= 60, pages  # every row of every table printed (no scroll boxes), not one endless page
