"""How a protection step is written in R with sdcMicro: each method declares its translation
beside its function (``@protection_method(..., sdcmicro=translate)``), a function of the step
as run that returns an :class:`RStep`; :func:`sdc.workflow.rscript.r_script` puts the steps
together into a script for ``Rscript``.

A translation says whether it gives the release's cells exactly (a deterministic step that
sdcMicro computes the same way: checked in CI, tests/workflow/test_rscript.py), or how it differs (a
random step draws from R's generator, not numpy's; a variant sdcMicro does not have).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["RStep", "StepRun", "r_value", "r_names", "r_seed", "not_in_sdcmicro"]


@dataclass(frozen=True)
class StepRun:
    """What a translation reads: the step's method, variables and parameters as given, the seed
    it ran with, and the details its result recorded (band edges, importance, ...)."""

    method: str
    variables: tuple[str, ...]
    parameters: Mapping[str, Any]
    seed: int | None
    details: Mapping[str, Any]
    categories: Mapping[str, Sequence[str]]  # the released categories of each variable, where categorical


@dataclass(frozen=True)
class RStep:
    """One step in R: its code (a function body on ``data``), whether it gives the release's
    cells exactly, and what the reader is told."""

    code: tuple[str, ...]
    exact: bool
    note: str


def r_value(v: Any) -> str:
    """A Python value as R source: numbers, strings, booleans, None, lists (``c(...)``)."""
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, (int, float)):
        if isinstance(v, float) and math.isinf(v):
            return "Inf" if v > 0 else "-Inf"
        return repr(float(v)) if isinstance(v, float) and not v.is_integer() else str(int(v))
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, Sequence):
        return "c(" + ", ".join(r_value(x) for x in v) + ")"
    raise TypeError(f"no R form for {type(v).__name__}")


def r_names(names: Sequence[str]) -> str:
    return r_value(list(names))


def r_seed(seed: int) -> int:
    """R's ``set.seed`` takes a 32-bit integer: sdc's seed folded into it (R's draws are not
    numpy's in any case)."""
    return int(seed % (2 ** 31 - 1))


def not_in_sdcmicro(why: str) -> Callable[[StepRun], RStep]:
    """The declaration of a method sdcMicro has no counterpart of: the script says why."""
    def translate(run: StepRun) -> RStep:
        return RStep(("data  # not reproduced",), False, why)

    return translate
