"""Progress bars: tqdm's widget in a Jupyter kernel that has ipywidgets, tqdm's text bar
everywhere else, never a warning.

``tqdm.auto`` warns "IProgress not found. Please update jupyter and ipywidgets" in a
notebook without ipywidgets before it falls back to text; :func:`progress_bar` makes the
same choice without the warning (a missing widget library is not the user's mistake).
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

__all__ = ["progress_bar", "in_notebook"]


def in_notebook() -> bool:
    """Whether the code runs in a Jupyter kernel (IPython's kernel application is configured)."""
    ipython = sys.modules.get("IPython")
    try:
        shell = ipython.get_ipython() if ipython is not None else None  # type: ignore[attr-defined]
        return shell is not None and "IPKernelApp" in getattr(shell, "config", {})
    except Exception:  # noqa: BLE001  (any odd shell: not a notebook)
        return False


def _widgets() -> bool:
    try:
        return sys.modules.get("ipywidgets", ()) is not None and importlib.util.find_spec("ipywidgets") is not None
    except (ImportError, ValueError):
        return False


def progress_bar(iterable: Any = None, **kwargs: Any) -> Any:
    """A tqdm bar over `iterable` (keywords as tqdm's): the notebook widget where it can be
    drawn, the text bar on stderr otherwise."""
    if in_notebook() and _widgets():
        from tqdm.notebook import tqdm
    else:
        from tqdm.std import tqdm
    return tqdm(iterable, **kwargs)
