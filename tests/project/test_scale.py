"""tests/scale.py: how SDC_TEST_SCALE thins the random cases of the chroot suites."""

from __future__ import annotations

import pytest

from tests import scale


def test_scale_one_keeps_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SDC_TEST_SCALE", raising=False)
    assert scale.scale() == 1 and scale.cases(100) == 100
    assert scale.thinned(["a", "b", "c"], marked=True) == [True, True, True]


def test_a_quarter_keeps_the_first_and_about_one_in_four(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDC_TEST_SCALE", "0.25")
    assert scale.cases(100) == 25 and scale.cases(120) == 30 and scale.cases(8) == 5 and scale.cases(3) == 3
    ids = [str(s) for s in range(2026, 2326)]
    kept = scale.thinned(ids, marked=True)
    assert kept[0] and 50 <= sum(kept) <= 100               # checksum-chosen: about 75 of 300
    assert scale.thinned(ids, marked=True) == kept          # the same every run
    assert all(scale.thinned(ids, marked=False))            # unmarked groups run whole
    grid = [f"{seed}-{bound}" for seed in range(30) for bound in (1.5, 3.0)]
    chosen = {g.split("-")[1] for g, k in zip(grid, scale.thinned(grid, marked=True)) if k}
    assert chosen == {"1.5", "3.0"}                          # every value of the grid's fast parameter


@pytest.mark.parametrize("bad", ["0", "1.5", "-1", "half"])
def test_a_value_outside_0_1_is_refused_with_its_value(monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    monkeypatch.setenv("SDC_TEST_SCALE", bad)
    with pytest.raises(ValueError, match=f"SDC_TEST_SCALE must be a number in \\(0, 1\\], got '{bad}'"):
        scale.scale()
