"""sdc.workflow.engine: Dask and chunks as back ends of the one assessment (issue 25).

One loop for every engine: the verdicts and figures of a measure that runs on Dask or in
chunks are the in-memory ones; the configured measures that do not run there are listed with
their declaration's reason, and only those; the report is written in the formats asked for;
refusals on the command line speak the command line's words. The Dask tests share the module
cluster (tests/conftest.py's ``client``).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from tests.dask_support import require_dask

require_dask()

import dask.dataframe as dd  # noqa: E402

import sdc  # noqa: E402
from sdc.cli.main import main  # noqa: E402
from sdc.workflow.engine import back_end, not_run  # noqa: E402

DATA = "sdc/data/health_survey.csv"
EXAMPLE = "sdc/data/example.toml"


def _dask(client, *args: str) -> list[str]:
    return ["assess", DATA, *args, "--engine", "dask", "--scheduler", client.scheduler.address]


def test_only_the_configured_measures_are_listed_as_not_run(client, tmp_path, capsys) -> None:
    """The Dask run listed SUDA2, modRisk and household risk as "not run" whatever the
    configuration asked for (modRisk is not a default measure; here only k-anonymity and the
    risk are asked for)."""
    out = tmp_path / "rep"
    assert main(_dask(client, "--keys", "sex,region", "--measures", "k_anonymity,risk", "--out", str(out))) == 0
    text = capsys.readouterr().out
    doc = json.loads((out / "report.json").read_text())
    assert doc["not_run"] == {} and "Not run on Dask" not in text
    assert "Every configured measure ran." in (out / "report.md").read_text()
    assert main(_dask(client, "--config", EXAMPLE, "--measures", "k_anonymity,risk,suda,modrisk", "--formats",
                      "json", "--out", str(out))) == 0
    capsys.readouterr()
    doc = json.loads((out / "report.json").read_text())
    assert list(doc["not_run"]) == ["SUDA2", "log-linear model risk"]  # the registry's order and labels
    assert doc["not_run"]["SUDA2"].startswith("not run on Dask: it searches the minimal sample uniques")


def test_the_report_is_written_in_the_formats_asked_for(client, tmp_path, capsys) -> None:
    """--formats was ignored on Dask (report.md, report.json and verdicts.csv always)."""
    out = tmp_path / "md"
    assert main(_dask(client, "--keys", "sex,region", "--formats", "md", "--out", str(out))) == 0
    assert sorted(p.name for p in out.iterdir()) == [".sdc-report", "report.md"]
    assert f"Report: {out / 'report.md'} (1 files" in capsys.readouterr().out
    out = tmp_path / "all"
    assert main(_dask(client, "--keys", "sex,region", "--formats", "html,txt,xlsx,csv", "--out", str(out))) == 0
    assert sorted(p.name for p in out.iterdir()) == [".sdc-report", "report.html", "report.xlsx", "summary.txt",
                                                     "verdicts.csv"]
    assert "Not run on Dask" in (out / "summary.txt").read_text()


def test_command_line_refusals_speak_the_command_line(client, capsys) -> None:
    """A Dask refusal printed the Python API's advice (ddf.compute(), `key_bins`) on the
    command line; explicit edges now run on Dask, and other bins are refused in the CLI's words."""
    assert main(["snapshots", DATA, "--keys", "sex,age", "--bins", "age=width:10", "--engine", "dask", "--scheduler",
                 client.scheduler.address]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sdc: error: --engine dask: the bins of 'age' (continuous key) must be explicit edges, "
                          "e.g. age=0,18,65,inf") and "ddf.compute" not in err and "key_bins" not in err
    for args in (["--bins", "age=0,40,65,inf"], []):
        assert main(["risk", DATA, "--keys", "sex,age", *args, "--json", "--engine", "dask", "--scheduler",
                     client.scheduler.address]) == 0
        on_dask = json.loads(capsys.readouterr().out)
        assert main(["risk", DATA, "--keys", "sex,age", *args, "--json"]) == 0
        assert on_dask == json.loads(capsys.readouterr().out)


