"""Row-wise protection and PRAM on Dask, and ``sdc protect --engine dask`` (issue 14).

One module LocalCluster with worker processes (2 workers, 1 thread each); data in 4 or 5
partitions. The deterministic steps (recoding, top coding, pseudonyms) give the in-memory
released records exactly; PRAM gives the in-memory transition matrix exactly (same seed, same
diagonal draws) with its own per-partition draws: reproducible, and consistent with the
matrix (chi-square).
"""

from __future__ import annotations

import glob
import json
import os

import numpy as np
import pandas as pd
import pytest

import sdc

from tests.dask_support import require_dask

require_dask()

import dask.dataframe as dd


def _data(n: int = 4000, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "id": [f"P{i}" for i in range(n)], "age": rng.integers(0, 90, n), "sex": rng.choice(["f", "m"], n),
        "region": rng.choice(list("nsewc"), n, p=[.4, .3, .15, .1, .05]).astype(object),
        "edu": rng.integers(1, 5, n).astype(float),
        "income": rng.gamma(2, 1000, n).round(), "w": rng.uniform(1, 50, n).round(2)})
    df.loc[rng.random(n) < .05, "region"] = None
    df.loc[rng.random(n) < .03, "edu"] = np.nan
    df.loc[rng.random(n) < .03, "sex"] = None
    return df


# --- PRAM on a Dask DataFrame -----------------------------------------------------------------

@pytest.mark.parametrize("strata", [None, "sex"])
def test_pram_matrix_as_in_memory_and_rerun_identical(client, strata) -> None:
    df = _data()
    ddf = dd.from_pandas(df, npartitions=5)
    m = sdc.pram(df, ["region", "edu"], seed=11, strata=strata)
    a = sdc.pram(ddf, ["region", "edu"], seed=11, strata=strata)
    b = sdc.pram(ddf, ["region", "edu"], seed=11, strata=strata)
    for v in ("region", "edu"):   # the second variable's diagonal draws follow the first's records' draws
        if strata is None:
            pd.testing.assert_frame_equal(a.details[v]["matrix"], m.details[v]["matrix"], rtol=0, atol=0)
            assert a.details[v]["diagonal"] == m.details[v]["diagonal"]
        else:
            assert list(a.details[v]["matrices"]) == list(m.details[v]["matrices"])   # strata, NA included
            for lab, mat in m.details[v]["matrices"].items():
                pd.testing.assert_frame_equal(a.details[v]["matrices"][lab], mat, rtol=0, atol=0)
    ra, rb = a.data.compute(), b.data.compute()
    pd.testing.assert_frame_equal(ra, rb)                       # same seed, same partitions: same records
    assert not ra["region"].equals(m.data["region"])             # but not the in-memory draws (another stream split)
    assert ra.drop(columns=["region", "edu"]).equals(df.drop(columns=["region", "edu"]))
    assert (ra["region"].isna() == df["region"].isna()).all()   # missing values untouched
    assert df.equals(_data())                                    # input untouched
    changed = a.changed.compute()
    assert changed["region"] == int((ra["region"] != df["region"])[df["region"].notna()].sum())
    trans = a.details["region"]["transitions"].compute()
    assert int(trans.to_numpy().sum()) == int(df["region"].notna().sum())
    c = sdc.pram(ddf, ["region", "edu"], seed=12, strata=strata).data.compute()
    assert not c["region"].equals(ra["region"])


def test_pram_transitions_consistent_with_matrix(client) -> None:
    from scipy.stats import chisquare

    rng = np.random.default_rng(5)
    n = 40_000
    df = pd.DataFrame({"g": rng.choice(["a", "b", "c", "d"], n, p=[.5, .25, .15, .1])})
    r = sdc.pram(dd.from_pandas(df, npartitions=6), "g", pd=0.6, alpha=0.9, seed=2024)
    M = r.details["g"]["matrix"].to_numpy()
    T = r.details["g"]["transitions"].compute().to_numpy()
    for i in range(4):   # each row of from -> to counts against n_i x the matrix row (fixed seed)
        row = T[i]
        assert chisquare(row, row.sum() * M[i]).pvalue > 0.001, (i, row, M[i])
    p = np.bincount(pd.Categorical(df["g"]).codes, minlength=4) / n
    np.testing.assert_allclose(p @ M, p, atol=1e-12)             # the invariant matrix keeps the distribution


