"""The ``sdc assess`` and ``sdc combine`` commands (the run-and-report side of the CLI).

``sdc assess [DATA] [--config FILE] [flags] [--out DIR]`` runs every configured measure and
writes the report folder (:mod:`sdc.report`). With neither DATA nor ``--config`` it assesses
the bundled example with ``sdc/data/example.toml``. Flags override the config file key by
key. ``sdc combine`` joins per-domain files into one analysis file.
"""

from __future__ import annotations

import argparse
import os
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sdc.cli._output import final, show_progress
from sdc.cli._args import DATA_HELP, add_option_flags, bins, config_overrides, csv_list, read_args

__all__ = ["add_parsers", "run_assess", "run_combine"]

#: Exit status of ``sdc assess --fail-on-risk`` when a measure fails its threshold.
EXIT_RISK = 3


def _scenario(text: str) -> dict[str, Any]:
    name, sep, keys = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=KEY1,KEY2,..., got {text!r}")
    return {"name": name.strip(), "keys": csv_list(keys)}


def _domain(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError(f"expected DOMAIN=VALUE, got {text!r}")
    return name.strip(), value.strip()


def add_parsers(sub: Any) -> None:
    """Add ``assess`` and ``combine`` to the ``sdc`` subcommands. The flags of the
    configuration's options are made from their declarations (:data:`sdc.workflow.options.ASSESS_OPTIONS`)."""
    from sdc._formats import READ_OPTIONS
    from sdc.workflow.options import ASSESS_OPTIONS

    def flags(*sections: str) -> list[str]:
        return [o.name for o in ASSESS_OPTIONS if o.section in sections and o.flag_name and o.name not in READ_OPTIONS]

    p = sub.add_parser("assess", help="run every configured measure and write the report folder",
                       description="Assess DATA (or the bundled example) and write an audit-ready report folder.")
    p.add_argument("data", metavar="DATA", nargs="?",
                   help=f"{DATA_HELP}; default: the config's, or the bundled example")
    p.add_argument("--config", metavar="FILE", help="run configuration (TOML, or YAML with .yaml/.yml)")
    p.add_argument("--out", metavar="DIR", default="sdc-report", help="report folder (default: ./sdc-report)")
    g = p.add_argument_group("roles (override the config)")
    add_option_flags(g, flags("variables", "data"))
    # [bins] and [[scenarios]] are tables of their own, not options: their flags say a table's row.
    g.add_argument("--bins", action="append", type=bins, metavar="COL=EDGES",
                   help="bins of a continuous key: age=0,18,65,inf, age=quantiles:5 or age=width:10 (repeatable)")
    g.add_argument("--scenario", action="append", type=_scenario, metavar="NAME=K1,K2",
                   help="a key-variable scenario (repeatable); default: one scenario with every key")
    read_args(g)
    g = p.add_argument_group("thresholds and options (override the config)")
    add_option_flags(g, flags("thresholds", "options", "output"))
    g = p.add_argument_group("run")
    g.add_argument("--cross-check", action="store_true",
                   help="also compute the measures with R's sdcMicro (rpy2) and add the agreement table")
    g.add_argument("--fail-on-risk", action="store_true",
                   help=f"exit with status {EXIT_RISK} when a measure fails its threshold (for pipelines)")
    g.add_argument("--audience", choices=("internal", "external"), default="internal",
                   help="who reads the report: internal (everything, per-record files) or external (data users: "
                        "no per-record file, no command line)")
    g.add_argument("--json", action="store_true", help="print report.json on stdout (no progress bars)")
    g.add_argument("--engine", choices=("pandas", "dask"), default="pandas",
                   help="pandas in memory (default), or dask: DATA may be a glob of CSV files ('data/part-*.csv'); "
                        "k-anonymity, risks, snapshots, l-diversity and t-closeness run on the cluster, the measures "
                        "that cannot run on Dask exactly are listed in the report as not run")
    g.add_argument("--chunks", type=int, metavar="ROWS",
                   help="read DATA (a delimited text file) ROWS records at a time, keeping only the tables the "
                        "additive measures need (k-anonymity, risks, snapshots, l-diversity, t-closeness): for files "
                        "larger than memory; the measures that cannot stream are listed in the report as not run")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: an existing cluster (tcp://host:8786 or a scheduler .json file); "
                        "default: a local cluster sized to the machine")
    p.set_defaults(run=run_assess, flag_aliases={"categorical_keys": "keys"})

    p = sub.add_parser("combine", help="join per-domain files (e.g. CDISC DM, VS, LB) into one analysis file",
                       description="Join per-domain CSV files by subject id; columns become DOMAIN__COLUMN.")
    p.add_argument("domains", metavar="DOMAIN=FILE", nargs="+", type=_domain,
                   help="domain files in join order; the first defines the subjects")
    p.add_argument("--subject-id", required=True, help="the subject id column, in every domain (e.g. USUBJID)")
    p.add_argument("--long", action="append", type=_domain, metavar="DOMAIN=TESTCOL",
                   help="a long-format domain and its test-name column, pivoted to one column per test (repeatable)")
    p.add_argument("--value-column", help="value column of long domains (default <DOMAIN>STRESN, STRESC or ORRES)")
    p.add_argument("--visit", action="append", type=_domain, metavar="DOMAIN=VISIT",
                   help="keep one visit of a domain: its rows whose VISIT (else AVISIT) column is VISIT; "
                        "DOMAIN=COLUMN=VALUE names the column (repeatable)")
    # the reading options of the inputs (--text names joined columns, DM__ZIP), from their declarations
    add_option_flags(p, ("sep", "na_values", "text_columns"), READ_OPTIONS)
    p.add_argument("--out", required=True, metavar="FILE", help="the joined CSV file to write (never an input)")
    p.set_defaults(run=lambda args, argv: run_combine(args))


def _overrides(args: argparse.Namespace) -> dict[str, dict[str, Any] | list[Any]]:
    o: dict[str, Any] = config_overrides(args)
    if args.data:
        o["data"]["path"] = str(Path(args.data))
    if args.bins:
        o["bins"] = dict(args.bins)
    if args.scenario:
        o["scenarios"] = args.scenario
    return {k: v for k, v in o.items() if v}


def run_assess(args: argparse.Namespace, argv: Sequence[str]) -> int:
    from sdc.report import serialize
    from sdc.workflow.assess import assess
    from sdc.workflow.config import load_config
    from sdc.datasets import example_config_path
    from sdc.report import write_report
    from sdc.report.jsonout import report_document

    config = args.config
    if config is None and args.data is None:
        config = example_config_path()  # the README's main command: the bundled example
    elif config is None and not (args.keys or args.continuous_keys or args.scenario):
        raise ValueError("give the key variables (--keys, --continuous-keys or --scenario) or a --config file.")
    cfg = load_config(config, _overrides(args))
    if config is not None and args.config is None:
        from dataclasses import replace

        cfg = replace(cfg, source="bundled example (sdc/data/example.toml)")
    if args.chunks is not None:
        if args.engine == "dask":
            raise ValueError("--chunks reads the file in memory, chunk by chunk; with --engine dask the partitions "
                             "are the chunks: drop one of them.")
        if args.chunks < 1:
            raise ValueError(f"--chunks must be a number of records >= 1; got {args.chunks}.")
        return _run_assess_out_of_memory(args, argv, cfg)
    if args.engine == "dask":
        return _run_assess_out_of_memory(args, argv, cfg)
    if args.scheduler:
        raise ValueError("--scheduler is for --engine dask.")
    progress = show_progress(args)
    command = "sdc " + shlex.join(argv)
    result = assess(cfg, command=command, progress=progress, cross_check=args.cross_check, now=_fixed_time())
    folder = write_report(result, args.out, audience=args.audience)
    fails = [v for v in result.verdicts if v.verdict == "fail"]
    if args.json:
        print(serialize.dumps(report_document(folder.report, dict.fromkeys(folder.files, ""))))
    else:
        _print_summary(result, folder)
    return EXIT_RISK if (args.fail_on_risk and fails) else 0


def _run_assess_out_of_memory(args: argparse.Namespace, argv: Sequence[str], cfg: Any) -> int:
    """``sdc assess --engine dask`` or ``--chunks ROWS``: the one assessment on that engine,
    and its report folder."""
    import contextlib

    from sdc.report import serialize, write_report
    from sdc.report.out_of_memory import assessment_document, n_records
    from sdc.workflow.assess import assess
    from sdc.workflow.engine import dask_session

    chunks = args.chunks is not None
    if chunks and args.scheduler:
        raise ValueError("--scheduler is for --engine dask.")
    where = "in chunks" if chunks else "on Dask"
    with (contextlib.nullcontext() if chunks else dask_session(args.scheduler)):
        result = assess(cfg, engine="chunks" if chunks else "dask", command="sdc " + shlex.join(argv),
                        cross_check=args.cross_check, now=_fixed_time(), chunk_rows=args.chunks)
        folder = write_report(result, args.out, audience=args.audience)
    fails = [v for v in result.verdicts if v.verdict == "fail"]
    if args.json:
        print(serialize.dumps(assessment_document(result, folder.report, dict.fromkeys(folder.files, ""))))
    else:
        from sdc.report.formatting import render_table

        parts = (f"chunks of up to {args.chunks:,} records" if chunks
                 else f"{result.provenance['partitions']} partition(s) on Dask")
        print(f"Assessed {n_records(result):,} records in {parts} ({result.config.source}).")
        print(render_table(result.to_frame()[["scenario", "measure", "value", "threshold", "verdict"]]))
        if result.not_run:
            print(f"Not run {where}: " + "; ".join(m for m, _ in result.not_run) + " (reasons in the report).")
        print(f"Report: {folder.path / (folder.main_file or '')} ({len(folder.files)} files in {folder.path}/)")
    return EXIT_RISK if (args.fail_on_risk and fails) else 0


def _fixed_time():  # noqa: ANN202
    """The run time, or SOURCE_DATE_EPOCH's when set (the reproducible-builds convention)."""
    from datetime import datetime, timezone

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            return datetime.fromtimestamp(int(epoch), tz=timezone.utc)
        except ValueError:
            raise ValueError(f"SOURCE_DATE_EPOCH must be whole seconds since 1970; got {epoch!r}.") from None
    return None


def _print_summary(result, folder) -> None:  # noqa: ANN001
    """Per scenario: the headline, then each measure's statistic, value, bound and verdict."""
    from sdc.report.formatting import passes_if, render_table
    from sdc.report.content import headline

    print(f"Assessed {len(result.data):,} records ({result.config.source}).")
    verdicts = result.to_frame()
    verdicts["passes if"] = [passes_if(t) for t in verdicts["threshold"]]
    cols = ["measure", "statistic", "value", "passes if", "verdict"]
    for r in result.scenarios:
        print()
        print(headline(r, result))
        print(render_table(verdicts.loc[verdicts["scenario"] == r.scenario.name, cols]))
    rest = verdicts[~verdicts["scenario"].isin([r.scenario.name for r in result.scenarios])]
    if len(rest):
        print()
        print("Across the file (sensitive variables inferred from released ones):")
        print(render_table(rest[cols]))
    print()
    if result.skipped:
        print("Not computed: " + "; ".join(f"{m} ({why})" for m, why in result.skipped) + ".")
    if result.cross_check is not None:
        ok = bool(result.cross_check["agree"].all())
        from sdc.workflow.crosscheck import compared_as

        apart = compared_as(result.config)  # measures whose report figures are not those compared
        print(f"Cross-check with sdcMicro: {len(result.cross_check)} measures, "
              + ("all agree." if ok else "DISAGREEMENTS; see the report.")
              + (f" {len(apart)} measure(s) compared as sdcMicro computes them, not as the report does (its "
                 "notes say which)." if apart else ""))
    main = folder.main_file
    where = f"{folder.path / main}" if main else f"{folder.path}/"
    print(f"Report: {where} ({len(folder.files)} files in {folder.path}/)")
    v = [x.verdict for x in result.verdicts]
    final(f"Assessed {len(result.data):,} records: {v.count('fail')} of {len(v)} verdicts fail. Report: {where}")


def run_combine(args: argparse.Namespace) -> int:
    from sdc._files import atomic_write, check_file_target, csv_text
    from sdc.workflow.combine import combine_domains

    domains = dict(args.domains)
    if len(domains) != len(args.domains):
        raise ValueError("each domain may be named once.")
    check_file_target(args.out, domains.values(), flag="--out", replace=False)  # before any work
    df = combine_domains(domains, args.subject_id, long=dict(args.long or []), value_column=args.value_column,
                         visit=dict(args.visit or []), sep=args.sep, na_values=args.na_values, text_columns=args.text_columns)
    atomic_write(args.out, csv_text(df), inputs=list(domains.values()), flag="--out", replace=False)
    print(f"Joined {len(domains)} domains ({', '.join(domains)}): {len(df):,} subjects x {df.shape[1]} columns "
          f"-> {args.out}")
    return 0
