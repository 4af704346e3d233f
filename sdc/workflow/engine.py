"""The engines an assessment runs on: pandas in memory (default), Dask, or a file read in chunks.

:func:`sdc.workflow.assess.assess` is one loop for every engine. What differs is asked of a
*back end* (:func:`back_end`): how the data are read, their roles checked and their keys
binned, what a scenario's keys are handed to the measures as, which registered measures run
there (each measure function's declaration, :func:`sdc.core.engine.engines_of`), and the
provenance. The pandas back end is the in-memory code of :mod:`sdc.workflow.assess`
(``IN_MEMORY``); the two here keep the records where they are:

* :class:`OnDask`: the data path may be a glob of CSV files (``'data/part-*.csv'``), read
  one partition per file by the in-memory reader (:func:`read_dask`); the measures that run
  on Dask make one pass each to a small pandas table on the cluster: a LocalCluster sized to
  the machine (one worker process per core), or the existing cluster at ``--scheduler``
  (``tcp://host:8786``, or a scheduler file ``*.json`` written by dask-jobqueue / dask-mpi).
  Bins must be explicit edges (applied row by row in each partition).
* :class:`InChunks`: a delimited text file read in chunks (:func:`sdc.read_chunks`); the
  additive measures (k-anonymity, the risks, the snapshots) run on its pattern table.

A configured measure that cannot run on the engine is never replaced by another number: it
is listed, with its declaration's reason, in ``Assessment.not_run`` (:func:`not_run`).
"""

from __future__ import annotations

import atexit
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import numpy as np
import pandas as pd

from sdc._provenance import platform_text, provenance
from sdc._version import __version__
from sdc.core.engine import ENGINE_NAMES, EngineError, engine_of, engines_of

__all__ = ["ENGINES", "open_dask", "read_dask", "dask_session", "back_end", "not_run", "OnDask", "InChunks",
           "read_dask_partitions", "finish_dask_run", "dask_assessment", "DASK_MEASURES"]

ENGINES = ENGINE_NAMES

#: How a report says where a measure was not run.
_WHERE = {"dask": "on Dask", "chunks": "in chunks"}

_open: list[Any] = []


def read_dask(path: str, *, sep: str | None = None, na_values: Any = None, text_columns: Any = None) -> Any:
    """A CSV file or a glob of them (``'data/part-*.csv'``) as a Dask DataFrame of one
    partition per file, each read by the in-memory reader (:func:`sdc.io.read_data`): the
    same missing-value markers (only empty fields, and `na_values`), codes with leading zeros
    kept as text, TRUE/FALSE as truth values, and column types settled across the files as one
    file holding every record would be read. So the measures give the numbers of
    ``sdc.read_data`` on the whole file (``dask.dataframe.read_csv`` types every block on its
    own with pandas' defaults: "NA" is missing, "0123" is 123, and the classes differ).

    Examples
    --------
    >>> import sdc
    >>> ddf = sdc.read_dask(sdc.datasets.example_path())      # doctest: +SKIP
    >>> sdc.k_anonymity(ddf, ["age", "sex", "region"], k=3)   # doctest: +SKIP
    """
    return _read_files(path, sep=sep, na_values=na_values, text_columns=text_columns)[0]


def _read_files(path: str, **options: Any) -> tuple[Any, list[str]]:
    from sdc.core._dask_protect import read_partitions

    return read_partitions(str(path), **{k: v for k, v in options.items() if v})


def dask_session(scheduler: str | None = None) -> Any:
    """The cluster of a run (a context giving a Client): `scheduler` (an address or a
    scheduler file), else a local cluster sized to the machine."""
    from sdc.core._dask_protect import session

    return session(scheduler)


def open_dask(path: str, *, scheduler: str | None = None, sep: str | None = None, na_values: Any = None,
              text_columns: Any = None, sheet: Any = None, n_workers: int | None = None) -> Any:
    """Start (or connect to) the cluster and read `path` (a CSV file or glob) with
    :func:`read_dask`, as the single-measure commands with ``--engine dask`` do. The client
    stays open for the rest of the process (closed at exit)."""
    from sdc.core import _dask

    if sheet is not None:
        raise ValueError("--engine dask reads CSV files (a path or a glob); --sheet is for Excel input.")
    session = _dask.client_for(scheduler, n_workers=n_workers)
    _open.append(session)
    atexit.register(session.__exit__, None, None, None)
    return read_dask(path, sep=sep, na_values=na_values, text_columns=text_columns)


