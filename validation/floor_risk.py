"""The floor of ``sdc risk FILE`` (for validation/benchmark.py's cli suite): read the key
columns typed, then f_k by the least work (validation.benchmark.floor).

    python validation/floor_risk.py FILE k1,k2,...
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd


def main() -> None:
    path, keys = sys.argv[1], sys.argv[2].split(",")
    df = pd.read_csv(path, usecols=keys, dtype={k: np.int64 for k in keys})
    packed = None
    radix = 1
    for k in keys:
        v = df[k].to_numpy()
        lo = v.min()
        card = int(v.max() - lo) + 1
        c = v - lo
        packed = c if packed is None else packed * card + c
        radix *= card
    if radix <= len(df) + 1024:
        fk = np.bincount(packed, minlength=radix)[packed]
    else:
        _, inv, counts = np.unique(packed, return_inverse=True, return_counts=True)
        fk = counts[inv]
    print(int(fk.max()))


if __name__ == "__main__":
    main()
