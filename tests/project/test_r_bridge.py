"""r_bridge: import without R, conversions, R errors as Python exceptions, the marker policy."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _without_rpy2(tmp_path: Path) -> dict[str, str]:
    """Environment in which `import rpy2` fails, as on a machine without R."""
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['rpy2'] = None\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])
    return env


def test_import_works_without_r(tmp_path):
    code = "import r_bridge; print(r_bridge.is_available()); print(r_bridge.unavailable_reason())"
    out = subprocess.run([sys.executable, "-c", code], env=_without_rpy2(tmp_path), capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out[0] == "False"
    assert "rpy2 cannot start R" in out[1] and "scripts/install.sh" in out[1]


def test_calls_without_r_raise_unavailable(tmp_path):
    code = textwrap.dedent("""
        import pandas as pd, r_bridge
        try:
            r_bridge.freq_calc(pd.DataFrame({"a": [1]}), ["a"])
        except r_bridge.RBridgeUnavailableError as e:
            print("unavailable:", e)
    """)
    out = subprocess.run([sys.executable, "-c", code], env=_without_rpy2(tmp_path), capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith("unavailable: rpy2 cannot start R")


@pytest.mark.parametrize(("required", "outcome", "code"), [("1", "1 error", 1), ("", "1 skipped", 0)])
def test_marker_policy_without_r(tmp_path, required, outcome, code):
    env = _without_rpy2(tmp_path)
    env["SDC_REQUIRE_SDCMICRO"] = required
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
         "tests/project/test_r_bridge.py::test_versions"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert outcome in proc.stdout and proc.returncode == code, proc.stdout
    assert "sdcMicro cross-validation needs R and sdcMicro: rpy2 cannot start R" in proc.stdout


@pytest.mark.sdcmicro
def test_versions():
    import r_bridge

    v = r_bridge.versions()
    assert v["R"].startswith("R version 4") and v["sdcMicro"] and v["rpy2"]


@pytest.mark.sdcmicro
def test_rpy2_version_comes_from_metadata_not_the_module():
    # rpy2 3.6 has no rpy2.__version__
    import importlib.metadata as md

    from r_bridge._session import _rpy2_version

    assert _rpy2_version() == md.version("rpy2")


@pytest.mark.sdcmicro
def test_bridge_starts_when_invisible_results_come_back_as_none(monkeypatch):
    # rpy2 >= 3.5.12: rpy2.robjects.r("...") returns None when R's result is invisible
    # (requireNamespace()'s is). Emulate that on any rpy2 and start the bridge afresh.
    import rpy2.robjects as ro

    from r_bridge import _session

    real = ro.r

    class InvisibleAsNone:
        def __call__(self, code: str):  # noqa: ANN204
            out = real(f"withVisible({{{code}}})")
            return out.rx2("value") if out.rx2("visible")[0] else None

        def __getattr__(self, name: str):  # noqa: ANN204
            return getattr(real, name)

    monkeypatch.setattr(ro, "r", InvisibleAsNone())
    assert ro.r("x <- 1") is None  # the emulation does what rpy2 >= 3.5.12 does
    env, reason = _session._start.__wrapped__()
    assert reason is None and env is not None


@pytest.mark.sdcmicro
def test_round_trip_keeps_names_types_and_missing_values():
    from r_bridge._session import session
    from r_bridge.convert import from_r_frame, to_r_frame

    df = pd.DataFrame({
        "age group": ["a", None, "b", "a"],
        "x.y": [1.5, np.nan, 2.0, 3.0],
        "n": [1, 2, 3, 4],
        "ni": pd.array([1, None, 3, 4], dtype="Int64"),
        "flag": [True, False, True, True],
        "cat": pd.Categorical(["lo", "hi", None, "lo"], categories=["lo", "hi"], ordered=True),
    })
    back = from_r_frame(session()["frame_parts"](to_r_frame(df)))
    assert back.columns.tolist() == df.columns.tolist()
    assert isinstance(back["age group"].dtype, pd.CategoricalDtype)  # strings arrive as factors
    assert back["age group"].astype(object).where(back["age group"].notna(), None).tolist() == ["a", None, "b", "a"]
    assert np.isnan(back["x.y"][1]) and back["x.y"][0] == 1.5
    assert back["n"].tolist() == [1, 2, 3, 4]
    assert back["ni"].isna().tolist() == [False, True, False, False]
    assert back["flag"].tolist() == [True, False, True, True]
    assert back["cat"].cat.categories.tolist() == ["lo", "hi"] and back["cat"].cat.ordered
    assert back["cat"].isna().tolist() == [False, False, True, False]


@pytest.mark.sdcmicro
def test_nan_arrives_as_na_not_nan():
    from r_bridge._session import session
    from r_bridge.convert import to_r_frame
    import rpy2.robjects as ro

    rdf = to_r_frame(pd.DataFrame({"a": [1.0, np.nan]}))
    assert list(ro.r("function(d) c(is.na(d$a[2]), is.nan(d$a[2]))")(rdf)) == [True, False]
    assert session() is not None


@pytest.mark.sdcmicro
def test_r_errors_carry_r_message():
    import r_bridge

    with pytest.raises(r_bridge.RBridgeError, match="alpha") as info:
        r_bridge.freq_calc(pd.DataFrame({"a": [1, 2]}), ["a"], alpha=2.0)
    assert "alpha" in info.value.r_message
    with pytest.raises(r_bridge.RBridgeError, match="max_global_risk"):
        r_bridge.measure_risk(pd.DataFrame({"a": [1, 2]}), ["a"], max_global_risk=2.0)
    with pytest.raises(ValueError, match="columns not in the data: 'b'"):
        r_bridge.measure_risk(pd.DataFrame({"a": [1, 2]}), ["b"])


@pytest.mark.sdcmicro
@pytest.mark.parametrize("name", ["testdata", "testdata2", "francdat", "free1", "Tarragona", "EIA"])
def test_load_datasets(name):
    import r_bridge

    df = r_bridge.load_dataset(name)
    assert len(df) > 0 and df.columns.is_unique
    if name == "EIA":
        assert isinstance(df["STATE"].dtype, pd.CategoricalDtype)
    with pytest.raises(ValueError, match="`name` must be one of"):
        r_bridge.load_dataset("nope")


@pytest.mark.sdcmicro
def test_measure_risk_wrapper_fields():
    import r_bridge

    df = pd.DataFrame({"a": ["x", "x", "y", "z"], "b": [1, 1, 2, 2], "w": [10.0, 20, 30, 40], "h": [1, 1, 2, 3]})
    m = r_bridge.measure_risk(df, ["a", "b"], w="w", hid="h")
    assert m.Res.columns.tolist() == ["risk", "fk", "Fk", "hier_risk"]
    assert m.Res.index.equals(df.index) and m.Res["fk"].tolist() == [2, 2, 1, 1]
    assert m.hier_risk_ER == pytest.approx(m.Res["hier_risk"].sum())
    s = r_bridge.create_sdc_obj(df, ["a", "b"], weightVar="w", hhId="h")
    assert set(s.global_) >= {"risk", "risk_ER", "risk_pct", "threshold", "max_risk", "hier_risk_ER"}
    assert "Infos on 2/3-Anonymity" in s.kanon_text and s.kanon == {"fk_lt_2": 2, "fk_lt_3": 4, "fk_lt_5": 4}