def test_pram_dask_bad_arguments_one_line(client) -> None:
    ddf = dd.from_pandas(_data(200), npartitions=4)
    with pytest.raises(ValueError, match="not in the data: 'nope'"):
        sdc.pram(ddf, "nope", seed=1)
    with pytest.raises(ValueError, match="strata"):
        sdc.pram(ddf, "region", strata="region", seed=1)


# --- sdc protect --engine dask ------------------------------------------------------------------

PLAN = """[plan]
seed = 7
[[steps]]
method = "global_recode"
variables = ["age"]
width = 10
[[steps]]
method = "top_bottom_code"
variables = ["income"]
top = 6000
bottom = 200
[[steps]]
method = "pram"
variables = ["region"]
strata = ["sex"]
[[steps]]
method = "pseudonymise"
variables = ["id"]
key_file = "{key}"
"""


@pytest.fixture()
def files(tmp_path):
    df = _data()
    src = tmp_path / "in"
    src.mkdir()
    for i in range(4):
        df.iloc[i * 1000:(i + 1) * 1000].to_csv(src / f"part-{i}.csv", index=False, sep=";")
    df.to_csv(src / "all.csv", index=False, sep=";")
    key = tmp_path / "key.txt"
    key.write_text("k" * 64)
    key.chmod(0o600)
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN.format(key=key))
    return tmp_path, df, plan


