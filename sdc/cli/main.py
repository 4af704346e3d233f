"""The ``sdc`` command line.

Subcommands: ``assess`` (every configured measure, written as a report folder; see
:mod:`sdc.cli.assess`), ``risk`` (k-anonymity profile and re-identification risk),
``snapshots`` (the same over every subset of the keys), ``ldiversity``, ``tcloseness`` and
``inference`` (attribute disclosure), ``suda``, ``modrisk`` and ``uniqueness`` (the risk
toolbox), ``combine`` (join per-domain files) and ``example`` (the bundled example data).
Errors print one line, ``sdc: error: ...``, on stderr and exit with status 2; warnings
print ``sdc: warning: ...`` on stderr (sdc's own only: third-party deprecation and other
notices are developer matters, not the user's). ``--json`` output goes to stdout alone.
Nothing from the data reaches the terminal as a control sequence: every control character
written to stdout, or in a message, is shown escaped (``\u001b``), so a value holding an
escape code cannot recolour, clear or rewrite the terminal.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import re
import signal
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sdc._interrupt import INTERRUPTED_LINE, INTERRUPTED_STATUS
from sdc._process import keep_freed_memory
from sdc.cli._output import add_flags, final, output, show_progress
from sdc.cli._teach import DOCS, command_parsers, teach
from sdc._overview import OVERVIEW
from sdc.cli._args import DATA_HELP, Parser, bins, csv_list, flag_names, one_line, read_args, read_options
from sdc.datasets import EXAMPLE_ROLES, example_path
from sdc.exceptions import DataFileError, SdcWarning
from sdc.core.frequencies import MISSING_RULES
from sdc.attribute.closeness import DISTANCES
from sdc.io import read_columns, read_data
from sdc.attribute.ldiversity import LDIVERSITY_MODES
from sdc.risk.model import MODRISK_METHODS
from sdc.risk.individual import RISK_METHODS
from sdc.risk.suda import MAX_WORK, SUDA_MODES

__all__ = ["main", "COMMAND_MODULES"]

#: Modules that add subcommands. Each has ``add_parsers(sub)``, which adds its parsers with
#: ``set_defaults(run=fn)``, ``fn(args, argv) -> int`` the exit status. A new command is one
#: module here and one line in this tuple.
COMMAND_MODULES: tuple[str, ...] = ("sdc.cli.assess", "sdc.cli.identify", "sdc.cli.attack", "sdc.cli.protect",
                                     "sdc.cli.compare", "sdc.cli.sweep", "sdc.cli.advise", "sdc.cli.search", "sdc.cli.app",
                                     "sdc.cli.completion")


#: ``sdc risk`` reads a text file in chunks from this size on, unless told otherwise.
CHUNKED_FROM_BYTES = 4 << 30


def _chunked(args: argparse.Namespace) -> bool:
    """Whether ``sdc risk`` reads the file in chunks (--chunks, or a large text file)."""
    if args.chunks is not None:
        if args.chunks < 1:
            raise ValueError(f"--chunks must be a number of records >= 1; got {args.chunks}.")
        if args.household:
            raise ValueError("--household needs every record in memory; drop --chunks.")
        if args.bins:
            raise ValueError("--bins cannot be used with --chunks; bin the keys in the file first.")
        return True
    if args.household or args.bins or getattr(args, "engine", "pandas") != "pandas":
        return False
    p = Path(args.data)
    return (p.is_file() and p.suffix.lower() not in (".dta", ".sas7bdat", ".xpt", ".xls", ".xlsx", ".xlsm")
            and p.stat().st_size >= CHUNKED_FROM_BYTES)


def _show(run: Any, as_json: bool) -> int:
    """Print a one-measure assessment: its JSON document, or its report as text."""
    from sdc._json import dumps
    from sdc.report.content import measure_run_line, measure_run_report
    from sdc.report.text import console_text

    if as_json:
        print(dumps(run.document))
        return 0
    print(console_text(measure_run_report(run)))
    final(measure_run_line(run))
    return 0


def _risk_in_chunks(args: argparse.Namespace) -> int:
    from sdc.io import CHUNK_ROWS
    from sdc.risk.streamed import risk_from_file
    from sdc.workflow.single import risk_of

    opts = read_options(args)
    opts.pop("sheet", None)
    prof, risk = risk_from_file(
        args.data, args.keys, weights=args.weights, k=3 if args.threshold is None else args.threshold, top=args.top,
        method=args.method, missing=args.missing, alpha=args.alpha, max_global_risk=args.max_global_risk,
        chunk_rows=args.chunks or CHUNK_ROWS, **opts)
    return _show(risk_of(prof, risk, source=str(args.data)), args.json)


def _risk_columns(args: argparse.Namespace) -> list[str]:
    """The columns ``sdc risk`` reads: keys, weights, household id."""
    cols = list(args.keys) + [c for c in (args.weights, args.household) if c]
    return list(dict.fromkeys(cols))


def _bins_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bins", type=bins, action="append", default=[], metavar="COL=EDGES",
                   help="bin a continuous key: age=0,18,40,65,inf, age=quantiles:5 or age=width:10 (repeatable)")


def _data_args(p: argparse.ArgumentParser, *, keys: bool = True) -> None:
    p.add_argument("data", metavar="DATA", help=DATA_HELP)
    if keys:
        p.add_argument("--keys", required=True, type=csv_list, help="key variables, comma-separated")
        _bins_arg(p)
    read_args(p)
    p.add_argument("--json", action="store_true", help="print one JSON document instead of tables")


def _engine_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", choices=("pandas", "dask"), default="pandas",
                   help="pandas in memory (default), or dask: DATA may be a glob of CSV files ('data/part-*.csv')")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: an existing cluster (tcp://host:8786 or a scheduler .json file); "
                        "default: a local cluster sized to the machine")


def _common(p: argparse.ArgumentParser, *, data: bool = True) -> None:
    if data:
        p.add_argument("data", metavar="DATA", help=DATA_HELP)
        p.add_argument("--keys", required=True, type=csv_list, help="key variables, comma-separated")
        _bins_arg(p)
        read_args(p)
    p.add_argument("--weights", help="sampling-weight column (default: none, the data are the population)")
    p.add_argument("--threshold", type=int, default=None, help="k for the counts of records with fk < k / fk <= k (default 3)")
    p.add_argument("--missing", choices=MISSING_RULES, default="wildcard",
                   help="missing key values: sdcMicro's wildcard rule (default) or their own category")
    p.add_argument("--alpha", type=float, default=1.0, help="sdcMicro's alpha for wildcard matches (default 1)")
    p.add_argument("--method", choices=RISK_METHODS, default="approx", help="individual-risk estimator with weights")
    p.add_argument("--json", action="store_true", help="print one JSON document instead of tables")


#: The measures' `k` is these commands' --threshold (see :func:`sdc.cli._args.flag_names`).
_K_IS_THRESHOLD = {"k": "threshold"}


def _parser() -> argparse.ArgumentParser:
    from sdc._version import __version__

    parser = Parser(prog="sdc", description="Statistical disclosure control for microdata: identify, assess, "
                    "protect, compare, sweep, search, attack, release (`sdc` alone: the workflow).",
                    epilog=f"docs: {DOCS}cli.md")
    parser.add_argument("-V", "--version", action="version", version=f"sdc {__version__}")
    add_flags(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True

    p = sub.add_parser("risk", help="k-anonymity profile, individual and global risk")
    _common(p)
    p.add_argument("--max-global-risk", type=float, default=0.01, help="acceptable global risk for the threshold (default 0.01)")
    p.add_argument("--top", type=int, default=10, help="riskiest classes to list (default 10)")
    p.add_argument("--household", help="household id column: adds the household (hierarchical) risk")
    p.add_argument("--chunks", type=int, metavar="ROWS",
                   help="read a delimited text file ROWS records at a time, keeping only the distinct key patterns "
                        "(for files larger than memory; automatic above 4 GiB); no household risk with it")
    _engine_args(p)
    p.set_defaults(flag_aliases=_K_IS_THRESHOLD)

    p = sub.add_parser("snapshots", help="risk over every subset of the key variables")
    _common(p)
    p.add_argument("--subsets", help="only these subsets: 'a,b;a,c' (default: every non-empty subset)")
    p.add_argument("--max-size", type=int, help="only subsets of at most this many keys")
    _engine_args(p)
    p.set_defaults(flag_aliases=_K_IS_THRESHOLD)

    p = sub.add_parser("ldiversity", help="distinct, entropy and recursive l-diversity of sensitive variables")
    _data_args(p)
    p.add_argument("--sensitive", required=True, type=csv_list, help="sensitive variable(s), comma-separated")
    p.add_argument("--l", type=int, default=2, help="threshold l (default 2)")
    p.add_argument("--c", type=float, default=2.0, help="constant of recursive (c, l)-diversity (default 2)")
    p.add_argument("--mode", choices=LDIVERSITY_MODES, default="correct",
                   help="'correct' (missing sensitive values left out; default) or 'sdcmicro' (reproduce sdcMicro)")
    p.add_argument("--sensitive-bins", type=bins, action="append", default=[], metavar="COL=EDGES",
                   help="bin a sensitive variable for this check (repeatable)")

    p = sub.add_parser("tcloseness", help="distance of each class's sensitive distribution to the file's")
    _data_args(p)
    p.add_argument("--sensitive", required=True, help="the sensitive variable")
    p.add_argument("--distance", choices=DISTANCES, default="ordered", help="distance (default ordered EMD)")
    p.add_argument("--t", type=float, default=0.2, help="threshold t (default 0.2)")

    p = sub.add_parser("inference", help="variables and pairs that reveal a sensitive variable")
    _data_args(p, keys=False)
    p.add_argument("--bins", type=bins, action="append", default=[], metavar="COL=EDGES",
                   help="bin a candidate or the sensitive variable first, e.g. chol=width:1 (repeatable)")
    p.add_argument("--sensitive", required=True, help="the sensitive variable")
    p.add_argument("--candidates", type=csv_list, help="variables to test (default: every other column with few values)")
    p.add_argument("--min-posterior", type=float, default=0.95, help="posterior for 'revealed' (default 0.95)")
    p.add_argument("--min-count", type=int, default=2, help="ignore levels with fewer records (default 2)")
    p.add_argument("--no-pairs", action="store_true", help="single variables only")

    p = sub.add_parser("suda", help="SUDA2 scores, DIS-SUDA and key-variable contributions")
    _data_args(p)
    p.add_argument("--max-size", type=int, help="largest MSU size (default: all keys)")
    p.add_argument("--max-work", type=int, default=MAX_WORK,
                   help=f"bound on the MSU search, in records counted (default {MAX_WORK:,}, a minute or two); "
                        "refused in one line, before the work, when the search would pass it")
    p.add_argument("--dis-fraction", type=float, default=0.01, help="sampling fraction for DIS-SUDA (default 0.01)")
    p.add_argument("--ihsn-scores", action="store_true", help="IHSN weights instead of Elliot's (M-k)!")
    p.add_argument("--mode", choices=SUDA_MODES, default="sdcmicro", help="reproduce sdcMicro (default) or 'correct'")

    p = sub.add_parser("modrisk", help="log-linear model risk (sdcMicro's modRisk)")
    _data_args(p)
    p.add_argument("--weights", help="sampling-weight column (without it, weights are 1)")
    p.add_argument("--method", choices=MODRISK_METHODS, default="default", help="model (default 'default')")
    p.add_argument("--formula", help="model right-hand side, e.g. '~ a + b + a:b' (default: main effects of --keys)")
    p.add_argument("--bound", type=float, default=float("inf"), help="only cells with counts <= bound (default inf)")

    p = sub.add_parser("uniqueness", help="population uniqueness (Zayatz, Pitman, SNB, Dankar) and attacker models")
    _data_args(p)
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument("--population-size", type=int, help="N, the population size")
    size.add_argument("--sampling-fraction", type=float, help="n / N")
    p.add_argument("--variant", choices=("paper", "arx"), default="paper", help="follow the papers (default) or ARX's code")
    p.add_argument("--weights", help="sampling weights for the journalist and marketer models")
    p.add_argument("--threshold", type=float, default=0.2, help="risk threshold for 'records at risk' (default 0.2)")
    p.add_argument("--interval", action="store_true", help="add a jackknife interval for the estimate")

    p = sub.add_parser("example", help="risk and key-subset snapshots of the bundled health survey; --save DIR "
                       "writes its files")
    p.add_argument("--json", action="store_true", help="print one JSON document instead of tables")
    p.add_argument("--threshold", type=int, default=5, help="k (default 5)")
    p.add_argument("--save", metavar="DIR", help="also write the example's files into DIR: the data "
                   "(health_survey.csv), its config, protection plan and sweep plan (a PATH ending .csv: the data "
                   "alone, there)")
    p.add_argument("--save-config", metavar="PATH",
                   help="also write the example's assessment config (sdc assess --config PATH) to PATH")
    p.set_defaults(flag_aliases=_K_IS_THRESHOLD)
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_parsers(sub)
    teach(parser)
    for p in command_parsers(parser).values():
        add_flags(p)
    return parser


# What a terminal acts on: C0 controls but tab and line feed, DEL, C1 controls (0x9b is an
# 8-bit CSI), and the bidirectional overrides and isolates.
_TERMINAL_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escape_controls(text: str) -> str:
    """Control characters as ``\\uXXXX`` (a valid escape inside JSON strings too)."""
    return _TERMINAL_CONTROLS.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


class _VisibleStream:
    """A text stream that shows control characters escaped instead of writing them."""

    def __init__(self, stream) -> None:  # noqa: ANN001
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(_escape_controls(text))

    def writelines(self, lines) -> None:  # noqa: ANN001
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not [a for a in argv if a not in ("-q", "--quiet", "-v", "--verbose")]:
        print(OVERVIEW, end="")
        return 0
    try:  # the command modules' imports: Ctrl-C here is an interrupt too, not a traceback
        parser = _parser()
        args = parser.parse_args(argv)
    except KeyboardInterrupt:
        print(INTERRUPTED_LINE, file=sys.stderr)
        return INTERRUPTED_STATUS
    keep_freed_memory()  # large temporary arrays: reused, not faulted in again (sdc/_process.py)
    stdout = sys.stdout
    sys.stdout = _VisibleStream(stdout)  # type: ignore[assignment]
    _SHOWN.clear()
    _INTERRUPTED.clear()
    previous = _catch_interrupt()
    try:
        with output(args), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # third-party notices (FutureWarning, ...) are not the user's
            warnings.simplefilter("always", SdcWarning)
            # warnings in the command line's words too (`bins` -> --bins, as errors)
            warnings.showwarning = functools.partial(_show_warning, names=lambda t: flag_names(parser, args, t))
            try:
                run = getattr(args, "run", None)
                if run is not None:
                    return run(args, argv)
                return _dispatch(args)
            except BrokenPipeError:
                # The reader stopped (| head): no error line; nothing more goes to the closed pipe.
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                return 141  # what a shell reports for a writer stopped by SIGPIPE (128 + 13)
            except (ValueError, TypeError, DataFileError, OSError, RuntimeError) as exc:
                if _INTERRUPTED:  # Ctrl-C inside a reader that turned it into its own error (pandas' C parser)
                    print("sdc: interrupted", file=sys.stderr)
                    return 130
                print(f"sdc: error: {flag_names(parser, args, one_line(exc))}", file=sys.stderr)
                return 2
            except KeyboardInterrupt:
                print("sdc: interrupted", file=sys.stderr)
                return 130
    finally:
        sys.stdout = stdout
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


_INTERRUPTED: list[bool] = []  # non-empty once SIGINT arrived during this command


def _catch_interrupt():  # noqa: ANN202
    """Install a SIGINT handler that notes the interrupt, then raises KeyboardInterrupt as
    Python's own does; return the previous handler (None where none can be installed).

    pandas' C parser turns a KeyboardInterrupt raised while it reads into a ParserError
    ("Error tokenizing data ... Try engine='python'"); the note lets :func:`main` still exit
    130 with "interrupted" then."""
    def handler(signum, frame):  # noqa: ANN001, ANN202
        _INTERRUPTED.append(True)
        raise KeyboardInterrupt

    try:
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # started in the background: leave it ignored
            return None
        return signal.signal(signal.SIGINT, handler)
    except (ValueError, OSError):  # not the main thread (main() called from a thread)
        return None


def _save_example_config(path: str, data_path: str | None) -> None:
    """The example's config, pointing at the bundled data (or at the copy written by --save)."""
    from sdc._files import atomic_write
    from sdc.datasets import example_config_path

    text = Path(example_config_path()).read_text(encoding="utf-8")
    target = str(Path(data_path).resolve()) if data_path else example_path()
    text = text.replace('path = "health_survey.csv"', f"path = {json.dumps(target)}", 1)
    atomic_write(path, text, inputs=[example_config_path()], flag="--save-config", replace=False)
    print(f"Example config written to {path}; run: sdc assess --config {path}", file=sys.stderr)


