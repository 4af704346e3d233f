"""Helpers shared by the tests: the repository's root, its test data, the command-line runner."""

from __future__ import annotations

import signal
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from sdc.cli import main

ROOT = Path(__file__).resolve().parents[1]  # tests import this, wherever their file sits
TEST_DATA = ROOT / "tests" / "data"


def run_cli(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    """Run ``sdc ARGV`` in-process: exit status (argparse's usage errors included), stdout, stderr."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse usage errors exit from inside the parser
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def sigint_default() -> None:
    """`preexec_fn` of a child that a test interrupts: Ctrl-C at its default, so that Python
    installs its handler even when the test runner was started with SIGINT ignored (a shell's
    background job)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# --- every declared protection method, and each variant, as a plan step -----------------------

#: The options whose every value is a variant of its own in the plan and sweep checks: sdcMicro's
#: ``method`` (microaggregation's rmd, pca, ..., add_noise's restr, ROMM, outdect, shuffle's ds, mvn,
#: mlm) and microaggregation's ``measure`` (mean, median, trim, onestep).
VARIANT_OPTIONS = ("method", "measure")


def complete_example(n: int = 300) -> Any:
    """The bundled example's first `n` records (ROMM draws an N x N matrix) with complete numeric
    columns: microaggregation's median, trim and onestep need them (their refusal of a missing value
    is tests/protect/test_microaggregation_sorted.py's)."""
    import sdc

    df = sdc.load_example().head(n)
    return df.assign(cholesterol=df["cholesterol"].fillna(df["cholesterol"].median()))


def method_steps(key_file: str = "key.txt") -> list[tuple[str, str, dict[str, Any]]]:
    """``(id, method, parameters)`` of every declared method (``sdc.workflow.plan.method_table``):
    its declared example call on the bundled example (the variables argument among the
    parameters), then one per value of each of its :data:`VARIANT_OPTIONS` choices
    (``microaggregation[method=rmd]``). A method that needs a key reads `key_file`; a seeded one
    has a seed."""
    from sdc._schema import Choice
    from sdc.workflow.plan import method_table

    out: list[tuple[str, str, dict[str, Any]]] = []
    for name, info in method_table().items():
        params: dict[str, Any] = dict(info.example)
        if "key" in info.needs:
            params["key_file"] = key_file
        if info.seeded:
            params["seed"] = 5
        out.append((name, name, params))
        for o in info.options:
            if o.name in VARIANT_OPTIONS and isinstance(o.rule, Choice):
                out += [(f"{name}[{o.name}={v}]", name, {**params, o.name: v}) for v in o.rule.values if v != o.default]
    return out


def plan_step(method: str, parameters: Mapping[str, Any], **more: Any) -> dict[str, Any]:
    """A plan's ``[[steps]]`` table: a parameter named like a plan key (``method``) in ``params``."""
    from sdc.workflow.plan import _RESERVED

    escaped = {k: v for k, v in parameters.items() if k in _RESERVED and k != "seed"}
    step = {"method": method, **{k: v for k, v in parameters.items() if k not in escaped}, **more}
    return {**step, "params": escaped} if escaped else step


def other_value(info: Any, parameters: Mapping[str, Any]) -> tuple[str, list[Any]]:
    """A two-point grid for a step: ``(parameter, [its value, another value its rule allows])``,
    over the first parameter of the step with another value (a whole number + 1, a number
    doubled or halved, another choice, a shorter list), else its variables argument twice."""
    from sdc._schema import Choice

    for name, value in parameters.items():
        if name not in info.options or name in VARIANT_OPTIONS:
            continue
        opt = info.options[name]
        if isinstance(value, bool):
            candidates: list[Any] = [not value]
        elif isinstance(value, int):
            candidates = [value + 1, value - 1]
        elif isinstance(value, float):
            candidates = [value * 2, value / 2]
        elif isinstance(opt.rule, Choice):
            candidates = [v for v in opt.rule.values if v != value]
        elif isinstance(value, (list, tuple)) and len(value) > 1:
            candidates = [list(value[:-1])]
        else:
            continue
        for c in candidates:
            try:
                opt.check(c)
            except (TypeError, ValueError):
                continue
            return name, [value, c]
    return info.variables_param, [parameters[info.variables_param]] * 2
