"""The report's pages as one self-contained HTML string each (figures embedded), without writing
a folder: what ``sdc app`` shows beside its own controls, the same page ``sdc assess`` and
``sdc compare`` write as report.html."""

from __future__ import annotations

import pandas as pd

from sdc.workflow.assess import Assessment
from sdc.workflow.compare import Comparison

__all__ = ["assessment_page", "comparison_page", "verdict_table"]


def verdict_table(a: Assessment) -> pd.DataFrame:
    """The report's "Verdict per measure" table: scenario, measure, statistic, value, passes if,
    verdict (the registry's vocabulary, as every page shows it)."""
    from sdc.report.content import VERDICT_COLUMNS, verdict_frame

    return verdict_frame(a)[VERDICT_COLUMNS]


def assessment_page(a: Assessment) -> str:
    """The assessment's report.html (internal audience), as :func:`sdc.write_report` writes it."""
    from sdc.report.audience import audience_section
    from sdc.report.content import build_report
    from sdc.report.html import render_html
    from sdc.report.plots import figures

    report = build_report(a)
    report.sections.insert(0, audience_section("internal"))
    return render_html(report, figures(a))


def comparison_page(c: Comparison, released_name: str | None = None) -> str:
    """The comparison's report.html (internal audience), as :func:`sdc.write_comparison` writes it."""
    from sdc.report.compare import comparison_files

    page = comparison_files(c, formats=("html",), released_name=released_name)["report.html"]
    return page if isinstance(page, str) else page.decode("utf-8")
