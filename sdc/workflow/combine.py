"""Joining the per-domain files of one study into one analysis file (``sdc combine``).

Clinical data arrive in domains (CDISC SDTM: DM demographics, VS vital signs, LB laboratory,
SC subject characteristics, ...), each keyed by a subject id. :func:`combine_domains` joins
them into one record per subject, prefixing every column with its domain (``DM__AGE``) so
that names never clash and their origin stays visible.

* A *wide* domain must have one row per subject; duplicated subject ids are an ambiguous
  join and are refused, naming the domain and an example id.
* A *long* domain (one row per subject and test, e.g. LB with ``LBTESTCD``) is pivoted by
  its test-name column: one column per test (``LB__GLUC``), from the value column (by
  default the domain's ``<DOMAIN>STRESN``, ``<DOMAIN>STRESC`` or ``<DOMAIN>ORRES``, the first
  that exists). Two rows for the same subject and test are refused.
* A domain with several visits (VS at screening, baseline, week 4, ...) keeps one visit with
  ``visit={"VS": "BASELINE"}``: the rows whose visit column equals the value, the column being
  the domain's ``VISIT``, else ``AVISIT`` (CDISC SDTM/ADaM), or named: ``"VISITNUM=1"``.

The first domain defines the subjects (a left join), so a subject missing from another
domain gets missing values there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from sdc._validation import plain
from sdc.exceptions import DataFileError
from sdc.io import read_data

__all__ = ["combine_domains"]


def combine_domains(
    domains: Mapping[str, str | Path | pd.DataFrame],
    subject_id: str,
    *,
    long: Mapping[str, str] | None = None,
    value_column: str | None = None,
    visit: Mapping[str, str] | None = None,
    sep: str | None = None,
    na_values: str | Sequence[str] | None = None,
    text_columns: bool | Sequence[str] | None = None,
) -> pd.DataFrame:
    """One row per subject from several domain files or frames.

    Parameters
    ----------
    domains : mapping of domain name to a path or a DataFrame
        In join order; the first defines the subjects.
    subject_id : str
        The subject id column, present in every domain (``USUBJID`` in SDTM).
    long : mapping of domain name to its test-name column, optional
        Domains in long format, pivoted to one column per test.
    value_column : str, optional
        The value column of the long domains (default: see the module notes).
    visit : mapping of domain name to a visit, optional
        Keep only that visit's rows of the domain (before pivoting): ``"BASELINE"`` matches the
        domain's ``VISIT`` column, else its ``AVISIT``; ``"VISITNUM=1"`` names the column. The
        values are compared as text; a visit that no row has is refused.
    sep : str, optional
        CSV delimiter (default: detected).
    na_values, text_columns : optional
        How the files are read (:func:`sdc.io.read_data`): missing-value markers besides the
        empty field, and columns read as text (named as joined, ``DM__ZIP``; True: all).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> dm = pd.DataFrame({"USUBJID": ["a", "b"], "AGE": [30, 41]})
    >>> lb = pd.DataFrame({"USUBJID": ["a", "a", "b"], "LBTESTCD": ["GLUC", "HGB", "GLUC"],
    ...                    "LBSTRESN": [5.1, 13.0, 6.2]})
    >>> sdc.combine_domains({"DM": dm, "LB": lb}, "USUBJID", long={"LB": "LBTESTCD"}).columns.tolist()
    ['USUBJID', 'DM__AGE', 'LB__GLUC', 'LB__HGB']
    """
    if not domains:
        raise ValueError("`domains` must name at least one domain.")
    long = dict(long or {})
    visit = dict(visit or {})
    for what, given in (("long", long), ("visit", visit)):
        unknown = [d for d in given if d not in domains]
        if unknown:
            raise ValueError(f"`{what}` names domains that are not in `domains`: {', '.join(map(repr, unknown))}.")
    if text_columns is not None and not isinstance(text_columns, bool):
        names = [text_columns] if isinstance(text_columns, str) else list(text_columns)
        stray = [c for c in names if not any(str(c).startswith(f"{d}__") for d in domains)]
        if stray:  # otherwise silently read as numbers: no domain's file is asked for it
            raise ValueError(f"`text_columns` names columns that are not DOMAIN__COLUMN of a domain "
                             f"({', '.join(domains)}): {', '.join(map(repr, stray))}.")
    out: pd.DataFrame | None = None
    for name, source in domains.items():
        df = source.copy() if isinstance(source, pd.DataFrame) else read_data(
            source, sep=sep, na_values=na_values, text_columns=_domain_text(text_columns, name))
        where = f"domain {name!r}" + ("" if isinstance(source, pd.DataFrame) else f" ('{source}')")
        if subject_id not in df.columns:
            raise DataFileError(f"{where} has no subject id column {subject_id!r}.")
        if df[subject_id].isna().any():
            raise DataFileError(f"{where} has records without a subject id ({subject_id!r}).")
        if name in visit:
            df = _one_visit(df, visit[name], where)
        if name in long:
            df = _pivot(df, name, subject_id, long[name], value_column, where)
        else:
            dup = df[subject_id][df[subject_id].duplicated()]
            if len(dup):
                raise DataFileError(
                    f"{where} has {dup.nunique()} subject id(s) on more than one row (e.g. {plain(dup.iloc[0])!r}): "
                    f"a one-row-per-subject join would be ambiguous. If it is a long-format domain, give its "
                    f"test-name column (`long` {name}=COLUMN)."
                )
            df = df.rename(columns={c: f"{name}__{c}" for c in df.columns if c != subject_id})
        if out is not None:
            # Subjects missing from this domain get NA: integer columns as nullable integers, so
            # that they are not written as 170.0 (nor rounded past 2^53 through float).
            df = _nullable_integers(df, skip=subject_id)
        out = df if out is None else out.merge(df, on=subject_id, how="left", validate="one_to_one")
    assert out is not None
    return out.reset_index(drop=True)


def _one_visit(df: pd.DataFrame, spec: str, where: str) -> pd.DataFrame:
    """The rows of one visit: ``"VALUE"`` in the VISIT (else AVISIT) column, or ``"COLUMN=VALUE"``."""
    column, sep, value = str(spec).partition("=")
    if sep:
        if column not in df.columns:
            raise DataFileError(f"{where} has no visit column {column!r}.")
    else:
        value = column
        column = next((c for c in ("VISIT", "AVISIT") if c in df.columns), "")
        if not column:
            raise DataFileError(f"{where} has no VISIT or AVISIT column; name the visit column: `visit` DOMAIN=COLUMN=VALUE.")
    text = df[column].astype("string").str.strip()
    keep = (text == value.strip()).fillna(False).to_numpy(dtype=bool)
    if not keep.any():
        seen = ", ".join(repr(v) for v in text.dropna().unique()[:5])
        raise DataFileError(f"{where} has no row with {column} = {value!r} (its visits include {seen}).")
    return df[keep]


def _domain_text(text_columns: bool | Sequence[str] | None, domain: str) -> bool | list[str] | None:
    """The text columns of one domain's file, from the joined names (``DM__ZIP`` -> ``ZIP``)."""
    if text_columns is None or isinstance(text_columns, bool):
        return text_columns
    prefix = f"{domain}__"
    return [c[len(prefix):] for c in text_columns if c.startswith(prefix)] or None


