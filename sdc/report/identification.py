"""Presentation of an identification (``sdc identify``): the roles table, the Safe Harbor
checklist, and the JSON document.

Column names come from the data file and may hold anything, terminal escape sequences
included. Every string printed here goes through :func:`clean`, which shows control and
invisible formatting characters (ESC, DEL, C1 controls, bidirectional overrides, line
separators) as escapes instead of sending them to the terminal; the JSON text escapes the
same characters as ``\\uXXXX``.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pandas as pd

from sdc._stats import summary_values
from sdc.identify.combinations import CombinationResult
from sdc.identify.hipaa import CATEGORY, EXPERT_DETERMINATION, ZIP3_SOURCE
from sdc.identify.roles import ROLES, IdentificationResult
from sdc.report.formatting import render_table
from sdc.report.serialize import dumps

__all__ = ["clean", "identification_text", "identification_document", "identification_json", "safe_harbor_text",
           "safe_json"]

_UNSAFE = ("Cc", "Cf", "Zl", "Zp")


def clean(text: object) -> str:
    r"""`text` with control and invisible formatting characters shown as escapes.

    >>> clean("age\x1b[31m\u202e")
    'age\\x1b[31m\\u202e'
    """
    return "".join(ch if unicodedata.category(ch) not in _UNSAFE
                   else (repr(ch)[1:-1] if ord(ch) < 0x100 and ch not in "\x85\xa0\xad" else f"\\u{ord(ch):04x}")
                   for ch in str(text))


def safe_json(text: str) -> str:
    """JSON text with every control/format character other than its own line breaks as ``\\uXXXX``."""
    return "".join(f"\\u{ord(ch):04x}" if ch != "\n" and unicodedata.category(ch) in _UNSAFE else ch for ch in text)


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"1 {word}"
    return f"{n:,} " + ("other" if word == "other" else "sensitive" if word == "sensitive" else word + "s")


def identification_text(result: IdentificationResult, *, source: str, combinations: CombinationResult | None = None) -> str:
    """The readable ``sdc identify`` report: roles with reasons, the combinations of the
    quasi-identifiers when asked, then the Safe Harbor checklist."""
    p = result.parameters
    out = [f"Identification of {clean(source)}: {result.n_records:,} records, {len(result.columns)} columns.", ""]
    rows = [[clean(c.column), c.role + (" (set)" if c.overridden else ""), c.use or "", c.gdistinct_rate,
             clean(c.reasons[0])] for c in result.columns]
    table = pd.DataFrame(rows, columns=["column", "role", "used as", "g-distinct", "reason"])
    out.append(render_table(table, formats={"g-distinct": ".2%"}))
    more = [(clean(c.column), clean(r)) for c in result.columns for r in c.reasons[1:]
            if not r.startswith("g-distinct")]
    if more:
        out += ["", "Also noted:"]
        out += [f"  {col}: {r}" for col, r in more]
    counts = {r: len(result.with_role(r)) for r in ROLES}
    out += ["", "Roles: " + ", ".join(_plural(counts[r], r) for r in ROLES)
            + (f" ({len(result.dropped)} dropped: missing in more than {100 * p['missing_threshold']:g}% of records)"
               if result.dropped else "") + "."]
    avg = ("distinct values / records (--average records)" if p["average"] == "records"
           else "mean of 1/frequency over the distinct values, as Khan et al. published their rates")
    out.append(f"g-distinct (Mansour et al. 2021, as in Khan et al. 2025): rate = {avg}; sensitive above "
               f"alpha = {100 * p['alpha']:g}%, quasi-identifier from beta = {100 * p['beta']:g}% to alpha, "
               "non-sensitive below beta.")
    dup = result.duplicates.text() if result.duplicates is not None else ""
    if dup:
        out += ["", "Repeated records: " + clean(dup)]
    if result.proxies is not None and result.proxies.proxies:
        out += ["", f"Proxies (a column determining a key or sensitive variable in at least "
                    f"{100 * result.proxies.threshold:g}% of its records):"]
        out += [f"  {clean(p.text())}" for p in result.proxies.proxies]
    if combinations is not None:
        out += ["", combinations_text(combinations)]
    out += ["", safe_harbor_text(result)]
    return "\n".join(out)


def safe_harbor_text(result: IdentificationResult) -> str:
    sh = result.safe_harbor
    table = sh.to_frame()
    found = int(table["found"].sum())
    lines = [f"HIPAA Safe Harbor checklist (45 CFR 164.514(b)(2)), best effort from column names and value patterns: "
             f"{found} of 18 categories found."]
    rows = []
    for row in table.itertuples(index=False):
        cols = ", ".join(clean(c) for c in row.columns)
        ok = ", ".join(clean(c) for c in row.allowed_columns)
        where = cols + ("; " if cols and ok else "") + (f"allowed: {ok}" if ok else "")
        rows.append([f"{row.number:>2}", f"({row.code}) {CATEGORY[row.code].short}", "FOUND" if row.found else "-",
                     where, row.action if row.found else ""])
    lines.append(render_table(pd.DataFrame(rows, columns=["#", "category", "found", "columns", "Safe Harbor asks"])))
    details = [f"  {clean(f.column)} ({f.code}): {clean(f.detail)}" for f in sh.findings]
    if details:
        lines += ["", "Where:"] + details
    lines += ["", f"Restricted 3-digit ZIP prefixes used: {', '.join(sh.restricted_zip3) or 'none'} ({ZIP3_SOURCE}).",
              "", EXPERT_DETERMINATION]
    return "\n".join(lines)


def identification_document(result: IdentificationResult, *, source: str) -> dict[str, Any]:
    """A JSON-ready view: parameters, one object per column, the checklist and the summary."""
    sh = result.safe_harbor
    cats = []
    for row in sh.to_frame().itertuples(index=False):
        cats.append({"number": int(row.number), "code": row.code, "category": row.category, "found": bool(row.found),
                     "columns": list(row.columns), "allowed_columns": list(row.allowed_columns),
                     "action": row.action})
    return {
        "source": source, "n_records": result.n_records, "n_columns": len(result.columns),
        "parameters": dict(result.parameters),
        "columns": [{"column": c.column, "role": c.role, "use": c.use, "reasons": list(c.reasons),
                     "safe_harbor": list(c.hipaa), "kind": c.kind, "continuous": c.continuous,
                     "gdistinct_rate": c.gdistinct_rate, "gdistinct_class": c.gdistinct_class,
                     "overridden": c.overridden, "dropped": c.dropped} for c in result.columns],
        "safe_harbor": {"categories": cats,
                        "findings": [{"column": f.column, "code": f.code, "evidence": f.evidence, "detail": f.detail,
                                      "share": f.share, "records": f.records, "allowed": f.allowed}
                                     for f in sh.findings],
                        "restricted_zip3": list(sh.restricted_zip3), "restricted_zip3_source": ZIP3_SOURCE,
                        "reference_year": sh.reference_year, "expert_determination": EXPERT_DETERMINATION},
        "duplicates": (summary_values(result.duplicates.summary()) | {"text": result.duplicates.text()}
                       if result.duplicates is not None else None),
        "proxies": [{"column": p.column, "target": p.target, "target_role": p.target_role,
                     "determination": p.determination, "records": p.records, "unique_pair": p.unique_pair,
                     "one_to_one": p.one_to_one} for p in (result.proxies.proxies if result.proxies else ())],
        "summary": summary_values(result.summary()),
    }


def identification_json(result: IdentificationResult, *, source: str, combinations: CombinationResult | None = None) -> str:
    doc = identification_document(result, source=source)
    if combinations is not None:
        doc["combinations"] = {**summary_values(combinations.summary()),
                               "rows": combinations.to_frame().to_dict(orient="records")}
    return safe_json(dumps(doc))


def combinations_text(c: CombinationResult) -> str:
    """The combinations of the quasi-identifiers with ARX's distinction and separation."""
    head = (f"Combinations of the {len(c.keys)} quasi-identifiers ({c.examined:,} examined"
            + (f"; {c.left_out:,} larger ones left out: --combinations sets the largest width" if c.left_out else "")
            + "): distinction = classes / records, separation = share of record pairs told apart (ARX's "
            "RiskModelAttributes; Motwani and Xu 2007). 100% distinction: every record is unique on those columns.")
    table = c.to_frame().assign(columns=lambda f: f["columns"].map(clean))
    return "\n".join([head, render_table(table, formats={"distinction": ".2%", "separation": ".2%"})])
