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
"""

from __future__ import annotations

from typing import Any, Callable

from sdc.core import _dask
from sdc.protect._result import ProtectionResult

__all__ = ["protect_partitions", "WHOLE_FILE_PARAMETERS"]

#: Parameters that depend on the whole file, per method: refused on a Dask DataFrame.
WHOLE_FILE_PARAMETERS = {
    "global_recode": ("bins", "rare"),
    "pseudonymise": ("random_key",),
}


def protect_partitions(fn: Callable[..., ProtectionResult], ddf: Any, variables: Any, *, seed: int | None = None,
                       **kwargs: Any) -> ProtectionResult:
    """`fn(partition, variables, **kwargs)` on every partition of `ddf`, lazily.

    Returns a :class:`ProtectionResult` whose ``data`` is a Dask DataFrame with the input's
    partitions and ``changed`` a Dask Delayed (cells changed per variable, summed
    over the partitions); nothing runs until they are
    computed or written (:func:`sdc.core._dask.write_partitioned`).
    """
    for name in WHOLE_FILE_PARAMETERS.get(fn.__name__, ()):
        if kwargs.get(name) not in (None, False):
            raise _dask.not_distributed(f"{fn.__name__}({name}=...)",
                                        "it is set from the whole file; give fixed parameters instead")
    # The result's description (method, parameters) from a small sample of the input's type.
    probe_kwargs = dict(kwargs, **({"seed": 0} if seed is not None else {}))
    probe = fn(ddf._meta_nonempty, variables, **probe_kwargs)
    out = _dask.map_partitions_seeded(ddf, lambda part, **kw: fn(part, variables, **kw), seed=seed,
                                      attribute="data", **kwargs)
    changed = _dask.sum_by_index(_dask.map_partitions_seeded(
        ddf, lambda part, **kw: fn(part, variables, **kw), seed=seed, attribute="changed", **kwargs))
    return ProtectionResult(method=probe.method, data=out, variables=probe.variables,
                            parameters=dict(probe.parameters, partitions=ddf.npartitions), seed=seed,
                            changed=changed, details={"engine": "dask", "partitions": ddf.npartitions})
