"""The subset searches (Khan et al. dimension search, transformation combinations) and ``sdc search``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sdc
from sdc.cli.main import main
from sdc.identify.hierarchy import Hierarchy
from sdc.identify.qi_search import qi_dimension_search, transformation_search

AGES = [21, 22, 23, 24, 31, 32, 33, 39]
SEXES = ["M", "M", "F", "F", "M", "M", "F", "F"]


def _hand() -> tuple[pd.DataFrame, dict[str, Hierarchy]]:
    data = pd.DataFrame({"age": AGES, "sex": SEXES, "dx": ["a", "b", "a", "b", "a", "a", "b", "c"]})
    age = Hierarchy(np.array([[str(a), f"{a // 10 * 10}-{a // 10 * 10 + 9}", "*"] for a in AGES], dtype=object))
    sex = Hierarchy(np.array([["M", "*"], ["F", "*"]], dtype=object))
    return data, {"age": age, "sex": sex}


def test_dimension_search_by_hand() -> None:
    data, hs = _hand()
    r = qi_dimension_search(data, hs, k=2)  # no sensitive: l and t are skipped
    assert r.meets and r.best["subset"] == "age" and r.best["size"] == 1
    # NUE: 8 ages, each 1 of 4 in its decade: 16 bits; maximum: 8 log2 8 + 8 log2 2 = 32 -> utility 1/2
    assert r.best["nue"] == pytest.approx(16.0) and r.best["utility"] == pytest.approx(0.5)
    assert r.table["size"].max() == 1  # larger subsets are not needed once size 1 passes
    assert sdc.qi_dimension_search is qi_dimension_search


def test_dimension_search_with_l_and_t() -> None:
    data, hs = _hand()
    r = qi_dimension_search(data, hs, k=2, l=2, t=0.8, sensitive="dx", levels={"age": 2})
    # age to * alone: classes M = {a, b, a, a}, F = {a, b, b, c}: distinct 2 and 3, k 4
    assert r.meets and r.best["subset"] == "age" and r.best["l[dx]"] == 2.0 and r.best["k"] == 4
    with pytest.raises(ValueError, match="not a quasi-identifier"):
        qi_dimension_search(data, hs, levels={"zip": 1})
    with pytest.raises(ValueError, match=r"levels\['age'\]"):
        qi_dimension_search(data, hs, levels={"age": 3})


def test_transformation_search_by_hand() -> None:
    data, hs = _hand()
    tr = {"decades": {"age": 1}, "sex*": {"sex": 1}, "age*": {"age": 2}}
    r = transformation_search(data, hs, tr, k=3)
    assert len(r.table) == 7  # 2^3 - 1 combinations
    # decades alone: k = 2, misses by (3 - 2) / 3; age* alone meets with utility 1 - 24/32, as do two
    # larger combinations: the smallest wins
    assert r.best["combination"] == "age*" and r.meets and r.best["utility"] == pytest.approx(0.25)
    row = r.table.set_index("combination").loc["decades"]
    assert row["miss"] == pytest.approx(1 / 3) and not row["meets"]
    top = r.table.set_index("combination").loc["decades + sex* + age*"]
    assert top["age"] == 2 and top["sex"] == 1 and top["utility"] == pytest.approx(0.0)
    pairs = transformation_search(data, hs, [("age", 1), ("sex", 1)], k=2)
    assert set(pairs.table["combination"]) == {"age:1", "sex:1", "age:1 + sex:1"}
    with pytest.raises(ValueError, match="names 'zip'"):
        transformation_search(data, hs, {"x": {"zip": 1}})
    with pytest.raises(ValueError, match="at most 16"):
        transformation_search(data, hs, {f"t{i}": {"age": 1} for i in range(17)})


# ----------------------------------------------------------------------------- sdc search


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    data, hs = _hand()
    d = tmp_path / "in"
    d.mkdir()
    data.to_csv(d / "data.csv", index=False)
    (d / "hier").mkdir()
    hs["sex"].to_csv(d / "hier" / "sex.csv")
    cfg = d / "search.toml"
    cfg.write_text(
        '[keys]\n'
        'sex = "hier/sex.csv"\n'
        'age = { intervals = [10], start = 0 }\n'
        '\n[models]\nk = 2\n'
        '\n[search]\nsuppression_limit = 0\nmetric = "discernibility"\nrunner_ups = 2\n'
        '\n[dimension]\nk = 2\n'
        '\n[combinations]\nk = 3\n[combinations.transformations]\n"decades" = { age = 1 }\n"sex*" = { sex = 1 }\n',
        encoding="utf-8")
    return d / "data.csv", cfg


def test_cli_search_writes_the_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, cfg = _setup(tmp_path)
    out = tmp_path / "out"
    assert main(["search", str(data), "--config", str(cfg), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Optimum: sex=0, age=1" in printed and "Loss (discernibility): 16" in printed
    names = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert {"released.csv", "search.json", "search.md", "lattice.csv", "lattice.png", "risk_utility.png",
            "hierarchies/sex.csv", "hierarchies/age.csv", "dimension.csv", "combinations.csv",
            "mapping.csv", "mapping.json", "plan.toml"} <= names
    doc = json.loads((out / "search.json").read_text(encoding="utf-8"))
    assert doc["optimum"]["levels"] == {"sex": 0, "age": 1} and doc["optimum"]["loss"] == 16.0
    assert len(doc["runner_ups"]) == 2 and doc["lattice"]["nodes"] == 6
    assert doc["protection_log"]["cells_changed"] == {"sex": 0, "age": 8}
    assert doc["dimension_search"]["best"]["subset"] == "age"
    rel = pd.read_csv(out / "released.csv")
    assert rel["age"].tolist() == ["[20, 30["] * 4 + ["[30, 40["] * 4
    assert rel.groupby(["sex", "age"]).size().min() >= 2
    md = (out / "search.md").read_text(encoding="utf-8")
    assert "## Optimum" in md and "## Runner-ups" in md and "Khan et al." in md
    # built hierarchies are saved in ARX's layout
    assert (out / "hierarchies" / "age.csv").read_text(encoding="utf-8").splitlines()[0] == "21;[20, 30[;*"
    # the release beside the original, as sdc compare writes it: risk, utility, the attack
    assert {"comparison/report.md", "comparison/report.json", "comparison/risk.csv"} <= names
    cmp = json.loads((out / "comparison" / "report.json").read_text(encoding="utf-8"))
    risk = {(r["scenario"], r["measure"]): r for r in cmp["risk"]}
    uniques = next(v for (s, m), v in risk.items() if m == "sample uniques")
    assert uniques["after"] == 0 and uniques["before"] > 0  # 2-anonymous after, unique ages before
    assert cmp["attacks"]["linkage"]
    # its provenance is the search run's: the input file, its SHA-256, the command (was empty)
    import hashlib

    prov = cmp["provenance"]
    assert prov["original"] == str(data) and prov["command"].startswith("sdc search ")
    assert prov["sha256"] == {str(data): hashlib.sha256(data.read_bytes()).hexdigest()}
    # the transformation, value by value, and as a plan that sdc protect applies to the same file
    mapping = pd.read_csv(out / "mapping.csv", dtype=str)
    assert list(mapping.columns) == ["variable", "level", "value", "released"]
    assert dict(zip(mapping.loc[mapping["variable"] == "age", "value"],
                    mapping.loc[mapping["variable"] == "age", "released"]))["21"] == "[20, 30["
    assert json.loads((out / "mapping.json").read_text(encoding="utf-8"))["age"]["level"] == 1
    again = tmp_path / "again"
    capsys.readouterr()
    assert main(["protect", str(data), "--plan", str(out / "plan.toml"), "--out", str(again), "--no-assess"]) == 0
    assert pd.read_csv(again / "released.csv")["age"].tolist() == rel["age"].tolist()


def test_cli_flags_override_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, cfg = _setup(tmp_path)
    out = tmp_path / "out"
    assert main(["search", str(data), "--config", str(cfg), "--out", str(out), "--k", "3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    # (sex, age) = (0, 2) and (1, 1) tie at 32 and height 2: the smaller level vector wins
    assert doc["levels"] == {"sex": 0, "age": 2} and doc["loss"] == 32.0


def test_cli_search_with_lightning_says_not_proven_optimal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, cfg = _setup(tmp_path)
    out = tmp_path / "out"
    assert main(["search", str(data), "--config", str(cfg), "--out", str(out), "--algorithm", "lightning",
                 "--node-limit", "50"]) == 0
    printed = capsys.readouterr().out
    assert "Best found, not proven optimal: sex=0, age=1" in printed and "Lightning (ARX's heuristic) stopped: exhausted" in printed
    doc = json.loads((out / "search.json").read_text(encoding="utf-8"))
    assert doc["lattice"]["algorithm"] == "lightning" and doc["lattice"]["optimal"] is False
    assert doc["lattice"]["nodes"] == 6 and doc["config"]["search"]["node_limit"] == 50
    md = (out / "search.md").read_text(encoding="utf-8")
    assert "## Best found, not proven optimal" in md and "a better transformation may exist" in md


@pytest.mark.parametrize("body, match", [
    ('[keys]\nsex = "nope.csv"\n[models]\nk = 2\n', "no such file"),
    ('[keys]\nsex = "hier/sex.csv"\n[model]\nk = 2\n', "section [model]"),
    ('[keys]\nsex = "hier/sex.csv"\n[models]\nk = 2\nq = 1\n', "unknown key 'q'"),
    # checked against the header before the quasi-identifiers are read as text
    ('[keys]\nzip = "hier/sex.csv"\n[models]\nk = 2\n',
     "key variable 'zip' (config [keys]) is not a column"),
    ('[keys]\nsexx = "hier/sex.csv"\n[models]\nk = 2\n', "(did you mean 'sex'?)."),
    ('[keys]\nsex = "hier/sex.csv"\n[models]\nk = 20\n[search]\nsuppression_limit = 0\n',
     "no transformation meets 20-anonymity"),
    ('[keys]\nage = { widths = [10] }\n[models]\nk = 2\n', "intervals, prefix"),
    # phrased as the assessment configuration's errors: config [section].key
    ('[data]\nsep = 5\n[keys]\nsex = "hier/sex.csv"\n[models]\nk = 2\n',
     "sdc: error: config [data].sep must be one character other than a quote or a line break"),
    ('[data]\npath = 5\n[keys]\nsex = "hier/sex.csv"\n[models]\nk = 2\n',
     "sdc: error: config [data].path must be a file path; got 5."),
    ('[keys]\nsex = "hier/sex.csv"\n[model]\nk = 2\n', "sdc: error: config section [model]: unknown"),
    # each key checked by its declaration when the file is read, before any data
    ('[keys]\nsex = "hier/sex.csv"\n[models]\nk = 0\n', "sdc: error: config [models].k must be a whole number >= 1; got 0."),
    ('[keys]\nsex = "hier/sex.csv"\n[search]\nmetric = "dm"\n',
     "sdc: error: config [search].metric must be one of 'discernibility', "),
])
def test_cli_errors_are_one_line_and_write_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str,
                                                   match: str) -> None:
    data, cfg = _setup(tmp_path)
    cfg.write_text(body, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["search", str(data), "--config", str(cfg), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sdc: error: ") and match in err and err.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize("spec, said", [
    ({"intervals": [0]}, "`intervals` must be positive numbers"),
    ({"intervals": [10, 15]}, "`intervals` must increase"),
    ({"prefix": [1, 3]}, "`prefix` must be decreasing"),
])
def test_search_config_errors_name_the_config_keys(spec: dict, said: str) -> None:
    """The hierarchy builders' argument names (`widths`, `keep`) were shown for config keys."""
    from sdc.workflow.config import ConfigError
    from sdc.workflow.search_config import build_hierarchies, search_config_from_mapping

    data = pd.DataFrame({"age": AGES, "zip": ["12345"] * 8})
    col = "zip" if "prefix" in spec else "age"
    cfg = search_config_from_mapping({"keys": {col: spec}, "models": {"k": 2}}, source="t")
    with pytest.raises(ConfigError, match=f"^config \\[keys\\]\\.{col}: {said}"):
        build_hierarchies(cfg, data)


