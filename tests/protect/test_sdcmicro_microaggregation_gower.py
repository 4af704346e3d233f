"""microaggregation_gower vs sdcMicro's microaggrGower (its body ``maGowerWORK``) and VIM's
``gowerD``, live (marker ``sdcmicro``), ONE R call per batch: each record's k nearest records
exactly, the numeric aggregates cell for cell, every category one of the neighbours' (sdcMicro
and sdc draw from different generators; a unique mode is the same), on sdcMicro's testdata and
testdata2 (testdata's first 1000 records: the live test must stay short) and >= scale.cases(100) small random mixed files; the distance matrix to 1e-12."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import sdc
from tests import scale

pytestmark = pytest.mark.sdcmicro

_NA = "<NA>"


def _text(s: pd.Series) -> np.ndarray:
    """Values as text, missing as _NA; sdcMicro releases a category drawn from the missing
    values as the text "NA's" (``VIM::sampleCat`` draws from ``summary(x)``'s names; "NAs" in
    R 4.6's summary)."""
    out = s.astype(object).where(s.notna(), _NA).map(lambda v: v if v is _NA else str(v)).to_numpy()
    return np.where(np.isin(out, ["NA's", "NAs"]), _NA, out)


def _random_case(seed: int):
    """A small mixed file: numeric (some missing), nominal (some missing), ordinal (levels
    "1".."L": sdcMicro reads L from the last label), semi-continuous; random weights, k, strata."""
    from r_bridge.protection import GowerCase

    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(8, 31)), int(rng.integers(2, 5))
    L = int(rng.integers(2, 5))
    df = pd.DataFrame({
        "num": rng.integers(0, 8, n).astype(float),
        "num2": rng.normal(50, 10, n).round(1),
        "nom": pd.Categorical(rng.choice(list("abcd"), n)),
        "ord": pd.Categorical(rng.integers(1, L + 1, n).astype(str), categories=[str(i) for i in range(1, L + 1)],
                              ordered=True),
        "mix": np.where(rng.random(n) < 0.4, 0.0, rng.integers(1, 5, n)).astype(float),
        "grp": pd.Categorical(np.where(np.arange(n) < n // 2, "p", "q")),
    })
    df.loc[rng.random(n) < 0.15, "num"] = np.nan
    df.loc[rng.random(n) < 0.15, "nom"] = np.nan
    df.loc[rng.random(n) < 0.1, "ord"] = np.nan
    dist = list(rng.permutation(["num", "nom", "ord", "mix", "num2"])[:int(rng.integers(2, 6))])
    mixed = ("mix",) if "mix" in dist and rng.random() < 0.7 else None
    by = ("grp",) if n // 2 >= k and rng.random() < 0.3 else None
    weights = tuple(float(w) for w in rng.integers(1, 4, len(dist))) if rng.random() < 0.5 else None
    return GowerCase(df, ("num2", "nom", "ord"), aggr=k, dist_var=tuple(dist), by=by, mixed=mixed,
                     mixed_constant=(float(rng.integers(0, 2)),) if mixed else None, weights=weights,
                     cat=str(rng.choice(["sample", "mode"])), numfun=str(rng.choice(["mean", "median"])), seed=seed)


def _dataset_cases():
    from r_bridge.protection import GowerCase
    from r_bridge.sdcmicro import load_dataset

    td = load_dataset("testdata").iloc[:1000].copy()  # sdcMicro's own example takes testdata[1:200, ]
    for c in ["urbrur", "roof", "walls", "water", "electcon", "relat", "sex"]:
        td[c] = td[c].astype(str).astype("category")
    td2 = load_dataset("testdata2")
    for c in ["relat", "sex", "water"]:
        td2[c] = td2[c].astype(str).astype("category")
    return [GowerCase(td, ("relat", "age", "expend"), dist_var=("age", "sex", "income", "savings"), by=("urbrur", "roof")),
            GowerCase(td2, ("relat", "age", "income"), aggr=4, dist_var=("age", "sex", "income", "savings", "water"),
                      weights=(2.0, 1.0, 1.0, 0.5, 1.0), cat="mode", numfun="median", seed=3)]


def _ours(c):
    return sdc.microaggregation_gower(
        c.data, list(c.variables), k=c.aggr, dist_var=list(c.dist_var), strata=list(c.by) if c.by else None,
        mixed=list(c.mixed) if c.mixed else None, mixed_constant=list(c.mixed_constant) if c.mixed_constant else None,
        weights=list(c.weights) if c.weights else None, measure=c.numfun, category=c.cat, seed=c.seed)


def _disagreements(name: str, c, theirs) -> list[str]:
    r = _ours(c)
    nb = r.details["neighbours"]
    if not (nb == theirs.neighbours).all():
        i = int(np.flatnonzero((nb != theirs.neighbours).any(axis=1))[0])
        return [f"{name}: record {i}'s neighbours {nb[i].tolist()} vs sdcMicro's {theirs.neighbours[i].tolist()}"]
    bad = []
    for v in c.variables:
        if r.details["kinds"][v] in ("numeric", "mixed"):
            a, b = r.data[v].to_numpy(np.float64), theirs.out[v].to_numpy(np.float64)
            if not np.allclose(a, b, rtol=1e-12, atol=1e-12, equal_nan=True):
                bad.append(f"{name}: {v} differs, largest {np.nanmax(np.abs(a - b))}")
            continue
        vals, ours, rs = _text(c.data[v]), _text(r.data[v]), _text(theirs.out[v])
        for i in range(len(vals)):
            have = vals[nb[i]]
            if ours[i] not in have or rs[i] not in have:
                bad.append(f"{name}: {v} record {i}: {ours[i]!r} / sdcMicro {rs[i]!r} not among {have.tolist()}")
                break
            labels, counts = np.unique(have, return_counts=True)
            if c.cat == "mode" and (counts == counts.max()).sum() == 1 and not ours[i] == rs[i] == labels[counts.argmax()]:
                bad.append(f"{name}: {v} record {i}: the mode {labels[counts.argmax()]!r}: {ours[i]!r} / {rs[i]!r}")
                break
    return bad


def test_microaggr_gower_on_the_datasets_and_random_files() -> None:
    from r_bridge.protection import microaggr_gower_batch

    cases = list(zip(("testdata", "testdata2"), _dataset_cases()))
    cases += [(f"random {s}", _random_case(s)) for s in range(scale.cases(100))]
    outs = microaggr_gower_batch([c for _, c in cases])
    bad = [m for (name, c), o in zip(cases, outs) for m in _disagreements(name, c, o)]
    assert not bad, "\n".join(bad[:20])


def test_gower_distance_is_vims_gowerD() -> None:
    from r_bridge.protection import gower_d

    for seed in range(scale.cases(20)):
        c = _random_case(1000 + seed)
        df = c.data
        w = np.random.default_rng(seed).integers(1, 5, 5).astype(float)
        ours = sdc.gower_distance(df, ["num", "num2", "nom", "ord", "mix"], mixed="mix", mixed_constant=1.0,
                                  weights=list(w))
        L = len(df["ord"].cat.categories)
        theirs = gower_d(df, numerical=["num", "num2"], factors=["nom"], orders=["ord"], mixed=["mix"],
                         lev_orders=[float(L)], mixed_constant=[1.0], weights=list(w))
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
