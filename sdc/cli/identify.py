"""The ``sdc identify`` command: suggested roles, the Safe Harbor checklist, a starter config.

``sdc identify DATA [--out config.toml] [--json] [--role COL=ROLE ...] [--config FILE]``
reads DATA with every column as text (so ZIP codes and identifiers keep their leading
zeros), suggests each column's role with its reasons (:func:`sdc.identify.identify`), prints
them with the HIPAA Safe Harbor checklist, and with ``--out`` writes a configuration for
``sdc assess`` with those roles. ``--fail-on-identifiers`` exits with status 3 when a Safe
Harbor category is found (for pipelines).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["add_parsers", "run_identify", "EXIT_FOUND"]

#: Exit status of ``sdc identify --fail-on-identifiers`` when a Safe Harbor category is found.
EXIT_FOUND = 3


def _role(text: str) -> tuple[str, str]:
    name, sep, role = text.rpartition("=")
    if not sep or not name.strip() or not role.strip():
        raise argparse.ArgumentTypeError(f"expected COLUMN=ROLE (e.g. zip=qi, notes=direct), got {text!r}")
    return name.strip(), role.strip()


def _width(text: str) -> int:
    """--combinations' WIDTH: a number of columns >= 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a number of columns >= 1 (or none: all); got {text!r}")
    return value


def add_parsers(sub: Any) -> None:
    """Add ``identify`` to the ``sdc`` subcommands."""
    from sdc.cli._args import DATA_HELP, read_args
    from sdc.identify.gdistinct import ALPHA, BETA, GDISTINCT_AVERAGES
    from sdc.identify.profile import MISSING_THRESHOLD, NEAR_CONSTANT

    p = sub.add_parser("identify", help="suggest each column's role (identifier, quasi-identifier, sensitive) and "
                                        "check HIPAA Safe Harbor",
                       description="Suggest the role of each column of DATA with the reasons, check the 18 HIPAA "
                                   "Safe Harbor categories, and optionally write a starter config for sdc assess.")
    p.add_argument("data", metavar="DATA", help=DATA_HELP)
    p.add_argument("--out", metavar="FILE", help="write a starter configuration for sdc assess (TOML) to FILE")
    p.add_argument("--json", action="store_true", help="print one JSON document instead of tables")
    p.add_argument("--role", action="append", type=_role, default=[], metavar="COL=ROLE",
                   help="set a column's role: direct, qi, sensitive, other, id, weights or household (repeatable)")
    p.add_argument("--config", metavar="FILE", help="keep the roles an existing sdc assess config already sets")
    p.add_argument("--missing-threshold", type=float, default=MISSING_THRESHOLD, metavar="SHARE",
                   help=f"drop columns missing in more than this share of records (default {MISSING_THRESHOLD:g})")
    p.add_argument("--near-constant", type=float, default=NEAR_CONSTANT, metavar="SHARE",
                   help=f"note columns whose most frequent value covers this share (default {NEAR_CONSTANT:g})")
    p.add_argument("--alpha", type=float, default=ALPHA, metavar="RATE",
                   help=f"g-distinct: sensitive above this rate (default {ALPHA:g})")
    p.add_argument("--beta", type=float, default=BETA, metavar="RATE",
                   help=f"g-distinct: quasi-identifier from this rate up to alpha (default {BETA:g})")
    p.add_argument("--average", choices=GDISTINCT_AVERAGES, default="values",
                   help="g-distinct rate: mean of 1/frequency over the distinct values (default; Khan et al.'s "
                        "published rates) or over the records (distinct values / records)")
    p.add_argument("--dedupe", metavar="FILE",
                   help="write DATA with one record per id (the id column found, else per distinct record) to FILE "
                        "(CSV), identify that file, and name it in the starter config")
    p.add_argument("--sensitive-word", action="append", default=[], metavar="WORD",
                   help="add a word to the sensitive vocabulary (a column whose name holds it is suggested as "
                        "sensitive; 'partn*' matches any ending; repeatable)")
    p.add_argument("--demographic-word", action="append", default=[], metavar="WORD",
                   help="add a word to the demographic vocabulary (suggested as a quasi-identifier; repeatable)")
    read_args(p.add_argument_group("reading the data (override the config's [data])"))
    p.add_argument("--combinations", nargs="?", type=_width, const=0, default=None, metavar="WIDTH",
                   help="also list every combination of the suggested quasi-identifiers (up to WIDTH columns; "
                        "default all) with ARX's distinction and separation")
    p.add_argument("--fail-on-identifiers", action="store_true",
                   help=f"exit with status {EXIT_FOUND} when a Safe Harbor category is found")
    p.set_defaults(run=run_identify, flag_aliases={"roles": "role"})