def test_cli_search_with_the_sensitive_hierarchy_in_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """t_distance = "hierarchical": the sensitive variable's hierarchy sits in [keys] under its
    name and is its tree, not a key variable (issue 30); delta and Grassberger from the config."""
    data, cfg = _setup(tmp_path)
    tree = Hierarchy(np.array([["a", "ab", "*"], ["b", "ab", "*"], ["c", "c", "*"]], dtype=object))
    tree.to_csv(cfg.parent / "hier" / "dx.csv")
    cfg.write_text(
        '[keys]\nsex = "hier/sex.csv"\nage = { intervals = [10], start = 0 }\ndx = "hier/dx.csv"\n'
        '\n[models]\nk = 2\nt = { dx = 0.5 }\nt_distance = "hierarchical"\ndelta = { dx = 3 }\n'
        'l = { dx = 1.5 }\nl_variant = "grassberger"\n'
        '\n[search]\nsuppression_limit = 0\nmetric = "discernibility"\npractical_monotonicity = true\n',
        encoding="utf-8")
    out = tmp_path / "out"
    assert main(["search", str(data), "--config", str(cfg), "--out", str(out)]) == 0
    doc = json.loads((out / "search.json").read_text(encoding="utf-8"))
    assert set(doc["optimum"]["levels"]) == {"sex", "age"}
    cmp = json.loads((out / "comparison" / "report.json").read_text(encoding="utf-8"))
    assert "dx" not in json.dumps(cmp.get("variables", {}).get("categorical_keys", []))
    # without the tree: one line, nothing written
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('dx = "hier/dx.csv"\n', ""), encoding="utf-8")
    out2 = tmp_path / "out2"
    assert main(["search", str(data), "--config", str(cfg), "--out", str(out2)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "needs the hierarchy of sensitive variable 'dx'" in err[0] and not out2.exists()
