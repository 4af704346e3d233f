"""A slow, independent reference for the generalisation search: every node, every class, in
plain Python and pandas, straight from the definitions (ARX's, see docs/search.md)."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pandas as pd


def _text(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def node_classes(data: pd.DataFrame, tables: dict[str, np.ndarray], node: tuple[int, ...]) -> list[list[int]]:
    """Record positions per class at `node` (a class = equal generalised labels)."""
    labels = []
    for (q, tab), lev in zip(tables.items(), node):
        m = {str(row[0]): str(row[lev]) for row in tab}
        labels.append([m[_text(v)] for v in data[q]])
    groups: dict[tuple, list[int]] = {}
    for i, key in enumerate(zip(*labels)):
        groups.setdefault(key, []).append(i)
    return list(groups.values())


def class_ok(sens: dict[str, list], q: dict[str, dict], rows: list[int], models: dict) -> bool:
    if models.get("k") is not None and len(rows) < models["k"]:
        return False
    for s, lv in models.get("l", {}).items():
        vals = [sens[s][i] for i in rows if sens[s][i] is not None]
        cnt = sorted(Counter(vals).values(), reverse=True)
        variant = models.get("l_variant", "distinct")
        if variant == "distinct":
            if len(cnt) < lv:
                return False
        elif variant == "entropy":
            if not cnt:
                return False
            n = sum(cnt)
            h = -sum(c / n * math.log(c / n) for c in cnt)
            if h < math.log(lv) - 1e-12:
                return False
        else:
            c = models.get("c", 2.0)
            if len(cnt) < lv or not cnt[0] < c * sum(cnt[int(lv) - 1:]):
                return False
    for s, tv in models.get("t", {}).items():
        vals = [sens[s][i] for i in rows if sens[s][i] is not None]
        if not vals:
            continue
        order = sorted(q[s])
        p = Counter(vals)
        n = len(vals)
        if models.get("t_distance", "equal") == "equal":
            d = 0.5 * sum(abs(p.get(v, 0) / n - q[s][v]) for v in order)
        else:
            m = len(order)
            cum, d = 0.0, 0.0
            for v in order[:-1]:
                cum += p.get(v, 0) / n - q[s][v]
                d += abs(cum)
            d = d / (m - 1) if m > 1 else 0.0
        if d > tv + 1e-12:
            return False
    for s, bv in models.get("beta", {}).items():
        vals = [sens[s][i] for i in rows if sens[s][i] is not None]
        n = len(vals)
        for v, c in Counter(vals).items():
            rel = (c / n - q[s][v]) / q[s][v]
            bound = min(bv, -math.log(q[s][v])) if models.get("beta_variant", "basic") == "enhanced" else bv
            if rel > bound + 1e-12:
                return False
    return True


def metric(data: pd.DataFrame, tables: dict[str, np.ndarray], node: tuple[int, ...], classes: list[list[int]],
           kept: list[bool], name: str) -> float:
    n = len(data)
    sizes = [len(c) for c in classes]
    supp = sum(s for s, k in zip(sizes, kept) if not k)
    if name == "dm_star":
        return float(sum(s * s for s in sizes))
    if name == "discernibility":
        return float(sum(s * s for s, k in zip(sizes, kept) if k) + n * supp)
    if name == "avg_class_size":
        return n / (sum(kept) + (1 if supp else 0))
    total_nue, loss_parts = 0.0, []
    for (q, tab), lev in zip(tables.items(), node):
        orig = [_text(v) for v in data[q]]
        gmap = {str(row[0]): str(row[lev]) for row in tab}
        gen = [gmap[v] for v in orig]
        a, b = Counter(orig), Counter(gen)
        if name in ("nue", "nue_monotonic"):
            v = sum(cnt * math.log2(b[gmap[val]] / cnt) for val, cnt in a.items())
            if name == "nue" and supp:
                cs = Counter(gen[i] for c, k in zip(classes, kept) if not k for i in c)
                v += sum(cnt * math.log2(supp / cnt) for cnt in cs.values())
            total_nue += math.floor(v * 1e10) / 1e10
        else:  # loss
            level_counts = Counter(str(row[lev]) for row in tab)
            d = len(tab)
            L = 0.0
            for c, k in zip(classes, kept):
                if k:
                    L += len(c) * level_counts[gen[c[0]]] / d
                else:
                    L += len(c)
            lo = n / d
            x = max((L - lo) / (n - lo), 0.0) if n - lo > 0 else 0.0
            loss_parts.append(math.floor(x * 1e10) / 1e10)
    if name in ("nue", "nue_monotonic"):
        return total_nue
    out = 1.0
    for p in loss_parts:
        out *= (p + 1.0) ** (1.0 / len(loss_parts))
    return out - 1.0


def brute_force(data: pd.DataFrame, tables: dict[str, np.ndarray], sensitive: list[str], models: dict,
                limit: float, metric_name: str) -> list[tuple[float, int, tuple[int, ...]]]:
    """All anonymous nodes as (loss, height, levels), best first."""
    n = len(data)
    sens = {s: [None if pd.isna(v) else v for v in data[s]] for s in sensitive}
    q = {}
    for s in sensitive:
        vals = [v for v in sens[s] if v is not None]
        q[s] = {v: c / len(vals) for v, c in Counter(vals).items()}
    max_out = math.floor(limit * n + 1e-9)
    out = []
    for node in itertools.product(*[range(t.shape[1]) for t in tables.values()]):
        classes = node_classes(data, tables, node)
        kept = [class_ok(sens, q, c, models) for c in classes]
        if sum(len(c) for c, k in zip(classes, kept) if not k) > max_out:
            continue
        out.append((metric(data, tables, node, classes, kept, metric_name), sum(node), node))
    out.sort()
    return out