def _config_path(data: str, out: str) -> str:
    """DATA as the config at OUT should name it: relative to OUT's folder where possible."""
    target = Path(data).resolve()
    try:
        return Path(os.path.relpath(target, Path(out).resolve().parent)).as_posix()
    except ValueError:  # another drive (Windows)
        return str(target)


def run_identify(args: argparse.Namespace, argv: Sequence[str]) -> int:
    from sdc._files import atomic_write, check_file_target
    from sdc.cli._args import read_options
    from sdc.identify import identify
    from sdc.io import read_data
    from sdc.report.identification import identification_json, identification_text

    inputs = [args.data, args.config]
    if args.out:  # before any work: never over the data or the config it reads
        check_file_target(args.out, inputs, flag="--out", replace=False)
    if args.dedupe:
        check_file_target(args.dedupe, inputs + [args.out], flag="--dedupe", replace=False)
    roles: dict[str, str] = {}
    config = None
    if args.config:
        from sdc.workflow.config import load_config
        from sdc.workflow.roles import roles_from_config

        config = load_config(args.config, data_given=True)  # DATA is on the command line
        roles.update(roles_from_config(config))
    for col, role in args.role:
        roles[col] = role
    reading = read_options(args, config)  # a flag, else the config's [data] setting
    # Every column is read as text (ZIP codes and identifiers keep their leading zeros), so the
    # columns named by --text only need to exist.
    asked = reading["text_columns"]
    data = read_data(args.data, **{**reading, "text_columns": True})
    names = {str(c) for c in data.columns}  # as read_data matches them (an Excel header may be a number)
    unknown = [c for c in asked if c not in names] if isinstance(asked, (list, tuple)) else []
    if unknown:
        raise ValueError(f"`text_columns` names columns not in '{args.data}': {', '.join(map(repr, unknown))}.")
    options = dict(roles=roles or None, missing_threshold=args.missing_threshold, near_constant=args.near_constant,
                   alpha=args.alpha, beta=args.beta, average=args.average,
                   vocabulary={"sensitive": args.sensitive_word, "demographic": args.demographic_word})
    result = identify(data, **options)
    if args.dedupe:
        from sdc.identify.duplicates import deduplicate

        dups = result.duplicates
        by = dups.id_column if dups is not None and dups.n_repeated_ids else None
        data = deduplicate(data, by)
        atomic_write(args.dedupe, data.to_csv(index=False, sep=reading["sep"] or ","), inputs=inputs,
                     flag="--dedupe", replace=False)
        print(f"Deduplicated file written to {args.dedupe}: {len(data):,} of {result.n_records:,} records "
              f"(one per {'id ' + repr(by) if by else 'distinct record'}); identifying it.",
              file=sys.stderr if args.json else sys.stdout)
        args.data = args.dedupe
        result = identify(data, **options)
    text = None
    if args.out:  # build it before printing anything, so an error leaves no half-done run
        text = result.starter_config(_config_path(args.data, args.out), sep=reading["sep"], source=str(args.data),
                                     na_values=reading["na_values"], text_columns=asked, sheet=reading["sheet"])
    combos = None
    if args.combinations is not None:
        from sdc.identify.combinations import quasi_identifier_risks

        width = args.combinations or None  # the flag without WIDTH: every combination
        if not result.quasi_identifiers:
            raise ValueError("--combinations: no column was suggested as a quasi-identifier (set some with --role COL=qi).")
        combos = quasi_identifier_risks(data, list(result.quasi_identifiers), max_width=width)
    if args.json:
        print(identification_json(result, source=str(args.data), combinations=combos))
    else:
        print(identification_text(result, source=str(args.data), combinations=combos))
    if text is not None:
        atomic_write(args.out, text, inputs=inputs, flag="--out", replace=False)
        print(f"Starter config written to {args.out}; check the roles, then run: sdc assess --config {args.out}",
              file=sys.stderr if args.json else sys.stdout)
    return EXIT_FOUND if (args.fail_on_identifiers and result.safe_harbor.found) else 0
