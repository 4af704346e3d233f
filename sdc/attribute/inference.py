"""Inference of a sensitive variable from released ones, and class homogeneity.

Attribute disclosure does not need an identified record: if a released variable Z
determines the sensitive variable S (in a trial file, the treatment arm determines the
treatment flag), anyone who knows a person's Z learns their S. :func:`inference_risk`
looks for single variables and pairs Z that determine S exactly or nearly, using the
empirical conditional distribution P(S | Z):

* conditional entropy H(S | Z) = -sum_{z,s} P(z, s) log2 P(s | z), in bits (0: S is a
  function of Z);
* the largest posterior max_{z, s} P(S = s | Z = z);
* the uncertainty coefficient U(S | Z) = (H(S) - H(S | Z)) / H(S) (Theil's U: the share of
  the uncertainty about S that Z removes);
* the share of records whose own value of S has posterior P(S = s_i | Z = z_i) >= p;
* deterministic: H(S | Z) = 0, i.e. every level of Z maps to one value of S.

Levels of Z with fewer than `min_count` records (default 2) are left out: a level seen once
is a sample unique, an identity-disclosure matter (see :func:`sdc.k_anonymity`), and says
nothing about a mapping. Records with S missing are left out; a missing Z is a level.

:func:`homogeneity` is the same view per equivalence class of the keys: each class's
dominant sensitive value, its share in the class, and its lift over the file-wide share.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, check_fraction, check_frame, check_int, check_keys
from sdc.core.binning import BinSpec, apply_binning
from sdc.core.classes import cells, dominant_values, encode_sensitive, equivalence_classes
from sdc.core.keys import dense_ids, encode_keys, sparse_counts

__all__ = ["InferenceResult", "inference_risk", "HomogeneityResult", "homogeneity", "FINDING_COLUMNS"]

FINDING_COLUMNS = ("variables", "sensitive", "deterministic", "max_posterior", "conditional_entropy",
                   "uncertainty_coefficient", "pct_records_revealed", "n_records_revealed", "n_levels")


@dataclass(frozen=True, slots=True, kw_only=True)
class InferenceResult:
    """Result of :func:`inference_risk`.

    Attributes
    ----------
    sensitive : str
    min_posterior : float
        The posterior p for "revealed".
    min_count : int
        Levels of Z with fewer records are left out.
    entropy : float
        H(S) in bits over the records with S observed.
    findings : pandas.DataFrame
        One row per variable or pair, columns ``FINDING_COLUMNS``, most revealing first
        (by share of records revealed, then by conditional entropy).
    skipped : tuple of str
        Candidates left out because they have more than `max_levels` distinct values
        (identifiers, continuous variables: bin them first to include them).
    """

    sensitive: str
    min_posterior: float
    min_count: int
    n_records: int
    entropy: float
    findings: pd.DataFrame = field(repr=False)
    skipped: tuple[str, ...] = ()

    @property
    def deterministic(self) -> pd.DataFrame:
        """The findings where Z determines S exactly (attribute disclosure)."""
        return self.findings[self.findings["deterministic"]]

    def to_frame(self) -> pd.DataFrame:
        return self.findings

    def summary(self) -> pd.DataFrame:
        """The headline figures as rows of (statistic, value, description)."""
        f = self.findings
        return summary_frame([
            ("sensitive", self.sensitive, "the sensitive variable"),
            ("n_records", self.n_records, "records with the sensitive value observed"),
            ("entropy", self.entropy, "entropy H(S), bits"),
            ("n_deterministic", len(self.deterministic), "released variables or pairs that determine it exactly"),
            ("max_posterior", float(f["max_posterior"].max()) if len(f) else float("nan"),
             "highest posterior of a value given a variable or pair"),
            ("n_findings", len(f), "variables and pairs tested"),
        ])


def inference_risk(
    data: pd.DataFrame,
    sensitive: str,
    *,
    candidates: Sequence[str] | None = None,
    min_posterior: float = 0.95,
    min_count: int = 2,
    pairs: bool = True,
    max_levels: int = 100,
    bins: Mapping[str, BinSpec] | None = None,
    progress: bool = False,
) -> InferenceResult:
    """Which released variables, alone or in pairs, reveal `sensitive`.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    sensitive : str
        The sensitive variable S.
    candidates : sequence of str, optional
        Variables to test (default: every other column with at most `max_levels` values).
    min_posterior : float in (0, 1], default 0.95
        A record's S counts as revealed when P(S = s_i | Z = z_i) >= this.
    min_count : int >= 1, default 2
        Levels of Z with fewer records are left out (see the module notes).
    pairs : bool, default True
        Also test pairs of candidates (skipping pairs with a member that alone determines S).
    max_levels : int, default 100
        Default candidates with more distinct values are skipped (and listed).
    bins : mapping, optional
        Bins applied first (:mod:`sdc.core.binning`), to candidates or to `sensitive` itself:
        with a banded sensitive variable, a record is revealed when its band is.
    progress : bool, default False
        A progress bar over the pairs (the longest part on a large file).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"arm": ["A", "A", "B", "B"], "flag": [1, 1, 0, 0], "sex": ["f", "m", "f", "m"]})
    >>> r = sdc.inference_risk(df, "flag")
    >>> top = r.findings.iloc[0]
    >>> top["variables"], bool(top["deterministic"])
    (('arm',), True)
    """
    check_frame(data)
    data, _ = apply_binning(data, bins)
    (s_name,) = check_columns(data, [sensitive], role="sensitive")
    min_posterior = check_fraction(min_posterior, "min_posterior", closed="right")
    min_count = check_int(min_count, "min_count", min_value=1)
    max_levels = check_int(max_levels, "max_levels", min_value=1)
    skipped: list[str] = []
    if candidates is None:
        cands = []
        for col in data.columns:
            if col == s_name:
                continue
            (cands if data[col].nunique(dropna=False) <= max_levels else skipped).append(col)
    else:
        cands = list(check_columns(data, candidates, role="candidates"))
        if s_name in cands:
            raise ValueError(f"`candidates` may not include the sensitive variable {s_name!r}.")
    sens = encode_sensitive(data, s_name)
    obs = sens.codes >= 0
    if not obs.any():
        raise ValueError(f"sensitive variable {s_name!r} is missing in every record.")
    s_codes = sens.codes[obs]
    q = np.bincount(s_codes, minlength=sens.n_values) / s_codes.size
    h_s = float(-(q[q > 0] * np.log2(q[q > 0])).sum()) + 0.0  # + 0.0: one value gives 0, not -0.0
    # With every record observed (the usual case) the columns are encoded where they are, not copied.
    enc = encode_keys(data if obs.all() else data.loc[obs, cands], tuple(cands)) if cands else None

    rows = []
    singles_det: set[str] = set()
    for i, v in enumerate(cands):
        row = _finding((v,), enc.subset((i,)).pattern, s_codes, sens.n_values, min_posterior, min_count, h_s)
        rows.append(row)
        if row["deterministic"]:
            singles_det.add(v)
    if pairs:
        todo: Iterable[tuple[int, int]] = combinations(range(len(cands)), 2)
        if progress:
            from sdc.core.progress import progress_bar

            n_pairs = len(cands) * (len(cands) - 1) // 2
            todo = progress_bar(todo, desc=f"inference of {s_name} (pairs of variables)", unit="pair", total=n_pairs)
        for i, j in todo:
            if cands[i] in singles_det or cands[j] in singles_det:
                continue
            rows.append(_finding((cands[i], cands[j]), enc.subset((i, j)).pattern, s_codes, sens.n_values,
                                 min_posterior, min_count, h_s))
    findings = pd.DataFrame(rows, columns=list(FINDING_COLUMNS))
    findings["sensitive"] = s_name
    findings = findings.sort_values(["pct_records_revealed", "conditional_entropy", "n_levels"],
                                    ascending=[False, True, True], kind="stable").reset_index(drop=True)
    return InferenceResult(sensitive=s_name, min_posterior=min_posterior, min_count=min_count,
                           n_records=int(obs.sum()), entropy=h_s, findings=findings, skipped=tuple(skipped))


def _finding(variables: tuple[str, ...], z: np.ndarray, s: np.ndarray, m: int, min_posterior: float,
             min_count: int, h_s: float) -> dict[str, object]:
    """The inference measures of S from one variable or pair, with level ids `z`."""
    zid, nz = dense_ids(z)
    n_z = np.bincount(zid, minlength=nz)
    kept = n_z[zid] >= min_count
    cell = zid[kept] * m + s[kept]
    ids, cnt = sparse_counts(cell, nz * m)
    zc = ids // m
    post = cnt / n_z[zc]
    n = s.size
    n_kept = int(kept.sum())
    h = float(-(cnt * np.log2(post)).sum() / n_kept) + 0.0 if n_kept else float("nan")
    revealed = int(cnt[post >= min_posterior].sum())
    n_levels = int(np.count_nonzero(np.bincount(zc, minlength=nz))) if zc.size else 0
    return {
        "variables": variables,
        "sensitive": None,
        "deterministic": bool(n_kept > 0 and ids.size == n_levels),  # one value of S per level
        "max_posterior": float(post.max()) if post.size else float("nan"),
        "conditional_entropy": h,
        "uncertainty_coefficient": (h_s - h) / h_s + 0.0 if h_s > 0 and n_kept else float("nan"),
        "pct_records_revealed": 100.0 * revealed / n,
        "n_records_revealed": revealed,
        "n_levels": n_levels,
    }


@dataclass(frozen=True, slots=True, kw_only=True)
class HomogeneityResult:
    """Result of :func:`homogeneity`: per class ``dominant``, ``share`` and ``lift``, most
    homogeneous first; ``file_share`` is the dominant value's share in the whole file."""

    keys: tuple[str, ...]
    sensitive: str
    classes: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        return self.classes

    def homogeneous(self) -> pd.DataFrame:
        """Classes whose observed sensitive values are all the same."""
        return self.classes[self.classes["share"] == 1.0]

    def summary(self) -> pd.DataFrame:
        c = self.classes
        hom = c["share"] == 1.0
        rows = [
            ("n_classes", len(c), "equivalence classes"),
            ("n_homogeneous_classes", int(hom.sum()), f"classes whose observed {self.sensitive} values are all one"),
            ("n_records_homogeneous", int(c.loc[hom, "n_records"].sum()), "records in those classes"),
            ("max_lift", float(c["lift"].max()) if len(c) and c["lift"].notna().any() else float("nan"),
             "largest lift: share of the dominant value in a class / in the file"),
        ]
        return summary_frame(rows)


