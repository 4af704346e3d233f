"""Rendering a report in headless Chromium: console messages, broken images, a screenshot.

The HTML report has no scripts, so a correct page logs nothing to the console. To check
that every embedded figure decodes, :func:`render` can also load an instrumented copy of
the page with a small script that counts images that failed to load and logs the result.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Rendered", "render", "CHECK_SCRIPT", "LAYOUT_SCRIPT", "layout_problems"]

#: Appended to an instrumented copy: logs "SDC-CHECK images=N broken=M" once the page has loaded.
CHECK_SCRIPT = """<script>
window.addEventListener("load", function () {
  var imgs = Array.prototype.slice.call(document.images);
  var broken = imgs.filter(function (i) { return !i.complete || i.naturalWidth === 0; }).length;
  console.log("SDC-CHECK images=" + imgs.length + " broken=" + broken);
});
</script>"""

#: Appended to an instrumented copy: logs "SDC-LAYOUT tables=N overflow=M clipped=K" and one
#: "SDC-LAYOUT-BAD ..." line per problem: a table wider than the page's column (body), a
#: heading or caption whose text is cut (wider than its box), an image shown wider than the
#: page's column.
LAYOUT_SCRIPT = """<script>
window.addEventListener("load", function () {
  var body = document.body.getBoundingClientRect();
  var right = body.left + document.body.clientWidth + 1;
  var tables = Array.prototype.slice.call(document.querySelectorAll("table"));
  var bad = [];
  tables.forEach(function (t) {
    var r = t.getBoundingClientRect();
    if (r.right > right || t.scrollWidth > t.parentElement.clientWidth + 1) {
      var h = t.closest("div, section"); var title = t.previousElementSibling;
      while (title && !/^H[1-6]$/.test(title.tagName)) { title = title.previousElementSibling; }
      bad.push("table " + (title ? title.textContent : "?") + " " + Math.round(r.width) + "px");
    }
  });
  Array.prototype.slice.call(document.querySelectorAll("h1, h2, h3, figcaption, th")).forEach(function (h) {
    if (h.scrollWidth > h.clientWidth + 1 && getComputedStyle(h).overflow !== "visible") {
      bad.push("clipped " + h.tagName + " " + h.textContent.slice(0, 60));
    }
    if (h.getBoundingClientRect().right > right) { bad.push("outside " + h.tagName + " " + h.textContent.slice(0, 60)); }
  });
  Array.prototype.slice.call(document.images).forEach(function (i) {
    if (i.getBoundingClientRect().right > right) { bad.push("image " + i.alt.slice(0, 60)); }
  });
  bad.forEach(function (b) { console.log("SDC-LAYOUT-BAD " + b); });
  console.log("SDC-LAYOUT tables=" + tables.length + " bad=" + bad.length);
});
</script>"""

_CONSOLE = re.compile(r":CONSOLE[^\]]*\]\s*(.*)")


@dataclass(frozen=True)
class Rendered:
    console: tuple[str, ...]      # console messages of the page itself
    screenshot: Path | None
    returncode: int
    stderr: str


def _run(chromium: str, url: str, *, screenshot: Path | None, width: int, height: int, timeout: float) -> Rendered:
    with tempfile.TemporaryDirectory(prefix="sdc-chromium-") as profile:
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
               "--disable-extensions", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
               f"--window-size={width},{height}", "--virtual-time-budget=10000"]
        if screenshot is not None:
            cmd.append(f"--screenshot={screenshot}")
        else:
            cmd.append("--dump-dom")
        proc = subprocess.run(cmd + [url], capture_output=True, text=True, timeout=timeout)
    console = tuple(m.group(1) for line in proc.stderr.splitlines() if (m := _CONSOLE.search(line)))
    return Rendered(console=console, screenshot=screenshot, returncode=proc.returncode, stderr=proc.stderr)


def render(chromium: str, html: Path, *, screenshot: Path | None = None, width: int = 1280, height: int = 2400,
           instrument: bool = False, timeout: float = 180, script: str = CHECK_SCRIPT) -> Rendered:
    """Load `html` in headless Chromium; optionally take a screenshot or check the images
    (`instrument`: `script` appended to a copy of the page)."""
    html = Path(html).resolve()
    if instrument:
        text = html.read_text(encoding="utf-8")
        with tempfile.TemporaryDirectory(prefix="sdc-probe-") as tmp:  # the report folder stays untouched
            probe = Path(tmp) / html.name
            probe.write_text(text.replace("</body>", script + "\n</body>"), encoding="utf-8")
            return _run(chromium, probe.as_uri(), screenshot=screenshot, width=width, height=height, timeout=timeout)
    return _run(chromium, html.as_uri(), screenshot=screenshot, width=width, height=height, timeout=timeout)


def layout_problems(chromium: str, html: Path, *, width: int = 1280) -> tuple[int, list[str]]:
    """The number of tables of the page and its layout problems (:data:`LAYOUT_SCRIPT`)."""
    r = render(chromium, html, instrument=True, script=LAYOUT_SCRIPT, width=width)
    lines = [m.group(1) for c in r.console if (m := re.search(r'"?(SDC-LAYOUT.*?)"?(?:, source: .*)?$', c))]
    summary = [c for c in lines if c.startswith("SDC-LAYOUT tables=")]
    if r.returncode or len(summary) != 1:
        raise RuntimeError(f"the layout check did not run: {r.console} {r.stderr[-500:]}")
    tables = int(re.search(r"tables=(\d+)", summary[0]).group(1))
    return tables, [c[len("SDC-LAYOUT-BAD "):] for c in lines if c.startswith("SDC-LAYOUT-BAD ")]


def _page(kind: str, tmp: Path) -> Path:
    """Write the bundled example's page of `kind` (report, compare, sweep) into `tmp`."""
    from datetime import datetime, timezone

    from sdc.cli.main import main
    from sdc.datasets import example_config_path, save_example
    from sdc.report import write_report
    from sdc.workflow.assess import assess
    from sdc.workflow.config import load_config

    if kind == "report":
        a = assess(load_config(example_config_path()), now=datetime(2026, 1, 1, tzinfo=timezone.utc),
                   command="sdc assess")
        write_report(a, tmp / "report")
        return tmp / "report" / "report.html"
    save_example(tmp / "ex")
    ex = tmp / "ex"
    if kind == "compare":
        main(["protect", str(ex / "health_survey.csv"), "--plan", str(ex / "example_plan.toml"), "--out",
              str(tmp / "pr")])
        return tmp / "pr" / "comparison" / "report.html"
    plan = (ex / "example_sweep.toml").read_text(encoding="utf-8").replace(
        'grid = { flip = [0.01, 0.05, 0.10] }',
        'grid = { flip = [0.01, 0.05, 0.10] }\n\n[[steps]]\nmethod = "pram"\nvariables = ["region"]\n'
        'grid = { flip = [0.01, 0.05, 0.10] }', 1)
    (ex / "sweep2.toml").write_text(plan, encoding="utf-8")
    main(["sweep", str(ex / "health_survey.csv"), "--plan", str(ex / "sweep2.toml"), "--out", str(tmp / "sw")])
    return tmp / "sw" / "sweep.html"


def _main() -> int:
    """Regenerate docs/img/report.png (or compare.png, sweep.png): the top of the bundled
    example's page."""
    import argparse
    import shutil

    p = argparse.ArgumentParser(prog="python -m validation.browser", description=_main.__doc__)
    p.add_argument("--page", choices=("report", "compare", "sweep"), default="report")
    p.add_argument("--out", default=None, help="default: docs/img/<page>.png")
    p.add_argument("--height", type=int, default=3000)
    args = p.parse_args()
    out = Path(args.out or f"docs/img/{args.page}.png").resolve()
    chromium = next((c for c in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if c), None)
    if chromium is None:
        raise SystemExit("needs Chromium (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        html = _page(args.page, Path(tmp))
        r = render(chromium, html, screenshot=out, height=args.height)
    if r.console or r.returncode:
        raise SystemExit(f"the page logged {r.console} (exit {r.returncode})")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
