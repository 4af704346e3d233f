"""Warnings and errors raised by :mod:`sdc`.

Policy (after statsmodels' ``sm_exceptions``): invalid arguments raise the standard
``ValueError`` (wrong value) or ``TypeError`` (wrong kind of thing); custom classes exist
only where a standard one would not say what happened. All warnings derive from
:class:`SdcWarning`, so ``warnings.simplefilter("ignore", SdcWarning)`` silences them all.
"""

from __future__ import annotations

__all__ = ["SdcWarning", "DegenerateDataWarning", "CodingWarning", "DataFileError"]


class SdcWarning(UserWarning):
    """Base class of every warning :mod:`sdc` emits."""


class DegenerateDataWarning(SdcWarning):
    """The data make a measure uninformative: every record is unique, or all are identical."""


class CodingWarning(SdcWarning):
    """An attack's two files code a column differently (no value in common): the attack would
    measure the coding, not the protection."""


class DataFileError(ValueError):
    """A data file could not be read (missing, unreadable, wrong format or empty)."""
