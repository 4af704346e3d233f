"""Joining per-domain files (sdc combine): prefixes, pivoting, and refusing ambiguous joins."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sdc.cli.main import main
from sdc.workflow.combine import combine_domains
from sdc.exceptions import DataFileError

DM = pd.DataFrame({"USUBJID": ["S1", "S2", "S3"], "AGE": [34, 51, 67], "SEX": ["F", "M", "F"]})
VS = pd.DataFrame({"USUBJID": ["S2", "S1"], "HEIGHT": [181.0, 165.5]})
LB = pd.DataFrame({"USUBJID": ["S1", "S1", "S2", "S3", "S3"],
                   "LBTESTCD": ["GLUC", "HGB", "GLUC", "GLUC", "HGB"],
                   "LBSTRESN": [5.1, 13.2, 6.0, 4.8, 12.1],
                   "LBORRES": ["5.1", "13.2", "6.0", "4.8", "12.1"]})


def test_wide_and_long_domains_join_by_subject() -> None:
    out = combine_domains({"DM": DM, "VS": VS, "LB": LB}, "USUBJID", long={"LB": "LBTESTCD"})
    assert out.columns.tolist() == ["USUBJID", "DM__AGE", "DM__SEX", "VS__HEIGHT", "LB__GLUC", "LB__HGB"]
    assert out["USUBJID"].tolist() == ["S1", "S2", "S3"]  # the first domain's subjects, in its order
    assert out["VS__HEIGHT"].tolist()[:2] == [165.5, 181.0] and np.isnan(out["VS__HEIGHT"].iloc[2])
    assert out["LB__GLUC"].tolist() == [5.1, 6.0, 4.8]
    assert np.isnan(out.loc[1, "LB__HGB"])  # S2 had no HGB result
    # LBSTRESN (standardised numeric) is preferred over LBORRES by default
    assert out["LB__HGB"].dtype.kind == "f"


def test_value_column_can_be_chosen() -> None:
    out = combine_domains({"DM": DM, "LB": LB}, "USUBJID", long={"LB": "LBTESTCD"}, value_column="LBORRES")
    assert out["LB__GLUC"].tolist() == ["5.1", "6.0", "4.8"]


def test_inputs_are_not_changed() -> None:
    before = (DM.copy(), LB.copy())
    combine_domains({"DM": DM, "LB": LB}, "USUBJID", long={"LB": "LBTESTCD"})
    pd.testing.assert_frame_equal(DM, before[0])
    pd.testing.assert_frame_equal(LB, before[1])


def test_duplicate_subjects_in_a_wide_domain_are_refused() -> None:
    vs = pd.concat([VS, VS.iloc[[0]]])
    with pytest.raises(DataFileError, match=r"domain 'VS' has 1 subject id\(s\) on more than one row \(e\.g\. 'S2'\)"
                                            r".*ambiguous.*`long` VS=COLUMN"):
        combine_domains({"DM": DM, "VS": vs}, "USUBJID")


def test_two_results_for_one_test_are_refused() -> None:
    lb = pd.concat([LB, LB.iloc[[2]]])
    with pytest.raises(DataFileError, match=r"more than one 'GLUC' result for subject 'S2'"):
        combine_domains({"DM": DM, "LB": lb}, "USUBJID", long={"LB": "LBTESTCD"})


@pytest.mark.parametrize("domains, kwargs, message", [
    ({"DM": DM, "VS": VS.rename(columns={"USUBJID": "ID"})}, {}, r"domain 'VS' has no subject id column 'USUBJID'"),
    ({"DM": DM.assign(USUBJID=["S1", None, "S3"])}, {}, r"domain 'DM' has records without a subject id"),
    ({"DM": DM, "LB": LB}, {"long": {"LB": "TEST"}}, r"domain 'LB' has no test-name column 'TEST'"),
    ({"DM": DM, "LB": LB.drop(columns=["LBSTRESN", "LBORRES"])}, {"long": {"LB": "LBTESTCD"}},
     r"no value column found \(LBSTRESN, LBSTRESC or LBORRES\)"),
    ({"DM": DM, "LB": LB}, {"long": {"LB": "LBTESTCD"}, "value_column": "X"}, r"has no value column 'X'"),
    ({"DM": DM}, {"long": {"LB": "LBTESTCD"}}, r"`long` names domains that are not in `domains`: 'LB'"),
    ({}, {}, r"at least one domain"),
])
def test_errors_name_the_domain_and_column(domains: dict, kwargs: dict, message: str) -> None:
    with pytest.raises((DataFileError, ValueError), match=message):
        combine_domains(domains, "USUBJID", **kwargs)


def test_files_are_read_and_named_in_errors(tmp_path: Path) -> None:
    DM.to_csv(tmp_path / "dm.csv", index=False)
    pd.concat([VS, VS]).to_csv(tmp_path / "vs.csv", index=False)
    with pytest.raises(DataFileError, match=r"domain 'VS' \('.*vs\.csv'\)"):
        combine_domains({"DM": tmp_path / "dm.csv", "VS": tmp_path / "vs.csv"}, "USUBJID")


@given(n=st.integers(1, 12), tests=st.lists(st.sampled_from(["A", "B", "C"]), min_size=1, max_size=3, unique=True),
       seed=st.integers(0, 2**16))
def test_pivot_matches_a_dictionary_reference(n: int, tests: list[str], seed: int) -> None:
    rng = np.random.default_rng(seed)
    subjects = [f"s{i}" for i in range(n)]
    rows = [(s, t, float(rng.integers(0, 100))) for s in subjects for t in tests if rng.random() < 0.7]
    lb = pd.DataFrame(rows, columns=["ID", "LBTESTCD", "LBSTRESN"])
    dm = pd.DataFrame({"ID": subjects, "X": rng.integers(0, 5, n)})
    out = combine_domains({"DM": dm, "LB": lb}, "ID", long={"LB": "LBTESTCD"})
    ref = {(s, t): v for s, t, v in rows}
    assert out["ID"].tolist() == subjects
    for t in sorted({t for _, t, _ in rows}):
        got = out[f"LB__{t}"].tolist()
        want = [ref.get((s, t), np.nan) for s in subjects]
        assert [g if g == g else None for g in got] == [w if w == w else None for w in want]


def test_integers_stay_integers_when_a_subject_lacks_a_domain_or_test(tmp_path) -> None:
    """A subject missing from VS made VS__HEIGHT float (written 170.0); a subject without a
    test did the same to the pivoted column; and an id past 2^53 would have been rounded."""
    (tmp_path / "dm.csv").write_text("USUBJID,AGE\n1,30\n2,40\n3,50\n", encoding="utf-8")
    (tmp_path / "vs.csv").write_text(f"USUBJID,HEIGHT,BIG\n1,170,{2 ** 53 + 1}\n2,180,7\n", encoding="utf-8")
    (tmp_path / "lb.csv").write_text("USUBJID,LBTESTCD,LBSTRESN\n1,GLUC,5\n1,HGB,13\n2,GLUC,6\n", encoding="utf-8")
    df = combine_domains({n: tmp_path / f"{n.lower()}.csv" for n in ("DM", "VS", "LB")}, "USUBJID",
                         long={"LB": "LBTESTCD"})
    assert df["VS__HEIGHT"].tolist()[:2] == [170, 180] and pd.isna(df["VS__HEIGHT"].iloc[2])
    assert df["VS__BIG"].iloc[0] == 2 ** 53 + 1
    assert df["LB__HGB"].iloc[0] == 13 and pd.isna(df["LB__HGB"].iloc[1])
    out = tmp_path / "out.csv"
    assert main(["combine", *(f"{n}={tmp_path / (n.lower() + '.csv')}" for n in ("DM", "VS", "LB")),
                 "--subject-id", "USUBJID", "--long", "LB=LBTESTCD", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").splitlines()[1:] == [
        f"1,30,170,{2 ** 53 + 1},5,13", "2,40,180,7,6,", "3,50,,,,"]


# --- issue 26, item 6: one visit of a multi-visit domain


def _visits(tmp_path):
    import pandas as pd

    dm = pd.DataFrame({"USUBJID": ["a", "b"], "AGE": [30, 41]})
    vs = pd.DataFrame({"USUBJID": ["a", "a", "b", "b"], "VSTESTCD": ["WEIGHT"] * 4,
                       "VISIT": ["SCREENING", "BASELINE", "SCREENING", "BASELINE"], "VISITNUM": [1, 2, 1, 2],
                       "VSSTRESN": [70.0, 71.0, 80.0, 82.0]})
    dm.to_csv(tmp_path / "dm.csv", index=False)
    vs.to_csv(tmp_path / "vs.csv", index=False)
    return dm, vs


def test_combine_keeps_one_visit_of_a_long_domain(tmp_path):
    import pytest

    from sdc.exceptions import DataFileError
    from sdc.workflow.combine import combine_domains

    dm, vs = _visits(tmp_path)
    with pytest.raises(DataFileError, match="more than one 'WEIGHT' result"):
        combine_domains({"DM": dm, "VS": vs}, "USUBJID", long={"VS": "VSTESTCD"})
    out = combine_domains({"DM": dm, "VS": vs}, "USUBJID", long={"VS": "VSTESTCD"}, visit={"VS": "BASELINE"})
    assert out["VS__WEIGHT"].tolist() == [71.0, 82.0]
    out = combine_domains({"DM": dm, "VS": vs}, "USUBJID", long={"VS": "VSTESTCD"}, visit={"VS": "VISITNUM=1"})
    assert out["VS__WEIGHT"].tolist() == [70.0, 80.0]
    with pytest.raises(DataFileError, match="no row with VISIT = 'WEEK 4'"):
        combine_domains({"DM": dm, "VS": vs}, "USUBJID", long={"VS": "VSTESTCD"}, visit={"VS": "WEEK 4"})


def test_combine_cli_and_config_visit(tmp_path, capsys):
    import pandas as pd

    from sdc.cli.main import main
    from sdc.workflow.config import _toml_module, from_mapping, to_toml

    _visits(tmp_path)
    out = tmp_path / "joined.csv"
    assert main(["combine", f"DM={tmp_path / 'dm.csv'}", f"VS={tmp_path / 'vs.csv'}", "--subject-id", "USUBJID",
                 "--long", "VS=VSTESTCD", "--visit", "VS=BASELINE", "--out", str(out)]) == 0
    assert pd.read_csv(out)["VS__WEIGHT"].tolist() == [71.0, 82.0]
    cfg = from_mapping({"data": {"domains": {"DM": str(tmp_path / "dm.csv"), "VS": str(tmp_path / "vs.csv")},
                                 "subject_id": "USUBJID", "long": {"VS": "VSTESTCD"}, "visit": {"VS": "BASELINE"}},
                        "variables": {"categorical_keys": ["DM__AGE"]}})
    assert cfg.visits == {"VS": "BASELINE"}
    assert from_mapping(_toml_module().loads(to_toml(cfg))) == cfg
