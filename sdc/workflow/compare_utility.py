"""The utility side of a comparison: the utility registry's measures on the matched records
(:mod:`sdc.workflow.utility_registry`), the marginals and associations, the analyst's models
(``[[analyses]]``) and the tables a record swap perturbed."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from sdc.exceptions import SdcWarning
from sdc.workflow import utility_registry
from sdc.workflow.measure import UNIT_HEADINGS, UtilityContext

__all__ = ["with_withheld", "UTILITY_COLUMNS", "utility_measures", "swapped_tables"]


def with_withheld(original: pd.DataFrame, released: pd.DataFrame) -> pd.DataFrame:
    """`released` (matched to `original` by index, a subset of it) with a record of every
    value missing for each original record the protection dropped: a dropped record is a
    record withheld, every cell suppressed, for the utility figures (else dropping most of a
    file would cost nothing: IL1 0 and 100 % of the records retained)."""
    if len(released) == len(original):
        return released
    return released.reindex(original.index)


#: The columns of a comparison's utility table.
UTILITY_COLUMNS = ["measure", "label", "unit", "variable", "value"]


def utility_measures(original: pd.DataFrame, released: pd.DataFrame, variables: Sequence[str],
                     keys: Sequence[str], related: Sequence[str] = (), *,
                     original_all: pd.DataFrame | None = None, analyses: Sequence[Any] = (),
                     tables: Sequence[str] = ()) -> dict[str, Any]:
    """The utility measures of the registry (:mod:`sdc.workflow.utility_registry`) on matched
    records (same index).

    Returns a dict: ``summary`` (:func:`sdc.utility_summary` over `variables`, with `keys`; a
    suppressed cell counts as a loss of 1 in IL1, as in ``sdc sweep``; with `original_all`,
    the whole original, whose records missing from `original` the protection dropped, over
    every record, a dropped one as withheld: :func:`with_withheld`), ``table`` (every
    measure's figures as rows: ``measure`` (the figure's code name), ``label`` and ``unit``
    (as the registry declares them), ``variable`` (``"overall"`` for file-level figures),
    ``value``), ``marginals`` (:func:`sdc.marginal_change` of `variables`, one row
    per variable), ``associations`` (:func:`sdc.association_change` over `variables` and
    `related`, every pair with a change), ``analyses`` (the coefficients of each of the
    analyst's models, `analyses`, fitted to both files: :meth:`AnalysesResult.to_frame`), and ``notes``;
    `tables` are the variables of the tables a record swap perturbed (:func:`swapped_tables`).
    """
    from sdc.utility import association_change, marginal_change

    out: dict[str, Any] = {"summary": None, "table": pd.DataFrame(columns=UTILITY_COLUMNS),
                           "marginals": pd.DataFrame(), "associations": pd.DataFrame(), "analyses": pd.DataFrame(),
                           "notes": []}
    if not variables:
        out["notes"].append("utility measures: no variable changed.")
        return out
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SdcWarning)
        base = original if original_all is None else original_all
        ctx = UtilityContext(base, with_withheld(base, released), list(variables), list(keys), suppressed="max",
                             analyses=tuple(analyses), tables=tuple(tables))
        results = {m.name: m.run(ctx) for m in utility_registry.UTILITY_MEASURES}
        rows = [(f.name, f.label, UNIT_HEADINGS[f.unit], var or "overall", float(v))
                for m in utility_registry.UTILITY_MEASURES for f, var, v in m.rows(results[m.name])]
        fits = results.get("analysis_validity")
        out["analyses"] = fits.to_frame() if fits is not None else pd.DataFrame()
        out["summary"] = utility_registry.headline(ctx)
        out["marginals"] = marginal_change(original, released, list(variables)).to_frame()
        rel = list(dict.fromkeys([*variables, *related]))
        if len(rel) >= 2:
            assoc = association_change(original, released, rel).to_frame()
            assoc = assoc[assoc["change"].abs() > 0].copy()
            order = assoc["change"].abs().sort_values(ascending=False, kind="stable").index
            out["associations"] = assoc.loc[order].reset_index(drop=True)
    out["notes"] += [" ".join(str(w.message).split()) for w in caught]
    out["table"] = pd.DataFrame(rows, columns=UTILITY_COLUMNS)
    return out


def swapped_tables(protection: Mapping[str, Any] | None) -> list[str]:
    """The variables whose frequency tables the logged steps perturb on purpose: each step's
    parameters named by its method's :attr:`~sdc.protect.MethodInfo.tables_of` (record swapping:
    the geography and the risk variables), in order."""
    from sdc.protect import method_infos

    infos, out = method_infos(), []
    for st in (protection or {}).get("steps", []):
        info = infos.get(st.get("method"))
        for param in (info.tables_of if info is not None else ()):
            value = (st.get("parameters") or {}).get(param)
            out += [value] if isinstance(value, str) else [str(v) for v in (value or ())]
    return list(dict.fromkeys(out))