# --- the back ends of the assessment --------------------------------------------------------

def back_end(engine: str | None, data: Any, *, cross_check: bool = False, chunk_rows: int | None = None) -> Any:
    """The back end of `engine` (``None``: the engine of `data`, pandas without data);
    `chunk_rows`: the records a chunk of the chunks engine holds (default ``sdc.io.CHUNK_ROWS``)."""
    from sdc.workflow.assess_input import IN_MEMORY

    name = engine if engine is not None else (engine_of(data) if data is not None else "pandas")
    if name not in ENGINE_NAMES:
        raise ValueError(f"`engine` must be one of {', '.join(map(repr, ENGINE_NAMES))}; got {name!r}.")
    if data is not None and engine_of(data) != name:
        raise ValueError(f"`engine` is {name!r} but the data are for the {engine_of(data)} engine; give one of them.")
    if cross_check and name != "pandas":
        raise ValueError(f"--cross-check runs sdcMicro in memory; it is not available with --engine {name}.")
    if chunk_rows is not None and name != "chunks":
        raise ValueError(f"`chunk_rows` is for the chunks engine; the engine is {name!r}.")
    return {"pandas": IN_MEMORY, "dask": OnDask(), "chunks": InChunks(chunk_rows)}[name]


class KeyNames(tuple):
    """A scenario's key names, as the measures out of memory take them, with ``keys`` as
    :class:`sdc.core.scenario.KeyClasses` has (what the registry's measures read)."""

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self)


@dataclass(frozen=True)
class _OutOfMemory:
    """What the engines that keep the records where they are share."""

    name = ""
    in_memory = False

    def runs(self, measure: Any) -> str | None:
        """None when the registered `measure` (or a measure function) runs on this engine, else why not."""
        return (measure.engines if hasattr(measure, "engines") else engines_of(measure))[self.name]

    def key_classes(self, work: Any, keys: list[str]) -> KeyNames:
        return KeyNames(keys)  # the measures make the pattern tables themselves

    def release(self, kc: Any) -> None:
        pass

    def columns(self, cfg: Any, data: Any, details: Any) -> None:
        return None

    def small_counts(self, work: Any, keys: tuple[str, ...], below: int) -> pd.DataFrame:
        return pd.DataFrame(columns=["variable", "level", "n_records"])

    def check_roles(self, cfg: Any, data: Any) -> None:
        from sdc.workflow.assess_input import check_columns_of

        check_columns_of(cfg, self.meta(data))

    def meta(self, data: Any) -> pd.DataFrame:
        return data.meta


@dataclass(frozen=True)
class OnDask(_OutOfMemory):
    """The Dask back end (see the module notes)."""

    name = "dask"

    def load(self, cfg: Any) -> tuple[Any, list[str], None]:
        if cfg.domains:
            raise ValueError("--engine dask reads one data file or a glob of files; joined domains are assessed in "
                             "memory (--engine pandas).")
        if cfg.data_path is None:
            raise ValueError("--engine dask needs DATA: a CSV file or a glob of them ('data/part-*.csv').")
        if cfg.sheet is not None:
            raise ValueError("--engine dask reads CSV files (a path or a glob); --sheet is for Excel input.")
        ddf, files = _read_files(str(cfg.data_path), sep=cfg.sep, na_values=cfg.na_values,
                                 text_columns=cfg.text_columns)
        return ddf, files, None

    def meta(self, data: Any) -> pd.DataFrame:
        return data._meta

    def check_roles(self, cfg: Any, data: Any) -> None:
        super().check_roles(cfg, data)
        if cfg.sensitive:  # one pass for every sensitive variable
            from sdc.workflow.assess_input import refuse_empty_sensitive

            refuse_empty_sensitive(data[list(cfg.sensitive)].count().compute() > 0)

    def binned(self, cfg: Any, data: Any) -> tuple[Any, tuple[Any, ...]]:
        from sdc.core import _dask

        _dask.edges_only(cfg.sensitive_bins, "sensitive_bins", "sensitive variable")  # before any pass
        return _dask.binned(data, cfg.bins, argument="bins", role="continuous key")

    def provenance(self, cfg: Any, data: Any, files: list[str], command: str, now: datetime | None) -> dict[str, Any]:
        return provenance(now, input_files=list(files), command=command, config_source=cfg.source, engine="dask",
                          partitions=data.npartitions, versions={"sdc": __version__, **_python_pandas()},
                          platform=platform_text())


