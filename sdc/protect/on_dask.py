"""Row-wise protection on a Dask DataFrame: the in-memory method applied to every partition.

Recoding with fixed bands (``width``, ``edges``, ``round_to``, ``log_base``, dates, mappings,
truncation), top/bottom coding and keyed pseudonymisation transform each record on its own,
so applying the pandas method to each partition (``map_partitions``) gives exactly the
records the method gives on the whole file. Random methods get one seed per partition,
spawned from the given seed by partition number (:func:`sdc.core._dask.partition_seeds`),
so a rerun with the same seed and partitioning gives the same file.

Methods whose parameters come from the whole file (recoding by ``bins`` or ``rare``
categories, a ``random_key`` for pseudonyms, which every partition would draw anew) refuse
a Dask DataFrame in one line: fix the parameters first (e.g. ``edges``, a ``key_file``).

PRAM (:func:`pram_partitions`) needs the whole file once: sdcMicro's invariant matrix is
built from each variable's level frequencies (per stratum). One Dask aggregation counts them;
the matrix is then built by the in-memory code (:func:`sdc.protect.pram.pram_matrix`, with
the same diagonal draws from the same seed, so it is the in-memory matrix exactly), and each
partition draws its records' new values with its own Generator, seeded from the one seed by
partition number (``SeedSequence(seed).spawn``). The draws therefore differ from the
in-memory draws for the same seed (the random stream is split differently), but a rerun with
the same seed and partitioning gives the same file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Callable

import numpy as np
import pandas

from sdc.core import _dask, _dask_protect
from sdc.core.engine import not_on_engine
from sdc.core.strata import sorted_levels, strata_ids
from sdc.protect._common import resolve_seed
from sdc.protect._result import ProtectionResult

__all__ = ["protect_partitions", "pram_partitions"]


def protect_partitions(fn: Callable[..., ProtectionResult], info: Any, ddf: Any, variables: Any, *,
                       seed: int | None = None, **kwargs: Any) -> ProtectionResult:
    """`fn(partition, variables, **kwargs)` on every partition of `ddf`, lazily (`info`: the
    method's :class:`~sdc.protect._declare.MethodInfo`, whose parameters that need the whole
    file are refused in one line).

    Returns a :class:`ProtectionResult` whose ``data`` is a Dask DataFrame with the input's
    partitions and ``changed`` a Dask Delayed (cells changed per variable, summed
    over the partitions); nothing runs until they are
    computed or written (:func:`sdc.core._dask.write_partitioned`), except, for numbers banded
    by ``width`` or ``log_base``, one pass for their extremes (the file's bands, as in memory).
    """
    found = info.whole_file(kwargs)
    if found is not None:
        raise not_on_engine(f"{info.name}({found[0]}=...)", "dask", found[1])
    # The result's description (method, parameters) from a small sample of the input's type.
    probe_kwargs = dict(kwargs, **({"seed": 0} if seed is not None else {}))
    probe = fn(ddf._meta_nonempty, variables, **probe_kwargs)
    bands = _file_bands(fn, ddf, variables, probe, probe_kwargs)
    call = fn if not bands else _with_categories(fn, bands)
    out = _dask.map_partitions_seeded(ddf, lambda part, **kw: call(part, variables, **kw), seed=seed,
                                      attribute="data", **kwargs)
    changed = _dask.sum_by_index(_dask.map_partitions_seeded(
        ddf, lambda part, **kw: fn(part, variables, **kw), seed=seed, attribute="changed", **kwargs))
    return ProtectionResult(method=probe.method, data=out, variables=probe.variables,
                            parameters=dict(probe.parameters, partitions=ddf.npartitions), seed=seed,
                            changed=changed, details={"engine": "dask", "partitions": ddf.npartitions})


def _file_bands(fn: Callable[..., ProtectionResult], ddf: Any, variables: Any, probe: ProtectionResult,
                kwargs: dict[str, Any]) -> dict[str, pandas.Index]:
    """The bands of each numeric variable the method bands (an ordered categorical), as on the
    whole file: those between the bands of its smallest and largest values (``width``,
    ``log_base``; ``edges`` fix them). Each partition would have its own, and pandas cannot
    join ordered categoricals with different categories. The extremes are read once here."""
    cols = [c for c in probe.data.columns if isinstance(probe.data[c].dtype, pandas.CategoricalDtype)
            and c in ddf.columns and pandas.api.types.is_numeric_dtype(ddf[c].dtype)]
    if not cols or kwargs.get("edges") is not None:
        return {}
    lo, hi = _dask.extremes(ddf, cols)
    ends = pandas.concat([ddf._meta_nonempty.iloc[:1]] * 2, ignore_index=True)
    for c in cols:
        ends[c] = np.array([lo[c], hi[c]], dtype=ends[c].dtype if not (pandas.isna(lo[c]) or pandas.isna(hi[c]))
                           else np.float64)
    banded = fn(ends, variables, **kwargs).data
    return {c: banded[c].cat.categories for c in cols}


def _with_categories(fn: Callable[..., ProtectionResult], bands: dict[str, pandas.Index]
                     ) -> Callable[..., ProtectionResult]:
    """`fn` whose banded variables carry the whole file's bands (:func:`_file_bands`)."""
    import dataclasses

    def banded(part: pandas.DataFrame, variables: Any, **kw: Any) -> ProtectionResult:
        res = fn(part, variables, **kw)
        data = res.data.copy(deep=False)
        for c, cats in bands.items():
            data[c] = data[c].cat.set_categories(cats)
        return dataclasses.replace(res, data=data)

    banded.__name__ = fn.__name__
    return banded


# --- PRAM ------------------------------------------------------------------------------------

def _names(ddf: Any, value: Any, role: str) -> tuple[str, ...]:
    names = [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else None
    if not names or not all(isinstance(n, str) for n in names):
        raise TypeError(f"`{role}` must be a column name or a non-empty list of column names.")
    missing = [n for n in names if n not in ddf.columns]
    if missing:
        raise ValueError(f"`{role}` names a column that is not in the data: {missing[0]!r}.")
    if len(set(names)) != len(names):
        raise ValueError(f"`{role}` names a column twice.")
    return tuple(names)


def _levels(ddf: Any, table: pandas.DataFrame, v: str) -> tuple:
    """The levels of `v` as the in-memory PRAM orders them: a categorical's categories, else
    the sorted distinct values (those of the count table are the whole file's)."""
    dtype = ddf._meta[v].dtype
    if isinstance(dtype, pandas.CategoricalDtype):
        if not ddf[v].cat.known:
            # Each partition would number its own categories: the codes could not be shared.
            raise ValueError(f"column {v!r} is a Dask categorical with unknown categories; make them known "
                             f"first (ddf = ddf.categorize(columns=[{v!r}]) or ddf[{v!r}].cat.as_known()).")
        return tuple(dtype.categories)
    return sorted_levels(table[v]).levels


def _strata_lookup(part: pandas.DataFrame, strata: tuple[str, ...], lookup: pandas.DataFrame | None) -> np.ndarray:
    """Each record's stratum number (the whole file's numbering); pandas matches a missing
    value to a missing value in a merge."""
    if lookup is None:
        return np.zeros(len(part), dtype=np.int64)
    merged = _dask._plain(part, list(strata)).merge(lookup, how="left", on=list(strata), sort=False)
    return merged["_sid"].fillna(-1).to_numpy(dtype=np.int64)  # -1: not in the data (Dask's sample rows)


def _codes(s: pandas.Series, index: pandas.Index) -> np.ndarray:
    vals = s.astype(object) if isinstance(s.dtype, pandas.CategoricalDtype) else s
    return np.asarray(index.get_indexer(vals), dtype=np.int64)


def _pram_part(part: pandas.DataFrame, seed: int, spec: dict) -> Any:
    """One partition pramed with its own Generator (`seed`): for each variable in order, one
    uniform per non-missing record in row order, as the in-memory method."""
    from sdc.protect.pram_matrix import _ONE_SHOT_CELLS, _rebuild, _sample

    rng = np.random.default_rng(seed)
    out = part.copy()
    sid = _strata_lookup(part, spec["strata"], spec["lookup"])
    S = spec["n_strata"]
    for v, levels, tables in spec["variables"]:
        L = len(levels)
        codes = _codes(part[v], pandas.Index(levels, dtype=object) if L else pandas.Index([]))
        ok = (codes >= 0) & (sid >= 0)
        c, k = codes[ok], sid[ok]
        u = rng.random(c.size)
        new = np.empty_like(c)
        if L and c.size:
            if S * L * L <= _ONE_SHOT_CELLS:
                new = _sample(c if S == 1 else k * L + c, tables.reshape(S * L, L), u)
            else:
                for j in np.unique(k):
                    m = k == j
                    new[m] = _sample(c[m], tables[j], u[m])
        all_new = codes.copy()
        all_new[ok] = new
        out[v] = _rebuild(part[v], levels, codes, all_new)
    return _Out(out)


class _Out:
    __slots__ = ("data",)

    def __init__(self, data: pandas.DataFrame):
        self.data = data


def _transitions(before: pandas.DataFrame, after: pandas.DataFrame, spec: dict) -> list[np.ndarray]:
    """From x to record counts of each variable in one partition."""
    out = []
    for v, levels, _ in spec["variables"]:
        L = len(levels)
        index = pandas.Index(levels, dtype=object)
        a, b = _codes(before[v], index), _codes(after[v], index)
        ok = a >= 0
        out.append(np.bincount(a[ok] * L + b[ok], minlength=L * L).reshape(L, L) if L
                   else np.zeros((0, 0), dtype=np.int64))
    return out


def _sum_transitions(parts: list[list[np.ndarray]], names: list[tuple[str, list[str]]]) -> dict[str, pandas.DataFrame]:
    out = {}
    for i, (v, labels) in enumerate(names):
        total = np.sum([p[i] for p in parts], axis=0) if parts else np.zeros((len(labels),) * 2, dtype=np.int64)
        out[v] = pandas.DataFrame(np.asarray(total, dtype=np.int64), index=labels, columns=labels)
    return out


def _changed(trans: dict[str, pandas.DataFrame]) -> pandas.Series:
    return pandas.Series({v: int(t.to_numpy().sum() - np.trace(t.to_numpy())) for v, t in trans.items()},
                         dtype=np.int64, name="cells_changed")


def _pick(trans: dict[str, pandas.DataFrame], v: str) -> pandas.DataFrame:
    return trans[v]


def pram_partitions(ddf: Any, variables: Sequence[str] | str, *, pd: Any = None, alpha: Any = None, flip: Any = None,
                    matrix: Mapping[str, object] | None = None, strata: Sequence[str] | str | None = None,
                    seed: int | None = None) -> ProtectionResult:
    """:func:`sdc.pram` on a Dask DataFrame (same arguments; see :mod:`sdc.protect.on_dask`).

    One pass counts each variable's levels per stratum; the transition matrices are the
    in-memory method's for the same seed (the same diagonal draws: the in-memory stream is
    replayed, its per-record draws skipped with ``bit_generator.advance``). The records are
    then drawn per partition with seeds spawned from `seed` by partition number
    (:func:`sdc.core._dask.partition_seeds`): reproducible, but not the in-memory draws.

    Returns
    -------
    ProtectionResult
        ``data`` a lazy Dask DataFrame with the input's partitions; ``changed`` a Delayed
        (cells changed per variable) and ``details[variable]["transitions"]`` a Delayed (from x
        to counts), computed with the data when written. ``details[variable]`` otherwise as in
        memory (``levels``, ``matrix`` or ``matrices``, ``diagonal``, ``kind``, parameters).
    """
    from sdc.protect.pram_matrix import (
        _check_parameters, _check_strata, _custom_matrix, _parameters, flip_matrix, pram_matrix,
    )

    cols = _names(ddf, variables, "variables")
    pd_v, alpha_v, flip_v = _check_parameters(cols, pd, alpha, flip, matrix)
    strata_cols = () if strata is None else _names(ddf, strata, "strata")
    _check_strata(strata_cols, cols)
    seed_used, rng = resolve_seed(seed)

    # One pass: records per (stratum, level) of every variable (missing values kept).
    tables = _dask_protect.level_counts(ddf, [list(strata_cols) + [v] for v in cols])
    lookup = None
    labels: tuple[str, ...] = ("all",)
    if strata_cols:
        combos = tables[0][list(strata_cols)].drop_duplicates(ignore_index=True)
        st = strata_ids(combos, strata_cols)   # the in-memory numbering: it depends on the distinct values only
        lookup = combos.assign(_sid=st.ids)
        labels = st.labels
    S = len(labels)

    spec_vars = []
    details: dict[str, Any] = {}
    given_matrices: dict[str, dict[str, dict[str, float]]] = {}
    for v, table in zip(cols, tables):
        levels = _levels(ddf, table, v)
        L = len(levels)
        code = _codes(table[v], pandas.Index(levels, dtype=object) if L else pandas.Index([]))
        sid = _strata_lookup(table, strata_cols, lookup)
        n = table["_n"].to_numpy(dtype=np.int64)
        ok = code >= 0
        counts = (np.bincount(sid[ok] * L + code[ok], weights=n[ok], minlength=S * L).reshape(S, L)
                  if L else np.zeros((S, 0)))
        names = [str(x) for x in levels]
        det: dict[str, Any] = {"levels": names}
        mats = np.empty((S, L, L))
        if matrix is not None and v in matrix:
            M = _custom_matrix(matrix[v], levels, v)
            mats[:] = M
            det["kind"] = "matrix"
            given_matrices[v] = {str(a): {str(b): float(M[i, j]) for j, b in enumerate(levels)}
                                 for i, a in enumerate(levels)}
        elif flip_v[v] is not None:
            mats[:] = flip_matrix(L, flip_v[v]) if L else 0
            det.update(kind="flip", flip=flip_v[v])
        else:
            det.update(kind="invariant", pd=pd_v[v], alpha=alpha_v[v])
            diagonals = []
            for k in range(S):   # the in-memory draws, in the same order
                d = rng.uniform(pd_v[v], 1.0, L)
                diagonals.append([float(x) for x in d])
                mats[k] = pram_matrix(counts[k], d, alpha_v[v]) if counts[k].sum() > 0 else np.eye(L)
            det["diagonal"] = diagonals[0] if S == 1 else dict(zip(labels, diagonals))
        # Skip the in-memory per-record draws (one 64-bit draw each), so that the next
        # variable's diagonal draws are the in-memory ones too.
        rng.bit_generator.advance(int(round(counts.sum())))
        if S == 1:
            det["matrix"] = pandas.DataFrame(mats[0], index=names, columns=names)
        else:
            det["matrices"] = {lab: pandas.DataFrame(mats[k], index=names, columns=names)
                               for k, lab in enumerate(labels)}
        details[v] = det
        spec_vars.append((v, levels, mats))
    spec = {"variables": spec_vars, "strata": strata_cols, "lookup": lookup, "n_strata": S}

    out = _dask.map_partitions_seeded(ddf, _pram_part, seed=seed_used, attribute="data", spec=spec)
    per_part = _dask_protect.partition_delayed(_transitions, ddf, out, spec=spec)
    trans = _dask_protect.delayed_call(_sum_transitions, per_part, [(v, details[v]["levels"]) for v in cols])
    for v in cols:
        details[v]["transitions"] = _dask_protect.delayed_call(_pick, trans, v)
    details["engine"] = {"name": "dask", "partitions": ddf.npartitions,
                         "seeds": "numpy SeedSequence(seed).spawn(partitions), one per partition"}

    params = _parameters(cols, pd, alpha, flip, given_matrices if matrix is not None else None, strata_cols)
    return ProtectionResult(method="pram", data=out, variables=cols, parameters=params, seed=seed_used,
                            changed=_dask_protect.delayed_call(_changed, trans), details=details)
