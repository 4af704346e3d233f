"""A seeded generator of key-variable files for the `sdc risk` benchmarks, at any size.

    .venv/bin/python -m validation.make_risk_data --records 1e7 --keys 8 --out /tmp/risk-1e7x8.csv

Columns: ``id`` (1..n), the keys ``k1`` .. ``kK`` (skewed whole-number codes with the
cardinalities of :data:`validation.benchmark.CARDS`, drawn as the benchmark draws them: one
Dirichlet distribution per key for the whole file), optionally
``w`` (sampling weights, ``--weights``) and missing key values (``--na 0.05``: that share of
every key left empty), and ``--extra`` further columns that the risk commands do not need
(a number and a short text each), so that reading only the key columns matters.

Large files are written in chunks of one million records (same seed, same file); the same
arguments always give the same bytes.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from validation.benchmark import CARDS

CHUNK = 1_000_000
SEED = 20261124
WORDS = np.array(["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"])


def distributions(keys: int, seed: int) -> list[np.ndarray]:
    """The value distribution of each key (skewed: Dirichlet(1, ..., 1) over CARDS)."""
    rng = np.random.default_rng(seed)
    return [rng.dirichlet(np.ones(CARDS[j])) for j in range(keys)]


def chunk(start: int, records: int, probs: list[np.ndarray], weights: bool, na: float, extra: int, seed: int
          ) -> pd.DataFrame:
    """Records ``start .. start + records - 1`` (each chunk draws from its own seed, derived
    from `seed` and `start`, with the file's distributions `probs`)."""
    rng = np.random.default_rng(seed + 1 + start)
    part = pd.DataFrame({"id": np.arange(start + 1, start + records + 1)})
    for j, p in enumerate(probs):
        codes = rng.choice(p.size, size=records, p=p).astype(np.int64) + 1
        if na > 0:
            col = pd.array(codes, dtype="Int64")
            col[rng.random(records) < na] = pd.NA
            part[f"k{j + 1}"] = col
        else:
            part[f"k{j + 1}"] = codes
    if weights:
        part["w"] = np.round(rng.uniform(1.0, 100.0, size=records), 4)
    for e in range(extra):
        part[f"x{e + 1}"] = np.round(rng.normal(50, 10, records), 2)
        part[f"t{e + 1}"] = WORDS[rng.integers(0, WORDS.size, records)]
    return part


def write(path: Path, records: int, keys: int, *, weights: bool = False, na: float = 0.0, extra: int = 1,
          seed: int = SEED) -> None:
    """Write the file in chunks (bounded memory)."""
    if keys > len(CARDS):
        raise ValueError(f"at most {len(CARDS)} keys")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        probs = distributions(keys, seed)
        for i, start in enumerate(range(0, records, CHUNK)):
            part = chunk(start, min(CHUNK, records - start), probs, weights, na, extra, seed)
            part.to_csv(fh, index=False, header=i == 0, lineterminator="\n")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=float, required=True)
    ap.add_argument("--keys", type=int, default=8)
    ap.add_argument("--weights", action="store_true", help="add a sampling-weight column w")
    ap.add_argument("--na", type=float, default=0.0, help="share of missing values in every key (default 0)")
    ap.add_argument("--extra", type=int, default=1, help="pairs of columns the keys do not need (default 1)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    write(a.out, int(a.records), a.keys, weights=a.weights, na=a.na, extra=a.extra, seed=a.seed)


if __name__ == "__main__":
    main()
