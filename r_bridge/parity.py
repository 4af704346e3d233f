"""Wrappers for sdcMicro's remaining protection methods (issue 29): ``mvTopCoding``, ...

Same conventions as :mod:`r_bridge.sdcmicro`: pandas in, sdcMicro's values out under
sdcMicro's names, per-record values indexed like the input. The R side lives in ``_parity.R``
and is loaded into the bridge's helper environment on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import numpy as np
import pandas as pd

from ._session import call, session
from .convert import py_vector, r_null, r_vector, to_r_frame

__all__ = ["MvTopCoding", "mv_top_coding"]


@lru_cache(maxsize=1)
def _load() -> None:
    import rpy2.robjects as ro

    env = session()
    code = resources.files(__package__).joinpath("_parity.R").read_text(encoding="utf-8")
    ro.r("function(code, env) eval(parse(text = code), envir = env)")(code, env)


def _call(name: str, *args: object) -> object:
    _load()
    return call(name, *args)


@dataclass(frozen=True)
class MvTopCoding:
    """``mvTopCoding()``'s result: the values ``x`` after it, the ``center`` and ``cov`` it used
    (its MCD's, or the given ones) and ``flagged`` (bool per record: distance above the bound)."""

    x: pd.DataFrame = field(repr=False)
    center: np.ndarray
    cov: np.ndarray
    flagged: pd.Series = field(repr=False)
    warnings: tuple[str, ...] = ()


def mv_top_coding(data: pd.DataFrame, variables: Sequence[str], *, alpha: float = 0.025, seed: int = 1,
                  center: Sequence[float] | None = None, cov: np.ndarray | None = None) -> MvTopCoding:
    """``set.seed(seed); sdcMicro::mvTopCoding(data[variables], alpha)`` (its own MCD, robustbase's
    ``covMcd``), or with `center` and `cov` given ``mvTopCoding(x, maha = mahalanobis(x, center,
    cov), center, alpha)``. The columns go to R as doubles (sdcMicro truncates the replaced values
    of an integer column)."""
    cols = list(variables)
    rdf = to_r_frame(data[cols].astype(np.float64), cols)
    c = r_null() if center is None else r_vector(np.asarray(center, dtype=np.float64))
    s = r_null() if cov is None else r_vector(np.asarray(cov, dtype=np.float64).ravel(order="F"))
    out = _call("mv_top_coding_df", rdf, float(alpha), int(seed), c, s)
    v = out.rx2("value")
    y = v.rx2("y")
    x = pd.DataFrame({k: py_vector(y[i]) for i, k in enumerate(cols)}, index=data.index)
    p = len(cols)
    return MvTopCoding(x=x, center=py_vector(v.rx2("center")),
                       cov=py_vector(v.rx2("cov")).reshape((p, p), order="F"),
                       flagged=pd.Series(py_vector(v.rx2("flagged")).astype(bool), index=data.index),
                       warnings=tuple(str(w) for w in out.rx2("warnings")))
