"""A full-domain transformation as a value-to-value mapping, and the mapping applied to new data.

A search's optimum (:func:`sdc.generalisation_search`) generalises each quasi-identifier to one
level of its hierarchy. The same transformation is a table of (variable, value, released): the
level-0 value of every hierarchy row and its label at the chosen level (ARX users export it by
hand: arx-deidentifier/arx#408). :func:`apply_transformation` applies such a table to another file
of the same shape, refusing any value the table has no row for (a value the hierarchy never saw
would otherwise pass through unprotected).

The mapping holds the generalisation only. Which records a search suppresses depends on the
classes of the file searched; on new data, check the models again (``sdc assess``) or suppress
with a protection step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sdc.core.values import column_text
from sdc.protect._common import check_variables, output_frame
from sdc._schema import Rule
from sdc.protect._declare import param, protection_method
from sdc.protect._rcode import not_in_sdcmicro
from sdc.protect._result import ProtectionResult

__all__ = ["MAPPING_COLUMNS", "apply_transformation", "level_mapping",
           "mapping_from_dict", "mapping_to_dict"]

#: The columns of a transformation's mapping table.
MAPPING_COLUMNS = ("variable", "level", "value", "released")


def level_mapping(name: str, level: int, values: np.ndarray, released: np.ndarray) -> pd.DataFrame:
    """One quasi-identifier's rows of the mapping table: each level-0 `values` entry and its
    label `released` at `level`, as text."""
    return pd.DataFrame({"variable": name, "level": int(level), "value": values.astype(str),
                         "released": released.astype(str)}, columns=list(MAPPING_COLUMNS))


def mapping_to_dict(mapping: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """The table as ``{variable: {"level": L, "values": {value: released}}}`` (the JSON form)."""
    out: dict[str, dict[str, Any]] = {}
    names = mapping["variable"].astype(str)
    for name in dict.fromkeys(names):  # a small table: one pass per variable
        part = mapping[names == name]
        out[str(name)] = {"level": int(part["level"].iloc[0]),
                          "values": dict(zip(part["value"].astype(str), part["released"].astype(str)))}
    return out


def mapping_from_dict(doc: Mapping[str, Any]) -> pd.DataFrame:
    """The table from its JSON form (:func:`mapping_to_dict`); malformed entries refused in one line."""
    if not isinstance(doc, Mapping):
        raise TypeError(f"a transformation mapping must be a mapping of variable -> entry; got {type(doc).__name__}.")
    parts = []
    for name, entry in doc.items():
        if not isinstance(entry, Mapping) or not isinstance(entry.get("values"), Mapping):
            raise ValueError(f"mapping entry {name!r} must hold a 'values' table of value -> released value.")
        vals = entry["values"]
        parts.append(level_mapping(str(name), int(entry.get("level", 0)), np.array(list(vals), dtype=object),
                                   np.array(list(vals.values()), dtype=object)))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=list(MAPPING_COLUMNS))


def _check_table(mapping: pd.DataFrame) -> pd.DataFrame:
    missing = [c for c in MAPPING_COLUMNS if c not in mapping.columns]
    if missing:
        raise ValueError(f"`mapping` lacks the column(s) {', '.join(map(repr, missing))} "
                         f"(expected {', '.join(MAPPING_COLUMNS)}).")
    doubled = mapping.duplicated(["variable", "value"], keep=False)
    if doubled.any():
        row = mapping[doubled].iloc[0]
        raise ValueError(f"`mapping` gives value {row['value']!r} of {row['variable']!r} more than once.")
    return mapping


@dataclass(frozen=True)
class MappingRule(Rule):
    """A transformation's mapping: its table (a DataFrame) or its JSON form (a mapping)."""

    what: str = "a table of variable = {level, values} (or the mapping's DataFrame)"

    def problem(self, value: Any) -> tuple[type[Exception], str] | None:
        return None if isinstance(value, (Mapping, pd.DataFrame)) else (TypeError, f"must be {self.what}")