def homogeneity(data: pd.DataFrame, keys: str | Sequence[str], sensitive: str) -> HomogeneityResult:
    """Per equivalence class: the dominant sensitive value, its share and its lift.

    lift = share in the class / share in the file: how much more likely the class makes the
    dominant value than the file as a whole does (Li et al. 2007 call a class with a high
    lift a *skewness* problem, one with share 1 a *homogeneity* problem).

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : str or sequence of str
        Key variables (the equivalence classes).
    sensitive : str
        The sensitive variable (its missing values are left out of the shares).
    """
    check_frame(data)
    keys = check_keys(data, keys)
    (s_name,) = check_columns(data, [sensitive], role="sensitive")
    if s_name in keys:
        raise ValueError(f"`sensitive` variable {s_name!r} may not also be a key.")
    classes = equivalence_classes(data, keys)
    sens = encode_sensitive(data, s_name)
    obs = sens.codes >= 0
    q = np.bincount(sens.codes[obs], minlength=sens.n_values) / max(int(obs.sum()), 1)
    table = cells(classes, sens)
    dom, share = dominant_values(table, sens)
    lookup = {v: i for i, v in enumerate(sens.values)}
    file_share = np.array([q[lookup[d]] if d is not None else np.nan for d in dom])
    frame = classes.key_values(data)
    frame.insert(0, "class", np.arange(classes.n_classes))
    frame["n_records"] = classes.sizes
    frame["n_observed"] = np.bincount(classes.ids[obs], minlength=classes.n_classes)
    frame["dominant"] = dom
    frame["share"] = share
    frame["file_share"] = file_share
    frame["lift"] = share / file_share
    # Most homogeneous first; among equally homogeneous classes, the larger ones (a class of
    # one record is trivially homogeneous, and an identity-disclosure matter).
    frame = frame.sort_values(["share", "n_observed", "lift"], ascending=[False, False, False], kind="stable")
    return HomogeneityResult(keys=keys, sensitive=s_name, classes=frame.reset_index(drop=True))