def test_a_sensitive_variable_missing_in_every_record_is_refused_on_dask_too(client, tmp_path, capsys) -> None:
    """The Dask copy of the role checks lacked the in-memory refusal (issue 25: a drifted copy):
    l-diversity refused it later, after the passes of the first scenario, in other words."""
    df = pd.DataFrame({"sex": list("fmfmfm"), "dx": [np.nan] * 6})
    path = tmp_path / "empty-dx.csv"
    df.to_csv(path, index=False)
    for engine in (["--engine", "dask", "--scheduler", client.scheduler.address], []):
        assert main(["assess", str(path), "--keys", "sex", "--sensitive", "dx", "--out", str(tmp_path / "r"),
                     *engine]) == 2
        assert "sensitive variable 'dx' is missing in every record: there is nothing to assess; drop it from " \
               "--sensitive" in capsys.readouterr().err
    with pytest.raises(ValueError, match="'dx' is missing in every record: there is nothing to assess"):
        sdc.assess(dd.from_pandas(df, npartitions=2), keys=["sex"], sensitive=["dx"])


def test_an_unreachable_scheduler_is_named(monkeypatch) -> None:
    """A scheduler address that does not answer raised distributed's own message, naming no option."""
    from sdc.core import _dask

    def refuse(**where):  # noqa: ANN003, ANN202 - a Client that cannot connect
        raise OSError(f"Timed out trying to connect to {where['address']} after 30 s")

    with pytest.raises(ValueError, match=r"^`scheduler` 'tcp://nowhere:1': cannot reach the Dask scheduler \(Timed "
                                         r"out .*\); check the address"):
        _dask._connect(refuse, "tcp://nowhere:1", address="tcp://nowhere:1")


@pytest.fixture(scope="module")
def survey() -> pd.DataFrame:
    from sdc.io import read_data

    return read_data(DATA)


OPTIONS = {"keys": ["sex", "region", "marital_status"], "continuous_keys": ["age"],
           "key_bins": {"age": [0, 25, 45, 65, float("inf")]}, "weights": "weight", "sensitive": ["diagnosis"],
           "k": 3, "measures": ["k_anonymity", "risk", "snapshots", "ldiversity", "tcloseness", "suda"]}


def test_one_loop_the_same_verdicts_on_every_engine(client, survey, tmp_path) -> None:
    """The one assessment on pandas, on Dask (4 partitions) and in chunks: the same verdicts
    for the measures each runs; the rest listed as not run, with the reason."""
    mem = sdc.assess(survey, **OPTIONS)
    on_dask = sdc.assess(dd.from_pandas(survey, npartitions=4), **OPTIONS)
    assert on_dask.engine == "dask" and mem.engine == "pandas" and mem.not_run == ()
    v = mem.to_frame()
    pd.testing.assert_frame_equal(on_dask.to_frame(), v[v["measure"] != "SUDA2"].reset_index(drop=True),
                                  check_exact=False, rtol=1e-12)
    assert dict(on_dask.not_run) == {"SUDA2": "not run on Dask: it searches the minimal sample uniques of every "
                                              "record over all key combinations at once"}
    chunked = {k: v for k, v in OPTIONS.items() if k not in ("key_bins", "continuous_keys")}
    mem = sdc.assess(survey, **chunked)
    in_chunks = sdc.assess(sdc.read_chunks(DATA, chunk_rows=500), **chunked)
    v = mem.to_frame()
    v = v[v["measure"] != "SUDA2"].reset_index(drop=True)  # l-diversity and t-closeness from the cell tables
    pd.testing.assert_frame_equal(in_chunks.to_frame(), v, check_exact=False, rtol=1e-12)
    assert [m for m, _ in in_chunks.not_run] == ["SUDA2"]
    pd.testing.assert_frame_equal(in_chunks.primary.snapshots.table, mem.primary.snapshots.table)
    folder = sdc.write_report(in_chunks, tmp_path / "chunks", formats=("md",))
    md = (folder.path / "report.md").read_text()
    assert "## Not run in chunks" in md and "SUDA2: not run in chunks: it searches the minimal sample uniques" in md
    with pytest.raises(ValueError, match="bin the keys in the file first"):
        sdc.assess(sdc.read_chunks(DATA), **OPTIONS)


def _outline(report) -> list[tuple[str, str, list[str]]]:  # noqa: ANN001
    """Each section's key, title and table titles: what a reader finds where."""
    return [(s.key, s.title, [t.title for t in s.tables]) for s in report.sections]