def _pivot(df: pd.DataFrame, name: str, subject_id: str, test: str, value: str | None, where: str) -> pd.DataFrame:
    if test not in df.columns:
        raise DataFileError(f"{where} has no test-name column {test!r}.")
    if value is None:
        for cand in (f"{name}STRESN", f"{name}STRESC", f"{name}ORRES"):
            if cand in df.columns:
                value = cand
                break
        else:
            raise DataFileError(f"{where}: no value column found ({name}STRESN, {name}STRESC or {name}ORRES); "
                                "give --value-column.")
    elif value not in df.columns:
        raise DataFileError(f"{where} has no value column {value!r}.")
    dup = df.duplicated([subject_id, test])
    if dup.any():
        row = df[dup].iloc[0]
        raise DataFileError(f"{where} has more than one {plain(row[test])!r} result for subject {plain(row[subject_id])!r}; "
                            "pivoting one value per subject and test would be ambiguous.")
    # A subject without a test gets NA there: integer results as nullable integers (see above).
    wide = _nullable_integers(df[[subject_id, test, value]], skip=subject_id).pivot(index=subject_id, columns=test,
                                                                                   values=value)
    wide.columns = [f"{name}__{c}" for c in wide.columns]
    return wide.reset_index()


def _nullable_integers(df: pd.DataFrame, *, skip: str) -> pd.DataFrame:
    """`df` with its integer columns (other than `skip`) as pandas' nullable Int64."""
    ints = [c for c in df.columns if c != skip and pd.api.types.is_integer_dtype(df[c].dtype)
            and not pd.api.types.is_extension_array_dtype(df[c].dtype)]
    return df.astype({c: "Int64" for c in ints}) if ints else df
