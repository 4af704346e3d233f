"""Run configuration: parsing TOML and YAML, defaults, overrides, and errors that name the key."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sdc.workflow.config import (FORMATS, MEASURES, ConfigError, RunConfig, Scenario, _toml_module, from_mapping, load_config,
                        read_config_file, to_toml)
from sdc.datasets import example_config_path

TOML = """
[data]
path = "survey.csv"
id = "sid"

[variables]
categorical_keys = ["sex", "region"]
continuous_keys = ["age"]
weights = "w"
household = "hh"
sensitive = ["diag"]

[bins]
age = [0, 18, 65, inf]

[sensitive_bins]
diag = { quantiles = 4 }

[[scenarios]]
name = "basic"
keys = ["age", "sex"]

[[scenarios]]
name = "full"
keys = ["age", "sex", "region"]

[thresholds]
k = 5
l = 3
t = 0.15
risk = 0.05
max_global_risk = 0.02

[options]
missing = "category"
measures = ["k_anonymity", "risk"]
sampling_fraction = 0.1

[output]
formats = ["html", "json"]
"""

YAML = """
data: {path: survey.csv, id: sid}
variables:
  categorical_keys: [sex, region]
  continuous_keys: [age]
  weights: w
  household: hh
  sensitive: [diag]
bins: {age: [0, 18, 65, .inf]}
sensitive_bins: {diag: {quantiles: 4}}
scenarios:
  - {name: basic, keys: [age, sex]}
  - {name: full, keys: [age, sex, region]}
thresholds: {k: 5, l: 3, t: 0.15, risk: 0.05, max_global_risk: 0.02}
options: {missing: category, measures: [k_anonymity, risk], sampling_fraction: 0.1}
output: {formats: [html, json]}
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_toml_is_read_and_resolved(tmp_path: Path) -> None:
    cfg = load_config(_write(tmp_path, "run.toml", TOML))
    assert cfg.data_path == str(tmp_path / "survey.csv")  # relative to the config file
    assert cfg.id == "sid"
    assert cfg.keys == ("sex", "region", "age")
    assert cfg.bins == {"age": [0.0, 18.0, 65.0, math.inf]}
    assert cfg.sensitive_bins == {"diag": {"quantiles": 4}}
    assert cfg.scenarios == (Scenario("basic", ("age", "sex")), Scenario("full", ("age", "sex", "region")))
    t = cfg.thresholds
    assert (t.k, t.l, t.t, t.risk, t.max_global_risk) == (5, 3, 0.15, 0.05, 0.02)
    assert (cfg.missing, cfg.measures, cfg.sampling_fraction, cfg.formats) == (
        "category", ("k_anonymity", "risk"), 0.1, ("html", "json"))
    assert cfg.source == str(tmp_path / "run.toml")


def test_yaml_gives_the_same_config(tmp_path: Path) -> None:
    a = load_config(_write(tmp_path, "run.toml", TOML))
    b = load_config(_write(tmp_path, "run.yaml", YAML))
    assert a == RunConfig(**{**b.__dict__, "source": a.source})


def test_defaults_and_the_all_keys_scenario() -> None:
    cfg = from_mapping({"data": {"path": "d.csv"}, "variables": {"categorical_keys": ["a", "b"]}})
    assert cfg.thresholds.k == 3 and cfg.thresholds.l == 2 and cfg.thresholds.t == 0.2
    assert cfg.missing == "wildcard" and cfg.alpha == 1.0
    assert cfg.measures == MEASURES and cfg.formats == FORMATS
    assert cfg.all_scenarios == (Scenario("all keys", ("a", "b")),)


def test_overrides_replace_keys_and_data(tmp_path: Path) -> None:
    path = _write(tmp_path, "run.toml", TOML)
    cfg = load_config(path, {"data": {"path": "other.csv"}, "thresholds": {"k": 2},
                             "scenarios": [{"name": "x", "keys": ["sex"]}]})
    assert cfg.data_path == "other.csv"  # a command-line path is not relative to the config
    assert cfg.thresholds.k == 2 and cfg.thresholds.l == 3  # other thresholds kept
    assert cfg.scenarios == (Scenario("x", ("sex",)),)


def test_flags_alone_make_a_config() -> None:
    cfg = load_config(None, {"data": {"path": "d.csv"}, "variables": {"categorical_keys": ["a"]}})
    assert cfg.source == "flags" and cfg.keys == ("a",)


def test_example_config_loads() -> None:
    cfg = load_config(example_config_path())
    assert Path(cfg.data_path).name == "health_survey.csv" and Path(cfg.data_path).exists()
    assert [s.name for s in cfg.scenarios] == ["demographics", "demographics + marital status"]