@dataclass(frozen=True)
class InChunks(_OutOfMemory):
    """The chunks back end (see the module notes)."""

    name = "chunks"
    chunk_rows: int | None = None

    def load(self, cfg: Any) -> tuple[Any, list[str], None]:
        from sdc.core.stream import ChunkedFile

        if cfg.domains:
            raise ValueError("--chunks reads one data file; joined domains are assessed in memory.")
        if cfg.data_path is None:
            raise ValueError("--chunks needs DATA: a delimited text file.")
        source = ChunkedFile(cfg.data_path, chunk_rows=self.chunk_rows, sep=cfg.sep, text_columns=cfg.text_columns,
                             na_values=cfg.na_values or None)
        return source, [str(cfg.data_path)], None

    def binned(self, cfg: Any, data: Any) -> tuple[Any, tuple[Any, ...]]:
        if cfg.bins or cfg.sensitive_bins:
            raise EngineError("`bins` cannot be applied to a file read in chunks; bin the keys in the file first.",
                              "--bins cannot be used with --chunks; bin the keys in the file first.")
        return data, ()

    def provenance(self, cfg: Any, data: Any, files: list[str], command: str, now: datetime | None) -> dict[str, Any]:
        return provenance(now, input_files=list(files), command=command, config_source=cfg.source, engine="chunks",
                          chunk_rows=data.chunk_rows, versions={"sdc": __version__, **_python_pandas()},
                          platform=platform_text())


def _python_pandas() -> dict[str, str]:
    import platform

    return {"python": platform.python_version(), "pandas": pd.__version__}


def not_run(cfg: Any, engine: Any) -> tuple[tuple[str, str], ...]:
    """The configured measures that do not run on `engine`, by label, with why (their
    declarations' reasons): ``"not run on Dask: <reason>"``. Only measures the configuration
    asks for and could compute (``skip_reason`` is None) are listed."""
    from sdc.attribute.inference import inference_risk
    from sdc.workflow.registry import SCENARIO_MEASURES

    if engine.in_memory:
        return ()
    out: dict[str, str] = {}
    for m in SCENARIO_MEASURES:
        if m.name in cfg.measures and m.wanted(cfg) and m.skip_reason(cfg) is None:
            why = engine.runs(m)
            if why and m.label not in out:
                out[m.label] = f"not run {_WHERE[engine.name]}: {why}"
    why = engine.runs(inference_risk)
    if "inference" in cfg.measures and cfg.sensitive and why:
        out["inference of sensitive values"] = f"not run {_WHERE[engine.name]}: {why}"
    return tuple(out.items())


# --- the back end of the protection run on Dask ----------------------------------------------
# Reading the partitions, computing a lazy run (sdc.workflow.protect.protect_data on a Dask
# DataFrame), and the measures of both files.

#: The measures the Dask re-assessment runs (the rest of the configuration's are listed as not run).
DASK_MEASURES = ("k_anonymity", "risk")


def read_dask_partitions(pattern: str, *, sep: str | None = None, na_values: Sequence[str] | None = None,
                         text_columns: bool | Sequence[str] | None = None, sheet: str | int | None = None
                         ) -> tuple[Any, list[str]]:
    """A path or glob as a Dask DataFrame of one partition per file, each read as in memory
    (:func:`sdc.io.read_data` with `sep`, `na_values` and `text_columns`); and the files.
    Delimited text only: a `sheet` is refused."""
    from sdc.core._dask_protect import read_partitions

    if sheet is not None:
        raise ValueError("--engine dask reads CSV files (a path or a glob); `sheet` is for Excel input.")
    options = {"sep": sep, "na_values": na_values, "text_columns": text_columns}
    return read_partitions(pattern, **{k: v for k, v in options.items() if v is not None})


