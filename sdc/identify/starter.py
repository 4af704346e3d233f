"""The starter configuration for ``sdc assess``, written from an identification.

The text is TOML in the format of :mod:`sdc.workflow.config` (``[data]``, ``[variables]``,
``[bins]``, ``[sensitive_bins]``, ``[thresholds]``), written here without importing the
workflow (the identify wing sits below it); a test reads it back with
``sdc.workflow.config.load_config``. Each role's reason is a comment beside it, so the steward
reviews the suggestions where they edit them. Direct identifiers are listed in comments only:
they are to be removed, not assessed. Numeric keys and sensitive variables with more than 20
values get quantile bands as a starting point.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from sdc._version import __version__

__all__ = ["starter_config", "toml_string", "comment_text"]

_QUANTILES = 5


def toml_string(text: str) -> str:
    """`text` as a TOML basic string (JSON's escapes are TOML's; DEL is escaped too)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _key(text: str) -> str:
    return text if re.fullmatch(r"[A-Za-z0-9_-]+", text) else toml_string(text)


def comment_text(text: object) -> str:
    """`text` safe inside a one-line comment: control and format characters shown as escapes."""
    return "".join(ch if ch == "\t" or unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp")
                   else (repr(ch)[1:-1] if ch.isascii() else f"\\u{ord(ch):04x}") for ch in str(text))


def _list(items: list[str]) -> str:
    return "[" + ", ".join(toml_string(x) for x in items) + "]"


class IdentificationLike(Protocol):
    """What the starter configuration reads of an identification result
    (:class:`sdc.identify.roles.IdentificationResult`; named here by its shape, so that this
    module, which roles imports, does not import roles back)."""

    n_records: int
    columns: Sequence[Any]
    parameters: Mapping[str, Any]

    def used_as(self, use: str) -> str | None: ...


def _data_section(data_path: str | None, sep: str | None, na_values: Sequence[str] | None,
                  text_columns: Sequence[str] | bool | None, sheet: str | int | None, id_col: str | None) -> list[str]:
    """The starter's ``[data]``: the file and how it was read, and the record id."""
    lines = ["", "[data]", f"path = {toml_string(data_path or 'data.csv')}"
             + ("" if data_path else "    # edit: the data file, relative to this file")]
    if sep:
        lines.append(f"sep = {toml_string(sep)}")
    if na_values:
        lines.append(f"na_values = [{', '.join(toml_string(v) for v in na_values)}]")
    if text_columns is True:
        lines.append("text_columns = true")
    elif text_columns:
        lines.append(f"text_columns = [{', '.join(toml_string(c) for c in text_columns)}]")
    if sheet is not None:
        lines.append(f"sheet = {int(sheet) if isinstance(sheet, int) else toml_string(sheet)}")
    if id_col:
        lines.append(f"id = {toml_string(id_col)}    # record id, shown in the per-record files of the report")
    return lines