_SHOWN: set[str] = set()  # each warning once per command, though several measures raise it


def _show_warning(message, category, filename, lineno, file=None, line=None, names=None) -> None:  # noqa: ANN001
    text = one_line(Warning(str(message)))
    if names is not None:
        text = names(text)
    if text not in _SHOWN:
        _SHOWN.add(text)
        print(f"sdc: warning: {text}", file=sys.stderr)


def _example(args: argparse.Namespace) -> int:
    """``sdc example``: the bundled data's risk and snapshots (and, asked for, the data and its
    config written out)."""
    from sdc._files import atomic_write, check_file_target
    from sdc.datasets import example_config_path
    from sdc.workflow.single import run_example

    bundled = [example_path(), example_config_path()]
    # --save DIR writes the example's files (data, config, plan, sweep plan); --save FILE.csv the data alone.
    for flag, target in (("--save", args.save if str(args.save).lower().endswith(".csv") else None),
                         ("--save-config", args.save_config)):
        if target:  # both checked before either is written
            check_file_target(target, bundled, flag=flag, replace=False)
    if args.save and args.save_config and Path(args.save).resolve() == Path(args.save_config).resolve():
        raise ValueError(f"--save and --save-config name the same file '{args.save}'; give two files.")
    data = read_data(example_path())
    if args.save and not args.save.lower().endswith(".csv"):
        from sdc.datasets import save_example

        files = save_example(args.save)
        print(f"Example files written to {args.save}: {', '.join(f.name for f in files)}", file=sys.stderr)
        args.save = str(files[0])
    elif args.save:
        atomic_write(args.save, data.to_csv(index=False), inputs=bundled, flag="--save", replace=False)
    if args.save_config:
        _save_example_config(args.save_config, args.save)
    keys = list(EXAMPLE_ROLES["keys"])  # type: ignore[arg-type]
    run = run_example(data, keys, k=args.threshold, source="bundled example (synthetic health survey; "
                      "sdc.load_example())", weights=EXAMPLE_ROLES["weights"], missing="wildcard", alpha=1.0,
                      method="approx")
    _show(run, args.json)
    if args.save and not args.json:
        print(f"\nExample data written to {args.save}; try: sdc risk {args.save} --keys age,sex,region --weights weight")
    return 0


