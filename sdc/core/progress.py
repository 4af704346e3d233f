"""Progress bars: tqdm's widget in a Jupyter kernel that has ipywidgets, tqdm's text bar
everywhere else, never a warning.

``tqdm.auto`` warns "IProgress not found. Please update jupyter and ipywidgets" in a
notebook without ipywidgets before it falls back to text; :func:`progress_bar` makes the
same choice without the warning (a missing widget library is not the user's mistake).

Under a listener (:func:`sdc._stages.listening`: ``sdc app``) a bar draws nothing and tells the
listener its description and count instead (:class:`ListenedBar`).
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

from sdc._stages import Listener, listener

__all__ = ["progress_bar", "in_notebook", "ListenedBar"]


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
    drawn, the text bar on stderr otherwise; under a listener a :class:`ListenedBar`."""
    heard = listener()
    if heard is not None:
        return ListenedBar(heard, iterable, desc=kwargs.get("desc") or "", total=kwargs.get("total"))
    if in_notebook() and _widgets():
        from tqdm.notebook import tqdm
    else:
        from tqdm.std import tqdm
    return tqdm(iterable, **kwargs)


class ListenedBar:
    """A bar that draws nothing: it tells `heard` ``(desc, done, total)`` at its start and at
    each update (tqdm's ``update``, ``close`` and iteration, the parts sdc uses)."""

    def __init__(self, heard: Listener, iterable: Any = None, *, desc: str = "", total: int | None = None) -> None:
        self.heard, self.iterable, self.desc, self.n = heard, iterable, desc, 0
        if total is None and iterable is not None and hasattr(iterable, "__len__"):
            total = len(iterable)
        self.total = total
        heard(desc, 0, total)

    def update(self, n: int = 1) -> None:
        self.n += n
        self.heard(self.desc, self.n, self.total)

    def close(self) -> None:
        return

    def set_description(self, desc: str, refresh: bool = True) -> None:  # noqa: ARG002 - tqdm's signature
        self.desc = desc
        self.heard(desc, self.n, self.total)

    def __iter__(self) -> Any:
        for item in self.iterable:
            yield item
            self.update(1)

    def __enter__(self) -> "ListenedBar":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
