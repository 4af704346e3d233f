"""The Protect and Export pages of ``sdc app``: the declared protection methods as forms, the
plan's steps (add, edit, move, remove: each undoable), a preview of a step's effect before it is
added, the run, and the export that ``sdc protect`` reruns to the same release.

The forms come from the methods' declarations (:func:`sdc.workflow.plan.method_table`), so a
newly declared method appears here without app code; every step is checked by the plan's own
validation (:func:`sdc.workflow.plan.plan_from_mapping` and :func:`~sdc.workflow.plan.check_plan`).
"""

from __future__ import annotations

import copy
import shlex
import shutil
from pathlib import Path
from typing import Any

from sdc.app.session import AppError, AppSession
from sdc.app.tables import before_after_json, frame_json

__all__ = ["methods_json", "add_step", "remove_step", "move_step", "set_seed", "preview_step", "run_plan",
           "export_run", "SCRIPT_TEMPLATE"]


def methods_json() -> list[dict[str, Any]]:
    """Every declared protection method with its parameters (name, default, rule, help)."""
    from sdc.workflow.plan import method_table

    out = []
    paths = _path_parameters()
    for name, info in sorted(method_table().items()):
        params = [{"name": o.name, "default": _default(o.default), "rule": str(o.rule), "help": o.help,
                   "secret": o.name in info.secrets} for o in info.options if o.name not in paths]
        out.append({"name": name, "summary": info.summary, "variables": info.variables_param,
                    "seeded": info.seeded, "params": params})
    return out


def _default(value: Any) -> Any:
    from sdc._json import jsonable

    v = jsonable(value)
    return v if isinstance(v, (int, float, str, bool, list, type(None))) else str(v)


def _plan(session: AppSession, steps: list[dict[str, Any]]) -> Any:
    """The plan of `steps`, checked against the data (one line naming the step on a problem)."""
    from sdc.workflow.config import ConfigError
    from sdc.workflow.plan import check_plan, plan_from_mapping

    data = session.need_data()
    try:
        plan = plan_from_mapping({"plan": {"seed": session.state.seed}, "steps": steps}, source="sdc app")
        check_plan(plan, data)
    except (ConfigError, ValueError, TypeError) as exc:
        raise AppError(" ".join(str(exc).split())) from None
    return plan


def _path_parameters() -> set[str]:
    """The declared parameters that name a file (a key file): the app never takes them."""
    from sdc.protect._declare import PathLike
    from sdc.workflow.plan import method_table

    return {o.name for info in method_table().values() for o in info.options if isinstance(o.rule, PathLike)}


def _clean(step: dict[str, Any]) -> dict[str, Any]:
    """A step as the form sent it, without the parameters left empty (their defaults apply).
    The browser never names a file: a parameter that is a path (a key file) is refused."""
    if not isinstance(step, dict) or not isinstance(step.get("method"), str):
        raise AppError("a step is a table with a `method` and its parameters.")
    paths = sorted(_path_parameters() & {k for k, v in step.items() if v not in (None, "")})
    if paths:
        raise AppError(f"parameter `{paths[0]}`: the app does not open files the page names; give the key by "
                       "environment variable (key_env) or run this step with `sdc protect`.")
    return {k: v for k, v in step.items() if v not in (None, "", [])}


def add_step(session: AppSession, step: dict[str, Any], index: int | None = None) -> dict[str, Any]:
    """Add (or, with `index` of an existing step, replace) a step, after checking the whole plan."""
    steps = copy.deepcopy(session.state.steps)
    step = _clean(step)
    if index is None:
        steps.append(step)
    elif 0 <= index < len(steps):
        steps[index] = step
    else:
        raise AppError(f"step {index + 1} does not exist (the plan has {len(steps)}).")
    _plan(session, steps)
    session.begin_change().steps = steps
    return session.describe()


def remove_step(session: AppSession, index: int) -> dict[str, Any]:
    steps = copy.deepcopy(session.state.steps)
    if not 0 <= index < len(steps):
        raise AppError(f"step {index + 1} does not exist (the plan has {len(steps)}).")
    del steps[index]
    if steps:
        _plan(session, steps)  # a later step may need a column the removed one kept
    session.begin_change().steps = steps
    return session.describe()