def test_a_chunked_report_has_the_in_memory_sections_and_says_what_it_could_not_compute(survey, tmp_path) -> None:
    """The out-of-memory report is built by the in-memory report's section builders: the same
    sections, titles and tables in the same order and words; the measures not run there get a
    section after the verdicts, the small-count levels say they were not computed, and there
    are no figures or per-record files."""
    from sdc.report import write_report
    from sdc.report.content import build_report
    from sdc.report.jsonout import report_document
    from sdc.report.out_of_memory import assessment_report

    opts = {"keys": ["sex", "region", "marital_status"], "weights": "weight", "k": 3,
            "measures": ["k_anonymity", "risk", "snapshots", "suda"]}
    mem = build_report(sdc.assess(survey, **opts))
    a = sdc.assess(sdc.read_chunks(DATA, chunk_rows=500), **opts)
    out = assessment_report(a, ("md",))
    got, want = _outline(out), _outline(mem)
    assert got[0][0] == "audience"
    assert got[1] == want[0] and got[3:5] == want[2:4] and got[5] == ("not_run", "Not run in chunks", [])
    assert got[2] == ("input", "Input", ["The data"]) and want[1] == ("input", "Input", ["The data",
                                                                                       "Variables and their roles"])
    run_there = [s for s in want if not s[0].endswith("-suda")]  # SUDA2 has no chunks variant
    assert [s[:2] for s in got[6:] if s[0] != "files"] == [s[:2] for s in run_there[4:]]  # no files given in memory
    assert [s for s in got[6:] if s[0] not in ("small", "files")] == [s for s in run_there[4:] if s[0] != "small"]
    sec = {s.key: s for s in out.sections}
    assert sec["not_run"].paragraphs == ["SUDA2: not run in chunks: it searches the minimal sample uniques of every "
                                         "record over all key combinations at once"]
    assert sec["small"].tables == [] and "Not computed in chunks" in sec["small"].paragraphs[-1]
    assert "Variables and their roles: not computed in chunks" in sec["input"].paragraphs[-1]
    assert out.title == "Disclosure risk assessment (chunks)"
    # the same figures as in memory for the measures that ran, by the same captions
    assert [t.title for t in sec["s1-risk"].tables] == [t.title for t in {s.key: s for s in mem.sections}["s1-risk"].tables]
    folder = write_report(a, tmp_path / "chunks", formats=("md", "json")).path
    md = (folder / "report.md").read_text()
    assert "## Executive summary" in md and "## Not run in chunks" in md and "plots/" not in md
    assert "No per-record files and no figures" in md and "| report.md | the report in Markdown |" in md
    # report.json: the in-memory report.json's layout (schema 1), with where it ran
    doc, mem_doc = json.loads((folder / "report.json").read_text()), report_document(mem, {})
    assert doc["schema_version"] == 1 and doc["engine"] == "chunks" and doc["records"] == 4125
    assert doc["chunk_rows"] == 500 and list(doc["not_run"]) == ["SUDA2"]
    assert set(mem_doc) - set(doc) == set() and list(doc["tables"]) == [t.key for s in out.sections for t in s.tables]
    assert [sorted(s) for s in doc["scenarios"]] == [sorted(k for k in s if k != "suda") for s in mem_doc["scenarios"]]


def test_back_ends_and_the_not_run_list() -> None:
    """The back end is the engine asked for, or the data's; the list reads the declarations."""
    assert back_end(None, None).name == "pandas" and back_end("chunks", None).name == "chunks"
    with pytest.raises(ValueError, match="`engine` must be one of 'pandas', 'dask', 'chunks'; got 'spark'"):
        back_end("spark", None)
    with pytest.raises(ValueError, match="`engine` is 'dask' but the data are for the pandas engine"):
        back_end("dask", pd.DataFrame({"a": [1]}))
    from sdc.workflow.config import from_mapping, from_options

    cfg = from_mapping(from_options({"keys": ["a"], "household": "h", "measures": ["risk", "household"]}),
                       source="arguments", data_given=True)
    assert not_run(cfg, back_end("pandas", None)) == ()
    assert not_run(cfg, back_end("dask", None)) == (("household risk", "not run on Dask: it needs each household's "
                                                                       "records together"),)
