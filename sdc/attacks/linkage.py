"""Record-linkage attack: match an outside file against the released file on shared quasi-identifiers.

The attacker holds an *external* file (a voter roll, a register, a leaked extract) with some of
the quasi-identifiers (QIs) of the released file, and for each external record looks for the
released records that agree with it. For external record i:

* the **match set** M_i is the set of released records that match it: identical values on the
  QIs (``method="exact"``; a missing value is a wildcard by default, see
  :mod:`sdc.core.matching`), or, with ``method="nearest"``, the released records at the
  smallest Euclidean distance on the standardised numeric QIs (ties within ``tol``) among those
  identical on the other QIs;
* the **match-set size** is |M_i|; a **unique match** is |M_i| = 1;
* with a truth id (which released record is really the same person), the match is **correct**
  when the true record is in M_i, and the attacker who picks one record of M_i at random is
  right with probability p_i = [true record in M_i] / |M_i|.

Headline figures (Domingo-Ferrer & Torra 2003 for distance-based linkage; Sweeney 2002 for the
voter-roll attack; precision and recall as in information retrieval):

* precision at 1 = sum_i p_i / #{i : |M_i| >= 1}: the expected share of correct guesses among
  the external records the attacker can link at all (ties broken at random; exact, no seed);
* recall = sum_i p_i / #{i : the true record is released}: the expected share of the targets
  re-identified;
* unique precision = #{correct unique matches} / #{unique matches}: the precision of an attacker
  who only claims unique matches, and unique recall the same over the targets.

Exact linkage is a join (one pass of integer encoding and a ``bincount`` per missing-value
pattern): 10^6 x 10^6 records take seconds. Nearest-neighbour linkage uses a k-d tree
(``scipy.spatial.cKDTree``); the categorical QIs become one extra coordinate ``block x B`` with B
larger than any distance within a block, so one tree serves every block exactly.

Without an outside file, :func:`draw_external` draws the attacker's file from the original data
(a share of the records, the QIs the attacker is assumed to know, seeded), and
:func:`simulate_linkage_attack` attacks the released file with it; running it on the original
and on the protected file with the same seed gives the before/after precision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sdc._stats import summary_frame, summary_values
from sdc._validation import check_columns, check_fraction, check_frame, check_number, check_option
from sdc.attacks._common import check_seed, frame_rows, is_numeric_column, plain, rng_from, warn_disjoint
from sdc.core.matching import encode_joint, match_counts, records_agree
from sdc.core.missing import MissingKind, MissingRule, missing_rule

__all__ = [
    "LinkageResult", "linkage_attack", "draw_external", "simulate_linkage_attack", "LINKAGE_METHODS",
    "TARGET_COLUMN",
]

LINKAGE_METHODS = ("exact", "nearest")
#: Column that :func:`draw_external` adds to hold the original record's index label.
TARGET_COLUMN = "target_id"

_SIZE_BANDS = ((0, 0, "0"), (1, 1, "1"), (2, 2, "2"), (3, 5, "3-5"), (6, 10, "6-10"), (11, 100, "11-100"),
               (101, np.iinfo(np.int64).max, ">100"))


@dataclass(frozen=True)
class LinkageResult:
    """What a record-linkage attack achieved.

    Attributes
    ----------
    method : str
        ``"exact"`` or ``"nearest"``.
    on : tuple of str
        The quasi-identifiers matched on.
    numeric : tuple of str
        The QIs matched by distance (``"nearest"``); empty for exact matching.
    missing : str
        The missing-value rule of the exact part (``"wildcard"`` or ``"category"``).
    truth : str or None
        The external column holding the true released record's id (None: correctness unknown).
    n_external, n_released : int
        Records in the attacker's file and in the released file.
    records : pandas.DataFrame
        One row per external record (its index): ``match_size``, ``unique``, ``matched_id``
        (the released id of a unique match), and with a truth ``target_released`` (the true
        record is in the release), ``correct`` (it is in the match set) and ``p_correct``
        (1/match_size when correct, else 0); ``distance`` for nearest-neighbour linkage.
    parameters : dict
        Everything needed to rerun the attack (tolerance, and for a simulated attack the
        share, seed and known QIs of the drawn file).
    """

    method: str
    on: tuple[str, ...]
    numeric: tuple[str, ...]
    missing: str
    truth: str | None
    n_external: int
    n_released: int
    records: pd.DataFrame = field(repr=False)
    parameters: dict[str, Any] = field(default_factory=dict)

    # ---------------------------------------------------------------- counts
    @property
    def n_matched(self) -> int:
        """External records with at least one match."""
        return int((self.records["match_size"] > 0).sum())

    @property
    def n_unique(self) -> int:
        """External records with exactly one match."""
        return int(self.records["unique"].sum())

    @property
    def has_truth(self) -> bool:
        return self.truth is not None

    @property
    def n_targets(self) -> int | None:
        """External records whose true record is in the release."""
        return int(self.records["target_released"].sum()) if self.has_truth else None

    @property
    def n_correct(self) -> int | None:
        """External records whose match set holds the true record."""
        return int(self.records["correct"].sum()) if self.has_truth else None

    @property
    def n_unique_correct(self) -> int | None:
        """Unique matches that are the true record: certain re-identifications."""
        if not self.has_truth:
            return None
        return int((self.records["unique"] & self.records["correct"]).sum())

    @property
    def expected_reidentified(self) -> float | None:
        """Sum of p_i: records re-identified by an attacker guessing one record per match set."""
        return float(self.records["p_correct"].sum()) if self.has_truth else None

    # ---------------------------------------------------------------- rates
    @property
    def precision_at_1(self) -> float:
        """sum p_i / #matched external records (NaN without a truth or without a match)."""
        if not self.has_truth or self.n_matched == 0:
            return float("nan")
        return self.expected_reidentified / self.n_matched

    @property
    def recall(self) -> float:
        """sum p_i / #external records whose true record is released."""
        if not self.has_truth or not self.n_targets:
            return float("nan")
        return self.expected_reidentified / self.n_targets

    @property
    def unique_precision(self) -> float:
        """Correct unique matches / unique matches."""
        if not self.has_truth or self.n_unique == 0:
            return float("nan")
        return self.n_unique_correct / self.n_unique

    @property
    def unique_recall(self) -> float:
        """Correct unique matches / external records whose true record is released."""
        if not self.has_truth or not self.n_targets:
            return float("nan")
        return self.n_unique_correct / self.n_targets

    @property
    def mean_match_size(self) -> float:
        """Mean match-set size over the matched external records."""
        s = self.records["match_size"].to_numpy()
        s = s[s > 0]
        return float(s.mean()) if s.size else float("nan")

    # ---------------------------------------------------------------- tables
    def match_size_table(self) -> pd.DataFrame:
        """External records by match-set size band (0, 1, 2, 3-5, 6-10, 11-100, >100), with
        the correct matches in each band when the truth is known."""
        s = self.records["match_size"].to_numpy()
        rows = []
        for lo, hi, label in _SIZE_BANDS:
            sel = (s >= lo) & (s <= hi)
            row: dict[str, Any] = {"match_size": label, "n_records": int(sel.sum())}
            if self.has_truth:
                row["n_correct"] = int(self.records["correct"].to_numpy()[sel].sum())
                row["expected_reidentified"] = float(self.records["p_correct"].to_numpy()[sel].sum())
            rows.append(row)
        out = pd.DataFrame(rows)
        out["share"] = out["n_records"] / max(self.n_external, 1)
        return out

    def to_frame(self) -> pd.DataFrame:
        """The per-record table (one row per external record)."""
        return self.records

    def summary(self) -> pd.DataFrame:
        """Headline figures as rows of (statistic, value, description); NaN where undefined."""
        return summary_frame([
            ("attack", "linkage", "the attack"),
            ("method", self.method, "how records are matched"),
            ("on", list(self.on), "the variables the attacker links on"),
            ("numeric", list(self.numeric), "of them, those matched as numbers"),
            ("missing", self.missing, "how a missing value matches"),
            ("truth", self.truth, "the column that tells which record is which (None: unknown)"),
            ("n_external", self.n_external, "the attacker's records"),
            ("n_released", self.n_released, "released records"),
            ("n_matched", self.n_matched, "attacker's records with at least one match"),
            ("n_unique", self.n_unique, "attacker's records with exactly one match"),
            ("n_targets", self.n_targets, "attacker's records whose true record is released"),
            ("n_correct", self.n_correct, "attacker's records whose match set holds the true record"),
            ("n_unique_correct", self.n_unique_correct, "unique matches that are the true record"),
            ("expected_reidentified", self.expected_reidentified,
             "records re-identified by guessing one record of each match set (sum of p_i)"),
            ("precision_at_1", self.precision_at_1, "expected re-identifications / matched records"),
            ("recall", self.recall, "expected re-identifications / targets"),
            ("unique_precision", self.unique_precision, "correct unique matches / unique matches"),
            ("unique_recall", self.unique_recall, "correct unique matches / targets"),
            ("mean_match_size", self.mean_match_size, "mean match-set size of the matched records"),
        ])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the summary, the match-size table and the parameters (no per-record rows)."""
        return plain({**summary_values(self.summary()), "match_sizes": frame_rows(self.match_size_table()),
                      "parameters": self.parameters})


def _arguments(released: Any, external: Any, on: Any, method: str, missing: Any, tol: float,
               truth: str | None) -> tuple[pd.DataFrame, pd.DataFrame, str, MissingRule, float, tuple[str, ...],
                                           str | None]:
    """The linkage attack's arguments, checked (each refusal names the argument)."""
    released = check_frame(released, "released")
    external = check_frame(external, "external")
    method = check_option(method, "method", LINKAGE_METHODS)
    rule = missing_rule(missing)
    tol = check_number(tol, "tol", low=0.0, high=np.inf)
    check_columns(released, on, role="on", where="the released file")
    on_cols = check_columns(external, on, role="on", where="the external file")
    if truth is not None:
        (truth,) = check_columns(external, [truth], role="truth")
        if truth in on_cols:
            raise ValueError(f"`truth` column {truth!r} is also a quasi-identifier in `on`; the attacker cannot know it.")
    return released, external, method, rule, tol, on_cols, truth


