"""The one place that tells the engines apart: pandas in memory, or Dask.

A public function that also runs on a Dask DataFrame declares so beside itself, with the
function that computes it there::

    @dispatch(dask="sdc.risk.individual:_individual_risk_dask")
    def individual_risk(data, keys, ...): ...      # the pandas code only

Called with a Dask DataFrame (or Series) as its first argument, the decorated function calls
the declared variant with the same arguments; called with anything else, its own body. A
function with no variant for an engine refuses that engine in one line, naming why
(``dispatch(dask=None, why="...")``). :func:`engines_of` reads the declaration, so plan
validation, the registry and the docs say where each function runs without a table of names.

A variant is a callable or a ``"module:function"`` string, imported at the first call on that
engine (the Dask code and dask itself are then never imported by a pandas run).
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["ENGINE_NAMES", "is_dask", "engine_of", "dispatch", "engines_of", "not_on_engine", "EngineError"]

F = TypeVar("F", bound=Callable[..., Any])

#: The engines, the in-memory one first.
ENGINE_NAMES = ("pandas", "dask")


class EngineError(ValueError):
    """A function asked to run on an engine it does not run on."""


def is_dask(obj: object) -> bool:
    """Whether `obj` is a Dask collection (DataFrame or Series); never imports dask."""
    if "dask" not in sys.modules:
        return False
    return type(obj).__module__.split(".")[0] == "dask"


def engine_of(obj: object) -> str:
    """``"dask"`` for a Dask collection, else ``"pandas"``."""
    return "dask" if is_dask(obj) else "pandas"


def not_on_engine(what: str, engine: str, why: str) -> EngineError:
    """The one-line error of a function that cannot run on `engine` exactly."""
    if engine == "dask":
        return EngineError(f"{what} cannot run on a Dask DataFrame exactly ({why}); compute it on a pandas "
                           "DataFrame (ddf.compute()) when the data fit in memory.")
    return EngineError(f"{what} cannot run on the {engine} engine ({why}).")


def _resolve(variant: Callable[..., Any] | str) -> Callable[..., Any]:
    if callable(variant):
        return variant
    module, _, name = variant.partition(":")
    return getattr(importlib.import_module(module), name)


def dispatch(*, why: str = "", **variants: Callable[..., Any] | str | None) -> Callable[[F], F]:
    """Declare the engines a public function runs on besides pandas (``dask=variant``, or
    ``dask=None`` with `why` to refuse it in one line); the returned decorator dispatches on
    the engine of the first argument."""
    unknown = [e for e in variants if e not in ENGINE_NAMES[1:]]
    if unknown:
        raise ValueError(f"unknown engine {unknown[0]!r}; engines: {', '.join(ENGINE_NAMES[1:])}.")

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            engine = engine_of(args[0]) if args else engine_of(next(iter(kwargs.values()), None))
            if engine == "pandas":
                return fn(*args, **kwargs)
            variant = variants.get(engine)
            if variant is None:
                raise not_on_engine(f"{fn.__name__}()", engine, why or "it needs the whole file in memory")
            return _resolve(variant)(*args, **kwargs)

        run.__sdc_engines__ = {"pandas": None, **{e: (None if v is not None else (why or "it needs the whole file in "
                                                                                  "memory")) for e, v in variants.items()}}
        return run  # type: ignore[return-value]

    return decorate


def engines_of(fn: Callable[..., Any]) -> dict[str, str | None]:
    """engine -> None (it runs there) or why not, for every engine; a function declared with
    no :func:`dispatch` runs on pandas only."""
    declared = getattr(fn, "__sdc_engines__", {"pandas": None})
    return {e: declared.get(e, "it has no Dask variant") if e != "pandas" else None for e in ENGINE_NAMES}
