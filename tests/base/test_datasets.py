"""The bundled example: reproducible from its seeded script, loadable, with sensible roles."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import sdc
from sdc.datasets import EXAMPLE_ROLES, example_path

ROOT = Path(__file__).resolve().parents[2]


def test_committed_csv_is_what_the_seeded_script_writes(tmp_path):
    out = tmp_path / "regenerated.csv"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_example_data.py"), "--out", str(out)],
                   check=True, capture_output=True)
    assert out.read_bytes() == Path(example_path()).read_bytes()


def test_load_example_and_roles():
    df = sdc.load_example()
    assert df.shape == (4125, 14)
    assert df["subject_id"].is_unique
    for col in [EXAMPLE_ROLES["id"], EXAMPLE_ROLES["weights"], EXAMPLE_ROLES["household"], *EXAMPLE_ROLES["keys"],
                *EXAMPLE_ROLES["sensitive"]]:
        assert col in df.columns
    assert (df["weight"] >= 1).all() and df["marital_status"].isna().any()
    df.loc[0, "age"] = -1
    assert sdc.load_example().loc[0, "age"] != -1  # a fresh copy each time
