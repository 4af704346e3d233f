"""sdc.redact: identifiers inside text replaced by typed placeholders; the identification counts
the same patterns in free text and finds names, ZIP codes and record numbers under neutral
column names (issue 32 item 3)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.protect.text_patterns import TEXT_PATTERNS

NOTE = ("Seen by Dr. Smith on 03/04/2021; MRN: 4471123, call (617) 555-0101 or mail john.doe@x.org; "
        "SSN 123-45-6789; lives MA 02139; see www.x.org/a and 10.0.0.1. Mary Jones visited.")


def test_every_kind_is_replaced_by_its_placeholder() -> None:
    df = pd.DataFrame({"note": [NOTE, None, "nothing to see"], "n": [1, 2, 3]})
    r = sdc.redact(df, "note")
    assert r.data["note"].iloc[0] == ("Seen by [NAME] on [DATE]; [MRN], call [PHONE] or mail [EMAIL]; SSN [SSN]; "
                                      "lives [ZIP]; see [URL] and [IP]. [NAME] visited.")
    assert pd.isna(r.data["note"].iloc[1]) and r.data["note"].iloc[2] == "nothing to see"
    assert r.changed["note"] == 1 and r.details["note"]["[NAME]"] == 1
    assert r.data["n"].tolist() == [1, 2, 3] and df["note"].iloc[0] == NOTE  # pure


def test_categories_choose_what_is_redacted() -> None:
    r = sdc.redact(pd.DataFrame({"note": [NOTE]}), "note", categories=["F", "G"])
    assert "[EMAIL]" in r.data["note"].iloc[0] and "[SSN]" in r.data["note"].iloc[0]
    assert "(617) 555-0101" in r.data["note"].iloc[0]
    with pytest.raises(ValueError, match="categories"):
        sdc.redact(pd.DataFrame({"note": [NOTE]}), "note", categories=["Z"])


def test_redacted_text_holds_no_pattern_any_more() -> None:
    """Brute force over every pattern: after redaction no pattern matches anywhere."""
    df = pd.DataFrame({"note": [NOTE] * 3 + ["Linda Garcia, 2020-01-05, zip 10001, 212-555-0199"]})
    out = sdc.redact(df, "note").data["note"]
    for p in TEXT_PATTERNS:
        assert not out.str.contains(p.regex).any(), p.placeholder


def test_a_plan_step_redacts() -> None:
    df = pd.DataFrame({"note": [NOTE, "ok"], "age": [30, 40]})
    run = sdc.protect_data(df, [{"method": "redact", "variables": ["note"]}], reassess=False)
    assert "[EMAIL]" in run.released["note"].iloc[0]


def test_free_text_is_counted_per_category_and_not_taken_for_a_code() -> None:
    n = 200
    notes = [f"visit {i}: follow up in two weeks, write to pat{i}@mail.org" if i % 4 == 0 else
             f"visit {i}: no change, SSN 123-45-{6000 + i:04d} on file" if i % 4 == 1 else
             f"visit {i}: routine check with nothing to note" for i in range(n)]
    sh = sdc.safe_harbor(pd.DataFrame({"notes": notes}))
    found = {f.code: f for f in sh.findings}
    assert set(found) == {"F", "G"} and found["F"].records == 50 and found["G"].records == 50
    assert found["F"].evidence == "free text" and "25.0%" in found["F"].detail
    clean = sdc.redact(pd.DataFrame({"notes": notes}), "notes").data
    assert sdc.safe_harbor(clean).found == ()


def test_neutral_names_holding_names_zip_codes_and_record_numbers() -> None:
    rng = np.random.default_rng(3)
    n = 300
    df = pd.DataFrame({"field_a": rng.choice(["Mary Smith", "John Brown", "Linda Garcia", "James Lee"], n),
                       "code_b": rng.choice(["02139", "10001", "03601", "94110"], n),
                       "ref": (rng.permutation(n) + 100000).astype(str),
                       "score": rng.choice(["12345", "23456", "34567"], n)})
    sh = sdc.safe_harbor(df)
    assert sh.columns_of("A") == ("field_a",) and sh.columns_of("B") == ("code_b",)
    assert sh.columns_of("R") == ("ref",) and not sh.of_column("score")