def _table(mapping: Any) -> pd.DataFrame:
    return _check_table(mapping if isinstance(mapping, pd.DataFrame) else mapping_from_dict(mapping))


@protection_method(
    "apply_transformation",
    sdcmicro=not_in_sdcmicro("sdcMicro applies hierarchies one recode at a time; ARX users export the mapping by hand"),
    summary="a saved transformation (the value-to-value mapping of `sdc search`) applied; unmapped values refused",
    repeatable=False,
    why="not yet: the Dask runner describes a method by a sample of invented values, which a mapping refuses",
    example={"variables": ["sex"], "mapping": {"sex": {"level": 1, "values": {"female": "*", "male": "*"}}}},
    options={"mapping": param(MappingRule(),
                              "the transformation: {variable: {level = L, values = {value = released}}}, "
                              "as sdc search writes it (mapping.json, plan.toml)")})
def apply_transformation(data: pd.DataFrame, variables: Sequence[str] | str | None = None, *,
                         mapping: Any) -> ProtectionResult:
    """Apply a saved transformation (a search's ``mapping``) to `data`.

    Parameters
    ----------
    data : pandas.DataFrame
        A file with the mapped variables (values compared as text, as the search reads them).
    variables : str or list of str, optional
        The mapped variables to apply (default: every variable of `mapping`).
    mapping : pandas.DataFrame or dict
        Columns variable, level, value, released (:attr:`GeneralisationResult.mapping`, or
        ``mapping.csv`` of ``sdc search`` read back as text), or its JSON form
        (``mapping.json``; :func:`mapping_to_dict`).

    Returns
    -------
    ProtectionResult
        ``method="apply_transformation"``; ``.data`` a new frame (mapped variables as text,
        missing values kept missing); ``changed[v]``: cells whose text changed;
        ``details[v]``: the level applied. The input is untouched.

    Raises
    ------
    ValueError
        A mapped variable the data lack, or a value with no row in the mapping (the first
        three named): a value the hierarchy never saw would otherwise pass unprotected.
    """
    table = _table(mapping)
    names = list(dict.fromkeys(table["variable"].astype(str)))
    frame, cols = check_variables(data, names if variables is None else variables)
    unmapped = [c for c in cols if c not in names]
    if unmapped:
        raise ValueError(f"variable {unmapped[0]!r} has no rows in `mapping` (it maps {', '.join(map(repr, names))}).")
    out = output_frame(frame)
    changed: dict[str, int] = {}
    details: dict[str, Any] = {}
    for name in cols:
        part = table[table["variable"].astype(str) == name]
        codes, texts = column_text(frame[name])
        lookup = dict(zip(part["value"].astype(str), part["released"].astype(str)))
        unknown = [t for t in texts if t is not None and t not in lookup]
        if unknown:
            more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
            raise ValueError(f"variable {name!r} has values the mapping has no row for: "
                             f"{', '.join(map(repr, unknown[:3]))}{more}; a saved transformation covers "
                             "the values of the hierarchy it was found with.")
        new = np.array([lookup[t] if t is not None else None for t in texts] + [None], dtype=object)
        released = new[codes]  # code -1 (missing) reads the trailing None
        old = np.array(list(texts) + [None], dtype=object)[codes]
        changed[name] = int(np.count_nonzero(released != old))
        out[name] = pd.Series(released, index=frame.index, dtype=object)
        details[name] = {"level": int(part["level"].iloc[0])}
    params: dict[str, Any] = {"variables": list(cols), "mapping": mapping_to_dict(table[table["variable"].isin(cols)])}
    return ProtectionResult(method="apply_transformation", data=out, variables=tuple(cols), parameters=params,
                            seed=None, changed=pd.Series(changed, dtype=np.int64, name="cells_changed"),
                            details=details)
