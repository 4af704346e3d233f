"""The ``sdc attack`` commands: simulated attacks on a released file.

::

    sdc attack linkage RELEASED --external FILE --on qi1,qi2 [--truth ID] [--json]
    sdc attack linkage RELEASED --original ORIG --known qi1,qi2 [--share 0.1] [--seed 1] [--truth ID]
    sdc attack singling-out RELEASED --original ORIG [--control FILE] [--columns ...] [--mode ...]
    sdc attack linkability RELEASED --original ORIG --aux-a a,b --aux-b c,d [--control FILE]
    sdc attack inference RELEASED --original ORIG --aux a,b --secret S [--control FILE]
    sdc attack skewness RELEASED --keys a,b --sensitive S [--categories FILE]
    sdc attack distance RELEASED --original ORIG --variables x,y [--rmd]
    sdc attack record-linkage RELEASED --original ORIG --variables x,y [--distance gower]

Each prints a readable report, or with ``--json`` the result's ``to_dict()``. The library
computes; this module only parses, reads the files and prints.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from sdc.cli._output import final
from sdc.cli._args import DATA_HELP, Parser, bins, csv_list, read_args, read_options

__all__ = ["add_parsers", "run_attack"]


def _floats(text: str) -> list[float]:
    try:
        return [float(t) for t in csv_list(text)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from None


def _sensitive_bins(text: str) -> object:
    """Bands of the sensitive variable, written as --bins' value in the other commands without
    the column: ``0,20000,inf``, ``quantiles:5`` or ``width:10``."""
    return bins(f"sensitive={text}")[1]


def _common(p: argparse.ArgumentParser, *, original: bool = True, required: bool = True) -> None:
    p.add_argument("released", metavar="RELEASED", help=f"the released data: {DATA_HELP}")
    if original:
        p.add_argument("--original", required=required, metavar="ORIG", help="the original file the release was made from")
    read_args(p.add_argument_group("reading the files (each file given: RELEASED, --original, --control, "
                                   "--external)"))
    p.add_argument("--json", action="store_true", help="print one JSON document instead of tables")


def _anonymeter(p: argparse.ArgumentParser) -> None:
    p.add_argument("--control", metavar="FILE", help="held-out original records not used for the release")
    p.add_argument("--n-attacks", type=int, default=500, help="number of attacks (default 500)")
    p.add_argument("--confidence", type=float, default=0.95, help="confidence level of the intervals (default 0.95)")
    p.add_argument("--seed", type=int, default=0, help="seed of every random step (default 0)")


def add_parsers(sub: Any) -> None:
    """Add ``attack`` (with its attacks as subcommands) to the ``sdc`` subcommands."""
    from sdc.attacks.singling_out import SINGLING_OUT_ESTIMATORS, SINGLING_OUT_MODES
    from sdc.attacks.distance import RL_DISTANCES
    from sdc.attacks.linkage import LINKAGE_METHODS
    from sdc.core.matching import MATCH_MISSING_RULES

    top = sub.add_parser("attack", help="simulate an attack on a released file (linkage, singling out, ...)",
                         description="Simulate an attack on a released file and report what it achieves.")
    asub = top.add_subparsers(dest="attack", metavar="ATTACK", parser_class=Parser)
    asub.required = True

    p = asub.add_parser("linkage", help="link an outside file (or one drawn from the original) to the release")
    _common(p, required=False)
    p.add_argument("--external", metavar="FILE", help="the attacker's file")
    p.add_argument("--on", type=csv_list, help="quasi-identifiers shared by --external and RELEASED")
    p.add_argument("--known", type=csv_list, help="with --original: the quasi-identifiers the attacker knows")
    p.add_argument("--share", type=float, default=0.1, help="with --original: share of records drawn (default 0.1)")
    p.add_argument("--seed", type=int, default=0, help="with --original: seed of the draw (default 0)")
    p.add_argument("--truth", help="id column of the true record (in the attacker's file and, if present, in "
                                   "RELEASED; else RELEASED's row number)")
    p.add_argument("--method", choices=LINKAGE_METHODS, default="exact", help="exact join (default) or nearest neighbour")
    p.add_argument("--numeric", type=csv_list, help="nearest: QIs matched by distance (default: the numeric ones)")
    p.add_argument("--missing", choices=MATCH_MISSING_RULES, default="wildcard",
                   help="missing QI values match anything (default) or only another missing value")
    p.set_defaults(run=run_attack)

    p = asub.add_parser("singling-out", help="anonymeter's singling-out attack with baseline and control")
    _common(p)
    _anonymeter(p)
    p.add_argument("--columns", type=csv_list, help="columns the attacker uses (default: all shared columns)")
    p.add_argument("--mode", choices=SINGLING_OUT_MODES, default="multivariate", help="query kind (default multivariate)")
    p.add_argument("--n-cols", type=int, default=3, help="columns per multivariate query (default 3)")
    p.add_argument("--max-attempts", type=int, default=20_000, help="candidate queries tried at most (default 20000)")
    p.add_argument("--estimator", choices=SINGLING_OUT_ESTIMATORS, default="anonymeter",
                   help="rates per attack asked (anonymeter's, default) or per query found in the release")
    p.set_defaults(run=run_attack)

    p = asub.add_parser("linkability", help="anonymeter's linkability attack with baseline and control")
    _common(p)
    _anonymeter(p)
    p.add_argument("--aux-a", required=True, type=csv_list, help="columns of the attacker's first file")
    p.add_argument("--aux-b", required=True, type=csv_list, help="columns of the attacker's second file")
    p.add_argument("--n-neighbors", type=int, default=1, help="nearest released records per side (default 1)")
    p.set_defaults(run=run_attack, flag_aliases={"aux_cols[0]": "aux_a", "aux_cols[1]": "aux_b"})

    p = asub.add_parser("inference", help="anonymeter's inference attack with baseline and control")
    _common(p)
    _anonymeter(p)
    p.add_argument("--aux", required=True, type=csv_list, help="columns the attacker knows")
    p.add_argument("--secret", required=True, help="the column the attacker guesses")
    p.add_argument("--tolerance", type=float, default=0.05, help="relative tolerance of a numeric guess (default 0.05)")
    p.set_defaults(run=run_attack, flag_aliases={"aux_cols": "aux"})

    p = asub.add_parser("skewness", help="skewness (lift) and similarity (category purity) attacks per class")
    _common(p, original=False)
    p.add_argument("--keys", required=True, type=csv_list, help="quasi-identifiers defining the classes")
    p.add_argument("--sensitive", required=True, help="the sensitive variable")
    p.add_argument("--categories", metavar="FILE",
                   help="CSV with two columns, value and category: the semantic category of each sensitive value")
    p.add_argument("--lift-threshold", type=float, default=2.0, help="lift from which a class is skewed (default 2)")
    p.add_argument("--bins", type=_sensitive_bins, metavar="EDGES",
                   help="bands of a numeric sensitive variable: 0,20000,50000,inf, quantiles:5 or width:10")
    p.add_argument("--top", type=int, default=10, help="classes to list (default 10)")
    p.set_defaults(run=run_attack)

    p = asub.add_parser("distance", help="sdcMicro's dRisk (and dRiskRMD) for continuous keys")
    _common(p)
    p.add_argument("--variables", required=True, type=csv_list, help="the continuous key variables")
    p.add_argument("--k", type=float, default=0.05, help="dRisk interval in released sd (default 0.05)")
    p.add_argument("--rmd", action="store_true", help="also dRiskRMD (robust Mahalanobis intervals)")
    p.add_argument("--rmd-k", type=float, default=0.01, help="dRiskRMD k (default 0.01)")
    p.add_argument("--rmd-k2", type=float, default=0.05, help="dRiskRMD k2 (default 0.05)")
    p.add_argument("--seed", type=int, default=0, help="seed of the MCD (default 0)")
    p.set_defaults(run=run_attack)

    p = asub.add_parser("record-linkage", help="sdcMicro's global distance-based record linkage (Hungarian)")
    _common(p)
    p.add_argument("--variables", required=True, type=csv_list, help="the linkage variables")
    p.add_argument("--distance", choices=RL_DISTANCES, default="gower", help="distance (default gower)")
    p.add_argument("--weights", type=_floats, help="Gower weights per variable, comma-separated")
    p.add_argument("--original-id", help="id column of ORIG (default: row number)")
    p.add_argument("--released-id", help="id column of RELEASED (default: row number)")
    p.set_defaults(run=run_attack)


def _category_map(path: str, sep: str | None, values: Any) -> dict[object, object]:
    """The value -> category table of FILE, keyed by the data's own values (matched as text)."""
    from sdc.io import read_data

    table = read_data(path, sep=sep, text_columns=True)
    if table.shape[1] < 2:
        raise ValueError(f"--categories file '{path}' needs two columns (value, category); it has {table.shape[1]}.")
    by_text = dict(zip(table.iloc[:, 0].astype(str), table.iloc[:, 1]))
    return {v: by_text[str(v)] for v in values if str(v) in by_text}


