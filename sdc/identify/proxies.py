"""Proxies: a released column that determines (or nearly determines) a key or a sensitive variable.

A file that keeps ``HHIncomeMid`` beside the income key ``HHIncome`` keeps the key twice:
protecting one leaves the other to tell it. For every pair (column X, target Y), Y a
quasi-identifier or a sensitive variable and X any other column kept in the file, the
**determination** of Y by X is the share of the records (both present) whose Y is the most
frequent Y of their X value::

    d(X -> Y) = sum_x max_y n(x, y) / sum_x n(x)

(the confidence of the functional dependency X -> Y; 1 when Y is a function of X). X is a
**proxy** of Y when d >= 0.99 (`threshold`). Values of X held by one record determine
trivially; they are left out of the share, and an X of which fewer than half the records share
a value with another record, or with fewer than 3 records per value (a near-identifier), is not rated, nor an X present in fewer than 40 % of the records where Y is known
(``nPregnancies`` says the sex of the women asked only). Each proxy
carries the records unique on the pair (X, Y): what the pair singles out together.

Every count is one ``bincount`` of combined codes per pair (no loop over records).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc.core.keys import combine_codes, dense_ids, factorize_column

__all__ = ["Proxy", "ProxyResult", "find_proxies", "PROXY_THRESHOLD"]

#: A column determining a target in at least this share of its records is its proxy.
PROXY_THRESHOLD = 0.99
#: A column with fewer records than this per value is too close to an identifier to be rated.
MIN_PER_VALUE = 3
#: A column is rated only where it is present for at least this share of the target's records.
MIN_COVER = 0.4


@dataclass(frozen=True, slots=True)
class Proxy:
    """Column `column` determines `target` (a key or sensitive variable) in `determination` of
    the records rated (`records`); `unique_pair` records are unique on the pair."""

    column: str
    target: str
    target_role: str
    determination: float
    records: int
    unique_pair: int
    one_to_one: bool

    def text(self) -> str:
        how = "one-to-one with" if self.one_to_one else "determines"
        return (f"{self.column!r} {how} the {self.target_role} {self.target!r} in {100 * self.determination:.1f}% "
                f"of {self.records:,} records: protecting {self.target!r} alone leaves it readable from "
                f"{self.column!r}; {self.unique_pair:,} records are unique on the pair")


@dataclass(frozen=True, slots=True, kw_only=True)
class ProxyResult:
    """Result of :func:`find_proxies`."""

    threshold: float
    proxies: tuple[Proxy, ...] = field(default=())

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([[p.column, p.target, p.target_role, p.determination, p.records, p.unique_pair,
                              p.one_to_one] for p in self.proxies],
                            columns=["column", "target", "target_role", "determination", "records", "unique_pair",
                                     "one_to_one"])

    def of_target(self, target: str) -> tuple[Proxy, ...]:
        return tuple(p for p in self.proxies if p.target == target)

    def summary(self) -> pd.DataFrame:
        return summary_frame([
            ("n_proxies", len(self.proxies), "columns determining a key or sensitive variable"),
            ("proxies", [f"{p.column} -> {p.target}" for p in self.proxies], "column -> what it determines"),
            ("threshold", self.threshold, "determination from which a column is a proxy"),
        ])


def _codes(s: pd.Series) -> tuple[np.ndarray, int]:
    c, n = factorize_column(s)
    return np.asarray(c, dtype=np.int64), int(n)


def _determination(x: np.ndarray, nx: int, y: np.ndarray, ny: int) -> tuple[float, int, int, bool] | None:
    """(d(X -> Y) over the shared X values, records rated, records unique on (X, Y), one-to-one)."""
    ok = (x >= 0) & (y >= 0)
    n_ok = int(ok.sum())
    if n_ok < MIN_COVER * int((y >= 0).sum()) or n_ok < 2:
        return None  # X is missing where Y is known: it could tell Y for few records only
    xs, ys = x[ok], y[ok]
    nx_count = np.bincount(xs, minlength=nx)
    rated_x = nx_count >= 2
    rated = int(nx_count[rated_x].sum())
    if rated < 0.5 * n_ok or n_ok < MIN_PER_VALUE * int(np.count_nonzero(nx_count)):
        return None  # X is nearly an identifier: a determination would say nothing
    if nx * ny <= 4 * n_ok + 4096:  # one bincount over the (x, y) grid
        grid = np.bincount(xs * ny + ys, minlength=nx * ny).reshape(nx, ny)
        best = grid.max(axis=1)
        unique_pair = int((grid[xs, ys] == 1).sum())
        seen = grid > 0
        y_per_x, x_per_y = seen.sum(axis=1), seen.sum(axis=0)
    else:
        packed, _ = combine_codes([xs, ys], [nx, ny], n_ok)
        pair_id, n_pairs = dense_ids(packed)
        pair_n = np.bincount(pair_id, minlength=n_pairs)
        unique_pair = int((pair_n[pair_id] == 1).sum())
        pair_x = np.zeros(n_pairs, dtype=np.int64)
        pair_x[pair_id] = xs
        pair_y = np.zeros(n_pairs, dtype=np.int64)
        pair_y[pair_id] = ys
        best = np.zeros(nx, dtype=np.int64)
        np.maximum.at(best, pair_x, pair_n)
        y_per_x, x_per_y = np.bincount(pair_x, minlength=nx), np.bincount(pair_y, minlength=ny)
    d = float(best[rated_x].sum() / rated)
    one = bool(np.all(y_per_x[nx_count > 0] == 1) and np.all(x_per_y[x_per_y > 0] == 1))
    return d, rated, unique_pair, one


def find_proxies(data: pd.DataFrame, targets: dict[str, str], columns: Sequence[str], *,
                 threshold: float = PROXY_THRESHOLD) -> ProxyResult:
    """Columns of `columns` determining a target (`targets`: column -> its role) in at least
    `threshold` of the rated records (see the module docstring)."""
    codes = {c: _codes(data[c]) for c in dict.fromkeys([*targets, *columns])}
    found = []
    for y, role in targets.items():
        cy, ny = codes[y]
        for x in columns:
            if x == y:
                continue
            cx, nx = codes[x]
            if nx < 2 or ny < 2:
                continue
            r = _determination(cx, nx, cy, ny)
            if r is not None and r[0] >= threshold:
                found.append(Proxy(column=str(x), target=str(y), target_role=role, determination=r[0], records=r[1],
                                   unique_pair=r[2], one_to_one=r[3]))
    return ProxyResult(threshold=float(threshold), proxies=tuple(found))
