"""Local suppression: key values set to missing until the keys are k-anonymous.

A record is at risk when its sample frequency f_k, counted under sdcMicro's wildcard rule
for missing values (:mod:`sdc.core.frequencies`: a missing value may stand for any value,
with weight ``alpha``), is below k. Local suppression replaces some of its key values by
missing values: each one makes the record compatible with more records, which raises f_k.

The algorithm is sdcMicro's ``localSuppression`` / ``kAnon`` (Templ, Kowarik and Meindl
2015, J. Stat. Softw. 67(4); Templ 2017, *Statistical Disclosure Control for Microdata*,
Springer, ch. 3), reimplemented from its description and behaviour:

1. **Importance.** Each key gets an importance in 1..K (1 = most important, suppressed
   last). By default the key with the fewest distinct values is the most important; ties go
   to the earlier key. Keys are tried for suppression from the least important.
2. **Reduction** (``mode="sdcmicro"`` only). In every key pattern (a missing value being a
   value of its own) with more than k records, only the first k records take part; the rest
   cannot change any decision and are added back at the end.
3. **Passes.** The records with f_k < k, ordered by their risk 1/f_k (highest first, ties
   in record order), are visited one by one. For a record p, the *distance* to every other
   record is the number of keys observed in both and different; the *nearest* records are
   those at the smallest positive distance. The key suppressed in p is the least important
   key, observed in p, in which p differs from at least one nearest record. If no record
   is at a positive distance (p agrees with everything it can be compared with), the least
   important key observed in p is suppressed. After the pass f_k is counted again, and
   passes repeat until every record has f_k >= k.

Modes:

``mode="sdcmicro"``
    Exactly the cells sdcMicro 5.8's ``localSuppression`` suppresses (cross-validated cell
    for cell, see ``tests/protect/test_sdcmicro_suppression.py``): the reduction of step 2,
    and every record on the pass's list gets one suppression, even when an earlier
    suppression of the same pass already made it safe. Where sdcMicro stops with an error
    (a record with f_k < k that agrees with every record, alpha = 1), so does this mode.
``mode="minimal"`` (default)
    Never more suppressed cells than ``mode="sdcmicro"`` where sdcMicro's result is
    k-anonymous, and often far fewer. Three candidates are built and the one with fewer
    suppressed cells is kept: (a) the passes above on all the records, skipping a record
    that an earlier suppression of the pass has already made safe; (b) the same, the key
    being the least important one whose suppression alone makes the record safe (else as in
    step 3); (c) sdcMicro's own result (finished by passes (a) where it is not k-anonymous:
    ``combs`` with alpha < 1). Each candidate is then pruned: every suppressed cell whose
    original value can be put back while every record keeps f_k >= k (on every key subset,
    in every stratum) is put back, the most important keys first.

Options: ``combs`` (sdcMicro's name) asks for k-anonymity on every subset of ``combs[i]``
keys, with ``k[i]``, subsets handled in sdcMicro's order (sizes as given, each size in
lexicographic order); ``strata`` makes each stratum k-anonymous on its own; ``unit="record"``
drops whole records instead of suppressing cells, and ``l``/``sensitive`` add l-diversity
(Machanavajjhala et al. 2007; ``l_variant`` distinct, entropy or recursive (c, l)) of the
equivalence classes. In cell mode (minimal, one k on all the keys) k and l are reached
together by suppressing cells class by class, under the conservative reading of a
suppressed cell (a value of its own) and so under the wildcard rule too
(:mod:`sdc.protect.suppression_diverse`); otherwise, after the cells, classes that are not
l-diverse are dropped, and records are dropped until the kept records are k-anonymous and
l-diverse together (the kept records are reported).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from sdc._schema import COUNT, GROUP_SIZE, POSITIVE, Anything, Choice, Each, Names
from sdc._validation import check_columns, check_frame, check_int, check_keys, check_number, check_option
from sdc.core.missing import ALPHA, MissingRule
from sdc.core.patterns import code_matrix, group_positions, pattern_table
from sdc.core.strata import strata_ids
from sdc.protect._rcode import RStep, StepRun, r_names, r_value
from sdc.protect._declare import param, protection_method
from sdc.protect._result import ProtectionResult
from sdc.protect.suppression_algorithms import minimal_stratum as _minimal_stratum
from sdc.protect.suppression_algorithms import sdcmicro_stratum as _sdcmicro_stratum
from sdc.protect.suppression_diverse import L_VARIANTS, DiversityRule, diverse_suppression, l_ok_per_record
from sdc.protect.suppression_patterns import _TOL, SdcMicroStops, wildcard_fk

__all__ = ["local_suppression", "SUPPRESSION_MODES", "SUPPRESSION_UNITS", "default_importance", "SdcMicroStops",
           "wildcard_fk"]

SUPPRESSION_MODES = ("minimal", "sdcmicro")
SUPPRESSION_UNITS = ("cell", "record")


# --------------------------------------------------------------------------------------
# Importance, subsets, strata.
# --------------------------------------------------------------------------------------

def default_importance(data: pd.DataFrame, keys: Sequence[str]) -> dict[str, int]:
    """sdcMicro's default importance: keys ranked by their number of distinct observed values,
    fewest first (importance 1 = most important); ties go to the earlier key."""
    keys = check_keys(check_frame(data), keys)
    n_values = [int(data[k].nunique(dropna=True)) for k in keys]
    order = np.argsort(n_values, kind="stable")
    imp = np.empty(len(keys), dtype=np.int64)
    imp[order] = np.arange(1, len(keys) + 1)
    return {k: int(v) for k, v in zip(keys, imp)}


def _check_importance(importance: object, keys: tuple[str, ...], data: pd.DataFrame) -> np.ndarray:
    K = len(keys)
    if importance is None:
        d = default_importance(data, keys)
        return np.array([d[k] for k in keys], dtype=np.int64)
    if isinstance(importance, Mapping):
        unknown = [k for k in importance if k not in keys]
        if unknown:
            raise ValueError(f"`importance` names variables that are not keys: {', '.join(map(repr, unknown))}.")
        missing = [k for k in keys if k not in importance]
        if missing:
            raise ValueError(f"`importance` has no value for key(s) {', '.join(map(repr, missing))}.")
        vals = [importance[k] for k in keys]
    elif isinstance(importance, (str, bytes)) or not isinstance(importance, Sequence):
        raise TypeError(f"`importance` must be a sequence of integers (one per key) or a mapping; got {importance!r}.")
    else:
        vals = list(importance)
        if len(vals) != K:
            raise ValueError(f"`importance` must have one value per key ({K}); got {len(vals)}.")
    return np.array([check_int(v, "importance", min_value=1, max_value=K) for v in vals], dtype=np.int64)


def _subsets(keys: tuple[str, ...], k: object, combs: object) -> list[tuple[tuple[int, ...], int]]:
    K = len(keys)
    if combs is None:
        if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
            raise TypeError(f"`k` must be an integer (a sequence only with `combs`); got {k!r}.")
        return [(tuple(range(K)), check_int(k, "k", min_value=2))]
    if isinstance(combs, (int, np.integer)) and not isinstance(combs, bool):
        combs = [combs]
    if isinstance(combs, (str, bytes)) or not isinstance(combs, Sequence) or len(combs) == 0:
        raise TypeError(f"`combs` must be a sequence of subset sizes; got {combs!r}.")
    sizes = [check_int(c, "combs", min_value=1, max_value=K) for c in combs]
    if isinstance(k, (int, np.integer)) and not isinstance(k, bool):
        ks = [check_int(k, "k", min_value=2)] * len(sizes)
    elif isinstance(k, Sequence) and not isinstance(k, (str, bytes)):
        if len(k) != len(sizes):
            raise ValueError(f"`k` must be one integer or one per entry of `combs` ({len(sizes)}); got {len(k)}.")
        ks = [check_int(v, "k", min_value=2) for v in k]
    else:
        raise TypeError(f"`k` must be an integer or a sequence of integers; got {k!r}.")
    out = []
    for size, kk in zip(sizes, ks):
        for sub in itertools.combinations(range(K), size):
            out.append((tuple(sub), kk))
    return out


# --------------------------------------------------------------------------------------
# Records dropped for k and l together.
# --------------------------------------------------------------------------------------
def _drop_records(codes: np.ndarray, strata: list[np.ndarray], subsets: list[tuple[tuple[int, ...], int]],
                  alpha: float, sens_codes: list[np.ndarray], rule: DiversityRule | None) -> np.ndarray:
    """Records kept: whole records are dropped until, in every stratum, the kept records are
    k-anonymous on every key subset and (with `rule`) every class is l-diverse."""
    kept = np.ones(codes.shape[0], dtype=bool)
    for pos in strata:
        live = pos
        while live.size:
            bad = np.zeros(live.size, dtype=bool)
            sub = codes[live]
            for cols, k in subsets:
                bad |= wildcard_fk(np.ascontiguousarray(sub[:, cols]), alpha) < k - _TOL
            if rule is not None:
                bad |= ~l_ok_per_record(sub, [s[live] for s in sens_codes], rule)
            if not bad.any():
                break
            kept[live[bad]] = False
            live = live[~bad]
    return kept


# --------------------------------------------------------------------------------------
# The public function.
# --------------------------------------------------------------------------------------
def _with_missing(s: pd.Series, mask: np.ndarray) -> pd.Series:
    """`s` with the cells of `mask` set to missing, in a dtype that can hold a missing value."""
    if not mask.any():
        return s.copy()
    dt = s.dtype
    if pd.api.types.is_bool_dtype(dt):
        s = s.astype("boolean")
    elif pd.api.types.is_integer_dtype(dt) and not isinstance(dt, pd.CategoricalDtype):
        s = s.astype("Int64") if isinstance(dt, np.dtype) else s.copy()
    else:
        s = s.copy()
    m = pd.Series(mask, index=s.index)
    if isinstance(s.dtype, np.dtype) and s.dtype.kind in "fc":
        return s.mask(m, np.nan)
    if isinstance(s.dtype, np.dtype) and s.dtype.kind == "M":
        return s.mask(m, pd.NaT)
    if isinstance(s.dtype, np.dtype) and s.dtype == object:
        return s.mask(m, None)
    return s.mask(m)


@dataclass(frozen=True)
class _Setup:
    """The checked arguments of one call."""

    keys: tuple[str, ...]
    subsets: list[tuple[tuple[int, ...], int]]
    importance: np.ndarray
    strata: tuple[str, ...]
    rule: MissingRule
    mode: str
    unit: str
    sensitive: tuple[str, ...]
    l: int | None
    l_variant: str = "distinct"
    c: float = 2.0

    def diversity(self) -> DiversityRule | None:
        """The l-diversity rule of the call (its k: the largest of the subsets'), None without `l`."""
        if self.l is None:
            return None
        return DiversityRule(max(kk for _, kk in self.subsets), self.l, self.l_variant, self.c)


def _setup(data: pd.DataFrame, keys: object, k: object, importance: object, combs: object, strata: object,
           alpha: object, mode: object, unit: object, sensitive: object, l: object, l_variant: object = "distinct",
           c: object = 2.0) -> _Setup:
    check_frame(data)
    keys = check_keys(data, keys)
    mode = check_option(mode, "mode", SUPPRESSION_MODES)
    unit = check_option(unit, "unit", SUPPRESSION_UNITS)
    rule = MissingRule("wildcard", alpha)  # sdcMicro's rule: a missing key value is a wildcard of weight alpha
    subsets = _subsets(keys, k, combs)
    imp = _check_importance(importance, keys, data)
    strata_cols = check_columns(data, strata, role="strata") if strata is not None else ()
    overlap = [c for c in strata_cols if c in keys]
    if overlap:
        raise ValueError(f"`strata` must not repeat key variables: {', '.join(map(repr, overlap))}.")
    sens_cols: tuple[str, ...] = ()
    if (sensitive is None) != (l is None):
        raise ValueError("`sensitive` and `l` go together: give both or neither.")
    if l is not None:
        l = check_int(l, "l", min_value=2)
        sens_cols = check_columns(data, sensitive, role="sensitive")
        bad = [c for c in sens_cols if c in keys or c in strata_cols]
        if bad:
            raise ValueError(f"`sensitive` must not repeat key or strata variables: {', '.join(map(repr, bad))}.")
    l_variant = check_option(l_variant, "l_variant", L_VARIANTS)
    c = check_number(c, "c", low=0, high=float("inf"), low_open=True)
    return _Setup(keys, subsets, imp, strata_cols, rule, mode, unit, sens_cols, l,  # type: ignore[arg-type]
                  l_variant, float(c))


def _check_strata_sizes(positions: list[np.ndarray], st: Any, a: _Setup) -> None:
    min_k = max(kk for _, kk in a.subsets)
    for pos in positions:
        if pos.size < min_k and a.unit == "cell":
            lab = st.labels[int(st.ids[pos[0]])]
            where = f"stratum {lab!r}" if a.strata else "the data"
            raise ValueError(f"{where} has {pos.size} record(s), fewer than k = {min_k}: it cannot be made "
                             f"{min_k}-anonymous by suppressing cells (use unit='record' to drop it).")


def _l_aware(a: _Setup) -> bool:
    """Whether the call takes the l-aware suppression (:mod:`sdc.protect.suppression_diverse`):
    cells, minimal mode, l given, one k on all the keys."""
    return a.l is not None and a.unit == "cell" and a.mode == "minimal" and len(a.subsets) == 1 \
        and len(a.subsets[0][0]) == len(a.keys)


def _suppress(codes: np.ndarray, positions: list[np.ndarray], st: Any, a: _Setup) -> tuple[np.ndarray, int | None]:
    """The code matrix after suppressing cells in each stratum, and sdcMicro's count of them
    (minimal mode; None where sdcMicro stops with an error)."""
    _check_strata_sizes(positions, st, a)
    out = codes.copy()
    sdcm_total: int | None = 0
    if a.unit == "cell":
        for pos in positions:
            sub = np.ascontiguousarray(codes[pos])
            if a.mode == "sdcmicro":
                res = _sdcmicro_stratum(sub, a.subsets, a.importance, a.rule.alpha)
            else:
                res, n_sdcm = _minimal_stratum(sub, a.subsets, a.importance, a.rule.alpha)
                sdcm_total = None if (n_sdcm is None or sdcm_total is None) else sdcm_total + n_sdcm
            out[pos] = res
    return out, sdcm_total


def _protect(codes: np.ndarray, positions: list[np.ndarray], st: Any, a: _Setup, sens_codes: list[np.ndarray]
             ) -> tuple[np.ndarray, np.ndarray, int | None]:
    """The code matrix after suppression, the records kept, and sdcMicro's count of cells."""
    rule = a.diversity()
    if _l_aware(a) and rule is not None:
        _check_strata_sizes(positions, st, a)
        out, kept = diverse_suppression(codes, st.ids, sens_codes, a.importance, rule)
        return out, kept, None
    out, sdcm_total = _suppress(codes, positions, st, a)
    kept = np.ones(codes.shape[0], dtype=bool)
    if a.unit == "record" or a.l is not None:
        # Within a stratum, classes on the keys are classes on keys and strata.
        kept = _drop_records(out, positions, a.subsets, a.rule.alpha, sens_codes, rule)
    return out, kept, sdcm_total


def _k_anonymous(out: np.ndarray, kept: np.ndarray, positions: list[np.ndarray], a: _Setup) -> bool:
    for pos in positions:
        live = pos[kept[pos]]
        for cols, kk in a.subsets:
            if live.size and (wildcard_fk(np.ascontiguousarray(out[live][:, cols]), a.rule.alpha) < kk - _TOL).any():
                return False
    return True


def _conservative(out: np.ndarray, kept: np.ndarray, st_ids: np.ndarray, a: _Setup) -> bool:
    """k-anonymity of the kept records with a suppressed (missing) cell a value of its own
    (ARX's reading), on every key subset, within each stratum."""
    for cols, kk in a.subsets:
        rows = np.column_stack([st_ids[kept].astype(np.int32), out[kept][:, cols]]).astype(np.int32)
        if rows.shape[0] and (pattern_table(np.ascontiguousarray(rows))[2] < kk).any():
            return False
    return True


def _result(data: pd.DataFrame, a: _Setup, codes: np.ndarray, out: np.ndarray, kept: np.ndarray,
            positions: list[np.ndarray], st: Any, sdcm_total: int | None, k: object, combs: object
            ) -> ProtectionResult:
    """The released frame, the changes and the details of the suppression."""
    keys = a.keys
    new_na = (out < 0) & (codes >= 0)
    frame = data.copy()
    for j, key in enumerate(keys):
        frame[key] = _with_missing(data[key], new_na[:, j])
    if not kept.all():
        frame = frame.loc[kept]
    supp = pd.Series(new_na[kept].sum(axis=0).astype(np.int64), index=list(keys), name="suppressions")
    by_stratum = pd.DataFrame(
        [new_na[pos][kept[pos]].sum(axis=0) for pos in positions], columns=list(keys),
        index=pd.Index([st.labels[int(st.ids[p[0]])] for p in positions], name="stratum"),
    ).astype(np.int64)
    details = {
        "suppressions": supp,
        "suppressions_by_stratum": by_stratum,
        "missing_after": pd.Series((out[kept] < 0).sum(axis=0).astype(np.int64), index=list(keys), name="missing"),
        "importance": {kk: int(v) for kk, v in zip(keys, a.importance)},
        "kept": pd.Series(kept, index=data.index, name="kept"),
        "records_dropped": int((~kept).sum()),
        "k_anonymous": _k_anonymous(out, kept, positions, a),
        "k_anonymous_conservative": _conservative(out, kept, st.ids, a),
        "sdcmicro_suppressions": (sdcm_total if a.mode == "minimal" and a.unit == "cell" and not _l_aware(a)
                                  else None),
        "subsets": [[keys[i] for i in cols] for cols, _ in a.subsets],
    }
    if combs is None:
        k_param: object = a.subsets[0][1]
        combs_param = None
    else:
        k_param = [int(v) for v in (k if isinstance(k, Sequence) else [k])]
        combs_param = [int(c) for c in (combs if isinstance(combs, Sequence) else [combs])]
    params = {
        "keys": list(keys), "k": k_param, "importance": details["importance"], "combs": combs_param,
        "strata": list(a.strata) or None, "alpha": a.rule.alpha, "mode": a.mode, "unit": a.unit,
        "sensitive": list(a.sensitive) or None, "l": a.l, "l_variant": a.l_variant, "c": a.c,
    }
    return ProtectionResult(
        method="local_suppression", data=frame, variables=tuple(keys), parameters=params, seed=None,
        changed=supp.rename("cells_changed"), details=details,
    )


def _r_local_suppression(run: StepRun) -> RStep:
    """sdcMicro's ``localSuppression`` with the importance sdc used (mode ``sdcmicro``: the same
    cells; the default mode ``minimal`` suppresses fewer, which sdcMicro cannot)."""
    p = run.parameters
    other = sorted(k for k in ("sensitive", "l", "combs") if p.get(k) is not None)
    if other or p.get("unit", "cell") != "cell" or not isinstance(p.get("k", 3), int):
        return RStep(("data  # not reproduced",), False, "sdcMicro's localSuppression has no counterpart of "
                     f"{', '.join(other) or 'unit = record or a k per subset'}: not reproduced")
    keys = list(run.variables)
    imp = run.details.get("importance")
    args = [f"keyVars = {r_names(keys)}", f"k = {r_value(p.get('k', 3))}", f"alpha = {r_value(p.get('alpha', 1.0))}"]
    if isinstance(imp, Mapping):
        args.append(f"importance = {r_value([int(imp[k]) for k in keys])}")
    if p.get("strata"):
        args.append(f"strataVars = {r_names([p['strata']] if isinstance(p['strata'], str) else p['strata'])}")
    # Keys as factors: sdcMicro reads a character key through as.numeric (docs/sdcmicro-differences.md).
    code = (f"x <- data; for (key in {r_names(keys)}) x[[key]] <- factor(x[[key]])",
            f"res <- sdcMicro::localSuppression(x, {', '.join(args)})",
            f"for (key in {r_names(keys)}) data[[key]] <- as.vector(res$xAnon[[key]], mode = typeof(data[[key]]))",
            "data")
    if p.get("mode", "minimal") == "sdcmicro":
        return RStep(code, True, "sdcMicro's localSuppression; the same cells")
    return RStep(code, False, f"sdcMicro's localSuppression suppresses more cells than sdc's mode 'minimal' "
                 f"(here {run.details.get('sdcmicro_suppressions', '?')} against the release's "
                 f"{int(sum(run.details['suppressions']))}); mode = \"sdcmicro\" in the plan makes them the same"
                 if "suppressions" in run.details else "sdcMicro's localSuppression suppresses more cells than "
                 "sdc's mode 'minimal'")

@protection_method(
    "local_suppression", sdcmicro=_r_local_suppression, summary="key values set to missing until the keys are k-anonymous", drops_records=True,
    why="it suppresses values until every key pattern of the whole file has k records",
    example={"keys": ["age", "sex", "region"], "k": 3},
    options={"k": param(Each(GROUP_SIZE), "every record ends with f_k >= k (one k per entry of combs)"),
             "importance": param(Anything(), "each key's importance, 1 = most important (suppressed last)"),
             "combs": param(Each(COUNT), "k-anonymity on every subset of these sizes of the keys"),
             "strata": param(Names(), "k-anonymity within each stratum of these columns"),
             "alpha": param(ALPHA.rule, ALPHA.help),
             "mode": param(Choice(SUPPRESSION_MODES), "minimal (never more cells than sdcMicro) or sdcmicro"),
             "unit": param(Choice(SUPPRESSION_UNITS), "suppress cells, or drop whole records"),
             "sensitive": param(Names(), "sensitive variables for distinct l-diversity (with l)"),
             "l": param(GROUP_SIZE, "every class is l-diverse in each sensitive variable"),
             "l_variant": param(Choice(L_VARIANTS), "distinct, entropy or recursive (c, l)-diversity"),
             "c": param(POSITIVE, "the constant of recursive (c, l)-diversity")})
def local_suppression(
    data: pd.DataFrame,
    keys: str | Sequence[str],
    *,
    k: int | Sequence[int] = 3,
    importance: Sequence[int] | Mapping[str, int] | None = None,
    combs: int | Sequence[int] | None = None,
    strata: str | Sequence[str] | None = None,
    alpha: float = 1.0,
    mode: Literal["minimal", "sdcmicro"] = "minimal",
    unit: Literal["cell", "record"] = "cell",
    sensitive: str | Sequence[str] | None = None,
    l: int | None = None,
    l_variant: Literal["distinct", "entropy", "recursive"] = "distinct",
    c: float = 2.0,
) -> ProtectionResult:
    """Suppress key values (or drop records) until the keys are k-anonymous.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : str or sequence of str
        Categorical key variables (quasi-identifiers). Missing values are wildcards.
    k : int or sequence of int, default 3
        Every record must end with f_k >= k (sdcMicro's default is 2); with `combs`, one per entry.
    importance : sequence of int or mapping, optional
        Importance of each key in 1..K (1 = most important, suppressed last); ties allowed.
        Default: sdcMicro's (fewest distinct values = most important).
    combs : int or sequence of int, optional
        k-anonymity on every subset of these sizes of the keys (sdcMicro's ``combs``).
    strata : str or sequence of str, optional
        Stratum variables: k-anonymity within each stratum (missing is a stratum value).
    alpha : float in [0, 1], default 1
        Weight of wildcard matches (sdcMicro's ``alpha``: the :class:`~sdc.core.missing.MissingRule`
        ``("wildcard", alpha)``, see :func:`sdc.frequencies`).
    mode : {"minimal", "sdcmicro"}, default "minimal"
        ``"sdcmicro"``: exactly sdcMicro's cells; ``"minimal"``: never more, often fewer.
    unit : {"cell", "record"}, default "cell"
        ``"record"`` drops whole records (a whole equivalence class at a time) instead.
    sensitive : str or sequence of str, optional
        Sensitive variables for distinct l-diversity (with `l`).
    l : int, optional
        Every equivalence class (keys and strata; a suppressed cell a value of its own) with an
        observed sensitive value must be l-diverse in each sensitive variable. In cell mode
        (``mode="minimal"``, no `combs`) cells are suppressed to reach k and l together
        (:mod:`sdc.protect.suppression_diverse`), dropping only classes no suppression can
        rescue; otherwise the classes that are not l-diverse are dropped.
    l_variant : {"distinct", "entropy", "recursive"}, default "distinct"
        Distinct values, exp(entropy) >= l, or recursive (c, l)-diversity (as :func:`sdc.l_diversity`).
    c : float > 0, default 2
        The constant of recursive (c, l)-diversity.

    Returns
    -------
    ProtectionResult
        ``data``: the protected copy (same index; without the dropped records, if any).
        ``changed``: new suppressions per key. ``details``: ``suppressions`` (per key),
        ``suppressions_by_stratum``, ``missing_after`` (per key), ``importance``, ``kept`` (bool
        per input record), ``records_dropped``, ``k_anonymous`` (wildcard rule),
        ``k_anonymous_conservative`` (a suppressed cell a value of its own),
        ``sdcmicro_suppressions`` (minimal mode for k alone: the cells sdcMicro's algorithm
        suppresses, None where it stops).

    Notes
    -----
    The frequency rule is ``sdcMicro::freqCalc``'s (Templ 2008); the suppression algorithm is
    ``sdcMicro::localSuppression`` (5.8; Templ, Kowarik and Meindl 2015), described in the module
    docstring. Integer keys with suppressions come back as nullable ``Int64``, booleans as ``boolean``.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"age": [30, 30, 30, 40, 40, 50], "sex": ["m", "m", "f", "f", "f", "f"]})
    >>> sdc.local_suppression(df, ["age", "sex"], k=2, mode="sdcmicro").changed.to_dict()
    {'age': 2, 'sex': 0}
    >>> res = sdc.local_suppression(df, ["age", "sex"], k=2)
    >>> res.changed.to_dict(), res.details["sdcmicro_suppressions"]
    ({'age': 1, 'sex': 0}, 2)
    >>> res.data["age"].tolist()
    [30, 30, <NA>, 40, 40, 50]
    """
    a = _setup(data, keys, k, importance, combs, strata, alpha, mode, unit, sensitive, l, l_variant, c)
    codes, _ = code_matrix(data, a.keys)
    st = strata_ids(data, list(a.strata))
    positions = [p for p in group_positions(st.ids, st.n_strata) if p.size]
    sens_codes = [code_matrix(data, (s,))[0][:, 0] for s in a.sensitive]
    out, kept, sdcm_total = _protect(codes, positions, st, a, sens_codes)
    return _result(data, a, codes, out, kept, positions, st, sdcm_total, k, combs)