def _read(args: argparse.Namespace) -> Any:
    """The data of a single-measure command: a Dask DataFrame (--engine dask), only the columns
    ``sdc risk`` needs, or the whole file."""
    if getattr(args, "engine", "pandas") == "dask":
        from sdc.workflow.engine import open_dask

        # Refused before the cluster starts and the data are read (they were read, then refused).
        if getattr(args, "chunks", None) is not None:
            raise ValueError("--chunks reads the file in memory, chunk by chunk; with --engine dask the "
                             "partitions are the files: drop one of them.")
        if getattr(args, "household", None):
            raise ValueError("--household: household risk cannot run on a Dask DataFrame exactly (it needs each "
                             "household's records together); use --engine pandas.")
        return open_dask(args.data, scheduler=args.scheduler, **read_options(args))
    if args.command == "risk":
        # Only the columns the command needs, typed, in compact integers (sdc.io.read_columns).
        return read_columns(args.data, _risk_columns(args), compact=True, **read_options(args))
    return read_data(args.data, **read_options(args))


def _dispatch(args: argparse.Namespace) -> int:
    from sdc.workflow import single

    if args.command == "example":
        return _example(args)
    _check_header(args)
    if args.command == "risk" and getattr(args, "engine", "pandas") != "dask" and _chunked(args):
        return _risk_in_chunks(args)
    from sdc._stages import stage

    data = _read(args)
    stage(f"{args.command} of {len(data):,} records" if hasattr(data, "__len__") and not hasattr(data, "dask")
          else args.command)
    if args.command in ("ldiversity", "tcloseness", "inference"):
        return _attribute(args, data)
    if args.command in ("suda", "modrisk", "uniqueness"):
        return _toolbox(args, data)
    k = 3 if args.threshold is None else args.threshold
    opts = dict(weights=args.weights, missing=args.missing, alpha=args.alpha, method=args.method,
                key_bins=dict(args.bins) or None)
    src = str(args.data)
    if args.command == "risk":
        return _show(single.run_risk(data, args.keys, k=k, top=args.top, max_global_risk=args.max_global_risk,
                                     household=args.household, source=src, **opts), args.json)
    if args.command == "snapshots":
        subsets = None
        if args.subsets:
            subsets = [_names(part, "subsets") for part in args.subsets.split(";") if part.strip()]
        return _show(single.run_snapshots(data, args.keys, k=k, subsets=subsets, max_size=args.max_size,
                                          progress=show_progress(args), source=src, **opts),
                     args.json)
    raise AssertionError(args.command)  # argparse restricts the choices


