"""``sdc search``: find the optimal generalisation and write the release with its report.

``sdc search DATA --config search.toml [--out DIR]``: the config names the quasi-identifiers
and their hierarchies (ARX CSV files, relative to the config, or built), the privacy models,
the suppression limit and the metric (:mod:`sdc.workflow.search_config`); flags override the
models and the search settings. The folder (:mod:`sdc.report.search_report`) holds the
released file, ``search.json``, ``search.md``, ``lattice.csv`` and the figures. A bad config
is one error line naming the key, and nothing is written.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

__all__ = ["add_parsers", "run_search_command"]


def add_parsers(sub: Any) -> None:
    """Add ``search`` to the ``sdc`` subcommands."""
    from sdc.identify.criteria import BETA_VARIANTS, L_VARIANTS, T_DISTANCES
    from sdc.identify.metrics import METRICS
    from sdc.cli._args import DATA_HELP, read_args
    from sdc.identify.search import SUPPRESSED_AS

    p = sub.add_parser("search", help="optimal full-domain generalisation over the lattice (ARX-style)",
                       description="Find the generalisation levels that meet the privacy models with the least "
                                   "information loss, and write the release with its report.")
    p.add_argument("data", metavar="DATA", nargs="?", help=f"{DATA_HELP} (default: the config's [data] path)")
    p.add_argument("--config", metavar="FILE", required=True,
                   help="search configuration (TOML, or YAML): quasi-identifiers and hierarchies, models, search")
    p.add_argument("--out", metavar="DIR", default="sdc-search", help="output folder (default: ./sdc-search)")
    read_args(p.add_argument_group("reading the data (override the config's [data])"))
    g = p.add_argument_group("models and search (override the config)")
    g.add_argument("--k", type=int, help="k of k-anonymity")
    g.add_argument("--l", type=float, help="l of l-diversity (every sensitive variable)")
    g.add_argument("--l-variant", choices=L_VARIANTS, help="l-diversity variant")
    g.add_argument("--c", type=float, help="c of recursive (c, l)-diversity")
    g.add_argument("--t", type=float, help="t of t-closeness (every sensitive variable)")
    g.add_argument("--t-distance", choices=T_DISTANCES, help="ground distance of t-closeness")
    g.add_argument("--beta", type=float, help="beta of beta-likeness (every sensitive variable)")
    g.add_argument("--beta-variant", choices=BETA_VARIANTS, help="beta-likeness variant")
    g.add_argument("--sensitive", help="sensitive variables, comma-separated")
    g.add_argument("--suppression-limit", type=float, help="largest share of records suppressed (default 0.04)")
    g.add_argument("--metric", choices=METRICS, help="information-loss metric (default discernibility)")
    g.add_argument("--runner-ups", type=int, help="next-best transformations to report (default 5)")
    g.add_argument("--suppressed-as", choices=SUPPRESSED_AS, help="suppressed quasi-identifiers (default missing)")
    g.add_argument("--exhaustive", action="store_true", help="evaluate every transformation (no pruning)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON on stdout")
    p.set_defaults(run=run_search_command)


def _overrides(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    from sdc.cli._args import csv_list

    models: dict[str, Any] = {}
    for flag in ("k", "l", "l_variant", "c", "t", "t_distance", "beta", "beta_variant"):
        v = getattr(args, flag)
        if v is not None:
            models[flag] = int(v) if flag == "l" and float(v).is_integer() else v
    if args.sensitive is not None:
        models["sensitive"] = csv_list(args.sensitive)
    search: dict[str, Any] = {}
    for flag in ("suppression_limit", "metric", "runner_ups", "suppressed_as"):
        v = getattr(args, flag)
        if v is not None:
            search[flag] = v
    if args.exhaustive:
        search["exhaustive"] = True
    return models, search


def _check_quasi_identifiers(qis: Sequence[str], columns: Sequence[str], path: str) -> None:
    from sdc._validation import did_you_mean

    missing = [q for q in qis if q not in columns]
    if missing:
        raise ValueError(f"quasi-identifier {missing[0]!r} (config [quasi_identifiers]) is not a column of "
                         f"'{path}'{did_you_mean(missing[0], columns)}.")


def run_search_command(args: argparse.Namespace, argv: Sequence[str]) -> int:
    from sdc._stats import summary_values
    from sdc.cli._args import read_options
    from sdc.io import read_data, read_header
    from sdc.report.search_report import write_search
    from sdc.report.serialize import dumps
    from sdc.workflow.search_config import load_search_config, run_search

    cfg = load_search_config(args.config)
    models, search = _overrides(args)
    if models or search:
        cfg = replace(cfg, models={**cfg.models, **models}, search={**cfg.search, **search})
    path = args.data or cfg.data_path
    if path is None:
        raise ValueError("name the data file: DATA on the command line or [data] path in the config.")
    reading = read_options(args, cfg)  # a flag, else the config's [data] setting
    # search.json records the settings the file was read with (flags included), as plan.toml does.
    cfg = replace(cfg, sep=reading["sep"], na_values=reading["na_values"], text_columns=reading["text_columns"],
                  sheet=reading["sheet"])
    sep = reading["sep"]
    header = read_header(path, sep=sep, sheet=reading["sheet"])  # checked before they are read as text
    if header is not None:
        _check_quasi_identifiers(cfg.quasi_identifiers, header, path)
    # Quasi-identifiers are read as text so codes keep their leading zeros and match the hierarchy.
    reading["text_columns"] = _text_columns(reading["text_columns"],
                                            [q for q in cfg.quasi_identifiers if not _numeric_builder(cfg, q)])
    data = read_data(path, **reading)
    _check_quasi_identifiers(cfg.quasi_identifiers, [str(c) for c in data.columns], path)
    command = "sdc " + shlex.join(argv)
    run = run_search(cfg, data, input_file=path, command=command)
    out = write_search(run, args.out, data=data, input_path=path, sep=sep, command=command)
    r = run.result
    if args.json:
        print(dumps({**summary_values(r.summary()), "out": str(out)}))
        return 0
    print(f"Searched {r.n_nodes:,} transformations of {len(r.quasi_identifiers)} quasi-identifiers in "
          f"{r.seconds:.2f} s ({r.n_evaluated:,} evaluated).")
    print("Optimum: " + ", ".join(f"{q}={r.levels[q]}" for q in r.quasi_identifiers))
    print(f"Loss ({r.metric}): {r.loss:.10g}; suppressed {r.suppressed:,} records "
          f"({100 * r.suppressed_share:.2f}%); {r.classes:,} classes.")
    if run.dimension is not None:
        print(f"Dimension search: {run.dimension.best.get('subset')} "
              f"({'meets' if run.dimension.meets else 'misses'} the targets).")
    if run.combinations is not None:
        print(f"Best combination: {run.combinations.best.get('combination')} "
              f"({'meets' if run.combinations.meets else 'misses'} the targets).")
    print(f"Written: {Path(out)}/ (search.md, search.json, lattice.csv, figures, released file)")
    return 0


def _text_columns(asked: bool | Sequence[str] | None, qis: list[str]) -> bool | list[str]:
    """The columns read as text: the quasi-identifiers without a numeric hierarchy, and those
    asked for (--text or the config's); every column when all are asked for."""
    if asked is True:
        return True
    return list(dict.fromkeys([*qis, *(asked or ())]))


def _numeric_builder(cfg: Any, name: str) -> bool:
    spec = cfg.quasi_identifiers.get(name)
    return isinstance(spec, dict) and "intervals" in spec
