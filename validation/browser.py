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

__all__ = ["Rendered", "render", "CHECK_SCRIPT"]

#: Appended to an instrumented copy: logs "SDC-CHECK images=N broken=M" once the page has loaded.
CHECK_SCRIPT = """<script>
window.addEventListener("load", function () {
  var imgs = Array.prototype.slice.call(document.images);
  var broken = imgs.filter(function (i) { return !i.complete || i.naturalWidth === 0; }).length;
  console.log("SDC-CHECK images=" + imgs.length + " broken=" + broken);
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
           instrument: bool = False, timeout: float = 180) -> Rendered:
    """Load `html` in headless Chromium; optionally take a screenshot or check the images."""
    html = Path(html).resolve()
    if instrument:
        text = html.read_text(encoding="utf-8")
        with tempfile.TemporaryDirectory(prefix="sdc-probe-") as tmp:  # the report folder stays untouched
            probe = Path(tmp) / html.name
            probe.write_text(text.replace("</body>", CHECK_SCRIPT + "\n</body>"), encoding="utf-8")
            return _run(chromium, probe.as_uri(), screenshot=screenshot, width=width, height=height, timeout=timeout)
    return _run(chromium, html.as_uri(), screenshot=screenshot, width=width, height=height, timeout=timeout)


def _main() -> int:
    """Regenerate docs/img/report.png: the top of the bundled example's report."""
    import argparse
    import shutil
    from datetime import datetime, timezone

    from sdc.workflow.assess import assess
    from sdc.workflow.config import load_config
    from sdc.datasets import example_config_path
    from sdc.report import write_report

    p = argparse.ArgumentParser(prog="python -m validation.browser", description=_main.__doc__)
    p.add_argument("--out", default="docs/img/report.png")
    p.add_argument("--height", type=int, default=3000)
    args = p.parse_args()
    chromium = next((c for c in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if c), None)
    if chromium is None:
        raise SystemExit("needs Chromium (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        a = assess(load_config(example_config_path()), now=datetime(2026, 1, 1, tzinfo=timezone.utc),
                   command="sdc assess")
        write_report(a, Path(tmp) / "report")
        r = render(chromium, Path(tmp) / "report" / "report.html", screenshot=Path(args.out).resolve(),
                   height=args.height)
    if r.console or r.returncode:
        raise SystemExit(f"the page logged {r.console} (exit {r.returncode})")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
