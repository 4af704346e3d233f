"""How much of the suite's *breadth* a run covers: ``SDC_TEST_SCALE`` (default 1, everything).

The cross-validation tests draw their strength from many cases of one comparison (100 random
files per sdcMicro method, 300 random datasets for the risk measures, ARX's 36 search optima).
On this machine (Debian 12, suite 1 of ``.ci/run``) all of them run. The two chroot suites
(trixie, sid) check the same code on another stack (numpy 2, pandas 3, current rpy2): what can
break there is a conversion or a dtype, which the first cases of each comparison already reach,
so ``scripts/compat-debian.sh`` runs them with ``SDC_TEST_SCALE=0.25``: every comparison still
runs, live against sdcMicro, on a quarter of its random cases, and every hypothesis property on
a quarter of its examples. ``SDC_TEST_SCALE=1`` there restores the whole breadth.

Three ways a test takes part:

* a hypothesis property asks :func:`examples` (``@settings(max_examples=scale.examples(60))``;
  the ``ci`` and ``dev`` profiles' 150 and 100 are scaled the same way);
* a loop over random cases asks :func:`cases` how many to draw (``range(cases(100))``);
* a parametrised test marked ``breadth`` (its variants are random seeds, or ARX's optima: more
  cases of one comparison) keeps the first variant and about one in ``round(1/scale)`` of the others
  (:func:`thinned`, applied at collection in ``tests/conftest.py``). Other parametrised tests
  (bad inputs, formats, edge cases) always run whole: each variant is a different check.
"""

from __future__ import annotations

import os
import zlib


def scale() -> float:
    """``SDC_TEST_SCALE`` as a number in (0, 1]; anything else is refused with its value."""
    text = os.environ.get("SDC_TEST_SCALE", "").strip() or "1"
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"SDC_TEST_SCALE must be a number in (0, 1], got {text!r}") from None
    if not 0 < value <= 1:
        raise ValueError(f"SDC_TEST_SCALE must be a number in (0, 1], got {text!r}")
    return value


def cases(n: int) -> int:
    """How many of a test's ``n`` random cases to run: ``n`` at scale 1, else
    ``round(n * scale)``, at least 5 (every comparison still meets several cases)."""
    s = scale()
    return n if s == 1 else min(n, max(5, round(n * s)))


def examples(n: int) -> int:
    """How many examples a hypothesis property draws where it would draw ``n``: ``n`` at
    scale 1, else ``round(n * scale)``, at least 10."""
    s = scale()
    return n if s == 1 else min(n, max(10, round(n * s)))


def thinned(ids: list[str], marked: bool) -> list[bool]:
    """Which of a parametrised group's variants (their ids, in collection order) run: all at
    scale 1 or when the group is not marked ``breadth``; else the first and about one in
    ``round(1/scale)`` of the others, chosen by a checksum of the id (stable from run to run,
    and spread over every parameter of a grid, not only the one that varies fastest)."""
    s = scale()
    if s == 1 or not marked:
        return [True] * len(ids)
    step = max(1, round(1 / s))
    return [i == 0 or zlib.crc32(v.encode()) % step == 0 for i, v in enumerate(ids)]
