"""PRAM, the post-randomisation method: each value replaced at random by a transition matrix.

sdcMicro's invariant PRAM (``R/pram.R``; Kowarik, Templ, Meindl, Fonteneau & Prantner
2012, *Testing of IHSN C++ code and inclusion of new methods into sdcMicro*, LNCS 7556,
63-77). For a variable with L levels and relative frequencies p (within a stratum):

1. diagonal draws ``d_i ~ U(pd, 1)`` (one per level: sdcMicro's ``runif(L, min = pd, max = 1)``);
2. ``P[i, i] = d_i``, ``P[i, j] = (1 - d_i) / (L - 1)`` for ``j != i``;
3. the backward matrix ``Q[k, j] = P[j, k] p_j / sum_i p_i P[i, k]``;
4. ``R = P Q`` (which leaves p invariant: ``p R = p``), then ``Rs = alpha R + (1 - alpha) I``.

Each record of level i gets level j with probability ``Rs[i, j]``. A plain flip probability
f gives ``P[i, i] = 1 - f``, ``P[i, j] = f / (L - 1)``, and a custom matrix can be given per
variable. Missing values are not changed. The random steps use one numpy Generator, seeded
and recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas

from sdc._schema import PROBABILITY, Each, Names
from sdc._validation import check_columns
from sdc.core.strata import sorted_levels, strata_ids
from sdc.protect._common import check_variables, resolve_seed
from sdc.protect._rcode import RStep, StepRun, r_names, r_seed, r_value
from sdc.protect._declare import Table, param, protection_method
from sdc.protect._result import ProtectionResult
from sdc.protect.pram_matrix import (
    _ONE_SHOT_CELLS, _check_parameters, _check_strata, _custom_matrix, _parameters, _rebuild, _sample, flip_matrix,
    pram_matrix,
)

__all__ = ["pram", "pram_matrix", "flip_matrix"]

#: pd, alpha, flip: one probability, or one per variable.
_PER_VARIABLE = Each(PROBABILITY, lists=False, mappings=True)


def _r_pram(run: StepRun) -> RStep:
    """sdcMicro's ``pram`` with the same ``pd`` and ``alpha`` (its own draws: R's generator)."""
    p = run.parameters
    other = sorted(k for k in set(p) - {"variables", "pd", "alpha", "strata"} if p[k] is not None)
    if other or any(isinstance(p.get(k), Mapping) for k in ("pd", "alpha")):
        return RStep(("data  # not reproduced",), False, "sdcMicro's pram takes one pd and alpha, not "
                     f"{', '.join(other) or 'a value per variable'}: not reproduced")
    args = [f"pd = {r_value(p.get('pd') if p.get('pd') is not None else 0.8)}",
            f"alpha = {r_value(p.get('alpha') if p.get('alpha') is not None else 0.5)}"]
    if p.get("strata"):
        args.append(f"strata_variables = {r_names([p['strata']] if isinstance(p['strata'], str) else p['strata'])}")
    code = [f"set.seed({r_seed(run.seed or 0)})"]
    for v in run.variables:
        code += [f"x <- data; x[[{r_value(v)}]] <- factor(x[[{r_value(v)}]])",
                 f"res <- sdcMicro::pram(x, variables = {r_value(v)}, {', '.join(args)})",
                 f"data[[{r_value(v)}]] <- as.character(res[[{r_value(v + '_pram')}]])"]
    return RStep(tuple(code) + ("data",), False, "sdcMicro's pram, random: R's draws, not sdc's (numpy's), so "
                 "other cells change; the same method and transition probabilities")

@protection_method(
    "pram", sdcmicro=_r_pram, summary="values replaced at random by a transition matrix (invariant PRAM)",
    dask="sdc.protect.on_dask:pram_partitions", dask_rows="own draws",
    example={"variables": ["marital_status"], "pd": 0.8},
    options={"pd": param(_PER_VARIABLE, "the smallest diagonal of the matrix (sdcMicro's pd)"),
             "alpha": param(_PER_VARIABLE, "the amount of perturbation (sdcMicro's alpha)"),
             "flip": param(_PER_VARIABLE, "instead: the probability of changing a value"),
             "matrix": param(Table("a table of variable = matrix"), "a transition matrix per variable"),
             "strata": param(Names(), "the matrix per stratum of these columns")})
def pram(
    data: pandas.DataFrame,
    variables: Sequence[str] | str,
    *,
    pd: float | Mapping[str, float] | None = None,
    alpha: float | Mapping[str, float] | None = None,
    flip: float | Mapping[str, float] | None = None,
    matrix: Mapping[str, object] | None = None,
    strata: Sequence[str] | str | None = None,
    seed: int | None = None,
) -> ProtectionResult:
    """Post-randomise categorical variables (sdcMicro's ``pram``).

    Parameters
    ----------
    data : pandas.DataFrame
    variables : str or list of str
        Categorical variables (any dtype: the distinct values are the levels; a categorical's
        categories, used or not, as R's factor levels).
    pd : float or dict, default 0.8
        Minimum diagonal of P: the diagonal is drawn from ``U(pd, 1)`` (sdcMicro's ``pd``).
    alpha : float or dict, default 0.5
        Amount of perturbation (sdcMicro's ``alpha``): ``Rs = alpha R + (1 - alpha) I``.
    flip : float or dict, optional
        Instead of the invariant matrix: change each value with probability `flip`, to one of
        the other levels uniformly. Not with `pd` or `alpha`.
    matrix : dict, optional
        A transition matrix per variable (a DataFrame, or ``{from: {to: p}}``, levels as rows
        and columns, rows summing to 1), as sdcMicro's ``pd = <matrix>``.
    strata : str or list of str, optional
        Columns defining strata: the invariant matrix is computed (with its own diagonal
        draws) from the frequencies within each stratum, as sdcMicro's ``strata_variables``.
    seed : int, optional
        Seed of the numpy Generator (drawn and recorded when None). For each variable in
        order: the diagonal draws of each stratum (in sorted order of the strata values),
        then one uniform per non-missing record in row order.

    Returns
    -------
    ProtectionResult
        ``details[variable]`` holds ``levels``, ``matrix`` (a DataFrame; ``matrices`` per
        stratum with strata), ``diagonal`` draws, ``transitions`` (a from x to DataFrame of
        record counts) and the parameters used.

    References
    ----------
    sdcMicro ``pram`` (``R/pram.R``); Gouweleeuw, Kooiman, Willenborg & de Wolf (1998),
    *Post randomisation for statistical disclosure control: theory and implementation*,
    Journal of Official Statistics 14(4), 463-478.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"sex": ["m", "f"] * 50})
    >>> r = sdc.pram(df, "sex", seed=1)
    >>> r.details["sex"]["matrix"].shape
    (2, 2)
    """
    frame, cols = check_variables(data, variables)
    pd_v, alpha_v, flip_v = _check_parameters(cols, pd, alpha, flip, matrix)
    strata_cols = () if strata is None else check_columns(frame, strata, role="strata")
    _check_strata(strata_cols, cols)
    seed_used, rng = resolve_seed(seed)
    st = strata_ids(frame, strata_cols)
    out = frame.copy()
    changed: dict[str, int] = {}
    details: dict[str, Any] = {}
    given_matrices: dict[str, dict[str, dict[str, float]]] = {}
    for v in cols:
        custom = matrix[v] if matrix is not None and v in matrix else None
        out[v], details[v], given = _pram_variable(frame[v], st, rng, custom, pd_v[v], alpha_v[v], flip_v[v])
        changed[v] = details[v]["changed"]
        if given is not None:
            given_matrices[v] = given
    params = _parameters(cols, pd, alpha, flip, given_matrices if matrix is not None else None, strata_cols)
    return ProtectionResult(
        method="pram", data=out, variables=cols, parameters=params, seed=seed_used,
        changed=pandas.Series(changed, dtype=np.int64, name="cells_changed"), details=details,
    )


def _tables(lv: Any, counts: np.ndarray, st: Any, rng: np.random.Generator, var: str, custom: object,
            pd_v: float | None, alpha_v: float | None, flip_v: float | None) -> tuple[np.ndarray, dict[str, Any], dict | None]:
    """The transition matrix of each stratum (S x L x L), the details, and a given matrix as
    ``{from: {to: p}}`` (None when the matrix is not given)."""
    S, L = st.n_strata, lv.n_levels
    tables = np.empty((S, L, L))
    det: dict[str, Any] = {"levels": [str(x) for x in lv.levels]}
    given = None
    if custom is not None:
        M = _custom_matrix(custom, lv.levels, var)
        tables[:] = M
        det["kind"] = "matrix"
        given = {str(a): {str(b): float(M[i, j]) for j, b in enumerate(lv.levels)} for i, a in enumerate(lv.levels)}
    elif flip_v is not None:
        tables[:] = flip_matrix(L, flip_v) if L else 0
        det.update(kind="flip", flip=flip_v)
    else:
        det.update(kind="invariant", pd=pd_v, alpha=alpha_v)
        diagonals: list[list[float]] = []
        for k in range(S):
            d = rng.uniform(pd_v, 1.0, L)
            diagonals.append([float(x) for x in d])
            tables[k] = pram_matrix(counts[k], d, alpha_v) if counts[k].sum() > 0 else np.eye(L)
        det["diagonal"] = diagonals[0] if S == 1 else dict(zip(st.labels, diagonals))
    return tables, det, given


def _pram_variable(s: pandas.Series, st: Any, rng: np.random.Generator, custom: object, pd_v: float | None,
                   alpha_v: float | None, flip_v: float | None) -> tuple[pandas.Series, dict[str, Any], dict | None]:
    """One variable pramed: the new column, its details (``changed`` among them) and a given matrix."""
    S = st.n_strata
    lv = sorted_levels(s)
    L = lv.n_levels
    ok = lv.codes >= 0
    full = bool(ok.all())
    codes = lv.codes if full else lv.codes[ok]
    sid = st.ids if full else st.ids[ok]
    rows = codes if S == 1 else sid * L + codes
    counts = np.bincount(rows, minlength=S * L).reshape(S, L) if L else np.zeros((S, 0))
    tables, det, given = _tables(lv, counts, st, rng, s.name, custom, pd_v, alpha_v, flip_v)
    u = rng.random(codes.size)
    new = np.empty_like(codes)
    if L:
        if S * L * L <= _ONE_SHOT_CELLS:
            new = _sample(rows, tables.reshape(S * L, L), u)
        else:
            for k in range(S):
                m = sid == k
                new[m] = _sample(codes[m], tables[k], u[m])
    if full:
        all_new = new
    else:
        all_new = lv.codes.copy()
        all_new[ok] = new
    names = det["levels"]
    if S == 1:
        det["matrix"] = pandas.DataFrame(tables[0], index=names, columns=names)
    else:
        det["matrices"] = {lab: pandas.DataFrame(tables[k], index=names, columns=names) for k, lab in enumerate(st.labels)}
    trans = np.bincount(codes * L + new, minlength=L * L).reshape(L, L) if L else np.zeros((0, 0), dtype=np.int64)
    det["transitions"] = pandas.DataFrame(trans, index=names, columns=names)
    det["changed"] = int((new != codes).sum())
    return _rebuild(s, lv.levels, lv.codes, all_new), det, given
