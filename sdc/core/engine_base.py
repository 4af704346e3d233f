"""What every engine shares, below the dispatch point (:mod:`sdc.core.engine`) and Dask's home
(:mod:`sdc.core._dask`), which both use it: the engines' names, the one-line refusal of a
function that cannot run on an engine (:class:`EngineError`, :func:`not_on_engine`) and the
test of a Dask collection (:func:`is_dask`, which never imports dask). Import these from
:mod:`sdc.core.engine`.
"""

from __future__ import annotations

import sys

__all__ = ["ENGINE_NAMES", "is_dask", "engine_of", "not_on_engine", "EngineError"]

#: The engines, the in-memory one first.
ENGINE_NAMES = ("pandas", "dask", "chunks")

#: What a function that cannot run there must be computed on instead: (the API's words, the
#: command line's).
_INSTEAD = {
    "dask": ("compute it on a pandas DataFrame (ddf.compute()) when the data fit in memory",
             "use --engine pandas when the data fit in memory"),
    "chunks": ("read the file whole (sdc.read_data) when it fits in memory", "drop --chunks when the file fits in "
               "memory"),
}
_ON = {"dask": ("on a Dask DataFrame", "on Dask"), "chunks": ("on a file read in chunks", "in chunks")}


class EngineError(ValueError):
    """A function asked to run on an engine it does not run on. ``str()`` is the API's text;
    ``command_line`` says the same in the command line's words."""

    def __init__(self, message: str, command_line: str | None = None):
        super().__init__(message)
        self.command_line = command_line or message


def is_dask(obj: object) -> bool:
    """Whether `obj` is a Dask collection (DataFrame or Series); never imports dask."""
    if "dask" not in sys.modules:
        return False
    return type(obj).__module__.split(".")[0] == "dask"


def engine_of(obj: object) -> str:
    """``"dask"`` for a Dask collection, ``"chunks"`` for a file read in chunks (its type says
    ``sdc_engine = "chunks"``), else ``"pandas"``."""
    if is_dask(obj):
        return "dask"
    return getattr(type(obj), "sdc_engine", "pandas")


def not_on_engine(what: str, engine: str, why: str) -> EngineError:
    """The one-line error of a function that cannot run on `engine` exactly."""
    (api, cli), (api_instead, cli_instead) = _ON[engine], _INSTEAD[engine]
    exactly = " exactly" if engine == "dask" else ""
    return EngineError(f"{what} cannot run {api}{exactly} ({why}); {api_instead}.",
                       f"{what} cannot run {cli}{exactly} ({why}); {cli_instead}.")