def _run(args, capsys):
    from sdc.cli.main import main

    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_protect_engine_dask_as_in_memory(client, files, capsys, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    tmp, df, plan = files
    sched = ["--scheduler", client.scheduler.address]
    args = ["protect", str(tmp / "in" / "part-*.csv"), "--plan", str(plan), "--engine", "dask", *sched,
            "--keys", "age,sex,region", "--weights", "w"]
    code, out, err = _run([*args, "--out", str(tmp / "d1")], capsys)
    assert code == 0, err
    code, _, err = _run(["protect", str(tmp / "in" / "all.csv"), "--plan", str(plan), "--out", str(tmp / "m"),
                         "--no-assess"], capsys)
    assert code == 0, err
    parts = sorted(glob.glob(str(tmp / "d1" / "released" / "part-*.csv")))
    assert [os.path.basename(p) for p in parts] == [f"part-{i}.csv" for i in range(4)]
    head = open(parts[0]).readline()
    assert ";" in head and "," not in head                      # the input's delimiter
    d = pd.concat([pd.read_csv(p, sep=";") for p in parts], ignore_index=True)
    m = pd.read_csv(tmp / "m" / "released.csv", sep=";")
    pd.testing.assert_frame_equal(d.drop(columns="region"), m.drop(columns="region"))   # deterministic steps
    # each released partition is the in-memory release's lines of those records, byte for byte
    m_lines = open(tmp / "m" / "released.csv").read().splitlines()
    d_lines = [ln for p in parts for ln in open(p).read().splitlines()[1:]]
    region = list(m.columns).index("region")
    strip = lambda ln: ";".join(x for j, x in enumerate(ln.split(";")) if j != region)  # noqa: E731
    assert [strip(x) for x in d_lines] == [strip(x) for x in m_lines[1:]]
    # PRAM: the in-memory matrices, its own draws
    jd = json.loads((tmp / "d1" / "protection.json").read_text())
    jm = json.loads((tmp / "m" / "protection.json").read_text())
    step = lambda j: next(s for s in j["steps"] if s["method"] == "pram")  # noqa: E731
    assert step(jd)["details"]["region"]["matrices"] == step(jm)["details"]["region"]["matrices"]
    assert step(jd)["seed"] == step(jm)["seed"]
    assert jd["released"]["records"] == len(df) and len(jd["released"]["files"]) == 4
    assert step(jd)["cells_changed"]["region"] == int((d["region"] != df["region"])[df["region"].notna()].sum())
    # the re-assessment on Dask equals the in-memory measures of the released file
    a = jd["assessment_on_dask"]["files"]["released"]
    prof = sdc.k_anonymity(d, ["age", "sex", "region"], weights="w", k=3)
    risk = sdc.individual_risk(d, ["age", "sex", "region"], weights="w")
    assert (a["classes"], a["sample_uniques"], a["records_fk_below_k"]) == (prof.n_classes, prof.n_unique,
                                                                              prof.n_k_lt_threshold)
    assert a["expected_reidentifications"] == pytest.approx(risk.expected_reidentifications, rel=1e-12)
    assert "suda" in jd["assessment_on_dask"]["not_run"]
    assert "Re-assessment on Dask" in (tmp / "d1" / "protection.md").read_text()
    assert "k" * 64 not in "".join(open(p).read() for p in glob.glob(str(tmp / "d1" / "**"), recursive=True)
                                   if os.path.isfile(p))
    # a rerun: byte-identical released files (and log)
    code, _, err = _run([*args, "--out", str(tmp / "d2")], capsys)
    assert code == 0, err
    for name in ["released/SHA256SUMS", *[f"released/part-{i}.csv" for i in range(4)]]:
        assert (tmp / "d1" / name).read_bytes() == (tmp / "d2" / name).read_bytes(), name
    j2 = json.loads((tmp / "d2" / "protection.json").read_text())
    assert {**jd, "command": ""} == {**j2, "command": ""}      # the command names the other --out


def test_protect_engine_dask_refuses_whole_file_steps(client, files, capsys) -> None:
    tmp, _, plan = files
    sched = ["--scheduler", client.scheduler.address]
    base = ["protect", str(tmp / "in" / "part-*.csv"), "--engine", "dask", *sched, "--keys", "age,sex"]
    for extra, name in ((["--k", "3"], "local_suppression"), (["--plan", str(tmp / "noise.toml")], "add_noise")):
        (tmp / "noise.toml").write_text('[[steps]]\nmethod = "add_noise"\nvariables = ["income"]\n')
        code, _, err = _run([*base, *extra, "--out", str(tmp / "o")], capsys)
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1, err
        assert name in lines[0] and "cannot run on a Dask DataFrame" in lines[0] and "step 1" in lines[0]
        assert not (tmp / "o").exists()
    # an error on a worker while writing: no output, no temporary folder left
    (tmp / "bad.toml").write_text('[[steps]]\nmethod = "global_recode"\nvariables = ["age"]\n'
                                  'edges = [0, 50, 80]\nlabels = "interval"\n')
    code, _, err = _run([*base, "--plan", str(tmp / "bad.toml"), "--out", str(tmp / "o")], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert not (tmp / "o").exists() and not [p for p in os.listdir(tmp) if p.startswith(".o")]


def test_a_bad_part_is_the_files_error_and_relative_paths_reach_the_workers(client, files, capsys,
                                                                           monkeypatch) -> None:
    """A malformed part was reported as "plan step 1 (global_recode): cannot read ...", and a
    relative glob or --out failed on a cluster whose workers run elsewhere (the workers got
    the relative paths)."""
    tmp, df, plan = files
    sched = ["--scheduler", client.scheduler.address]
    monkeypatch.chdir(tmp)
    code, _, err = _run(["protect", "in/part-*.csv", "--plan", str(plan), "--engine", "dask", *sched, "--no-assess",
                         "--out", "rel-out"], capsys)
    assert code == 0, err
    assert len(glob.glob(str(tmp / "rel-out" / "released" / "part-*.csv"))) == 4
    bad = tmp / "bad"
    bad.mkdir()
    for i, p in enumerate(sorted(glob.glob(str(tmp / "in" / "part-*.csv")))):
        text = open(p, encoding="utf-8").read().splitlines()
        if i == 1:
            text[3] += ",extra"
        (bad / f"part-{i}.csv").write_text("\n".join(text) + "\n", encoding="utf-8")
    code, _, err = _run(["protect", "bad/part-*.csv", "--plan", str(plan), "--engine", "dask", *sched, "--no-assess",
                         "--out", "bad-out"], capsys)
    assert code == 2 and err.startswith("sdc: error: ") and "part-1.csv" in err, err
    assert "plan step" not in err and not (tmp / "bad-out").exists()


def test_files_with_their_columns_in_another_order_are_told_so(tmp_path) -> None:
    """The same columns in another order were refused as other columns."""
    from sdc.core._dask_protect import read_partitions

    (tmp_path / "a.csv").write_text("x,y\n1,2\n", encoding="utf-8")
    (tmp_path / "b.csv").write_text("y,x\n3,4\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"must have the same columns in the same order: 'b.csv' has y, x"):
        read_partitions(str(tmp_path / "*.csv"))[0].compute(scheduler="sync")  # later files: read by the workers
    (tmp_path / "b.csv").write_text("y,z\n3,4\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"must have the same columns: 'b.csv' has y, z"):
        read_partitions(str(tmp_path / "*.csv"))[0].compute(scheduler="sync")
