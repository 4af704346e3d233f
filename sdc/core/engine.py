"""The one place that tells the engines apart: pandas in memory, Dask, or a file read in chunks.

A public function that also runs on a Dask DataFrame (or on a file read in chunks) declares
so beside itself, with the function that computes it there::

    @dispatch(dask="sdc.risk.individual:_individual_risk_tables")
    def individual_risk(data, keys, ...): ...      # the pandas code only

Called with a Dask DataFrame (or Series) as its first argument, the decorated function calls
the declared variant with the same arguments; with a :class:`sdc.core.stream.ChunkedFile`
(``sdc.read_chunks(path)``), the ``chunks`` variant; with anything else, its own body. A
function with no variant for an engine refuses that engine in one line, naming why
(``dispatch(dask=None, why="...")``). :func:`engines_of` reads the declaration, so plan
validation, the registry, the assessment's list of measures not run and the docs say where
each function runs without a table of names.

A variant is a callable or a ``"module:function"`` string, imported at the first call on that
engine (the Dask code and dask itself are then never imported by a pandas run). The Dask and
chunks variants of the frequency measures are one function each: both engines hand it the
data's pattern table (:func:`tables_of`), on which the in-memory code runs.

A refusal is an :class:`EngineError`: its text speaks the Python API (``ddf.compute()``), its
``command_line`` the command line's words (``--engine pandas``), which ``sdc`` prints.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any, TypeVar

# The engines' names, the refusal and the test of a Dask collection, which Dask's home
# (sdc.core._dask) raises and uses too: kept below this module, so that neither imports the other.
from sdc.core.engine_base import ENGINE_NAMES, EngineError, engine_of, is_dask, not_on_engine

__all__ = ["ENGINE_NAMES", "is_dask", "engine_of", "dispatch", "engines_of", "not_on_engine", "EngineError",
           "tables_of"]

F = TypeVar("F", bound=Callable[..., Any])


def tables_of(data: Any) -> Any:
    """The pattern tables of data kept out of memory: a Dask DataFrame's
    (:class:`sdc.core._dask.DaskTables`, one pass each) or a chunked file's (itself).

    The object gives ``pattern_table(keys, weights, extra=())``, ``class_table(keys, extra)``,
    ``per_record(keys, table, ids, n, **arrays)``, ``binned(bins, argument, role)`` and ``meta``
    (an empty frame of the data's columns and types)."""
    engine = engine_of(data)
    if engine == "dask":
        from sdc.core._dask import DaskTables

        return DaskTables(data)
    if engine == "chunks":
        return data
    raise TypeError(f"expected a Dask DataFrame or a chunked file; got {type(data).__name__}.")


def _resolve(variant: Callable[..., Any] | str) -> Callable[..., Any]:
    if callable(variant):
        return variant
    module, _, name = variant.partition(":")
    return getattr(importlib.import_module(module), name)


def _data_argument(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if args:
        return args[0]
    return kwargs["data"] if "data" in kwargs else next(iter(kwargs.values()), None)


def dispatch(*, why: str = "", **variants: Callable[..., Any] | str | None) -> Callable[[F], F]:
    """Declare the engines a public function runs on besides pandas (``dask=variant``,
    ``chunks=variant``, or ``None`` with `why` to refuse it in one line); the returned
    decorator dispatches on the engine of the first argument (or of ``data=``). An engine not
    named is refused with `why` when given, else "it has no <engine> variant"."""
    unknown = [e for e in variants if e not in ENGINE_NAMES[1:]]
    if unknown:
        raise ValueError(f"unknown engine {unknown[0]!r}; engines: {', '.join(ENGINE_NAMES[1:])}.")
    reasons = {e: None if variants.get(e) is not None else (why or _no_variant(e)) for e in ENGINE_NAMES[1:]}

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            engine = engine_of(_data_argument(args, kwargs))
            if engine == "pandas":
                return fn(*args, **kwargs)
            variant = variants.get(engine)
            if variant is None:
                raise not_on_engine(f"{fn.__name__}()", engine, reasons[engine] or "")
            return _resolve(variant)(*args, **kwargs)

        run.__sdc_engines__ = {"pandas": None, **reasons}  # type: ignore[attr-defined]
        return run  # type: ignore[return-value]

    return decorate


def _no_variant(engine: str) -> str:
    return f"it has no {'Dask' if engine == 'dask' else engine} variant"


def engines_of(fn: Callable[..., Any]) -> dict[str, str | None]:
    """engine -> None (it runs there) or why not, for every engine; a function declared with
    no :func:`dispatch` runs on pandas only."""
    declared = getattr(fn, "__sdc_engines__", {"pandas": None})
    return {e: declared.get(e, _no_variant(e)) if e != "pandas" else None for e in ENGINE_NAMES}
