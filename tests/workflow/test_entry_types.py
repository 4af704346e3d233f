"""The workflow's entry points take what the docs say, and refuse anything else in one line naming
the argument (a DataFrame or a dict given where a result or a file was expected gave an
AttributeError or a pathlib TypeError from deep inside)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import sdc


@pytest.fixture(scope="module")
def ex():
    return sdc.load_example()


def test_compare_takes_a_config_file_or_a_mapping_as_assess_does(ex) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        by_file = sdc.compare(ex, ex, "sdc/data/example.toml")
        by_map = sdc.compare(ex, ex, {"variables": {"categorical_keys": ["sex", "region"]},
                                      "options": {"measures": ["k_anonymity"]}})
    assert by_file.config.keys and by_map.config.keys == ("sex", "region")
    with pytest.raises(TypeError, match=r"^`config` must be a RunConfig, a configuration file or a mapping"):
        sdc.compare(ex, ex, 5)


@pytest.mark.parametrize("call, message", [
    (lambda ex, out: sdc.write_report(ex, out), r"^`a` must be an Assessment .*got DataFrame\.$"),
    (lambda ex, out: sdc.write_comparison(ex, out), r"^`c` must be a Comparison .*got DataFrame\.$"),
    (lambda ex, out: sdc.write_protection(ex, out), r"^`run` must be a ProtectionRun .*got DataFrame\.$"),
    (lambda ex, out: sdc.sweep(ex, {"sweep": {"keys": ["sex"]}}), r"^`plan` must be a sweep Plan .*got dict\.$"),
    (lambda ex, out: sdc.load_config({"variables": {}}), r"^`path` must be a configuration file's path"),
])
def test_a_wrong_kind_of_argument_is_one_type_error_and_writes_nothing(ex, tmp_path: Path, call, message) -> None:
    out = tmp_path / "out"
    with pytest.raises(TypeError, match=message):
        call(ex, out)
    assert not out.exists()
