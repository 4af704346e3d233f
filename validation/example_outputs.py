"""Every output of the bundled example's runs, with a manifest of SHA-256s, so that two trees
can be shown to write the same files byte for byte (a restructuring promises that).

    python validation/example_outputs.py OUT            # run everything, write OUT/MANIFEST
    python validation/example_outputs.py --diff A B     # compare two OUT folders' manifests

The runs are the bundled example through every command a steward uses (assess, protect,
compare, sweep, identify, search, the single-measure commands, the attacks, the Dask engine),
with SOURCE_DATE_EPOCH fixed so that the run time printed in every report is the same (run
times, and the date of a run that does not read SOURCE_DATE_EPOCH, are masked in the manifest). Each
run writes OUT/<name>/ (its output folder, if any) and OUT/<name>/stdout.txt (what it printed,
exit status last). The commands run with the ``sdc`` of the Python running this script
(``python -m sdc``), from the repository root, so ``sdc/data/...`` paths are the tree's own.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = "sdc/data/health_survey.csv"
KEYS = "age,sex,region"
EPOCH = "1767225600"  # 2026-01-01 00:00:00 UTC

SEARCH_TOML = """[quasi_identifiers]
sex = { mapping = [{ female = "*", male = "*" }] }
age = { intervals = [5, 10, 20], start = 0 }
region = { mapping = [{ "North East" = "North", "North West" = "North", "Yorkshire" = "North", "London" = "South", "South East" = "South", "South West" = "South", "East Midlands" = "Midlands", "West Midlands" = "Midlands", "East" = "Midlands" }] }

[models]
k = 5

