"""Warnings and errors raised by :mod:`sdc`.

Policy (after statsmodels' ``sm_exceptions``): invalid arguments raise the standard
``ValueError`` (wrong value) or ``TypeError`` (wrong kind of thing); custom classes exist
only where a standard one would not say what happened. All warnings derive from
:class:`SdcWarning`, so ``warnings.simplefilter("ignore", SdcWarning)`` silences them all.
"""

from __future__ import annotations

__all__ = ["SdcWarning", "DegenerateDataWarning", "CodingWarning", "DataFileError", "SearchTooLargeError"]


class SdcWarning(UserWarning):
    """Base class of every warning :mod:`sdc` emits."""


class DegenerateDataWarning(SdcWarning):
    """The data make a measure uninformative: every record is unique, or all are identical."""


class CodingWarning(SdcWarning):
    """An attack's two files code a column differently (no value in common): the attack would
    measure the coding, not the protection."""


class DataFileError(ValueError):
    """A data file could not be read (missing, unreadable, wrong format or empty)."""


class SearchTooLargeError(ValueError):
    """A combinatorial search (SUDA2's minimal sample uniques) would pass its work or memory
    limit. Raised before the work is done; ``searched`` is the largest size searched
    completely (0: none), ``size`` the size refused, with its ``n_subsets`` and ``work``
    (as counted when the limit was passed), ``reason`` the limit passed, without advice."""

    def __init__(self, message: str, *, searched: int, size: int, n_subsets: int, work: int,
                 reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason
        self.searched = searched
        self.size = size
        self.n_subsets = n_subsets
        self.work = work
