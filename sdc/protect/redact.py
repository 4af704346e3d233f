"""Redaction of identifiers inside text: each match replaced with a typed placeholder.

:func:`redact` searches every value of the text columns for the patterns of
:mod:`sdc.protect.text_patterns` (e-mail addresses, URLs, IP addresses, social security
numbers, medical record numbers, telephone numbers, dates, ZIP codes, personal names) and
replaces each match with its placeholder (``[EMAIL]``, ``[URL]``, ``[IP]``, ``[SSN]``,
``[MRN]``, ``[PHONE]``, ``[DATE]``, ``[ZIP]``, ``[NAME]``), in the table's order, so an e-mail
address is one ``[EMAIL]`` and not a name and a URL. The rest of the text is kept. Missing
values stay missing; non-text values are read as their text. The patterns are those the
identification counts (:mod:`sdc.identify.hipaa`), so a redacted column is found clean by
the same rules that found it; what the patterns do not know (a rare name, an identifier in a
format of its own) stays, so a steward still reads a sample.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sdc._schema import Each, Choice
from sdc.protect._common import check_variables, output_frame
from sdc.protect._declare import ROW_WISE, param, protection_method
from sdc.protect._rcode import not_in_sdcmicro
from sdc.protect._result import ProtectionResult
from sdc.protect.text_patterns import TEXT_PATTERNS

__all__ = ["redact", "REDACT_CATEGORIES"]

#: The Safe Harbor categories redact knows, in the order it replaces them.
REDACT_CATEGORIES: tuple[str, ...] = tuple(p.code for p in TEXT_PATTERNS)


def _redact_column(s: pd.Series, patterns: Sequence[Any]) -> tuple[pd.Series, int, dict[str, int]]:
    """The column redacted, the records changed, and the records changed per placeholder (one
    replacement pass per pattern; a record changed when its text differs after it)."""
    present = s.notna().to_numpy()
    text = s.astype(object).where(s.notna(), None)
    t = pd.Series(np.where(present, text.astype(str), ""), index=s.index, dtype=object)
    counts: dict[str, int] = {}
    changed = np.zeros(len(s), dtype=bool)
    for p in patterns:
        new = t.str.replace(p.regex, p.placeholder, regex=True)
        hit = new.to_numpy(dtype=object) != t.to_numpy(dtype=object)
        if hit.any():
            counts[p.placeholder] = int(hit.sum())
            changed |= hit
            t = new
    if not changed.any():
        return s.copy(), 0, counts
    out = pd.Series(np.where(present, t.to_numpy(dtype=object), np.nan), index=s.index, name=s.name, dtype=object)
    return out, int(changed.sum()), counts


@protection_method(
    "redact", sdcmicro=not_in_sdcmicro("sdcMicro has no redaction of identifiers inside text"),
    summary="identifiers inside text (e-mail, phone, SSN, URL, IP, dates, ZIP, MRN, names) replaced by [EMAIL], ...",
    repeatable=True, dask=ROW_WISE, example={"variables": ["diagnosis"]},
    options={"categories": param(Each(Choice(REDACT_CATEGORIES)), "the Safe Harbor categories to redact "
                                 "(default: all it knows)")})
def redact(data: pd.DataFrame, variables: Sequence[str] | str, *,
           categories: Sequence[str] | None = None) -> ProtectionResult:
    """Replace identifiers inside the text of `variables` with typed placeholders.

    Parameters
    ----------
    data : pandas.DataFrame
    variables : str or list of str
        Text columns (free-text notes, comments).
    categories : list of str, optional
        Safe Harbor letters to redact, of ``F N O G H D C B A`` (default: all).

    Returns
    -------
    ProtectionResult
        ``method="redact"``; ``changed[v]``: records whose text changed; ``details[v]``: the
        records changed per placeholder.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"note": ["mail jo@x.org or call 617-555-0101", None]})
    >>> sdc.redact(df, "note").data["note"].tolist()
    ['mail [EMAIL] or call [PHONE]', nan]
    """
    frame, cols = check_variables(data, variables)
    wanted = REDACT_CATEGORIES if categories is None else tuple(categories)
    patterns = [p for p in TEXT_PATTERNS if p.code in wanted]
    out = output_frame(frame)
    changed: dict[str, int] = {}
    details: dict[str, Any] = {}
    for v in cols:
        out[v], changed[v], details[v] = _redact_column(frame[v], patterns)
    params: dict[str, Any] = {"variables": list(cols)}
    if categories is not None:
        params["categories"] = list(categories)
    return ProtectionResult(method="redact", data=out, variables=cols, parameters=params, seed=None,
                            changed=pd.Series(changed, dtype=np.int64, name="cells_changed"), details=details)
