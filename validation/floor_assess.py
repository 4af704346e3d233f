"""The floor of the scale benchmark (validation/bench_scale.py): read the same survey file typed,
then the packed-key frequency count of its eight keys, with numpy and pandas and nothing else.

    python -m validation.floor_assess FILE [KEY,KEY,...]

Every column is read with its type given (no inference: whole numbers as int64, the weight and
cholesterol as float64, the text as object), each key factorised once (age banded by the
example's edges first, as ``sdc assess`` bands it), the codes packed in mixed radix into one
int64 and counted once (``bincount`` when the packed space is at most n + 1024, else
``numpy.unique``); f_k per record is gathered and the largest printed. No missing-value rule,
no weights, no report: the least work any assessment of these keys must do.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

KEYS = ["age", "sex", "region", "marital_status", "education", "employment", "smoking", "tenure"]
AGE_EDGES = [0, 16, 25, 35, 45, 55, 65, 75, np.inf]
DTYPES = {"subject_id": np.int64, "household_id": np.int64, "age": np.int64, "weight": np.float64,
          "cholesterol": np.float64}


def floor(path: str, keys: list[str]) -> int:
    """The largest f_k of `keys` in the survey file at `path`."""
    df = pd.read_csv(path, dtype=DTYPES, keep_default_na=False, na_values=[""])
    packed = np.zeros(len(df), dtype=np.int64)
    radix = 1
    for k in keys:
        col = pd.cut(df[k], AGE_EDGES, right=False) if k == "age" else df[k]
        codes, uniq = pd.factorize(col)
        card = len(uniq) + 1  # one more: missing (-1 + 1 = 0)
        packed = packed * card + (codes + 1)
        radix *= card
    if radix <= len(df) + 1024:
        fk = np.bincount(packed, minlength=radix)[packed]
    else:
        _, inv, counts = np.unique(packed, return_inverse=True, return_counts=True)
        fk = counts[inv]
    return int(fk.max())


def main() -> None:
    keys = sys.argv[2].split(",") if len(sys.argv) > 2 else KEYS
    print(floor(sys.argv[1], keys))


if __name__ == "__main__":
    main()