def finish_dask_run(run: Any, directory: str | None = None,
                    writer: Callable[[pd.DataFrame, int], tuple[str, bytes]] | None = None, *, mode: int = 0o644
                    ) -> tuple[Any, list[tuple[str, str, int]]]:
    """Compute a Dask run in one pass over the data: every step's cells changed and lazy
    details, the records, and, with `directory`, the released partitions written there (each
    by ``writer(partition, number) -> (file name, bytes)`` on its worker; see
    :func:`sdc.core._dask_protect.write_partitions`); then the Dask-capable measures
    (:data:`DASK_MEASURES`) of the original and the released file.

    Returns the run with concrete step results and record counts, and the files written as
    (name, SHA-256, records; none without `directory`).
    """
    from sdc.core import _dask_protect

    if directory is not None:
        writes = _dask_protect.write_partitions(run.released, directory, writer, mode=mode)
    else:
        writes = _dask_protect.partition_delayed(_records_only, run.released)
    lazy = [{"c": r.result.changed, "d": dict(r.result.details)} for r in run.steps]
    done, values = _dask_protect.compute_nested(list(writes), lazy)
    written = [w for w in done if w[0] is not None]
    n = int(sum(w[2] for w in done))
    steps = []
    for r, v in zip(run.steps, values):
        ch = pd.Series({str(k): int(x) for k, x in pd.Series(v["c"]).items()}, dtype=np.int64, name="cells_changed")
        res = replace(r.result, changed=ch, details=v["d"])
        steps.append(replace(r, result=res, records_before=n, records_after=n))
    prov = {**dict(run.provenance), "records_in": n, "records_out": n}
    out = replace(run, steps=tuple(steps), provenance=prov)
    if run.config is not None:
        out = replace(out, dask_assessment=dask_assessment(run.original, run.released, run.config))
    return out, written


def _records_only(part: pd.DataFrame) -> tuple[None, None, int]:
    return None, None, len(part)


def dask_assessment(original: Any, released: Any, cfg: Any) -> dict[str, Any]:
    """k-anonymity and the re-identification risks of both files on Dask (the primary keys,
    weights, missing-value rule and k of the configuration); the configuration's other
    measures are listed as not run."""
    from sdc.risk.individual import individual_risk
    from sdc.risk.kanonymity import k_anonymity

    keys = list(cfg.categorical_keys)
    k = cfg.thresholds.k
    not_run = [m for m in cfg.measures if m not in DASK_MEASURES]
    exact = {"suda": "SUDA2 needs every record's key combinations at once",
             "modrisk": "a log-linear model fitted over all cells together",
             "household": "each household's records together"}
    why = {m: (f"cannot run on Dask exactly ({exact[m]})" if m in exact
               else "not run in the Dask re-assessment of sdc protect (sdc assess --engine dask on the released files)")
           for m in not_run}
    if cfg.continuous_keys:
        why["continuous keys"] = ("binned keys are not assessed on Dask: "
                                  + ", ".join(cfg.continuous_keys) + " left out of the keys")
    out: dict[str, Any] = {"keys": keys, "weights": cfg.weights, "k": k, "missing": cfg.missing,
                           "measures": list(DASK_MEASURES), "not_run": why, "files": {}}
    if not keys:
        out["not_run"]["k_anonymity"] = out["not_run"]["risk"] = "no categorical keys"
        out["measures"] = []
        return out
    for name, frame in (("original", original), ("released", released)):
        prof = k_anonymity(frame, keys, k=k, weights=cfg.weights, missing=cfg.missing, alpha=cfg.alpha)
        risk = individual_risk(frame, keys, weights=cfg.weights, missing=cfg.missing, alpha=cfg.alpha)
        out["files"][name] = {
            "records": int(prof.n_records), "classes": int(prof.n_classes), "sample_uniques": int(prof.n_unique),
            "records_fk_below_k": int(prof.n_k_lt_threshold),
            "expected_reidentifications": float(risk.expected_reidentifications),
            "global_risk": float(risk.global_risk)}
    return out
