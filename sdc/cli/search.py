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

from sdc.cli._output import final

__all__ = ["add_parsers", "run_search_command"]


def add_parsers(sub: Any) -> None:
    """Add ``search`` to the ``sdc`` subcommands."""
    from sdc.cli._args import DATA_HELP, add_option_flags, read_args
    from sdc.workflow.search_config import MODEL_OPTIONS, SEARCH_OPTIONS

    p = sub.add_parser("search", help="optimal full-domain generalisation over the lattice (ARX-style)",
                       description="Find the generalisation levels that meet the privacy models with the least "
                                   "information loss, and write the release with its report.")
    p.add_argument("data", metavar="DATA", nargs="?", help=f"{DATA_HELP} (default: the config's [data] path)")
    p.add_argument("--config", metavar="FILE", required=True,
                   help="search configuration (TOML, or YAML): key variables and hierarchies, models, search")
    p.add_argument("--out", metavar="DIR", default="sdc-search", help="output folder (default: ./sdc-search)")
    read_args(p.add_argument_group("reading the data (override the config's [data])"))
    g = p.add_argument_group("models and search (override the config)")
    add_option_flags(g, MODEL_OPTIONS.names, MODEL_OPTIONS)  # from their declarations
    add_option_flags(g, SEARCH_OPTIONS.names, SEARCH_OPTIONS)
    p.add_argument("--json", action="store_true", help="print the summary as JSON on stdout")
    p.set_defaults(run=run_search_command)


def _overrides(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """The models and search settings the flags give, each checked by its declaration (an error
    names the flag: ``--k must be a whole number >= 1; got 0.``)."""
    from sdc.workflow.search_config import MODEL_OPTIONS, SEARCH_OPTIONS

    out: list[dict[str, Any]] = []
    for options in (MODEL_OPTIONS, SEARCH_OPTIONS):
        given: dict[str, Any] = {}
        for opt in options:
            v = getattr(args, opt.name, None)
            if v is not None:
                opt.check(v, opt.flag_name, ValueError)
                given[opt.name] = int(v) if opt.name == "l" and float(v).is_integer() else v
        out.append(given)
    if "sensitive" in out[0]:
        out[0]["sensitive"] = list(out[0]["sensitive"])
    return out[0], out[1]


def _check_keys(qis: Sequence[str], columns: Sequence[str], path: str) -> None:
    from sdc._validation import did_you_mean

    missing = [q for q in qis if q not in columns]
    if missing:
        raise ValueError(f"key variable {missing[0]!r} (config [keys]) is not a column of "
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
    if search.get("research_subset") is not None:  # a flag's path is the working folder's
        search["research_subset"] = str(Path(search["research_subset"]).resolve())
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
        _check_keys(cfg.keys, header, path)
    # Quasi-identifiers are read as text so codes keep their leading zeros and match the hierarchy.
    reading["text_columns"] = _text_columns(reading["text_columns"],
                                            [q for q in cfg.keys if not _numeric_builder(cfg, q)])
    data = read_data(path, **reading)
    _check_keys(cfg.keys, [str(c) for c in data.columns], path)
    command = "sdc " + shlex.join(argv)
    run = run_search(cfg, data, input_file=path, command=command)
    if run.result.research_subset is not None:  # the release is the research subset's rows
        data = data.loc[run.result.data.index]
    out = write_search(run, args.out, data=data, input_path=path, sep=sep, command=command)
    r = run.result
    if args.json:
        print(dumps({**summary_values(r.summary()), "out": str(out)}))
        return 0
    print(f"Searched {r.n_nodes:,} transformations of {len(r.quasi_identifiers)} quasi-identifiers in "
          f"{r.seconds:.2f} s ({r.n_evaluated:,} evaluated).")
    best = "Optimum" if r.optimal else "Best found, not proven optimal"
    if r.algorithm != "exact":
        print(f"{r.algorithm_title[0].upper()}{r.algorithm_title[1:]} stopped: {r.stopped} ({r.n_evaluated:,} of "
              f"{r.n_nodes:,} transformations checked{'' if r.seed is None else f', seed {r.seed}'}).")
    print(f"{best}: " + ", ".join(f"{q}={r.levels[q]}" for q in r.quasi_identifiers))
    if r.local is None:
        print(f"Loss ({r.metric}): {r.loss:.10g}; suppressed {r.suppressed:,} records "
              f"({100 * r.suppressed_share:.2f}%); {r.classes:,} classes.")
    else:  # the optimum's own figures; r.suppressed and r.classes are the local release's
        loc = r.local
        print(f"Loss ({r.metric}): {r.loss:.10g}; suppressed {loc.suppressed_full:,} records "
              f"({100 * loc.suppressed_full / r.n_records:.2f}%).")
        print(f"Local recoding: {len(loc.steps) - 1} more step(s); loss {loc.loss:.10g} against "
              f"{loc.loss_full:.10g} full-domain (saving {100 * loc.relative_saving:.2f}%); "
              f"{loc.suppressed_full:,} records suppressed before, {loc.suppressed:,} after; {loc.classes:,} classes.")
    if run.dimension is not None:
        print(f"Dimension search: {run.dimension.best.get('subset')} "
              f"({'meets' if run.dimension.meets else 'misses'} the targets).")
    if run.combinations is not None:
        print(f"Best combination: {run.combinations.best.get('combination')} "
              f"({'meets' if run.combinations.meets else 'misses'} the targets).")
    print(f"Written: {Path(out)}/ (search.md, search.json, lattice.csv, figures, released file)")
    final(f"{best}: " + ", ".join(f"{q}={r.levels[q]}" for q in r.quasi_identifiers)
          + f"; loss ({r.metric}) {r.loss:.10g}; {r.suppressed:,} records suppressed. Written: {Path(out)}/")
    return 0


def _text_columns(asked: bool | Sequence[str] | None, qis: list[str]) -> bool | list[str]:
    """The columns read as text: the quasi-identifiers without a numeric hierarchy, and those
    asked for (--text or the config's); every column when all are asked for."""
    if asked is True:
        return True
    return list(dict.fromkeys([*qis, *(asked or ())]))


def _numeric_builder(cfg: Any, name: str) -> bool:
    spec = cfg.keys.get(name)
    return isinstance(spec, dict) and "intervals" in spec
