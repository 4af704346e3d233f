"""The embedded R session: started lazily, on first use, never at import time.

Importing :mod:`r_bridge` works without rpy2 or R. :func:`is_available` answers whether
the bridge can run; :func:`session` starts R, loads sdcMicro's namespace and our R-side
helpers (``_helpers.R``) once, and returns the helper environment.
"""

from __future__ import annotations

import os
from functools import lru_cache
from importlib import resources
from typing import Any

from .errors import RBridgeError, RBridgeUnavailableError

__all__ = ["is_available", "unavailable_reason", "session", "versions", "call"]

_INSTALL_HINT = "run scripts/install.sh (Debian: python3-rpy2, r-base; then sdcMicro from CRAN)"


@lru_cache(maxsize=1)
def _start() -> tuple[Any, str | None]:
    """Start R once; return (helper environment, None) or (None, reason)."""
    try:
        import rpy2.robjects as ro  # noqa: F401
        from rpy2.rinterface_lib import callbacks
    except Exception as exc:  # ImportError, or R missing behind rpy2 (RuntimeError, OSError)
        return None, f"rpy2 cannot start R ({type(exc).__name__}: {exc}); {_INSTALL_HINT}"
    # R prints nothing of its own through us: helpers capture messages and warnings.
    callbacks.consolewrite_print = lambda s: None
    callbacks.consolewrite_warnerror = lambda s: None
    # isTRUE(): a visible value. rpy2 >= 3.5.12 returns None for an invisible top-level
    # result, and requireNamespace() returns its value invisibly.
    ok = ro.r('isTRUE(requireNamespace("sdcMicro", quietly = TRUE))')
    if ok is None or not ok[0]:
        return None, f"R is installed but the sdcMicro package is not; {_INSTALL_HINT}"
    code = resources.files(__package__).joinpath("_helpers.R").read_text(encoding="utf-8")
    env = ro.r("new.env()")
    ro.r("function(code, env) eval(parse(text = code), envir = env)")(code, env)
    return env, None


def is_available() -> bool:
    """True when rpy2, R and sdcMicro can all be used."""
    return _start()[0] is not None


def unavailable_reason() -> str | None:
    """Why the bridge cannot run (None when it can)."""
    return _start()[1]


def session() -> Any:
    """The R environment holding the bridge's helper functions (starts R on first call)."""
    env, reason = _start()
    if env is None:
        raise RBridgeUnavailableError(reason)
    return env


@lru_cache(maxsize=1)
def versions() -> dict[str, str]:
    """Versions of R, sdcMicro, data.table and rpy2, as strings."""
    env = session()
    v = env["versions"]()
    out = {str(k): str(v.rx2(k)[0]) for k in v.names}
    out["rpy2"] = _rpy2_version()
    return out


def _rpy2_version() -> str:
    """rpy2's version from its installed metadata (rpy2 3.6 has no ``rpy2.__version__``)."""
    import importlib.metadata as md

    for dist in ("rpy2", "rpy2-robjects", "rpy2-rinterface"):  # 3.6 ships as split distributions
        try:
            return md.version(dist)
        except md.PackageNotFoundError:
            continue
    import rpy2

    return str(getattr(rpy2, "__version__", "unknown"))


def call(name: str, *args: Any, **kwargs: Any) -> Any:
    """Call helper `name` in R; return its value or raise :class:`RBridgeError`.

    Helpers return ``list(value=, warnings=, messages=, error=)`` (see ``_helpers.R``).
    Warnings and messages are kept on the returned value's Python side by the wrappers.
    """
    env = session()
    out = env[name](*args, **kwargs)
    err = out.rx2("error")
    warns = tuple(str(w) for w in out.rx2("warnings"))
    if not _is_null(err):
        raise RBridgeError(name, str(err[0]), warns)
    return out


def _is_null(x: Any) -> bool:
    import rpy2.rinterface as ri

    return x is None or x is ri.NULL or type(x).__name__ == "NULLType"


def require_reason() -> bool:
    """True when the environment demands the bridge (CI): SDC_REQUIRE_SDCMICRO=1."""
    return os.environ.get("SDC_REQUIRE_SDCMICRO", "") not in ("", "0")