def _nearest_match(released: pd.DataFrame, external: pd.DataFrame, on_cols: tuple[str, ...], numeric: Any,
                   scale: Any, tol: float) -> tuple[Any, ...]:
    """The nearest-neighbour matching: the numeric keys, the joint coding of the others (None
    without), the standardised values and blocks, and what :func:`_nearest` finds."""
    num = _numeric_qis(released, external, on_cols, numeric)
    cat = tuple(c for c in on_cols if c not in num)
    xr, xe = _standardised(released, external, num, scale)
    if cat:
        joint = encode_joint(external, released, cat)
        warn_disjoint(joint, "the external file")
        eblock, rblock, _ = joint.patterns()
    else:
        joint, eblock, rblock = None, None, None
    return num, joint, (xr, xe, eblock, rblock), _nearest(xr, xe, rblock, eblock, tol)


# -------------------------------------------------------------------- helpers
def _released_ids(released: pd.DataFrame, truth: str | None) -> pd.Index:
    """The ids that name released records (``matched_id``): the `truth` column of `released`
    if it has one, else its index; repeated ids would make a match ambiguous, so refused."""
    by_column = truth is not None and truth in released.columns
    ids = pd.Index(released[truth]) if by_column else released.index
    if not ids.is_unique:
        dup = ids[ids.duplicated()][0]
        where = f"column {truth!r}" if by_column else "index"
        raise ValueError(f"released record ids (the {where} of `released`) must be unique; {plain(dup)!r} occurs "
                         "more than once.")
    return ids


