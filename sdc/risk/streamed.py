"""Re-identification risk of a file larger than memory: the frequency measures on the ``chunks`` engine.

f_k and F_k are sums over the records of a key pattern, so a file can be read in chunks and
only its *distinct patterns* kept, with each pattern's record count, weight sum and first
record (:class:`sdc.core.stream.ChunkedFile`: two chunked passes over the key columns, the
file checked once). The measures declared for the ``chunks`` engine (:mod:`sdc.core.engine`:
``k_anonymity``, ``individual_risk``, ``key_subset_snapshots``) run their table code on that
pattern table, the same code as on a Dask DataFrame's (:func:`sdc.core.frequencies.table_frequencies`,
which applies sdcMicro's wildcard rule per pattern), so the figures are those of reading the
whole file. Memory holds the key columns of one chunk and the distinct patterns; the
per-record values (risk, f_k of each record) are not kept.

:func:`risk_from_file` is ``sdc risk --chunks``: the profile and the risk of one set of keys
from one pattern table.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sdc._validation import check_weights_not_key
from sdc.core.stream import READ_ROWS, ChunkedFile, NoRecords
from sdc.io import CHUNK_ROWS
from sdc.risk.individual import IndividualRiskResult
from sdc.risk.kanonymity import KAnonymityResult
from sdc.risk.profile import profile_and_risk

__all__ = ["risk_from_file", "NoRecords", "READ_ROWS", "read_chunks"]


def read_chunks(path: str | Path, *, chunk_rows: int = CHUNK_ROWS, sep: str | None = None, text_columns: Any = None,
                na_values: Any = None) -> ChunkedFile:
    """A delimited text file to be read `chunk_rows` records at a time by the measures that
    run in chunks (:class:`sdc.core.stream.ChunkedFile`): ``sdc.k_anonymity``,
    ``sdc.individual_risk``, ``sdc.key_subset_snapshots`` and ``sdc.assess`` with the
    ``chunks`` engine give the figures of reading the whole file, without per-record values.

    Examples
    --------
    >>> import sdc
    >>> big = sdc.read_chunks(sdc.datasets.example_path(), chunk_rows=1000)
    >>> sdc.k_anonymity(big, ["age", "sex", "region"]).n_classes
    1303
    """
    return ChunkedFile(path, chunk_rows=chunk_rows, sep=sep, text_columns=text_columns, na_values=na_values)


def risk_from_file(path: str | Path, keys: Sequence[str], *, weights: str | None = None, k: int = 3, top: int = 10,
                   method: str = "approx", missing: Any = "wildcard", alpha: float = 1.0,
                   max_global_risk: float = 0.01, chunk_rows: int = CHUNK_ROWS, sep: str | None = None,
                   text_columns: Any = None, na_values: Any = None) -> tuple[KAnonymityResult, IndividualRiskResult]:
    """The k-anonymity profile and the individual/global risk of a delimited text file, read
    in chunks of at most `chunk_rows` records (parsed :data:`READ_ROWS` at a time; see the
    module notes): :func:`sdc.risk.profile.profile_and_risk` of :func:`read_chunks`.

    The arguments are those of :func:`sdc.k_anonymity` and :func:`sdc.individual_risk`; the
    results are theirs, without per-record Series (``risk``, ``sample_frequency``, ...).
    """
    keys = tuple(keys)
    if not keys:
        raise ValueError("`keys` must name at least one column.")
    check_weights_not_key(weights, keys)
    source = read_chunks(path, chunk_rows=chunk_rows, sep=sep, text_columns=text_columns, na_values=na_values)
    return profile_and_risk(source, keys, k=k, top=top, weights=weights, missing=missing, alpha=alpha, method=method,
                            max_global_risk=max_global_risk)
