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
        elif variant == "grassberger":
            n = sum(cnt)
            h = grassberger_g(n) - sum(c * grassberger_g(c) for c in cnt) / n if cnt else -math.inf
            if len(cnt) < math.ceil(lv) or h < math.log(lv) - 1e-12:
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
        elif models["t_distance"] == "hierarchical":
            d = hierarchical_emd({v: p.get(v, 0) / n for v in order}, q[s], models["t_hierarchy"][s])
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
    for s, av in models.get("alpha", {}).items():
        vals = [sens[s][i] for i in rows if sens[s][i] is not None]
        if vals and max(Counter(vals).values()) / len(vals) > av + 1e-12:
            return False
    for s, dv in models.get("delta", {}).items():
        vals = [sens[s][i] for i in rows if sens[s][i] is not None]
        n = len(vals)
        log = math.log2 if models.get("delta_variant", "arx") == "arx" else math.log
        if any(abs(log((c / n) / q[s][v])) >= dv - 1e-12 for v, c in Counter(vals).items()):
            return False
    return True


def risk_kept(classes: list[list[int]], kept: list[bool], avg_risk: float) -> list[bool]:
    """ARX's average-risk enforcement, one class at a time: while kept classes / kept records
    exceeds the limit, suppress the smallest kept class (ties: the one whose first record comes first)."""
    kept = list(kept)
    order = sorted((len(c), min(c), i) for i, c in enumerate(classes) if kept[i])
    for _, _, i in order:
        n_cls = sum(kept)
        n_rec = sum(len(c) for c, k in zip(classes, kept) if k)
        if n_rec == 0 or 1.0 / (n_rec / n_cls) <= avg_risk:
            break
        kept[i] = False
    return kept


def grassberger_g(n: int) -> float:
    """Grassberger's G(n) from its definition: G(2m) = -gamma - ln 2 + sum_{k<=m} 2/(2k-1), G(2m+1) = G(2m)."""
    m = n // 2
    return -0.5772156649015329 - math.log(2) + math.fsum(2.0 / (2 * k - 1) for k in range(1, m + 1))


def hierarchical_emd(p: dict, q: dict, table: np.ndarray) -> float:
    """Li et al.'s (2007) EMD over a hierarchy (rows = values, columns = levels), by recursion
    from the root: a node's extra is the sum of its children's; its cost (level/H) min(pos, neg)."""
    H = table.shape[1] - 1
    children: dict[tuple[int, str], set] = {}
    for row in table:
        for lev in range(1, H + 1):
            children.setdefault((lev, str(row[lev])), set()).add((lev - 1, str(row[lev - 1])))

    def extra_and_cost(node: tuple[int, str]) -> tuple[float, float]:
        lev, label = node
        if lev == 0:
            return p.get(label, 0.0) - q.get(label, 0.0), 0.0
        parts = [extra_and_cost(c) for c in children[node]]
        pos = sum(e for e, _ in parts if e > 0)
        neg = -sum(e for e, _ in parts if e < 0)
        return pos - neg, sum(c for _, c in parts) + lev / H * min(pos, neg)

    roots = {(H, str(row[H])) for row in table}
    return sum(extra_and_cost(r)[1] for r in roots) if H else 0.0


def metric(data: pd.DataFrame, tables: dict[str, np.ndarray], node: tuple[int, ...], classes: list[list[int]],
           kept: list[bool], name: str, weights: list[float] | None = None) -> float:
    """The metric from its definition; `weights` (normalised, one per quasi-identifier) weigh the
    multi-dimensional ones as ARX's aggregates: sum, arithmetic mean sum (v / d) w, geometric mean."""
    n = len(data)
    w = [1.0] * len(node) if weights is None else weights
    sizes = [len(c) for c in classes]
    supp = sum(s for s, k in zip(sizes, kept) if not k)
    if name == "dm_star":
        return float(sum(s * s for s in sizes))
    if name == "discernibility":
        return float(sum(s * s for s, k in zip(sizes, kept) if k) + n * supp)
    if name == "avg_class_size":
        return n / (sum(kept) + (1 if supp else 0))
    if name == "height":
        return float(sum(lev * x for lev, x in zip(node, w)))
    if name in ("precision", "precision_monotonic"):
        parts = []
        for tab, lev in zip(tables.values(), node):
            share = lev / (tab.shape[1] - 1) if tab.shape[1] > 1 else 0.0
            parts.append(((n - supp) * share + supp) / n if name == "precision" else share)
        return sum(parts) / len(parts) if weights is None else sum(p / len(parts) * x for p, x in zip(parts, w))
    total_nue, loss_parts = 0.0, []
    for (q, tab), lev, wq in zip(tables.items(), node, w):
        orig = [_text(v) for v in data[q]]
        gmap = {str(row[0]): str(row[lev]) for row in tab}
        gen = [gmap[v] for v in orig]
        a, b = Counter(orig), Counter(gen)
        if name in ("nue", "nue_monotonic"):
            v = sum(cnt * math.log2(b[gmap[val]] / cnt) for val, cnt in a.items())
            if name == "nue" and supp:
                cs = Counter(gen[i] for c, k in zip(classes, kept) if not k for i in c)
                v += sum(cnt * math.log2(supp / cnt) for cnt in cs.values())
            total_nue += math.floor(v * 1e10) / 1e10 * wq
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
            loss_parts.append(math.floor(x * 1e10) / 1e10 * wq)
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
        if models.get("avg_risk") is not None and node != tuple(t.shape[1] - 1 for t in tables.values()):
            kept = risk_kept(classes, kept, models["avg_risk"])
        if sum(len(c) for c, k in zip(classes, kept) if not k) > max_out:
            continue
        out.append((metric(data, tables, node, classes, kept, metric_name), sum(node), node))
    out.sort()
    return out