def _numeric_qis(released: pd.DataFrame, external: pd.DataFrame, on: tuple[str, ...],
                 numeric: object) -> tuple[str, ...]:
    if numeric is None:
        num = tuple(c for c in on if is_numeric_column(released[c]) and is_numeric_column(external[c]))
        if not num:
            raise ValueError("`method='nearest'` needs numeric quasi-identifiers; none of `on` is numeric in both "
                             "files (use method='exact').")
        return num
    num = check_columns(released, numeric, role="numeric")
    for c in num:
        if c not in on:
            raise ValueError(f"`numeric` column {c!r} is not in `on`.")
        for name, df in (("released", released), ("external", external)):
            if not is_numeric_column(df[c]):
                raise ValueError(f"`numeric` column {c!r} is not numeric in `{name}` (dtype {df[c].dtype}).")
    return num


def _standardised(released: pd.DataFrame, external: pd.DataFrame, cols: tuple[str, ...],
                  scale: bool) -> tuple[np.ndarray, np.ndarray]:
    xr = released[list(cols)].to_numpy(dtype=np.float64, na_value=np.nan)
    xe = external[list(cols)].to_numpy(dtype=np.float64, na_value=np.nan)
    for name, x in (("released", xr), ("external", xe)):
        bad = ~np.isfinite(x)
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise ValueError(f"numeric quasi-identifier {cols[j]!r} has a missing or infinite value in `{name}` "
                             f"(row {int(i)}); nearest-neighbour linkage needs complete numbers.")
    if scale:
        # Standardise by the released file's mean and sd: what the attacker sees.
        mu = xr.mean(axis=0)
        sd = xr.std(axis=0, ddof=1) if xr.shape[0] > 1 else np.ones(xr.shape[1])
        sd = np.where((sd > 0) & np.isfinite(sd), sd, 1.0)
        xr = (xr - mu) / sd
        xe = (xe - mu) / sd
    return xr, xe