def starter_config(result: IdentificationLike, data_path: str | None = None, *, sep: str | None = None,
                   source: str | None = None, na_values: Sequence[str] | None = None,
                   text_columns: Sequence[str] | bool | None = None, sheet: str | int | None = None) -> str:
    """A TOML configuration for ``sdc assess`` with the suggested roles.

    Parameters
    ----------
    result : IdentificationResult
    data_path : str, optional
        The data file as the config should name it (relative paths are read relative to the
        config file). Default: a placeholder ``data.csv`` to edit.
    sep : str, optional
        The CSV delimiter, when not the detected one.
    source : str, optional
        Where the data came from, for the header comment.
    na_values, text_columns, sheet : optional
        How the data file was read (:func:`sdc.io.read_data`), written to ``[data]`` so that
        ``sdc assess`` reads it the same way.

    Raises
    ------
    ValueError
        When no column was suggested as a quasi-identifier: ``sdc assess`` needs key variables.
    TypeError
        When a column name is not a string.
    """
    bad = [c.column for c in result.columns if not isinstance(c.column, str)]
    if bad:
        raise TypeError(f"column names must be strings to be written in a config; got {bad[0]!r}.")
    qis = [c for c in result.columns if c.role == "quasi-identifier"]
    if not qis:
        raise ValueError("no column is a quasi-identifier, and sdc assess needs key variables: set one with "
                         "roles={column: 'quasi-identifier'} (sdc identify --role COLUMN=qi).")
    sens = [c for c in result.columns if c.role == "sensitive"]
    direct = [c for c in result.columns if c.role == "direct identifier"]
    other = [c for c in result.columns if c.role == "other"]
    id_col = result.used_as("id")
    weights = result.used_as("weights")
    household = result.used_as("household")
    thr = result.parameters

    lines = [f"# Starter configuration for `sdc assess`, written by `sdc identify` (sdc {__version__})"
             + (f" from {comment_text(source)}" if source else "") + ".",
             f"# {result.n_records:,} records, {len(result.columns)} columns. Every role below is a suggestion "
             "with its reason:",
             "# check each one, edit this file, then run:  sdc assess --config <this file>", "#"]
    if direct:
        lines.append("# Direct identifiers -- remove them (or replace them as Safe Harbor allows) before any release;")
        lines.append("# they are not assessed:")
        lines += [f"#   {comment_text(c.column)}: {comment_text(c.reasons[0])}" for c in direct]
    dropped = [c for c in other if c.dropped]
    if dropped:
        lines.append(f"# Dropped, missing in more than {100 * thr['missing_threshold']:g}% of records:")
        lines += [f"#   {comment_text(c.column)}" for c in dropped]
    rest = [c for c in other if not c.dropped]
    if rest:
        lines.append("# Other columns (not assessed unless used below):")
        lines += [f"#   {comment_text(c.column)}: {comment_text(c.reasons[0])}" for c in rest]
    dups = getattr(result, "duplicates", None)
    if dups is not None and dups.found:
        lines.append("# Repeated records: " + comment_text(dups.text()))
    proxies = getattr(result, "proxies", None)
    if proxies is not None and proxies.proxies:
        lines.append("# Proxies -- protect or drop them with what they determine:")
        lines += [f"#   {comment_text(p.text())}" for p in proxies.proxies]
    lines += _data_section(data_path, sep, na_values, text_columns, sheet, id_col)

    cat = [c for c in qis if not c.continuous]
    cont = [c for c in qis if c.continuous]
    lines += ["", "[variables]", "# Quasi-identifiers (keys), with the reason for each:"]
    lines += [f"#   {comment_text(c.column)}: {comment_text(c.reasons[0])}" for c in qis]
    if sens:
        lines.append("# Sensitive variables:")
        lines += [f"#   {comment_text(c.column)}: {comment_text(c.reasons[0])}" for c in sens]
    if cat:
        lines.append(f"categorical_keys = {_list([c.column for c in cat])}")
    if cont:
        lines.append(f"continuous_keys = {_list([c.column for c in cont])}    # banded with [bins] below")
    if weights:
        lines.append(f"weights = {toml_string(weights)}")
    if household:
        lines.append(f"household = {toml_string(household)}")
    if sens:
        lines.append(f"sensitive = {_list([c.column for c in sens])}")
    if cont:
        lines += ["", "[bins]",
                  "# Quantile bands to start with: set your own edges, e.g. age = [0, 18, 35, 50, 65, 90, inf]"]
        lines += [f"{_key(c.column)} = {{ quantiles = {_QUANTILES} }}" for c in cont]
    sens_cont = [c for c in sens if c.continuous]
    if sens_cont:
        lines += ["", "[sensitive_bins]", "# l-diversity counts these bands rather than raw values"]
        lines += [f"{_key(c.column)} = {{ quantiles = {_QUANTILES} }}" for c in sens_cont]
    lines += ["", "[thresholds]", "k = 3    # every key combination shared by at least k records",
              "l = 2    # at least l distinct sensitive values in each combination",
              "t = 0.2  # sensitive distribution of each combination within t of the file's", ""]
    return "\n".join(lines)