[search]
suppression_limit = 0.02
metric = "loss"
runner_ups = 3
"""


def runs(out: Path) -> list[tuple[str, list[str]]]:
    """(name, arguments of ``sdc``) for every run; ``{out}`` paths are inside OUT."""
    o = lambda name: str(out / name / "folder")  # noqa: E731 - a short path maker
    released = str(out / "protect" / "folder" / "released.csv")
    return [
        ("assess", ["assess", "--out", o("assess")]),
        ("assess-dask", ["assess", DATA, "--config", "sdc/data/example.toml", "--engine", "dask", "--out",
                         o("assess-dask")]),
        ("example", ["example"]),
        ("protect", ["protect", DATA, "--plan", "sdc/data/example_plan.toml", "--out", o("protect")]),
        ("protect-flags", ["protect", DATA, "--keys", KEYS, "--recode", "age=10", "--k", "3", "--seed", "1",
                           "--out", o("protect-flags")]),
        ("protect-dask", ["protect", DATA, "--keys", KEYS, "--recode", "age=10", "--engine", "dask", "--seed", "1",
                          "--out", o("protect-dask")]),
        ("compare", ["compare", DATA, released, "--config", "sdc/data/example.toml", "--out", o("compare")]),
        ("sweep", ["sweep", DATA, "--plan", "sdc/data/example_sweep.toml", "--out", o("sweep")]),
        ("identify", ["identify", DATA, "--out", o("identify")]),
        ("search", ["search", DATA, "--config", str(out / "search.toml"), "--out", o("search")]),
        ("risk", ["risk", DATA, "--keys", KEYS, "--weights", "weight", "--json"]),
        ("risk-text", ["risk", DATA, "--keys", KEYS, "--weights", "weight"]),
        ("snapshots", ["snapshots", DATA, "--keys", KEYS + ",marital_status", "--json"]),
        ("ldiversity", ["ldiversity", DATA, "--keys", KEYS, "--sensitive", "diagnosis", "--json"]),
        ("tcloseness", ["tcloseness", DATA, "--keys", KEYS, "--sensitive", "diagnosis", "--distance", "equal",
                        "--json"]),
        ("inference", ["inference", DATA, "--sensitive", "diagnosis", "--json"]),
        ("suda", ["suda", DATA, "--keys", KEYS, "--json"]),
        ("modrisk", ["modrisk", DATA, "--keys", "sex,region,marital_status", "--json"]),
        ("uniqueness", ["uniqueness", DATA, "--keys", KEYS, "--sampling-fraction", "0.1", "--json"]),
        ("attack-linkage", ["attack", "linkage", released, "--original", DATA, "--known", KEYS, "--json"]),
        ("attack-singling-out", ["attack", "singling-out", released, "--original", DATA, "--json"]),
        ("attack-skewness", ["attack", "skewness", released, "--keys", KEYS, "--sensitive", "diagnosis", "--json"]),
    ]


def run_all(out: Path) -> None:
    if out.exists():
        raise SystemExit(f"{out} exists: give a new folder.")
    out.mkdir(parents=True)
    (out / "search.toml").write_text(SEARCH_TOML, encoding="utf-8")
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, PYTHONHASHSEED="0")
    for name, args in runs(out):
        d = out / name
        d.mkdir()
        res = subprocess.run([sys.executable, "-m", "sdc", *args], cwd=d if name == "example" else ROOT, env=env,
                             capture_output=True, text=True)
        text = res.stdout + "".join(f"[stderr] {ln}\n" for ln in res.stderr.splitlines()) + f"[exit {res.returncode}]\n"
        (d / "stdout.txt").write_text(text.replace(str(out), "OUT").replace(str(ROOT), "ROOT"), encoding="utf-8")
    write_manifest(out)


def _normalised(p: Path, out: Path) -> bytes:
    """The file's bytes with the two folders' paths replaced (an .xlsx: each member's, by name)."""
    def plain(data: bytes) -> bytes:
        return data.replace(str(out).encode(), b"OUT").replace(str(ROOT).encode(), b"ROOT")
    if p.suffix == ".xlsx":
        with zipfile.ZipFile(p) as z:
            return b"".join(n.encode() + b"\0" + plain(z.read(n)) for n in sorted(z.namelist()))
    data = plain(p.read_bytes())
    if p.suffix != ".png":  # run times, and run dates a command does not take from SOURCE_DATE_EPOCH
        data = re.sub(rb"(\(|in )\d+(\.\d+)? s\b", rb"\1T s", data)
        data = re.sub(rb'"seconds": [0-9.e-]+', b'"seconds": T', data)
        data = re.sub(rb"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", b"TIME UTC", data)
    return data


def write_manifest(out: Path) -> None:
    lines = []
    for p in sorted(out.rglob("*")):
        if p.is_file() and p.name != "MANIFEST":
            lines.append(f"{hashlib.sha256(_normalised(p, out)).hexdigest()}  {p.relative_to(out).as_posix()}")
    (out / "MANIFEST").write_text("\n".join(lines) + "\n", encoding="utf-8")


def diff(a: Path, b: Path) -> int:
    def read(d: Path) -> dict[str, str]:
        return {ln.split("  ", 1)[1]: ln.split("  ", 1)[0]
                for ln in (d / "MANIFEST").read_text(encoding="utf-8").splitlines() if ln}
    ma, mb = read(a), read(b)
    only_a, only_b = sorted(set(ma) - set(mb)), sorted(set(mb) - set(ma))
    changed = sorted(k for k in set(ma) & set(mb) if ma[k] != mb[k])
    for k in only_a:
        print(f"only in {a}: {k}")
    for k in only_b:
        print(f"only in {b}: {k}")
    for k in changed:
        print(f"differs: {k}")
    print(f"{len(set(ma) & set(mb)) - len(changed)} identical, {len(changed)} differ, "
          f"{len(only_a)} only in the first, {len(only_b)} only in the second")
    return 1 if (only_a or only_b or changed) else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", type=Path)
    ap.add_argument("--diff", nargs=2, type=Path, metavar=("A", "B"))
    args = ap.parse_args()
    if args.diff:
        return diff(*args.diff)
    if args.out is None:
        ap.error("give OUT or --diff A B")
    run_all(args.out.resolve())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
