"""``sdc compare ORIGINAL RELEASED --out DIR``: both files assessed alike, side by side.

Every risk measure of ``sdc assess`` before and after, the utility measures, the key
frequencies, what the protection changed (from ``--protection protection.json`` when given),
and the plots, in a report folder (see :mod:`sdc.report.compare`).
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence
from typing import Any

from sdc.cli._output import final, show_progress

__all__ = ["add_parsers", "run_compare"]


def add_parsers(sub: Any) -> None:
    from sdc.cli._args import DATA_HELP, csv_list
    from sdc.cli.protect import add_role_flags
    from sdc.workflow.compare import MATCH_MODES

    p = sub.add_parser("compare", help="risk and utility of a released file beside its original",
                       description="Assess ORIGINAL and RELEASED alike and write a report folder with every risk "
                                   "measure before and after, the utility measures, key frequencies, what the "
                                   "protection changed, and plots.")
    p.add_argument("original", metavar="ORIGINAL", help=f"the original data: {DATA_HELP}")
    p.add_argument("released", metavar="RELEASED", help=f"the released (protected) data: {DATA_HELP}")
    p.add_argument("--out", metavar="DIR", required=True, help="report folder (new, empty, or an earlier sdc folder)")
    p.add_argument("--protection", metavar="FILE", help="the protection.json of sdc protect (what each step changed)")
    p.add_argument("--match", choices=[m for m in MATCH_MODES if m != "index"], default="auto",
                   help="pair records by the id column or by row order (default: the id column when both files "
                        "have it)")
    p.add_argument("--k", type=int, help="k of k-anonymity (default: the config's, or 3)")
    p.add_argument("--utility-variables", type=csv_list, metavar="A,B,...",
                   help="the variables the utility measures use (IL1, eigenvalues, marginals), as a sweep plan's "
                        "`utility_variables` (default: the variables with a changed cell)")
    p.add_argument("--variables", dest="old_variables", type=csv_list, metavar="A,B,...",
                   help="deprecated: the old name of --utility-variables")
    add_role_flags(p)
    p.add_argument("--audience", choices=("internal", "external"), default="internal",
                   help="who reads the report: internal (everything: seeds, plan, provenance) or external "
                        "(data users: no seed, no secret, no command line)")
    p.add_argument("--json", action="store_true", help="print report.json's summary instead of text")
    p.set_defaults(run=run_compare, flag_aliases={"categorical_keys": "keys"})


def run_compare(args: argparse.Namespace, argv: Sequence[str]) -> int:
    from sdc._stats import summary_values
    from sdc.cli.assess import _fixed_time
    from sdc.cli._args import read_files, read_options
    from sdc.cli.protect import assessment_overrides
    from sdc.report import serialize
    from sdc.report.compare import comparison_headline, write_comparison
    from sdc.workflow.compare import compare, load_protection_log
    from sdc.workflow.config import load_config
    from sdc.workflow.header_check import check_config_in_header, check_names_in_header

    overrides = assessment_overrides(args)
    if args.config is None and not (args.keys or args.continuous_keys):
        raise ValueError("give the key variables (--keys, --continuous-keys) or a --config file.")
    overrides["data"] = {**overrides.get("data", {}), "path": str(args.original)}
    cfg = load_config(args.config, overrides)
    log = load_protection_log(args.protection) if args.protection else None
    # The columns named, against the headers, before the records are read.
    check_config_in_header(cfg)
    utility = args.utility_variables or args.old_variables
    for path in (args.original, args.released):
        check_names_in_header(path, {"utility_variables" if args.utility_variables else "variables": utility},
                              where=f"the {'original' if path == args.original else 'released'} file",
                              **read_options(args, cfg))
    # Both files read alike: the config's [data] settings, a flag winning (merged in cfg).
    read_notes: list[str] = []
    files = read_files({"ORIGINAL": args.original, "RELEASED": args.released}, read_options(args, cfg),
                       notes=read_notes)
    original, released = files["ORIGINAL"], files["RELEASED"]
    progress = show_progress(args)
    comp = compare(original, released, cfg, protection=log, match=args.match, files=[args.original, args.released],
                   command="sdc " + shlex.join(argv), progress=progress, now=_fixed_time(),
                   utility_variables=args.utility_variables, variables=args.old_variables, read_notes=read_notes)
    folder = write_comparison(comp, args.out, inputs=[args.original, args.released], audience=args.audience)
    if args.json:
        print(serialize.dumps({"out": str(folder.path), "files": list(folder.files),
                               "summary": summary_values(comp.summary())}))
        return 0
    print(f"Compared {comp.n_original:,} original and {comp.n_released:,} released records (matched by "
          f"{comp.matched_by}).")
    print(comparison_headline(comp))
    main = "report.html" if "report.html" in folder.files else folder.files[0]
    print(f"Report: {folder.path / main} ({len(folder.files)} files in {folder.path}/)")
    final(f"{comparison_headline(comp)} Report: {folder.path / main}")
    return 0
