"""A protection run as an R script for sdcMicro (``sdc protect --export-r plan.R``,
:meth:`sdc.workflow.protect.ProtectionRun.to_r_script`).

Each step is written by its method's declared translation (``sdcmicro=`` beside the method,
:mod:`sdc.protect._rcode`), as one R function of the data, so that a reader (and the CI check,
tests/workflow/test_rscript.py) can run any step on any input. The script says, step by step, which
steps give the release's cells exactly (the deterministic ones sdcMicro computes the same
way) and how the others differ (R's random draws are not numpy's; a variant sdcMicro has
not). It reads a CSV file and writes one::

    Rscript plan.R INPUT.csv OUTPUT.csv

With ``SDC_STEPS_ONLY=1`` in the environment it only defines ``steps`` (a list of functions),
for ``source()``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from sdc._version import __version__
from sdc.protect._rcode import RStep, StepRun

__all__ = ["r_script", "r_steps"]


def _categories(data: pd.DataFrame, variables: tuple[str, ...]) -> dict[str, list[str]]:
    return {v: [str(c) for c in data[v].cat.categories] for v in variables
            if v in data.columns and isinstance(data[v].dtype, pd.CategoricalDtype)}


def r_steps(run: Any) -> list[tuple[Any, RStep]]:
    """Each step of a computed run with its R translation."""
    from sdc.workflow.plan import method_table

    table = method_table()
    out = []
    for record in run.steps:
        info = table[record.step.method]
        variables = tuple(record.result.variables)
        step_run = StepRun(record.step.method, variables, dict(record.step.parameters), record.seed,
                           dict(record.result.details), _categories(record.result.data, variables))
        if info.sdcmicro is None:
            r = RStep(("data  # not reproduced",), False, f"sdcMicro has no counterpart of sdc's {info.name}")
        else:
            r = info.sdcmicro(step_run)
        out.append((record, r))
    return out


def r_script(run: Any) -> str:
    """The R script reproducing the run's plan with sdcMicro (see the module docstring)."""
    run = run.computed()
    steps = r_steps(run)
    lines = [f"# sdc {__version__}: the protection plan {run.plan.source!r} for R's sdcMicro.",
             "#   Rscript this.R INPUT.csv OUTPUT.csv   (SDC_STEPS_ONLY=1: only define `steps`, for source())",
             "# Step by step, whether R gives the release's cells exactly:"]
    for record, r in steps:
        lines.append(f"#   {record.step.number}. {record.step.method}: {'exact' if r.exact else 'differs'} - {r.note}")
    lines += ["", "suppressMessages(library(sdcMicro))", "steps <- list()"]
    for record, r in steps:
        lines += ["", f"# Step {record.step.number}: {record.step.method} {dict(record.step.parameters)!r}"
                      .replace("\n", " "),
                  f"# {'exact' if r.exact else 'differs'}: {r.note}",
                  f"steps[[{record.step.number}]] <- function(data) {{"]
        lines += [f"  {c}" for c in r.code]
        lines.append("}")
    lines += ["", "exact <- " + "c(" + ", ".join("TRUE" if r.exact else "FALSE" for _, r in steps) + ")",
              "", 'if (!identical(Sys.getenv("SDC_STEPS_ONLY"), "1")) {',
              "  args <- commandArgs(TRUE)",
              '  if (length(args) != 2) stop("usage: Rscript this.R INPUT.csv OUTPUT.csv")',
              '  data <- read.csv(args[1], stringsAsFactors = FALSE, na.strings = "", check.names = FALSE)',
              "  for (f in steps) data <- f(data)",
              '  write.csv(data, args[2], row.names = FALSE, na = "")',
              "}", ""]
    return "\n".join(lines)
