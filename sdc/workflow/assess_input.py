"""The assessment's input in memory, and the pandas back end of :func:`sdc.workflow.assess.assess`
(``IN_MEMORY``; the other engines' back ends are in :mod:`sdc.workflow.engine`, which reuses
the role checks here): reading a run's data (:func:`load_input`), checking the roles against
the data (every named column present, a record id that names records, continuous keys that
hold numbers or bands of them, no sensitive variable missing in every record), the profile of
the input's columns and the levels held by few records.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import pandas as pd

from sdc._provenance import platform_text, provenance, sha256_files, versions
from sdc._validation import check_columns, is_big_integer
from sdc.core.binning import Binning, apply_binning
from sdc.core.scenario import KeyClasses, key_classes
from sdc.io import ReadDetails, read_data_details, read_header
from sdc.workflow.config import RunConfig

__all__ = ["load_input", "check_columns_of", "refuse_empty_sensitive", "not_a_band", "IN_MEMORY"]

def load_input(cfg: RunConfig) -> tuple[pd.DataFrame, list[str], ReadDetails | None]:
    """The data of a run, the files it came from, and how the file was read (None for domains)."""
    read_opts = {"na_values": cfg.na_values or None, "text_columns": cfg.text_columns}
    if cfg.domains:
        from sdc.workflow.combine import combine_domains

        df = combine_domains(cfg.domains, cfg.subject_id or "", long=cfg.long_domains, value_column=cfg.value_column,
                             visit=cfg.visits, sep=cfg.sep, **read_opts)
        return df, list(cfg.domains.values()), None
    if cfg.data_path is None:
        raise ValueError("the run has no data: give a data file (DATA or [data].path).")
    check_before_reading(cfg)
    df, details = read_data_details(cfg.data_path, sep=cfg.sep, sheet=cfg.sheet, **read_opts)
    return df, [cfg.data_path], details

def _check_roles(cfg: RunConfig, data: pd.DataFrame) -> None:
    """Every column the config names must exist (one error naming the role and the column),
    and no sensitive variable be missing in every record."""
    check_columns_of(cfg, data)
    _check_id(cfg, data)
    _check_continuous(cfg, data)
    refuse_empty_sensitive(data[list(cfg.sensitive)].notna().any())


def check_columns_of(cfg: RunConfig, data: pd.DataFrame) -> None:
    """Every column the config names must exist (one error naming the role and the column)."""
    roles = [("categorical_keys", cfg.categorical_keys), ("continuous_keys", cfg.continuous_keys),
             ("sensitive", cfg.sensitive)] + [(f"scenario {s.name!r}", s.keys) for s in cfg.scenarios]
    for role, cols in roles:
        if cols:
            check_columns(data, list(cols), role=role)
    for role, col in (("id", cfg.id), ("weights", cfg.weights), ("household", cfg.household)):
        if col:
            check_columns(data, [col], role=role)
    _refuse_sensitive_keys(cfg)


def _refuse_sensitive_keys(cfg: RunConfig) -> None:
    overlap = set(cfg.sensitive) & set(cfg.keys)
    if overlap:
        raise ValueError(f"`sensitive` variables may not also be keys: {', '.join(map(repr, sorted(overlap)))}.")


def check_before_reading(cfg: RunConfig) -> None:
    """The checks of :func:`check_columns_of` against the file's header, before its records are
    read: a conflict of roles or a column not in the file is refused in one line at once, not
    after minutes of reading (files without a readable header are checked after the read)."""
    _refuse_sensitive_keys(cfg)
    header = read_header(cfg.data_path, sep=cfg.sep, sheet=cfg.sheet) if cfg.data_path is not None else None
    if header is not None:
        check_columns_of(cfg, pd.DataFrame(columns=header))


def refuse_empty_sensitive(observed: pd.Series) -> None:
    """`observed`: whether each sensitive variable has a value in some record."""
    for s, seen in observed.items():
        if not seen:
            raise ValueError(f"sensitive variable {s!r} is missing in every record: there is nothing to assess; "
                             "drop it from `sensitive` (or check the column and the missing-value markers).")


def _check_id(cfg: RunConfig, data: pd.DataFrame) -> None:
    """The record id names each record in the per-record files: one value per record, and not
    a key (a key repeats within its classes, and the id would be assessed as known)."""
    if not cfg.id:
        return
    keys = set(cfg.keys) | {k for s in cfg.scenarios for k in s.keys}
    if cfg.id in keys:
        raise ValueError(f"`id` column {cfg.id!r} is also a key variable: the record id names the records of the "
                         "per-record files; give a column with a different value in every record, or leave `id` out.")
    s = data[cfg.id]
    dup = s.duplicated(keep=False) | s.isna()
    if dup.any():
        first = s[dup].iloc[0]
        what = "missing" if pd.isna(first) else f"{first!r}, held by {int((s == first).sum()):,} records"
        raise ValueError(f"`id` column {cfg.id!r} is not a record id: {int(dup.sum()):,} records share a value or "
                         f"lack one (first: {what}); give a column with a different value in every record, or leave "
                         "`id` out (the per-record files then number the records).")


_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?inf"
#: A released band of a continuous key: an interval ("(30,40]", "[0, 18)"), a range ("30-39",
#: "30 to 39"), a bound ("<18", ">= 90", "90+"), or a number (a top or bottom code).
_BAND = re.compile(rf"\s*(?:[\[(]\s*(?:{_NUM})\s*[,;]\s*(?:{_NUM})\s*[\])]|(?:{_NUM})\s*(?:-|\u2013|to)\s*(?:{_NUM})"
                   rf"|(?:[<>]=?|\u2264|\u2265)\s*(?:{_NUM})|(?:{_NUM})\s*\+?)\s*", re.IGNORECASE)


def not_a_band(s: pd.Series) -> str | None:
    """The first value of a continuous key that is neither a number (or date) nor a band of
    numbers (:data:`_BAND`); None when there is none."""
    if (pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype)) \
            or pd.api.types.is_datetime64_any_dtype(s.dtype):
        return None
    present = pd.Series(pd.unique(s.dropna().astype(str)), dtype=object)
    banded = present.str.fullmatch(_BAND).to_numpy(dtype=bool)
    return None if banded.all() else str(present[~banded].iloc[0])


def _check_continuous(cfg: RunConfig, data: pd.DataFrame) -> None:
    """A continuous key holds numbers (or dates), or the bands a protection made of them
    (``(30,40]``, ``30-39``, ``90+``: counted by band); other text would be counted value by
    value, as a categorical key, whatever the user meant."""
    for k in cfg.continuous_keys:
        bad = not_a_band(data[k])
        if bad is None:
            continue
        raise ValueError(f"continuous key {k!r} holds text, not numbers or bands of them (e.g. {bad!r}): give it "
                         "as a categorical key (`categorical_keys`), or make its values numbers (a marker of missing "
                         "values: `na_values`).")


def _columns(cfg: RunConfig, data: pd.DataFrame, details: ReadDetails | None) -> pd.DataFrame:
    """One row per input column: role, kind, values read as missing, distinct values, and flags:
    one value per record (identifier-like) and constant, as :mod:`sdc.identify.profile` defines them."""
    role: dict[str, list[str]] = {}
    for k in cfg.categorical_keys:
        role.setdefault(k, []).append("categorical key")
    for k in cfg.continuous_keys:
        role.setdefault(k, []).append("continuous key" + (" (binned)" if k in cfg.bins else ""))
    for sc in cfg.scenarios:
        for k in sc.keys:
            if k not in role:
                role.setdefault(k, []).append("key")
    for col, name in ((cfg.id, "id"), (cfg.weights, "sampling weight"), (cfg.household, "household id")):
        if col:
            role.setdefault(col, []).append(name)
    for s in cfg.sensitive:
        role.setdefault(s, []).append("sensitive" + (" (banded for l-diversity and inference)"
                                                     if s in cfg.sensitive_bins else ""))
    codes = set(details.text_codes) if details is not None else set()
    # The reader counted the missing values of the file's columns already (the same frame).
    known = details.missing if details is not None and len(details.missing) == data.shape[1] else {}
    rows = []
    n = len(data)
    for col in data.columns:
        s = data[col]
        missing = known[str(col)] if str(col) in known else int(s.isna().sum())
        distinct = int(s.nunique(dropna=True))
        flags = []
        if n - missing >= 2 and distinct == n - missing:
            flags.append("one value per record (identifier-like)")
        if distinct + (1 if missing else 0) <= 1:
            flags.append("constant")
        if missing == n:
            flags.append("missing in every record")
        kind = "text (a code with leading zeros)" if str(col) in codes else _kind(s)
        rows.append((str(col), ", ".join(role.get(col, ["other"])), kind, missing, distinct, "; ".join(flags)))
    return pd.DataFrame(rows, columns=["variable", "role", "kind", "read as missing", "distinct values", "flags"])


def _kind(s: pd.Series) -> str:
    if isinstance(s.dtype, pd.CategoricalDtype):
        return "categorical" + (" (ordered)" if s.cat.ordered else "")
    if pd.api.types.is_bool_dtype(s.dtype):
        return "true/false"
    if pd.api.types.is_integer_dtype(s.dtype):
        return "whole numbers"
    if pd.api.types.is_numeric_dtype(s.dtype):
        return "numbers"
    if pd.api.types.is_datetime64_any_dtype(s.dtype):
        return "dates"
    present = s.dropna()
    whole = (lambda v: isinstance(v, int) and not isinstance(v, bool)  # pandas 3: Python ints
             or isinstance(v, str) and v.strip().lstrip("+-").isdigit())
    if len(present) and all(whole(v) for v in present.head(1000)) \
            and any(is_big_integer(v) for v in present.head(1000)):
        return "whole numbers beyond the 64-bit range (kept as text)"
    return "text"

class _InMemory:
    """The pandas back end of :func:`assess` (the other engines': :mod:`sdc.workflow.engine`)."""

    name = "pandas"
    in_memory = True
    load = staticmethod(load_input)
    check_roles = staticmethod(_check_roles)
    columns = staticmethod(_columns)

    @staticmethod
    def binned(cfg: RunConfig, data: pd.DataFrame) -> tuple[pd.DataFrame, tuple[Binning, ...]]:
        return apply_binning(data, {k: v for k, v in cfg.bins.items()})

    @staticmethod
    def key_classes(work: pd.DataFrame, keys: list[str]) -> KeyClasses:
        return key_classes(work, keys)

    @staticmethod
    def release(kc: KeyClasses) -> None:
        kc.release_frequencies()

    @staticmethod
    def runs(measure: Any) -> None:
        return None  # every measure runs in memory

    @staticmethod
    def small_counts(work: pd.DataFrame, keys: tuple[str, ...], below: int) -> pd.DataFrame:
        return _small_counts(work, keys, below)

    @staticmethod
    def provenance(cfg: RunConfig, data: pd.DataFrame, files: list[str], command: str, now: datetime | None
                   ) -> dict[str, Any]:
        return provenance(now, input_sha256=sha256_files(files), input_files=files, command=command,
                          config_source=cfg.source, versions=versions(), platform=platform_text())


def _small_counts(work: pd.DataFrame, keys: tuple[str, ...], below: int) -> pd.DataFrame:
    """Levels of each key variable held by fewer than `below` records (missing counted as a level)."""
    rows = []
    for k in dict.fromkeys(keys):
        counts = work[k].value_counts(dropna=False, sort=False)
        for level, n in counts.items():
            if n < below:
                rows.append((k, "missing" if pd.isna(level) else str(level), int(n)))
    df = pd.DataFrame(rows, columns=["variable", "level", "n_records"])
    return df.sort_values(["variable", "n_records", "level"], kind="stable").reset_index(drop=True)

#: The pandas back end: the code of this module.
IN_MEMORY = _InMemory()