def run_attack(args: argparse.Namespace, argv: Sequence[str]) -> int:
    from sdc.attacks import (
        distance_risk, distance_risk_rmd, inference_attack, linkability_attack, linkage_attack, record_linkage,
        simulate_linkage_attack, singling_out_attack, skewness_attack,
    )
    from sdc.cli._args import read_files
    from sdc.report.attack_text import attack_text, distance_text
    from sdc.report.serialize import dumps

    # Every file read alike (a sheet: of the Excel ones; --text: columns of the files that have them).
    files = read_files({"RELEASED": args.released, "--original": getattr(args, "original", None),
                        "--control": getattr(args, "control", None), "--external": getattr(args, "external", None)},
                       read_options(args))
    released, original, control = files["RELEASED"], files["--original"], files["--control"]
    src = str(args.released)
    kind = args.attack
    extra = None
    if kind == "linkage":
        if (args.external is None) == (original is None):
            raise ValueError("give either --external FILE (with --on) or --original ORIG (with --known).")
        opts = dict(method=args.method, numeric=args.numeric, missing=args.missing)
        if args.external is not None:
            if not args.on:
                raise ValueError("--external needs --on (the shared quasi-identifiers).")
            external = files["--external"]
            res = linkage_attack(released, external, args.on, truth=args.truth, **opts)
        else:
            if not args.known:
                raise ValueError("--original needs --known (the quasi-identifiers the attacker knows).")
            res = simulate_linkage_attack(original, released, args.known, share=args.share, seed=args.seed,
                                                  truth=args.truth, **opts)
    elif kind == "singling-out":
        res = singling_out_attack(original, released, columns=args.columns, control=control, mode=args.mode,
                                          n_attacks=args.n_attacks, n_cols=args.n_cols,
                                          max_attempts=args.max_attempts, confidence=args.confidence, seed=args.seed,
                                          estimator=args.estimator)
    elif kind == "linkability":
        res = linkability_attack(original, released, (args.aux_a, args.aux_b), control=control,
                                         n_attacks=args.n_attacks, n_neighbors=args.n_neighbors,
                                         confidence=args.confidence, seed=args.seed)
    elif kind == "inference":
        res = inference_attack(original, released, args.aux, args.secret, control=control,
                                       n_attacks=args.n_attacks, tolerance=args.tolerance,
                                       confidence=args.confidence, seed=args.seed)
    elif kind == "skewness":
        cats = None
        if args.categories:
            if args.sensitive not in released.columns:
                raise ValueError(f"--sensitive {args.sensitive!r} is not a column of RELEASED.")
            cats = _category_map(args.categories, args.sep, released[args.sensitive].dropna().unique())
        res = skewness_attack(released, args.keys, args.sensitive, categories=cats,
                                      lift_threshold=args.lift_threshold, bins=args.bins)
    elif kind == "distance":
        res = distance_risk(original, released, args.variables, k=args.k)
        if args.rmd:
            extra = distance_risk_rmd(original, released, args.variables, k=args.rmd_k, k2=args.rmd_k2,
                                              seed=args.seed)
    else:
        res = record_linkage(original, released, args.variables, distance=args.distance, weights=args.weights,
                                     original_id=args.original_id, released_id=args.released_id)
    if args.json:
        doc = res.to_dict(top=args.top) if kind == "skewness" else res.to_dict()
        if extra is not None:
            doc = {"dRisk": doc, "dRiskRMD": extra.to_dict()}
        print(dumps(doc))
    elif kind == "distance":
        print(distance_text(res, extra, source=src))
    elif kind == "skewness":
        from sdc.report.attack_text import skewness_text

        print(skewness_text(res, source=src, top=args.top))
    else:
        print(attack_text(res, source=src))
    final(_attack_line(kind, res, src))
    sys.stdout.flush()
    return 0


def _attack_line(kind: str, res: Any, source: str) -> str:
    """An attack in one line (``--quiet``): its first three numeric headline figures."""
    from sdc.report.formatting import format_cell

    s = res.summary()
    rows = [(d, v) for d, v in zip(s["description"], s["value"])
            if isinstance(v, (int, float)) and not isinstance(v, bool) and v == v][:3]
    return f"{kind} attack on {source}: " + "; ".join(f"{d}: {format_cell(v)}" for d, v in rows)