@pytest.mark.parametrize("raw, where, allowed", [
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "thresold": {}},
     "section [thresold]", "allowed sections"),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"], "key": ["b"]}},
     "[variables].key", "allowed: categorical_keys"),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "thresholds": {"k": 0}},
     "[thresholds].k", "must be a whole number >= 1; got 0."),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "thresholds": {"k": 2.5}},
     "[thresholds].k", "must be a whole number >= 1; got 2.5."),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "thresholds": {"risk": 1.5}},
     "[thresholds].risk", "must be a number in [0, 1]; got 1.5."),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "thresholds": {"max_global_risk": 0}},
     "[thresholds].max_global_risk", "must be a number in (0, 1); got 0."),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "options": {"missing": "drop"}},
     "[options].missing", "must be one of 'wildcard', 'category'; got 'drop'."),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "options": {"measures": ["risk", "dp"]}},
     "[options].measures", "'k_anonymity'"),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "output": {"formats": ["pdf"]}},
     "[output].formats", "'html'"),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "bins": {"a": [3, 1]}},
     "[bins].a", "must be a list of at least two numbers (inf allowed), strictly increasing; got [3, 1]."),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "bins": {"z": [0, 1]}},
     "[bins].z", "is not a key variable"),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "bins": {"a": {"quantile": 3}}},
     "[bins].a", "quantiles"),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "sensitive_bins": {"a": [0, 1]}},
     "[sensitive_bins].a", "is not a sensitive variable"),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]},
      "scenarios": [{"name": "x", "keys": ["a"]}, {"name": "x", "keys": ["a"]}]},
     "[[scenarios]].name", "'x' repeats"),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]}, "scenarios": [{"name": "x", "keys": []}]},
     "[[scenarios]] #1.keys", "must be a list of column names (at least one); got []."),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": 5}},
     "[variables].categorical_keys", "list of column names"),
    ({"data": {"path": "d"}, "variables": {}}, "[variables]", "needs key variables"),
    ({"variables": {"categorical_keys": ["a"]}}, "[data]", "needs `path`"),
    ({"data": {"path": "d", "domains": {"DM": "dm.csv"}}, "variables": {"categorical_keys": ["a"]}},
     "[data]", "not both"),
    ({"data": {"domains": {"DM": "dm.csv"}}, "variables": {"categorical_keys": ["a"]}},
     "[data].subject_id", "is needed"),
    ({"data": {"domains": {"DM": "dm.csv"}, "subject_id": "id", "long": {"LB": "LBTESTCD"}},
      "variables": {"categorical_keys": ["a"]}}, "[data].long.LB", "not among the domains"),
    ({"data": {"path": "d"}, "variables": {"categorical_keys": ["a"]},
      "options": {"population_size": 10, "sampling_fraction": 0.1}}, "[options]", "not both"),
])
def test_errors_name_the_key_and_what_is_allowed(raw: dict, where: str, allowed: str) -> None:
    with pytest.raises(ConfigError) as exc:
        from_mapping(raw)
    msg = str(exc.value)
    assert where in msg and allowed in msg, msg


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match=r"could not be parsed: .*line 2"):
        load_config(_write(tmp_path, "bad.toml", "[data]\npath = \n"))
    with pytest.raises(ConfigError, match="table of sections"):
        read_config_file(_write(tmp_path, "list.yaml", "- a\n- b\n"))


def test_to_toml_roundtrips_the_full_example(tmp_path: Path) -> None:
    cfg = load_config(_write(tmp_path, "run.toml", TOML))
    again = load_config(_write(tmp_path, "again.toml", to_toml(cfg)))
    assert again == RunConfig(**{**cfg.__dict__, "source": again.source})


names = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)


@given(keys=st.lists(names, min_size=1, max_size=4, unique=True), k=st.integers(1, 50),
       t=st.floats(0, 5, allow_nan=False), risk=st.floats(0, 1), sep=st.sampled_from([None, ",", ";"]),
       missing=st.sampled_from(["wildcard", "category"]), scen=st.booleans())
def test_to_toml_roundtrips_any_config(keys: list[str], k: int, t: float, risk: float, sep: str | None,
                                       missing: str, scen: bool) -> None:
    raw = {"data": {"path": "d.csv", **({"sep": sep} if sep else {})}, "variables": {"categorical_keys": keys},
           "thresholds": {"k": k, "t": t, "risk": risk}, "options": {"missing": missing}}
    if scen:
        raw["scenarios"] = [{"name": keys[0], "keys": keys[:1]}]
    cfg = from_mapping(raw)
    assert from_mapping(_toml_module().loads(to_toml(cfg))) == cfg


def test_measures_accept_the_api_function_names() -> None:
    # l_diversity is what a Python user knows; the config's short name is ldiversity.
    raw = {"data": {"path": "d.csv"}, "variables": {"categorical_keys": ["a", "b"], "sensitive": ["s"]},
           "options": {"measures": ["k_anonymity", "l_diversity", "individual_risk", "t_closeness", "risk",
                                    "model_risk"]}}
    cfg = from_mapping(raw)
    assert cfg.measures == ("k_anonymity", "ldiversity", "risk", "tcloseness", "modrisk")
    from sdc.workflow.options import MEASURE_ALIASES, OPTIONAL_MEASURES

    import sdc

    for api_name, short in MEASURE_ALIASES.items():
        assert hasattr(sdc, api_name), api_name
        assert short in MEASURES + OPTIONAL_MEASURES


def test_the_file_wide_scenario_name_is_reserved() -> None:
    """A scenario named 'all' took the file-wide (inference) verdicts as its own: its summary
    counted them and the "Across the file" block vanished."""
    import pytest

    from sdc.workflow.config import ConfigError, from_mapping

    raw = {"data": {"path": "x.csv"}, "variables": {"categorical_keys": ["a", "b"]},
           "scenarios": [{"name": "all", "keys": ["a"]}]}
    with pytest.raises(ConfigError, match=r"^config \[\[scenarios\]\] #1\.name: 'all' is the name of the file-wide"):
        from_mapping(raw)
    raw["scenarios"] = [{"name": "All", "keys": ["a"]}]
    assert from_mapping(raw).scenarios[0].name == "All"
