"""Suggested role of each column -- direct identifier, quasi-identifier, sensitive or other -- with reasons.

:func:`identify` runs the checks of this wing on every column and weighs them in a fixed
order; the first rule that applies decides the role, and every check that found something is
listed among the reasons:

1. a role set by the user (`roles`);
2. a Safe Harbor category that names a direct identifier (names, telephone and fax numbers,
   e-mail, SSN, medical record, health plan, account, certificate/licence, vehicle and device
   numbers, URLs, IP addresses, biometrics, photographs, other identifying codes)
   -> **direct identifier**;
3. missing in more than `missing_threshold` of the records -> **other** (dropped, as in
   Khan et al.'s pipeline);
4. constant -> **other**;
5. a sampling-weight or household-id column (by name, weights also >= 1) -> **other**, used as
   the weights or household of the starter configuration;
6. a Safe Harbor geographic unit smaller than a state, a date or an age -> **quasi-identifier**;
7. a name saying health, finances, beliefs or other special-category data -> **sensitive**;
8. a name saying demographics (sex, region, marital status, education, occupation, ...)
   -> **quasi-identifier**;
9. the g-distinct class (:mod:`sdc.identify.gdistinct`): sensitive -> **sensitive**,
   quasi-identifier -> **quasi-identifier**, non-sensitive -> **other**.

Names and value patterns are heuristics: the result is a starting point for a steward, who
can override any role (`roles`, ``sdc identify --role``, or by editing the starter config).
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import pandas as pd

from sdc._stats import summary_frame
from sdc._validation import check_columns, check_fraction, check_frame, check_int, did_you_mean
from sdc.identify._facts import ColumnFacts, column_facts, normalise_name
from sdc.identify.gdistinct import (
    ALPHA, BETA, GDistinctResult, check_gdistinct_options, gdistinct_from_facts,
)
from sdc.identify.hipaa import (
    CATEGORY, RESTRICTED_ZIP3, SAMPLE_VALUES, VALUE_SHARE, SafeHarborChecklist, _check_zip3, safe_harbor_from_facts,
)
from sdc.identify.duplicates import DuplicateReport, duplicate_report
from sdc.identify.proxies import ProxyResult, find_proxies
from sdc.identify.profile import MISSING_THRESHOLD, NEAR_CONSTANT, ProfileResult, profile_from_facts
from sdc.identify.vocabulary import Vocabulary, vocabulary_of
from sdc.identify.weights import weight_verdict

__all__ = ["IdentificationResult", "ColumnRole", "identify", "ROLES", "USES", "parse_role", "CONTINUOUS_MIN_VALUES"]

ROLES = ("direct identifier", "quasi-identifier", "sensitive", "other")
#: What a column of role "other" (or the record id) is used for in the starter configuration.
USES = ("id", "weights", "household")
#: A numeric quasi-identifier with more distinct values than this is a continuous key (banded).
CONTINUOUS_MIN_VALUES = 20

_ALIASES = {
    "direct identifier": ("direct identifier", None), "direct": ("direct identifier", None),
    "identifier": ("direct identifier", None), "quasi-identifier": ("quasi-identifier", None),
    "quasi identifier": ("quasi-identifier", None), "quasi": ("quasi-identifier", None),
    "qi": ("quasi-identifier", None), "qid": ("quasi-identifier", None), "key": ("quasi-identifier", None),
    "sensitive": ("sensitive", None), "other": ("other", None), "none": ("other", None),
    "ignore": ("other", None), "id": ("direct identifier", "id"), "weights": ("other", "weights"),
    "weight": ("other", "weights"), "household": ("other", "household"),
}


def parse_role(text: object, column: object = None) -> tuple[str, str | None]:
    """A role as the user writes it (``direct``, ``qi``, ``key``, ``sensitive``, ``other``, ``id``,
    ``weights``, ``household``, or a full role name) -> (role, use)."""
    where = f" for column {column!r}" if column is not None else ""
    if not isinstance(text, str):
        raise TypeError(f"a role{where} must be a string; got {text!r}.")
    key = re.sub(r"[\s_-]+", " ", text.strip().lower())
    key = "quasi-identifier" if key == "quasi identifier" else key
    if key not in _ALIASES:
        raise ValueError(f"unknown role {text!r}{where}; use one of: direct identifier, quasi-identifier, sensitive, "
                         "other (or direct, qi, key, id, weights, household).")
    return _ALIASES[key]


@dataclass(frozen=True, slots=True)
class ColumnRole:
    """The suggested role of one column.

    Attributes
    ----------
    column : str
    role : str
        ``"direct identifier"``, ``"quasi-identifier"``, ``"sensitive"`` or ``"other"``.
    reasons : tuple of str
        The deciding reason first, then every other check that found something.
    use : str or None
        ``"id"`` (the record id of the report's per-record files), ``"weights"`` or
        ``"household"``: how the starter configuration uses the column.
    hipaa : tuple of str
        Safe Harbor categories found in the column (letters A-R), allowed ones included.
    kind : str
        integer, number, boolean, date or text.
    continuous : bool
        A numeric column with more than 20 distinct values (banded in the starter config).
    gdistinct_rate : float
        Re-identification risk rate (NaN for a dropped column).
    gdistinct_class : str or None
    overridden : bool
        Set by the user.
    dropped : bool
        Missing above the threshold.
    """

    column: str
    role: str
    reasons: tuple[str, ...]
    use: str | None
    hipaa: tuple[str, ...]
    kind: str
    continuous: bool
    gdistinct_rate: float
    gdistinct_class: str | None
    overridden: bool = False
    dropped: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class IdentificationResult:
    """Result of :func:`identify`.

    Attributes
    ----------
    n_records : int
    columns : tuple of ColumnRole
        One per column, in the data's order.
    profile : ProfileResult
    gdistinct : GDistinctResult
        The g-distinct rates of the columns not dropped.
    safe_harbor : SafeHarborChecklist
    parameters : dict
        missing_threshold, near_constant, alpha, beta, average.
    duplicates : DuplicateReport
        Repeated records and ids, and the unique share on the categorical keys with and
        without them (:mod:`sdc.identify.duplicates`).
    proxies : ProxyResult
        Columns determining a key or sensitive variable (:mod:`sdc.identify.proxies`).
    """

    n_records: int
    columns: tuple[ColumnRole, ...]
    profile: ProfileResult = field(repr=False)
    gdistinct: GDistinctResult = field(repr=False)
    safe_harbor: SafeHarborChecklist = field(repr=False)
    parameters: Mapping[str, Any] = field(repr=False)
    duplicates: DuplicateReport | None = field(default=None, repr=False)
    proxies: ProxyResult | None = field(default=None, repr=False)

    @property
    def roles(self) -> dict[str, str]:
        """The role of each column."""
        return {c.column: c.role for c in self.columns}

    def role_of(self, column: str) -> ColumnRole:
        for c in self.columns:
            if c.column == column:
                return c
        raise KeyError(column)

    def with_role(self, role: str) -> tuple[str, ...]:
        if role not in ROLES:
            raise ValueError(f"`role` must be one of {', '.join(map(repr, ROLES))}; got {role!r}.")
        return tuple(c.column for c in self.columns if c.role == role)

    @property
    def direct_identifiers(self) -> tuple[str, ...]:
        return self.with_role("direct identifier")

    @property
    def quasi_identifiers(self) -> tuple[str, ...]:
        return self.with_role("quasi-identifier")

    @property
    def sensitive(self) -> tuple[str, ...]:
        return self.with_role("sensitive")

    @property
    def dropped(self) -> tuple[str, ...]:
        return tuple(c.column for c in self.columns if c.dropped)

    def used_as(self, use: str) -> str | None:
        """The column used as ``"id"``, ``"weights"`` or ``"household"`` (or None)."""
        return next((c.column for c in self.columns if c.use == use), None)

    def to_frame(self) -> pd.DataFrame:
        """One row per column: role, use, reasons (joined by '; '), Safe Harbor categories,
        g-distinct rate and class, kind, missing share, distinct values, and the flags."""
        prof = self.profile.table.set_index("column")
        rows = []
        for c in self.columns:
            p = prof.loc[c.column]
            rows.append([c.column, c.role, c.use, "; ".join(c.reasons), ",".join(c.hipaa), c.gdistinct_rate,
                         c.gdistinct_class, c.kind, c.continuous, float(p["missing_share"]), int(p["n_distinct"]),
                         c.overridden, c.dropped])
        return pd.DataFrame(rows, columns=["column", "role", "use", "reasons", "safe_harbor", "gdistinct_rate",
                                           "gdistinct_class", "kind", "continuous", "missing_share", "n_distinct",
                                           "overridden", "dropped"])

    def summary(self) -> pd.DataFrame:
        """The suggested roles as rows of (statistic, value, description), then the parameters."""
        return summary_frame([
            ("n_records", self.n_records, "records"), ("n_columns", len(self.columns), "columns"),
            ("direct_identifiers", list(self.direct_identifiers), "suggested direct identifiers"),
            ("quasi_identifiers", list(self.quasi_identifiers), "suggested quasi-identifiers"),
            ("sensitive", list(self.sensitive), "suggested sensitive variables"),
            ("other", list(self.with_role("other")), "the other columns"),
            ("dropped", list(self.dropped), "columns left out"),
            ("id", self.used_as("id"), "the record id column"), ("weights", self.used_as("weights"), "sampling weights"),
            ("household", self.used_as("household"), "the household id column"),
            ("safe_harbor_found", list(self.safe_harbor.found), "Safe Harbor categories found"),
            ("duplicate_records", self.duplicates.n_duplicate_records if self.duplicates else None,
             "records identical to an earlier one"),
            ("repeated_ids", self.duplicates.n_repeated_ids if self.duplicates else None,
             "records repeating an earlier id"),
            ("proxies", [f"{p.column} -> {p.target}" for p in self.proxies.proxies] if self.proxies else [],
             "columns determining a key or sensitive variable"),
            *((k, v, "parameter") for k, v in self.parameters.items()),
        ])

    def starter_config(self, data_path: str | None = None, *, sep: str | None = None,
                       source: str | None = None, **reading: Any) -> str:
        """A TOML configuration for ``sdc assess`` with the suggested roles (see
        :func:`sdc.identify.starter.starter_config`; `reading`: its ``na_values``,
        ``text_columns`` and ``sheet``)."""
        from sdc.identify.starter import starter_config

        return starter_config(self, data_path, sep=sep, source=source, **reading)


def identify(data: pd.DataFrame, variables: Sequence[str] | None = None, *,
             roles: Mapping[str, str] | None = None, missing_threshold: float = MISSING_THRESHOLD,
             near_constant: float = NEAR_CONSTANT, alpha: float = ALPHA, beta: float = BETA,
             average: str = "values", restricted_zip3: Sequence[str] = RESTRICTED_ZIP3,
             reference_year: int | None = None,
             vocabulary: Mapping[str, Sequence[str]] | Vocabulary | None = None) -> IdentificationResult:
    """Suggest each column's role, with reasons, and check HIPAA Safe Harbor.

    Parameters
    ----------
    data : pandas.DataFrame
        Read identifier-like codes as text so that leading zeros survive
        (``sdc.io.read_data(path, text_columns=True)``; ``sdc identify`` does this).
    variables : sequence of str, optional
        Columns to examine (default: all).
    roles : mapping of str to str, optional
        Roles set by the user, overriding the suggestions: ``"direct identifier"``,
        ``"quasi-identifier"``, ``"sensitive"``, ``"other"`` (or ``direct``, ``qi``, ``key``),
        and ``"id"``, ``"weights"``, ``"household"`` for the configuration's special columns.
    missing_threshold : float, default 0.85
        Columns missing in more than this share of records are dropped (role other).
    near_constant : float, default 0.95
        Share of the most frequent value above which a column is noted as near-constant.
    alpha, beta : float, default 0.10 and 0.01
        g-distinct thresholds (:func:`sdc.identify.gdistinct.g_distinct`).
    average : {"values", "records"}
        How the g-distinct rate averages: over the distinct values (default, Khan et al.'s
        published rates) or over the records (see :func:`~sdc.identify.gdistinct.g_distinct`).
    restricted_zip3 : sequence of str
        Restricted three-digit ZIP prefixes (default: HHS's list from the 2000 Census).
    reference_year : int, optional
        Year against which years of birth are checked for ages over 89 (default: this year).
    vocabulary : mapping, optional
        Words to add to the sensitive and demographic vocabularies
        (``{"sensitive": ["tribe"], "demographic": ["parish"]}``; see
        :mod:`sdc.identify.vocabulary`).

    Returns
    -------
    IdentificationResult
        ``.roles``, ``.to_frame()``, ``.summary()``, ``.safe_harbor`` (the checklist) and
        ``.starter_config()`` (TOML for ``sdc assess``).

    Examples
    --------
    >>> df = pd.DataFrame({"patient_id": [f"P{i:03d}" for i in range(40)],
    ...                    "sex": ["f", "m"] * 20, "diagnosis": ["flu", "none", "asthma", "none"] * 10})
    >>> identify(df).roles
    {'patient_id': 'direct identifier', 'sex': 'quasi-identifier', 'diagnosis': 'sensitive'}
    """
    data = check_frame(data)
    if variables is None and data.shape[1] == 0:
        raise ValueError("`data` has no columns to classify.")
    cols = list(data.columns) if variables is None else list(check_columns(data, variables, role="variables"))
    missing_threshold = check_fraction(missing_threshold, "missing_threshold")
    near_constant = check_fraction(near_constant, "near_constant", closed="right")
    alpha, beta, average = check_gdistinct_options(alpha, beta, average)
    restricted = _check_zip3(restricted_zip3)
    year = _dt.date.today().year if reference_year is None else check_int(reference_year, "reference_year",
                                                                           min_value=1, max_value=9999)
    overrides = _check_overrides(roles, cols)
    vocab = vocabulary_of(vocabulary)

    n = len(data)
    facts = [column_facts(data[c]) for c in cols]
    prof = profile_from_facts(facts, n, missing_threshold=missing_threshold, near_constant=near_constant)
    kept = [f for f, d in zip(facts, prof.table["dropped"]) if not d]
    gd = gdistinct_from_facts(kept, n, alpha=alpha, beta=beta, average=average)
    sh = safe_harbor_from_facts(facts, n, restricted_zip3=restricted, reference_year=year, value_share=VALUE_SHARE,
                                sample=SAMPLE_VALUES)
    rates, classes = gd.rates, gd.classes
    names = {c: normalise_name(c) for c in cols}
    out = []
    for f, prow in zip(facts, prof.table.to_dict("records")):
        ctx = _Context(sh, alpha, beta, missing_threshold, vocab, weight_verdict(f, data, names, vocab))
        out.append(_suggest(f, prow, rates.get(f.name, math.nan), classes.get(f.name), ctx, overrides.get(f.name)))
    out = _one_use_each(out)
    dups = _duplicates(data, facts, out)
    out = [_note_repeats(c, dups) for c in out]
    proxies = _proxies(data, out)
    out = [_note_proxies(c, proxies) for c in out]
    params = MappingProxyType({"missing_threshold": missing_threshold, "near_constant": near_constant, "alpha": alpha,
                               "beta": beta, "average": average})
    return IdentificationResult(n_records=n, columns=tuple(out), profile=prof, gdistinct=gd, safe_harbor=sh,
                                parameters=params, duplicates=dups, proxies=proxies)


def _check_overrides(roles: object, cols: list[str]) -> dict[str, tuple[str, str | None]]:
    if roles is None:
        return {}
    if not isinstance(roles, Mapping):
        raise TypeError(f"`roles` must be a mapping of column names to roles; got {type(roles).__name__}.")
    unknown = [c for c in roles if c not in cols]
    if unknown:
        parts = [f"{c!r}{did_you_mean(c, cols)}" for c in unknown]
        raise ValueError(f"`roles` names columns not examined: {', '.join(parts)}.")
    return {c: parse_role(r, c) for c, r in roles.items()}


# ---------------------------------------------------------------------------------------------
# Name hints (whole words of the normalised name).

def _words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"(?:^|_)(?:" + "|".join(alternatives) + r")(?:_|$)")


_HOUSEHOLD = _words("household", "hh", "hhid", "household_id", "household_number", "family_id", "dwelling",
                    "dwelling_id", "hhnum", "hh_num", "hh_no", "hh_id")
_HOUSEHOLD_VETO = _words("size", "income", "type", "head", "members", "composition", "count", "n", "weight", "wt",
                         "tenure", "expenditure")


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


@dataclass(frozen=True)
class _Context:
    """What every column's suggestion reads besides the column itself."""

    sh: SafeHarborChecklist
    alpha: float
    beta: float
    missing_threshold: float
    vocab: Vocabulary
    weight: tuple[bool, str] | None  # this column's sampling-weight verdict (None: not named like one)


def _suggest(f: ColumnFacts, prow: dict[str, Any], rate: float, cls: str | None, ctx: _Context,
             override: tuple[str, str | None] | None) -> ColumnRole:
    name = normalise_name(f.name)
    findings = ctx.sh.of_column(f.name)
    direct = [x for x in findings if CATEGORY[x.code].role == "direct identifier"]
    qi_found = [x for x in findings if CATEGORY[x.code].role == "quasi-identifier"]
    hipaa_txt = {x: f"HIPAA Safe Harbor ({x.code}) {CATEGORY[x.code].short}: {x.detail}" for x in findings}
    notes: list[str] = []
    if prow["one_per_record"]:
        notes.append("one value per record")
    if prow["near_constant"]:
        notes.append(f"near-constant: one value in {_pct(prow['top_share'])} of records; its rare values may "
                     "single records out")
    if 0 < prow["missing_share"] and not prow["dropped"]:
        notes.append(f"missing in {_pct(prow['missing_share'])} of records")
    gd_txt = None
    if cls is not None:
        band = {"sensitive": f"> alpha {_pct(ctx.alpha)}", "quasi-identifier": f"between beta {_pct(ctx.beta)} "
                f"and alpha {_pct(ctx.alpha)}", "non-sensitive": f"< beta {_pct(ctx.beta)}"}[cls]
        gd_txt = f"g-distinct rate {_pct(rate)} ({band}: {cls})"

    role, use, first = _decide(f, name, prow, direct, qi_found, hipaa_txt, cls, gd_txt, ctx)
    rest = [hipaa_txt[x] for x in findings if hipaa_txt[x] != first] + notes + ([gd_txt] if gd_txt and
                                                                               gd_txt != first else [])
    reasons = [first] + [r for r in rest if r != first]
    overridden = False
    if override is not None:
        new_role, new_use = override
        if new_use is None and new_role == "other" and use in ("weights", "household"):
            new_use = use  # "other" keeps a detected weights/household use
        reasons = [f"set by the user (suggested: {role})"] + reasons
        role, use, overridden = new_role, new_use, True
    continuous = f.kind in ("integer", "number") and f.n_distinct > CONTINUOUS_MIN_VALUES
    return ColumnRole(column=f.name, role=role, reasons=tuple(reasons), use=use,
                      hipaa=tuple(dict.fromkeys(x.code for x in findings)), kind=f.kind, continuous=continuous,
                      gdistinct_rate=float(rate), gdistinct_class=cls, overridden=overridden,
                      dropped=bool(prow["dropped"]))


def _sensitive_why(word: str | None) -> str:
    return (f"the name holds {word!r}, a word of the sensitive vocabulary (health, body and laboratory "
            "measurements, sexual behaviour, drug use, finances, beliefs)")


def _decide(f: ColumnFacts, name: str, prow: dict[str, Any], direct: list, qi_found: list, hipaa_txt: dict,
            cls: str | None, gd_txt: str | None, ctx: _Context) -> tuple[str, str | None, str]:
    if direct:
        use = "id" if any(x.code == "R" for x in direct) and prow["one_per_record"] else None
        return "direct identifier", use, hipaa_txt[direct[0]]
    if prow["dropped"]:
        return "other", None, (f"missing in {_pct(prow['missing_share'])} of records (> "
                               f"{_pct(ctx.missing_threshold)}): dropped from the identification, as in Khan et "
                               "al.'s pipeline")
    if prow["constant"]:
        return "other", None, "constant: the same value in every record, so it carries no information"
    if ctx.weight is not None:
        is_weight, why = ctx.weight
        return ("other", "weights", why) if is_weight else ("sensitive", None, why)
    if _HOUSEHOLD.search(name) and not _HOUSEHOLD_VETO.search(name) and f.n_distinct >= 2:
        return "other", "household", "looks like a household id (name): used for the household risk"
    sensitive = ctx.vocab.is_sensitive(name)
    if qi_found:
        if sensitive and all(x.code == "C" for x in qi_found) and re.search(r"(?:^|_)age", name):
            return "sensitive", None, (f"an age at a sensitive event (the name also holds "
                                       f"{ctx.vocab.word('sensitive', name)!r}, a word of the sensitive vocabulary): "
                                       + hipaa_txt[qi_found[0]])
        return "quasi-identifier", None, hipaa_txt[qi_found[0]]
    if sensitive:
        return "sensitive", None, _sensitive_why(ctx.vocab.word("sensitive", name))
    if ctx.vocab.is_demographic(name):
        extra = " (also a special category under GDPR Art. 9)" if re.search(r"ethnic|race", name) else ""
        return "quasi-identifier", None, (f"the name holds {ctx.vocab.word('demographic', name)!r}, a word of the "
                                          "demographic vocabulary: an attribute an intruder may know" + extra)
    if cls is None:  # not rated (cannot happen for a kept column); keep the column out of the assessment
        return "other", None, "not rated"
    role = {"sensitive": "sensitive", "quasi-identifier": "quasi-identifier", "non-sensitive": "other"}[cls]
    return role, None, str(gd_txt)


def _duplicates(data: pd.DataFrame, facts: list[ColumnFacts], cols: list[ColumnRole]) -> DuplicateReport:
    """Repeated records and ids (the id: the column used as the id, else the first direct identifier
    named like an identifying code, category R)."""
    id_col = next((c.column for c in cols if c.use == "id"), None)
    if id_col is None:
        id_col = next((c.column for c in cols if c.role == "direct identifier" and "R" in c.hipaa
                       and not c.dropped), None)
    keys = [c.column for c in cols if c.role == "quasi-identifier" and not c.continuous]
    return duplicate_report(data[[f.name for f in facts]], id_col, keys)


def _proxies(data: pd.DataFrame, cols: list[ColumnRole]) -> ProxyResult:
    targets = {c.column: ("key" if c.role == "quasi-identifier" else "sensitive variable") for c in cols
               if c.role in ("quasi-identifier", "sensitive") and not c.dropped}
    released = [c.column for c in cols if c.role != "direct identifier" and not c.dropped and c.use is None]
    return find_proxies(data, targets, released)


def _note_proxies(c: ColumnRole, proxies: ProxyResult) -> ColumnRole:
    from dataclasses import replace

    notes = tuple(f"proxy: {p.text()}" for p in proxies.proxies if p.column == c.column)
    return replace(c, reasons=c.reasons + notes) if notes else c


def _note_repeats(c: ColumnRole, dups: DuplicateReport) -> ColumnRole:
    from dataclasses import replace

    if c.column != dups.id_column or not dups.n_repeated_ids:
        return c
    return replace(c, reasons=c.reasons + (f"repeats: {dups.n_ids:,} ids in {dups.n_records:,} records",))


def _one_use_each(cols: list[ColumnRole]) -> list[ColumnRole]:
    """Keep each use (id, weights, household) on its first column only; user-set uses win."""
    from dataclasses import replace

    out = list(cols)
    for use in USES:
        idx = [i for i, c in enumerate(out) if c.use == use]
        if len(idx) <= 1:
            continue
        user = [i for i in idx if out[i].overridden]
        if len(user) > 1:
            raise ValueError(f"`roles` sets {use!r} on more than one column: "
                             f"{', '.join(repr(out[i].column) for i in user)}.")
        keep = user[0] if user else idx[0]
        for i in idx:
            if i != keep:
                out[i] = replace(out[i], use=None)
    return out
