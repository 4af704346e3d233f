"""delta-disclosure against pyCANON (IFCA-Advanced-Computing/pycanon, v1.3.5, Apache-2.0).

pyCANON's ``delta_disclosure`` takes the values present in each class, natural log; its own
tests expect 4.276666119016055 on StudentsMath_Score and 3.4275146899795286 on
StudentsMath_Score_k5 (tests/test_anonymity.py, tests/test_reports.py). The values below were
printed by pyCANON's ``aux_calculate_delta_disclosure`` on each of its processed test files,
with the quasi-identifiers and sensitive attributes of its examples/ scripts. The data files
are third-party data sets (their licences are their own), so they are not copied here: point
SDC_PYCANON_DATA at a folder holding pyCANON's data/processed/*.csv to run the comparison.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pandas as pd
import pytest

import sdc

DATA = Path(os.environ.get("SDC_PYCANON_DATA", "/work/shared/data/pycanon"))

MATH = (["Teacher", "Gender", "Ethnic", "Freeredu", "wesson"], "Score")
ADULT = (["age", "education", "occupation", "relationship", "sex", "native-country"], "salary-class")
AIRLINE = ["Gender", "Customer Type", "Age", "Type of Travel", "Class", "Flight Distance",
           "Departure Delay in Minutes", "Arrival Delay in Minutes"]
DRUG = (["Age", "Sex", "BP", "Cholesterol", "Na_to_K"], "Drug")
STROKE = (["gender", "age", "hypertension", "heart_disease", "ever_married", "work_type", "Residence_type",
           "smoking_status"], "stroke")

# file: (keys, sensitive, pyCANON's delta)
PYCANON = {
    ("StudentsMath_Score.csv", "Score"): (MATH[0], 4.276666119016055),
    ("StudentsMath_Score_k2.csv", "Score"): (MATH[0], 4.272025739459552),
    ("StudentsMath_Score_k5.csv", "Score"): (MATH[0], 3.4275146899795286),
    ("StudentsMath_Score_k7.csv", "Score"): (MATH[0], 2.2129729343043585),
    ("adult_anonymized_3.csv", "salary-class"): (ADULT[0], 2.9206129677828674),
    ("adult_anonymized_10.csv", "salary-class"): (ADULT[0], 2.803878920792833),
    ("adult_anonymized_20.csv", "salary-class"): (ADULT[0], 2.855304953356684),
    ("airline_passenger_sat.csv", "Departure/Arrival time convenient"): (AIRLINE, 2.93436516037339),
    ("airline_passenger_sat.csv", "On-board service"): (AIRLINE, 9.471781133222736),
    ("airline_passenger_sat.csv", "satisfaction"): (AIRLINE, 0.8232965561253236),
    ("airline_passenger_sat_k2.csv", "Departure/Arrival time convenient"): (AIRLINE, 2.9258005031544996),
    ("airline_passenger_sat_k2.csv", "On-board service"): (AIRLINE, 5.529230655126607),
    ("airline_passenger_sat_k2.csv", "satisfaction"): (AIRLINE, 3.0784063490591747),
    ("airline_passenger_sat_k5.csv", "Departure/Arrival time convenient"): (AIRLINE, 2.7313705534031354),
    ("airline_passenger_sat_k5.csv", "On-board service"): (AIRLINE, 4.147642256713348),
    ("airline_passenger_sat_k5.csv", "satisfaction"): (AIRLINE, 3.08386365570899),
    ("airline_passenger_sat_k10.csv", "Departure/Arrival time convenient"): (AIRLINE, 2.8137669055438557),
    ("airline_passenger_sat_k10.csv", "On-board service"): (AIRLINE, 4.0548772433216556),
    ("airline_passenger_sat_k10.csv", "satisfaction"): (AIRLINE, 3.1777866054766277),
    ("airline_passenger_sat_k20.csv", "Departure/Arrival time convenient"): (AIRLINE, 2.8197610658531698),
    ("airline_passenger_sat_k20.csv", "On-board service"): (AIRLINE, 4.0377097824142165),
    ("airline_passenger_sat_k20.csv", "satisfaction"): (AIRLINE, 3.1833953157682795),
    ("drug_type.csv", "Drug"): (DRUG[0], 2.525728644308255),
    ("drugs_k5.csv", "Drug"): (DRUG[0], 2.3677243951650073),
    ("healthcare-dataset-stroke-data.csv", "stroke"): (STROKE[0], 3.0215017867330425),
    ("stroke_k2.csv", "stroke"): (STROKE[0], 3.0640352519470047),
    ("stroke_k5.csv", "stroke"): (STROKE[0], 2.752908396662093),
    ("stroke_k10.csv", "stroke"): (STROKE[0], 2.008324049444222),
    ("stroke_k15.csv", "stroke"): (STROKE[0], 2.4147959413815157),
    ("stroke_k19.csv", "stroke"): (STROKE[0], 2.4143177210744695),
    ("stroke_k20.csv", "stroke"): (STROKE[0], 2.3986924031713888),
    ("stroke_k22.csv", "stroke"): (STROKE[0], 2.3986924031713888),
    ("stroke_k25.csv", "stroke"): (STROKE[0], 2.3839203179667625),
}


@pytest.mark.parametrize(("file", "sensitive"), sorted(PYCANON))
def test_delta_disclosure_equals_pycanon(file: str, sensitive: str) -> None:
    path = DATA / file
    if not path.exists():
        pytest.skip(f"pyCANON's test data {file} is not in {DATA} (set SDC_PYCANON_DATA)")
    keys, expected = PYCANON[(file, sensitive)]
    data = pd.read_csv(path)  # as pyCANON reads it (pandas' defaults)
    r = sdc.delta_disclosure(data, keys, sensitive)
    assert r.max_delta == expected  # bit-identical: log of the ratio, as pyCANON computes it
    assert sdc.delta_disclosure(data, keys, sensitive, variant="all").max_delta == float("inf")


def test_delta_disclosure_pycanon_definition_by_hand() -> None:
    # pyCANON: max over classes of max over the values present of |ln(p_class / p_file)|
    df = pd.DataFrame({"k": [1, 1, 1, 2, 2, 3], "s": ["a", "a", "b", "b", "b", "c"]})
    # file: a 2/6, b 3/6, c 1/6; class 1: a 2/3 (ln 2), b 1/3 (ln 1.5); class 2: b 1 (ln 2); class 3: c 1 (ln 6)
    r = sdc.delta_disclosure(df, ["k"], "s")
    assert list(r.classes["delta"]) == [pytest.approx(math.log(2)),
                                        pytest.approx(math.log(2)),
                                        pytest.approx(math.log(6))]
    assert r.max_delta == pytest.approx(math.log(6))
