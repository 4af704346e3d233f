"""Survey files through R: SPSS ``.sav``/``.zsav``, SAS transport (v5 and v8) and Stata via
haven, R's ``.rds``/``.RData``, and Parquet via arrow where R has it; read into pandas with
their labels (as JSON metadata), and written back with them.

The route where R is the only one on a machine (Debian 12 has no pyreadstat or pyarrow
package): sdc uses pyreadstat and pyarrow first where they are installed.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

import pandas as pd

from ._session import call, session
from .convert import from_r_frame, r_str, to_r_frame

__all__ = ["read_labelled", "write_labelled", "has_r_package"]


@lru_cache(maxsize=1)
def _load() -> None:
    import rpy2.robjects as ro

    env = session()
    code = resources.files(__package__).joinpath("_haven.R").read_text(encoding="utf-8")
    ro.r("function(code, env) eval(parse(text = code), envir = env)")(code, env)


def has_r_package(name: str) -> bool:
    """Whether R has the package (``haven``, ``arrow``)."""
    _load()
    return bool(session()["have_package"](name)[0])


def read_labelled(path: str, kind: str) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The file's data (user-missing values as missing, value labels dropped: the codes stay)
    and its metadata: ``{"columns": {name: {label, codes, names, na_values, na_range}},
    "file_label": ...}``. `kind`: ``sav``, ``zsav``, ``xpt``, ``dta``, ``rds``, ``rdata``,
    ``parquet``."""
    _load()
    out = call("haven_read", str(path), kind).rx2("value")
    return from_r_frame(out.rx2("frame")), json.loads(str(out.rx2("meta")[0]))


def write_labelled(data: pd.DataFrame, path: str, kind: str, meta: dict[str, Any]) -> None:
    """`data` written as `kind` (``sav``, ``zsav``, ``parquet``) at `path`, with the labels of
    `meta` (as :func:`read_labelled` gives them) on the columns that still hold codes."""
    _load()
    call("haven_write", to_r_frame(data), str(path), kind, r_str(json.dumps(meta)))