def _nearest(xr: np.ndarray, xe: np.ndarray, rblock: np.ndarray | None, eblock: np.ndarray | None,
             tol: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
    """Per external record: distance to the nearest released record of its block, the number
    of released records within that distance (+ tol), the nearest one's position, the radius,
    and the block offset B (distances >= B/2 mean "no released record in the block")."""
    from scipy.spatial import cKDTree

    if rblock is not None:
        lo = np.minimum(xr.min(axis=0), xe.min(axis=0))
        hi = np.maximum(xr.max(axis=0), xe.max(axis=0))
        big = 2.0 * float(np.sqrt(((hi - lo) ** 2).sum())) + 2.0 + 4.0 * tol
        xr = np.column_stack([xr, rblock.astype(np.float64) * big])
        xe = np.column_stack([xe, eblock.astype(np.float64) * big])
    else:
        big = np.inf
    tree = cKDTree(xr)
    d, idx = tree.query(xe, k=1)
    valid = d < big / 2
    radius = np.where(valid, d * (1 + 1e-12) + tol, 0.0)
    size = np.zeros(xe.shape[0], dtype=np.int64)
    if valid.any():
        size[valid] = tree.query_ball_point(xe[valid], r=radius[valid], return_length=True)
    return np.where(valid, d, np.nan), size, np.where(valid, idx, -1), radius, big


# -------------------------------------------------------------------- public
def linkage_attack(
    released: pd.DataFrame,
    external: pd.DataFrame,
    on: str | Sequence[str],
    *,
    truth: str | None = None,
    method: str = "exact",
    numeric: Sequence[str] | None = None,
    missing: MissingKind | MissingRule = "wildcard",
    scale: bool = True,
    tol: float = 1e-9,
) -> LinkageResult:
    """Link an external file to the released file on shared quasi-identifiers.

    Parameters
    ----------
    released : pandas.DataFrame
        The released (protected) file.
    external : pandas.DataFrame
        The attacker's file; it must have the columns `on` (and `truth` when given).
    on : str or sequence of str
        The shared quasi-identifiers.
    truth : str, optional
        Column of `external` holding the id of the true released record. The released ids
        are the column of the same name in `released` if there is one, else the index of
        `released`. Without it, only match-set sizes are reported. The released ids (that
        column, or the index) name the matched record and must be unique.
    method : {"exact", "nearest"}
        ``"exact"``: identical values on every QI (a join). ``"nearest"``: the released
        records at the smallest Euclidean distance on the standardised numeric QIs, among
        those identical on the other QIs (missing = its own category there).
    numeric : sequence of str, optional
        For ``"nearest"``: the QIs matched by distance (default: the numeric ones).
    missing : {"wildcard", "category"}
        Exact matching: a missing value matches anything (default: a suppressed value could
        be anything, an unknown value constrains nothing), or only another missing value.
    scale : bool
        For ``"nearest"``: standardise each numeric QI by the released file's mean and
        standard deviation (n - 1) first (default True).
    tol : float
        For ``"nearest"``: records within ``d_min (1 + 1e-12) + tol`` of an external record
        are tied with its nearest neighbour.

    Returns
    -------
    LinkageResult
        Match-set sizes per external record, unique and correct matches, precision at 1 and
        recall (see the module docstring for the formulas).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> rel = pd.DataFrame({"zip": [1, 1, 2], "sex": ["f", "m", "f"]}, index=[10, 11, 12])
    >>> ext = pd.DataFrame({"zip": [1, 2], "sex": ["f", "f"], "id": [10, 12]})
    >>> r = sdc.linkage_attack(rel, ext, ["zip", "sex"], truth="id")
    >>> r.n_unique, r.precision_at_1
    (2, 1.0)
    """
    released, external, method, rule, tol, on_cols, truth = _arguments(released, external, on, method, missing,
                                                                       tol, truth)
    nr, ne = len(released), len(external)

    distance = None
    num: tuple[str, ...] = ()
    if method == "exact":
        joint = encode_joint(external, released, on_cols)
        warn_disjoint(joint, "the external file")
        mc = match_counts(joint, rule)
        size, single = mc.size, mc.single
    else:
        num, joint, (xr, xe, eblock, rblock), (distance, size, nearest, radius, big) = _nearest_match(
            released, external, on_cols, numeric, scale, tol)
        single = np.where(size == 1, nearest, -1)

    rel_ids = _released_ids(released, truth)
    matched = np.full(ne, None, dtype=object)
    one = single >= 0
    matched[one] = np.asarray(rel_ids, dtype=object)[single[one]]
    records = pd.DataFrame({"match_size": size.astype(np.int64), "unique": size == 1, "matched_id": matched},
                           index=external.index)
    if truth is not None:
        target = rel_ids.get_indexer(pd.Index(external[truth]))
        present = target >= 0
        correct = np.zeros(ne, dtype=bool)
        pos = np.flatnonzero(present)
        if method == "exact":
            correct[pos] = records_agree(joint, pos, target[pos], rule)
        else:
            dt = np.sqrt(((xe[pos] - xr[target[pos]]) ** 2).sum(axis=1))
            same_block = np.ones(pos.size, dtype=bool) if rblock is None else eblock[pos] == rblock[target[pos]]
            correct[pos] = same_block & (size[pos] > 0) & (dt <= radius[pos])
        correct &= size > 0
        records["target_released"] = present
        records["correct"] = correct
        records["p_correct"] = np.where(correct, 1.0 / np.maximum(size, 1), 0.0)
    if distance is not None:
        records["distance"] = distance
    params: dict[str, Any] = {"tol": tol, "scale": scale} if method == "nearest" else {}
    return LinkageResult(method=method, on=on_cols, numeric=num, missing=rule.kind, truth=truth, n_external=ne,
                         n_released=nr, records=records, parameters=params)


def draw_external(
    original: pd.DataFrame,
    known: str | Sequence[str],
    *,
    share: float = 0.1,
    seed: int = 0,
    truth: str | None = None,
) -> pd.DataFrame:
    """Draw an attacker's file from the original data: a share of the records, the known QIs.

    The records are a simple random sample without replacement of ``round(share * n)``
    records (at least one), drawn with ``numpy.random.default_rng(seed)`` and kept in file
    order. The file has the `known` columns and a truth column: `truth` copied from
    `original` when given, else :data:`TARGET_COLUMN` (``"target_id"``) holding the original
    index labels (a protected file keeps the original's index, so the labels identify the
    true released records).
    """
    original = check_frame(original, "original")
    known_cols = check_columns(original, known, role="known")
    share = check_fraction(share, "share", closed="right")
    seed = check_seed(seed)
    n = len(original)
    m = max(1, int(round(share * n)))
    pos = np.sort(rng_from(seed).choice(n, size=m, replace=False))
    out = original.iloc[pos][list(known_cols)].copy()
    if truth is not None:
        (truth,) = check_columns(original, [truth], role="truth")
        if truth in known_cols:
            raise ValueError(f"`truth` column {truth!r} is also in `known`; the attacker cannot know it.")
        out[truth] = original[truth].to_numpy()[pos]
    else:
        if TARGET_COLUMN in known_cols:
            raise ValueError(f"a known QI is named {TARGET_COLUMN!r}, the truth column's name; pass `truth=`.")
        out[TARGET_COLUMN] = original.index.to_numpy()[pos]
    return out


def simulate_linkage_attack(
    original: pd.DataFrame,
    released: pd.DataFrame,
    known: str | Sequence[str],
    *,
    share: float = 0.1,
    seed: int = 0,
    truth: str | None = None,
    method: str = "exact",
    numeric: Sequence[str] | None = None,
    missing: MissingKind | MissingRule = "wildcard",
    scale: bool = True,
    tol: float = 1e-9,
) -> LinkageResult:
    """Draw an attacker's file from `original` (:func:`draw_external`) and link it to `released`.

    The truth is the original record: the column `truth` (in both files) when given, else the
    index (the released file must keep the original's index, as every :mod:`sdc.protect`
    method does). Run it with ``released=original`` and then with the protected file, same
    seed, for the before/after figures.

    Examples
    --------
    >>> import sdc
    >>> df = sdc.load_example()
    >>> before = sdc.simulate_linkage_attack(df, df, ["age", "sex", "region"], share=0.2, seed=1)
    >>> round(before.precision_at_1, 3) == round(before.recall, 3)
    True
    """
    ext = draw_external(original, known, share=share, seed=seed, truth=truth)
    res = linkage_attack(released, ext, tuple(c for c in ext.columns if c != (truth or TARGET_COLUMN)),
                         truth=truth or TARGET_COLUMN, method=method, numeric=numeric, missing=missing, scale=scale,
                         tol=tol)
    params = {**res.parameters, "simulated": True, "share": float(share), "seed": int(seed), "known": list(res.on),
              "n_original": len(original)}
    return LinkageResult(method=res.method, on=res.on, numeric=res.numeric, missing=res.missing, truth=res.truth,
                         n_external=res.n_external, n_released=res.n_released, records=res.records,
                         parameters=params)