def _check_header(args: argparse.Namespace) -> None:
    """The columns the command names, against the file's header, before the records are read
    (a misspelt --keys is one line at once, not after the whole file)."""
    from sdc.workflow.header_check import check_names_in_header

    named = {role: getattr(args, role, None) for role in ("keys", "sensitive", "weights", "household", "candidates")}
    named["bins"] = [c for c, _ in getattr(args, "bins", None) or ()]
    named["sensitive_bins"] = [c for c, _ in getattr(args, "sensitive_bins", None) or ()]
    if getattr(args, "engine", "pandas") != "dask":  # a Dask path may be a glob: checked when opened
        check_names_in_header(args.data, named, **read_options(args))


def _names(text: str, option: str) -> list[str]:
    """Comma-separated column names given inside an option's value (a usage error is a ValueError)."""
    try:
        return csv_list(text)
    except argparse.ArgumentTypeError as exc:
        raise ValueError(f"`{option}`: {exc}.") from None


def _attribute(args: argparse.Namespace, data) -> int:  # noqa: ANN001
    """The attribute-disclosure commands."""
    from sdc.workflow import single

    src = str(args.data)
    if args.command == "ldiversity":
        run = single.run_ldiversity(data, args.keys, args.sensitive, l=args.l, c=args.c, mode=args.mode,
                                    key_bins=dict(args.bins) or None,
                                    sensitive_bins=dict(args.sensitive_bins) or None, source=src)
    elif args.command == "tcloseness":
        run = single.run_tcloseness(data, args.keys, args.sensitive, distance=args.distance, t=args.t,
                                    key_bins=dict(args.bins) or None, source=src)
    else:
        run = single.run_inference(data, args.sensitive, candidates=args.candidates, min_posterior=args.min_posterior,
                                   min_count=args.min_count, pairs=not args.no_pairs, bins=dict(args.bins) or None,
                                   source=src)
    return _show(run, args.json)


def _toolbox(args: argparse.Namespace, data) -> int:  # noqa: ANN001
    """suda, modrisk, uniqueness."""
    from sdc.workflow import single

    src = str(args.data)
    shown = show_progress(args)
    kb = dict(args.bins) or None
    if args.command == "suda":
        run = single.run_suda(data, args.keys, max_size=args.max_size, dis_fraction=args.dis_fraction,
                              original_scores=not args.ihsn_scores, mode=args.mode, progress=shown,
                              key_bins=kb, source=src, max_work=args.max_work)
    elif args.command == "modrisk":
        run = single.run_modrisk(data, args.keys, weights=args.weights, method=args.method, formula=args.formula,
                                 bound=args.bound, key_bins=kb, source=src)
    else:
        run = single.run_uniqueness(data, args.keys, population_size=args.population_size,
                                    sampling_fraction=args.sampling_fraction, variant=args.variant,
                                    threshold=args.threshold, weights=args.weights, interval=args.interval,
                                    progress=shown, key_bins=kb, source=src)
    return _show(run, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
