"""``sdc protect``: apply a protection plan and write the released file, its log and the comparison.

``sdc protect DATA --plan plan.toml --out DIR`` (or steps as flags: ``--recode age=10 --k 3
--keys age,sex,region``). The folder holds the released file in the input's format,
``protection.json``, ``protection.md``, the resolved ``plan.toml`` and ``comparison/``
(see :mod:`sdc.report.protection`). A bad plan is one error line naming the step, the
parameter and the value, and nothing is written.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from typing import Any

from sdc.cli._output import final, show_progress
from sdc.cli._args import DATA_HELP, config_overrides, csv_list, read_args, read_options

__all__ = ["add_parsers", "run_protect", "assessment_overrides"]


def _recode(text: str) -> tuple[str, Any]:
    """``age=10`` (band width) or ``age=0,18,65,inf`` (edges)."""
    name, sep, spec = text.partition("=")
    if not sep or not name.strip() or not spec.strip():
        raise argparse.ArgumentTypeError(f"expected COLUMN=WIDTH or COLUMN=EDGES, got {text!r}")
    try:
        parts = [float(x) for x in spec.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"the width or edges must be numbers (inf allowed), got {spec!r}") from None
    if len(parts) == 1:
        w = parts[0]
        return name.strip(), int(w) if w.is_integer() else w
    return name.strip(), [int(x) if x.is_integer() else x for x in parts]


def _col_number(text: str) -> tuple[str, float]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected COLUMN=NUMBER, got {text!r}")
    try:
        return name.strip(), float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number after '=', got {value!r}") from None


def add_role_flags(p: argparse.ArgumentParser) -> None:
    """The assessment roles shared by protect and compare (they override the config)."""
    from sdc.workflow.config import FORMATS

    g = p.add_argument_group("assessment of the files (override the config)")
    g.add_argument("--config", metavar="FILE", help="assessment configuration (as for sdc assess)")
    g.add_argument("--keys", type=csv_list, help="categorical key variables, comma-separated")
    g.add_argument("--continuous-keys", type=csv_list, help="continuous key variables (banded with --bins)")
    from sdc.cli._args import bins

    g.add_argument("--bins", action="append", type=bins, metavar="COL=EDGES", help="bins of a continuous key")
    g.add_argument("--weights", help="sampling-weight column")
    g.add_argument("--household", help="household id column")
    g.add_argument("--sensitive", type=csv_list, help="sensitive variables, comma-separated")
    g.add_argument("--id", help="record id column")
    g.add_argument("--measures", type=csv_list, help="measures to run (default all, as sdc assess)")
    g.add_argument("--population-size", type=int, help="population size for population-uniqueness estimates")
    g.add_argument("--sampling-fraction", type=float, help="or the sampling fraction")
    g.add_argument("--formats", type=csv_list, help=f"report outputs (default all): {', '.join(FORMATS)}")
    read_args(p.add_argument_group("reading the files (override the config's [data])"))


def assessment_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """Flag values as config sections (only those given; ``--k`` is also the assessment's k)."""
    o: dict[str, Any] = config_overrides(args)
    if getattr(args, "bins", None):
        o["bins"] = dict(args.bins)
    return {key: v for key, v in o.items() if v}


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("protect", help="apply a protection plan; write the released file, its log and the comparison",
                       description="Apply the steps of a protection plan (or of the flags) to DATA, in order, and "
                                   "write the released file, protection.json/.md, the resolved plan and the "
                                   "comparison of the released file with the original.")
    p.add_argument("data", metavar="DATA", help=DATA_HELP)
    p.add_argument("--plan", metavar="FILE", help="the plan: [[steps]] with a method and its parameters (TOML/YAML)")
    p.add_argument("--out", metavar="DIR", required=True, help="output folder (new, empty, or an earlier sdc folder)")
    p.add_argument("--seed", type=int, help="the plan's seed (replaces the plan's; default: the plan's, or drawn)")
    g = p.add_argument_group("steps as flags (appended to the plan's, in this order)")
    g.add_argument("--safe-harbor", action="store_true",
                   help="HIPAA Safe Harbor first: the 18 rules on the columns the checklist finds (dates to years, "
                        "ages over 89 pooled, ZIP3 with 000, identifiers dropped, free text redacted); every column "
                        "is read as text unless --text names some")
    g.add_argument("--recode", action="append", type=_recode, default=[], metavar="COL=WIDTH|COL=EDGES",
                   help="global recoding: bands of a width (age=10) or at edges (age=0,18,65,inf); repeatable")
    g.add_argument("--top-code", action="append", type=_col_number, default=[], metavar="COL=VALUE",
                   help="top coding: values above VALUE become VALUE; repeatable")
    g.add_argument("--pram", action="append", type=_col_number, default=[], metavar="COL=PD",
                   help="invariant PRAM with minimum diagonal PD (sdcMicro's pd); repeatable")
    g.add_argument("--k", type=int, help="local suppression until the --keys are k-anonymous (and k of the assessment)")
    g.add_argument("--utility-variables", type=csv_list, metavar="A,B,...",
                   help="the variables the comparison's utility measures use, as a sweep plan's `utility_variables` "
                        "(default: the variables with a changed cell)")
    g.add_argument("--pseudonymise", type=csv_list, default=[], metavar="COLS", help="pseudonymise these identifiers")
    g.add_argument("--key-file", metavar="FILE", help="the pseudonymisation key's file (never written anywhere)")
    g.add_argument("--key-env", metavar="VAR", help="or the environment variable holding the key")
    g.add_argument("--drop", type=csv_list, default=[], metavar="COLS", help="direct identifiers to drop")
    add_role_flags(p)
    p.add_argument("--export-r", metavar="FILE", help="also write the plan as an R script for sdcMicro (Rscript FILE "
                   "INPUT.csv OUTPUT.csv), saying step by step where sdcMicro gives the same cells")
    p.add_argument("--audience", choices=("internal", "external"), default="internal",
                   help="who reads the report: internal (everything: seeds, plan, provenance) or external "
                        "(data users: no seed, no secret, no command line)")
    p.add_argument("--no-assess", action="store_true", help="do not assess the files (no comparison/ folder)")
    p.add_argument("--engine", choices=("pandas", "dask"), default="pandas",
                   help="pandas in memory (default), or dask: DATA may be a glob of CSV files ('data/part-*.csv'), "
                        "the row-wise steps run per partition and the release is written as released/part-*.csv")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: an existing cluster (tcp://host:8786 or a scheduler .json file); "
                        "default: a local cluster sized to the machine")
    p.add_argument("--json", action="store_true", help="print a JSON summary instead of text (no progress bars)")
    p.set_defaults(run=run_protect, flag_aliases={"categorical_keys": "keys"})


def _summary(run: Any) -> dict[str, Any]:
    """The run's summary as the JSON object it is printed as (statistic -> value)."""
    s = run.summary()
    return dict(zip(s["statistic"], s["value"]))


def plan_errors(run):  # noqa: ANN001, ANN201
    """Print a plan's error as it is: its backticked names are the plan's parameters, not this
    command's options (which the generic error printer would substitute)."""
    import functools

    @functools.wraps(run)
    def wrapper(args: argparse.Namespace, argv: Sequence[str]) -> int:
        from sdc.cli._args import one_line
        from sdc.workflow.plan import PlanError

        try:
            return run(args, argv)
        except PlanError as exc:
            print(f"sdc: error: {one_line(exc)}", file=sys.stderr)
            return 2

    return wrapper


@plan_errors
def run_protect(args: argparse.Namespace, argv: Sequence[str]) -> int:
    from sdc.cli._args import read_with_notes
    from sdc.cli.assess import _fixed_time
    from sdc.report import serialize
    from sdc.report.compare import comparison_headline
    from sdc.report.protection import write_protection
    from sdc.workflow.plan import check_suppression_keys, flags_plan, load_plan
    from sdc.workflow.protect import assessment_config, plan_read_settings, protect_data
    from sdc.workflow.header_check import check_config_in_header, check_plan_in_header
    from sdc.workflow.protect_log import step_action

    steps = flags_plan(recode=args.recode, top_code=args.top_code, pram=args.pram, keys=args.keys, k=args.k,
                       pseudonymise=args.pseudonymise, key_file=args.key_file, key_env=args.key_env, drop=args.drop,
                       safe_harbor=args.safe_harbor)
    if args.plan is None and not steps:
        raise ValueError("give a plan (--plan FILE) or steps as flags (--safe-harbor, --recode, --top-code, --pram, "
                         "--k, --pseudonymise, --drop).")
    plan = load_plan(args.plan, steps, seed=args.seed)
    # The data are read as the config's (or the plan's) [data] says, a flag winning; the
    # assessment records the same settings.
    reading = read_options(args, plan_read_settings(plan, config=args.config))
    if args.safe_harbor and not reading.get("text_columns"):
        reading["text_columns"] = True  # ZIP codes and identifiers keep their leading zeros, as sdc identify reads
    overrides = assessment_overrides(args)
    given = {k: v for k, v in reading.items() if v is not None}
    overrides["data"] = {**overrides.get("data", {}), **given}
    if args.no_assess:  # no assessment to record them: the resolved plan keeps them
        from sdc.workflow.plan import with_read_settings

        plan = with_read_settings(plan, given)
    if args.k is not None:
        # The continuous keys the suppression would leave out, before any work: the assessment's
        # (from the flags or the config), or the flags' alone when there is no assessment.
        cfg = None if args.no_assess else assessment_config(plan, config=args.config, overrides=overrides,
                                                             data_path=str(args.data))
        check_suppression_keys(args.keys, cfg.continuous_keys if cfg is not None else args.continuous_keys)
    if args.engine == "dask":
        if args.utility_variables:
            raise ValueError("--utility-variables is for --engine pandas (the in-memory comparison).")
        return _run_protect_dask(args, argv, plan, reading, overrides)
    if args.scheduler:
        raise ValueError("--scheduler is for --engine dask.")
    if args.export_r:  # refused before any work, as --out is
        from sdc._files import check_file_target

        check_file_target(args.export_r, [args.data, args.plan], flag="--export-r", replace=False)
    # The plan's columns and the assessment's against the header, before the records are read.
    check_plan_in_header(plan, args.data, {"utility_variables": args.utility_variables}, **reading)
    if not args.no_assess:
        check_config_in_header(assessment_config(plan, config=args.config, overrides=overrides,
                                                 data_path=str(args.data)))
    data, read_notes = read_with_notes(args.data, reading)
    progress = show_progress(args)
    run = protect_data(data, plan, config=args.config, overrides=overrides,
                       reassess=not args.no_assess, input_file=args.data, command="sdc " + shlex.join(argv),
                       progress=progress, now=_fixed_time(), utility_variables=args.utility_variables,
                       read_notes=read_notes)
    folder = write_protection(run, args.out, input_path=args.data, sep=reading["sep"], formats=args.formats,
                              audience=args.audience)
    if args.export_r:
        from sdc._files import atomic_write

        atomic_write(args.export_r, run.to_r_script(), inputs=[args.data], flag="--export-r", replace=False)
        print(f"R script for sdcMicro: {args.export_r} (Rscript {args.export_r} INPUT.csv OUTPUT.csv)",
              file=sys.stderr)
    if args.json:
        doc = {"out": str(folder.path), "released": folder.released, "released_sha256": folder.released_sha256,
               "files": list(folder.files), "summary": _summary(run)}
        print(serialize.dumps(doc))
        return 0
    print(f"Protected {len(run.original):,} records with {len(run.steps)} step(s) (plan seed {run.plan.seed}):")
    for r in run.steps:
        seed = f", seed {r.seed}" if r.seed is not None else ""
        dropped = f", {r.records_dropped:,} records dropped" if r.records_dropped else ""
        gone = r.step.parameters.get("drop")
        cols = f", {len([gone] if isinstance(gone, str) else gone)} column(s) dropped" if gone else ""
        done = f"{r.result.n_changed:,} cells changed{cols}" if r.result.variables else cols[2:]
        print(f"  {r.step.number}. {step_action(r.step.method, r.result.variables, gone)}: {done}{dropped}{seed}")
    for r in run.steps:
        if r.step.method == "safe_harbor_release":
            left = r.result.details.get("found_after", [])
            print(f"  Safe Harbor checklist of the release: {len(left)} of 18 categories found"
                  + (f" ({', '.join(left)}): review them" if left else " (best effort: a steward still reviews it)"))
    if run.comparison is not None:
        print(comparison_headline(run.comparison))
    print(f"Released file: {folder.path / folder.released} (SHA-256 {folder.released_sha256[:16]}...)")
    print(f"Log: {folder.path / 'protection.md'}; rerun: sdc protect {shlex.quote(str(args.data))} "
          f"--plan {shlex.quote(str(folder.path / 'plan.toml'))} --out DIR")
    if run.comparison is not None and (folder.path / "comparison" / "report.html").exists():
        print(f"Comparison: {folder.path / 'comparison' / 'report.html'}")
    final(f"Protected {len(run.original):,} records with {len(run.steps)} step(s). Released file: "
          f"{folder.path / folder.released}")
    return 0


def _run_protect_dask(args: argparse.Namespace, argv: Sequence[str], plan: Any, reading: dict[str, Any],
                      overrides: dict[str, Any]) -> int:
    """``sdc protect --engine dask``: the row-wise steps per partition, the release partitioned."""
    from sdc.cli.assess import _fixed_time
    from sdc.report import serialize
    from sdc.report.protection_dask import write_protection_dask
    from sdc.workflow.protect import dask_session, protect_data, read_dask_partitions

    with dask_session(args.scheduler):
        ddf, files = read_dask_partitions(args.data, **reading)
        run = protect_data(ddf, plan, config=args.config, overrides=overrides,
                           reassess=not args.no_assess, input_file=args.data, command="sdc " + shlex.join(argv),
                           now=_fixed_time())
        run, folder = write_protection_dask(run, args.out, files=files, sep=reading["sep"])
    if args.json:
        doc = {"out": str(folder.path), "released": folder.released, "released_sha256": folder.released_sha256,
               "files": list(folder.files), "summary": _summary(run)}
        if run.dask_assessment is not None:
            doc["assessment_on_dask"] = run.dask_assessment
        print(serialize.dumps(doc))
        return 0
    print(f"Protected {run.records_in:,} records in {len(files)} partition(s) on Dask with {len(run.steps)} step(s) "
          f"(plan seed {run.plan.seed}):")
    for r in run.steps:
        seed = f", seed {r.seed}" if r.seed is not None else ""
        print(f"  {r.step.number}. {r.step.method} on {', '.join(map(str, r.result.variables)) or '-'}: "
              f"{r.result.n_changed:,} cells changed{seed}")
    if run.dask_assessment is not None:
        print(f"Re-assessment on Dask: {folder.path / 'assessment.md'}")
    print(f"Released files: {folder.path / 'released'} ({len(files)} file(s); SHA256SUMS beside them)")
    print(f"Log: {folder.path / 'protection.md'}")
    return 0