def move_step(session: AppSession, index: int, to: int) -> dict[str, Any]:
    steps = copy.deepcopy(session.state.steps)
    if not (0 <= index < len(steps) and 0 <= to < len(steps)):
        raise AppError(f"cannot move step {index + 1} to {to + 1} (the plan has {len(steps)}).")
    steps.insert(to, steps.pop(index))
    _plan(session, steps)
    session.begin_change().steps = steps
    return session.describe()


def set_seed(session: AppSession, seed: Any) -> dict[str, Any]:
    from sdc._validation import check_int

    try:
        value = check_int(seed, "seed", min_value=0)
    except (TypeError, ValueError) as exc:
        raise AppError(str(exc)) from None
    session.begin_change().seed = value
    return session.describe()


def _protect(session: AppSession, steps: list[dict[str, Any]]) -> Any:
    from sdc._stages import listener, stage
    from sdc.workflow.protect import protect_data

    if not steps:
        raise AppError("the plan has no step yet: add one on the Protect page.")
    plan = _plan(session, steps)
    stage(f"the plan's {len(steps)} step{'s' if len(steps) > 1 else ''} on {len(session.need_data()):,} records")
    return protect_data(session.need_data(), plan, config=session._config(), input_file=session.path,
                        command="sdc app", progress=listener() is not None)


def _run_json(run: Any, page: bool) -> dict[str, Any]:
    from sdc.report.pages import comparison_page

    out: dict[str, Any] = {"summary": before_after_json(run.summary()), "steps": frame_json(run.to_frame())}
    if run.comparison is not None:
        out["comparison"] = before_after_json(run.comparison.summary())
        if page:
            out["page"] = comparison_page(run.comparison, released_name="released")
    return out


def preview_step(session: AppSession, step: dict[str, Any]) -> dict[str, Any]:
    """The plan with `step` added, run but not kept: its effect on risk and utility."""
    run = _protect(session, [*copy.deepcopy(session.state.steps), _clean(step)])
    return _run_json(run, page=False)


def run_plan(session: AppSession) -> dict[str, Any]:
    """Run the plan: the released file assessed beside the original (the comparison's page)."""
    session.run = _protect(session, session.state.steps)
    return _run_json(session.run, page=True)


#: The Python script an export holds (it reruns the exported plan on the same file).
SCRIPT_TEMPLATE = '''"""Reruns the plan exported by sdc app on {name} (same seed, same release)."""
import sdc
from sdc.io import read_data

data = read_data({path!r})
run = sdc.protect_data(data, "plan.toml", input_file={path!r})
sdc.write_protection(run, "rerun", input_path={path!r})
print(run.summary())
'''


def export_run(session: AppSession, external: bool = False) -> dict[str, Any]:
    """Write the release folder (internal), plan.toml, a Python and an R script into a new folder
    under the export directory, and with `external` the data users' folder (no seed, no plan, no
    command line: :mod:`sdc.report.audience`) beside it; the command that reruns the plan."""
    from sdc.report.protection import write_protection

    if session.run is None:
        session.run = _protect(session, session.state.steps)
    session.exports += 1
    folder = session.export_dir / f"export-{session.exports}"
    while folder.exists():
        session.exports += 1
        folder = session.export_dir / f"export-{session.exports}"
    folder.mkdir(parents=True, mode=0o700)
    data = _input_of(session, folder)
    write_protection(session.run, folder / "release", input_path=session.path)
    if external:
        write_protection(session.run, folder / "release-external", input_path=session.path, audience="external")
    plan = folder / "plan.toml"
    _write(plan, session.run.plan_toml())
    _write(folder / "rerun.py", SCRIPT_TEMPLATE.format(name=session.name, path=str(data)))
    _write(folder / "plan.R", session.run.to_r_script())
    files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    return {"folder": str(folder), "files": files,
            "command": f"sdc protect {shlex.quote(str(data))} --plan {shlex.quote(str(plan))} "
                       f"--out {shlex.quote(str(folder / 'rerun'))}"}


def _input_of(session: AppSession, folder: Path) -> Path:
    """The data file the export's command reruns on: the user's own file, or a copy of the
    example or an upload (which live in the session's temporary folder, removed on exit)."""
    path = Path(session.path)
    if not path.resolve().is_relative_to(session.work_dir.resolve()):
        return path.resolve()
    (folder / "input").mkdir(mode=0o700)
    copy_to = folder / "input" / path.name
    shutil.copyfile(path, copy_to)
    copy_to.chmod(0o600)
    return copy_to.resolve()


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)
