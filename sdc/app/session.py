"""One ``sdc app`` session: the data, the roles and thresholds, the protection plan (with undo
and redo) and the last results.

Every action calls the workflow exactly as the command line does (:func:`sdc.assess`,
:func:`sdc.protect_data`, :func:`sdc.write_protection`), so the numbers the browser shows are the
CLI's on the same plan, and the exported ``plan.toml`` reruns with ``sdc protect`` to the same
release. The session never opens a path the browser names: only the bundled example, the file
given on the command line, or an upload the server saved (see :mod:`sdc.app.server`).
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sdc.app.tables import frame_json

__all__ = ["AppSession", "AppError", "UNDO_DEPTH"]

#: How many plan and role changes undo remembers.
UNDO_DEPTH = 100

#: The roles the Identify page sets, as the [variables] keys of an assessment configuration.
ROLE_KEYS = ("categorical_keys", "continuous_keys", "sensitive", "weights", "household", "id")
THRESHOLD_KEYS = ("k", "l", "t")


class AppError(ValueError):
    """A request the session refuses, in one line (shown in the page)."""


@dataclass
class _State:
    """What undo and redo restore: the configuration sections and the plan."""

    sections: dict[str, Any] = field(default_factory=dict)
    steps: list[dict[str, Any]] = field(default_factory=list)
    seed: int = 20240611


class AppSession:
    """The state of one browser session (one user, one data file at a time).

    Parameters
    ----------
    data_path : path, optional
        The file given on the command line (``sdc app DATA``): the only file besides the bundled
        example and uploads the session opens.
    export_dir : path
        Where exports are written (a new sub-folder each time).
    work_dir : path
        The session's temporary folder (the bundled example is saved there).
    """

    def __init__(self, data_path: str | Path | None, export_dir: str | Path, work_dir: str | Path) -> None:
        self.start_path = Path(data_path).resolve() if data_path else None
        self.export_dir = Path(export_dir)
        self.work_dir = Path(work_dir)
        self.data: pd.DataFrame | None = None
        self.path: Path | None = None       # the file the data came from (the release takes its format)
        self.name = ""
        self.state = _State()
        self._undo: list[_State] = []
        self._redo: list[_State] = []
        self.assessment: Any = None
        self.run: Any = None
        self.exports = 0

    # --- data ---------------------------------------------------------------------------------

    def open(self, which: str, upload: Path | None = None) -> dict[str, Any]:
        """Open ``"example"`` (the bundled example with its configuration), ``"start"`` (the
        file given on the command line) or ``"upload"`` (a file the server saved)."""
        from sdc.datasets import save_example
        from sdc.identify import identify
        from sdc.io import read_data

        if which == "example":
            folder = self.work_dir / "example"
            if not (folder / "health_survey.csv").exists():
                save_example(folder)
            path = folder / "health_survey.csv"
            data = read_data(path)  # as `sdc protect` reads it: the same numbers, the same release
            sections = tomllib.loads((folder / "example.toml").read_text(encoding="utf-8"))
        elif which in ("start", "upload"):
            path = self.start_path if which == "start" else upload
            if path is None:
                raise AppError("no data file was given: start with `sdc app DATA`, open the example or upload one.")
            data = read_data(path)
            sections = tomllib.loads(identify(data).starter_config())
        else:
            raise AppError(f"open: unknown source {which!r}; one of example, start, upload.")
        sections.setdefault("data", {}).pop("path", None)
        self.data, self.path, self.name = data, path, path.name
        self.state = _State(sections=sections)
        self._undo.clear()
        self._redo.clear()
        self.assessment = self.run = None
        return self.describe()

    def need_data(self) -> pd.DataFrame:
        if self.data is None:
            raise AppError("open a data file first (the Data page).")
        return self.data

    def describe(self) -> dict[str, Any]:
        """The page's state: the file, its columns, the roles, the plan, undo/redo."""
        out: dict[str, Any] = {"name": self.name, "open": self.data is not None,
                               "can_undo": bool(self._undo), "can_redo": bool(self._redo),
                               "start": self.start_path.name if self.start_path else None}
        if self.data is None:
            return out
        variables = {**self.state.sections.get("variables", {}), "id": self.state.sections.get("data", {}).get("id")}
        out.update(records=len(self.data), columns=[str(c) for c in self.data.columns],
                   roles={k: variables.get(k) for k in ROLE_KEYS},
                   thresholds={k: self.state.sections.get("thresholds", {}).get(k) for k in THRESHOLD_KEYS},
                   scenarios=copy.deepcopy(self.state.sections.get("scenarios", [])),
                   steps=copy.deepcopy(self.state.steps), seed=self.state.seed)
        return out

    def preview(self, rows: int = 10) -> dict[str, Any]:
        """Each column's type, missing values and distinct values, and the first `rows` records."""
        df = self.need_data()
        cols = pd.DataFrame({"column": [str(c) for c in df.columns],
                             "type": [str(t) for t in df.dtypes],
                             "missing": df.isna().sum().to_numpy(),
                             "distinct": df.nunique(dropna=True).to_numpy()})
        return {"columns": frame_json(cols), "head": frame_json(df.head(rows))}

    # --- undo and redo ------------------------------------------------------------------------

    def begin_change(self) -> _State:
        """Remember the state before a change (for undo); the state to edit."""
        self._undo.append(copy.deepcopy(self.state))
        del self._undo[:-UNDO_DEPTH]
        self._redo.clear()
        self.run = None
        return self.state

    def undo(self) -> dict[str, Any]:
        if not self._undo:
            raise AppError("nothing to undo.")
        self._redo.append(self.state)
        self.state = self._undo.pop()
        self.run = None
        return self.describe()

    def redo(self) -> dict[str, Any]:
        if not self._redo:
            raise AppError("nothing to redo.")
        self._undo.append(self.state)
        self.state = self._redo.pop()
        self.run = None
        return self.describe()

    # --- identify and roles -------------------------------------------------------------------

    def identify(self) -> dict[str, Any]:
        """The suggested roles with their reasons, and the HIPAA Safe Harbor checklist."""
        from sdc.identify import identify, safe_harbor

        df = self.need_data()
        roles = identify(df).to_frame()[["column", "role", "use", "reasons"]]
        return {"roles": frame_json(roles), "safe_harbor": frame_json(safe_harbor(df).to_frame())}

    def set_roles(self, roles: dict[str, Any], thresholds: dict[str, Any] | None = None) -> dict[str, Any]:
        """Set the [variables] roles (and [data].id) and the k, l, t thresholds; checked as a
        configuration."""
        df = self.need_data()
        roles = dict(roles)
        unknown = sorted(set(roles) - set(ROLE_KEYS))
        if unknown:
            raise AppError(f"roles: unknown role {unknown[0]!r}; one of {', '.join(ROLE_KEYS)}.")
        sections = copy.deepcopy(self.state.sections)
        variables = sections.setdefault("variables", {})
        if "id" in roles:  # the record id is read with the data ([data].id)
            record_id = roles.pop("id")
            sections.setdefault("data", {}).pop("id", None)
            if record_id:
                sections["data"]["id"] = record_id
        for k, v in roles.items():
            if v in (None, "", []):
                variables.pop(k, None)
            elif isinstance(v, list):  # the order already set is kept (it orders scenarios and tables)
                old = [c for c in variables.get(k) or [] if c in v]
                variables[k] = old + [c for c in v if c not in old]
            else:
                variables[k] = v
        for k, v in (thresholds or {}).items():
            if k not in THRESHOLD_KEYS:
                raise AppError(f"thresholds: unknown threshold {k!r}; one of k, l, t.")
            sections.setdefault("thresholds", {})[k] = v
        keys = set(variables.get("categorical_keys") or []) | set(variables.get("continuous_keys") or [])
        sections["scenarios"] = [s for s in sections.get("scenarios", []) if set(s.get("keys", [])) <= keys]
        if not sections["scenarios"]:
            sections.pop("scenarios")
        sensitive = set(variables.get("sensitive") or [])
        for name, kept in (("bins", keys), ("sensitive_bins", sensitive), ("sensitive_thresholds", sensitive)):
            sections[name] = {k: v for k, v in sections.get(name, {}).items() if k in kept}  # no stale entries
            if not sections[name]:
                sections.pop(name)
        return self._change_sections(sections, df)

    def set_scenario(self, name: Any, keys: Any) -> dict[str, Any]:
        """Add the key scenario `name` (an intruder who knows `keys`), or give an existing one
        these keys; the keys are among the key variables (a scenario with no key, a column the
        data do not have or one that is not a key is refused in one line)."""
        df = self.need_data()
        name = " ".join(str(name or "").split())
        if not name:
            raise AppError("scenario: give it a name.")
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise AppError(f"scenario {name!r}: keys must be a list of column names.")
        keys = list(dict.fromkeys(keys))
        if not keys:
            raise AppError(f"scenario {name!r}: choose at least one key.")
        columns = {str(c) for c in df.columns}
        variables = self.state.sections.get("variables", {})
        key_roles = set(variables.get("categorical_keys") or []) | set(variables.get("continuous_keys") or [])
        for k in keys:
            if k not in columns:
                raise AppError(f"scenario {name!r}: no column {k!r} in the data.")
            if k not in key_roles:
                raise AppError(f"scenario {name!r}: {k!r} is not a key variable (give it a key role first).")
        sections = copy.deepcopy(self.state.sections)
        scenarios = sections.setdefault("scenarios", [])
        old = next((s for s in scenarios if s.get("name") == name), None)
        if old is not None:
            old["keys"] = keys
        else:
            scenarios.append({"name": name, "keys": keys})
        return self._change_sections(sections, df)

    def remove_scenario(self, name: Any) -> dict[str, Any]:
        """Remove the key scenario `name` (with none left, the assessment takes every key)."""
        df = self.need_data()
        scenarios = self.state.sections.get("scenarios", [])
        if name not in [s.get("name") for s in scenarios]:
            known = ", ".join(repr(s.get("name")) for s in scenarios) or "none"
            raise AppError(f"scenario {name!r} does not exist (the scenarios: {known}).")
        sections = copy.deepcopy(self.state.sections)
        sections["scenarios"] = [s for s in scenarios if s.get("name") != name]
        if not sections["scenarios"]:
            sections.pop("scenarios")
        return self._change_sections(sections, df)

    def _change_sections(self, sections: dict[str, Any], df: pd.DataFrame) -> dict[str, Any]:
        """Check `sections` as a configuration, then make them the state (undoable)."""
        self._config(sections, df)  # refuse before remembering
        self.begin_change().sections = sections
        self.assessment = None
        return self.describe()

    def _config(self, sections: dict[str, Any] | None = None, df: pd.DataFrame | None = None) -> Any:
        from sdc.workflow.assess_input import check_columns_of
        from sdc.workflow.config import ConfigError, from_mapping

        try:
            cfg = from_mapping(sections or self.state.sections, source="sdc app", data_given=True)
            check_columns_of(cfg, df if df is not None else self.need_data())
        except (ConfigError, ValueError, KeyError) as exc:
            raise AppError(" ".join(str(exc).split())) from None
        return cfg

    # --- assess -------------------------------------------------------------------------------

    def assess(self) -> dict[str, Any]:
        """Assess the data with the roles and thresholds: the verdicts and the report's page."""
        from dataclasses import replace

        from sdc._stages import listener
        from sdc.report.pages import assessment_page, verdict_table
        from sdc.workflow.assess import assess

        # the file itself, read as `sdc assess` reads it: the same numbers and the same provenance
        cfg = replace(self._config(), data_path=str(self.path))
        # counts of the long measures go to the page's progress when the server listens
        self.assessment = assess(cfg, command="sdc app", progress=listener() is not None)
        return {"verdicts": frame_json(verdict_table(self.assessment)), "page": assessment_page(self.assessment)}
