"""``sdc advise DATA --config run.toml --out DIR``: protection plans proposed from rules, applied,
kept when they meet the configuration's thresholds, ranked by sdcMicro's combined utility score.

The rules and the score are :mod:`sdc.workflow.advise`'s; the folder :mod:`sdc.report.advise`'s.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from sdc.cli._output import final, show_progress
from sdc.cli._args import DATA_HELP, read_args, read_options
from sdc.cli.protect import plan_errors

__all__ = ["add_parsers", "run_advise"]


def add_parsers(sub: Any) -> None:
    from sdc.workflow.advise import MAX_CANDIDATES

    p = sub.add_parser("advise", help="protection plans proposed from rules, ranked by utility",
                       description="Propose candidate protection plans for DATA (bands, merges of rare categories, "
                                   "local suppression, PRAM, microaggregation and combinations), apply each, keep "
                                   "those whose release meets the configuration's thresholds, rank them by "
                                   "sdcMicro's combined utility score, and write them as runnable plan files.")
    p.add_argument("data", metavar="DATA", help=DATA_HELP)
    p.add_argument("--config", metavar="FILE", required=True,
                   help="the assessment configuration: the keys, and the [thresholds] a release must meet")
    p.add_argument("--out", metavar="DIR", required=True, help="output folder (new, empty, or an earlier sdc folder)")
    p.add_argument("--seed", type=int, default=0, help="every plan's seed (default 0): the same seed, the same advice")
    p.add_argument("--max-candidates", type=int, default=MAX_CANDIDATES,
                   help=f"the most candidate plans tried (default {MAX_CANDIDATES})")
    p.add_argument("--top", type=int, default=5, help="plan files written, best first (default 5)")
    read_args(p.add_argument_group("reading the data (override the config's [data])"))
    p.add_argument("--json", action="store_true", help="print the ranked table as JSON instead of text")
    p.set_defaults(run=run_advise)


@plan_errors
def run_advise(args: argparse.Namespace, argv: Sequence[str]) -> int:
    from sdc._stats import summary_values
    from sdc.cli.assess import _fixed_time
    from sdc.cli._args import read_with_notes
    from sdc.report import serialize
    from sdc.report.advise import advice_text, write_advice
    from sdc.workflow.advise import advise
    from sdc.workflow.config import load_config
    from sdc.workflow.header_check import check_config_in_header

    if args.top < 1:
        raise ValueError(f"--top must be a whole number, at least 1; got {args.top}.")
    cfg = load_config(args.config, {"data": {"path": str(args.data)}})
    check_config_in_header(cfg)
    data, _notes = read_with_notes(args.data, read_options(args, cfg))
    res = advise(data, cfg, seed=args.seed, max_candidates=args.max_candidates, now=_fixed_time(),
                 progress=show_progress(args))
    folder = write_advice(res, args.out, inputs=[args.data], top=args.top)
    if args.json:
        print(serialize.dumps({"out": str(folder.path), "files": list(folder.files),
                               "summary": summary_values(res.summary()),
                               "plans": serialize.frame_records(res.table)}))
        return 0 if res.runs else 1
    print(advice_text(res))
    n = len(folder.files)
    print(f"Advice: {folder.path / 'advice.csv'} ({n} file{'' if n == 1 else 's'} in {folder.path}/)")
    if res.runs:
        final(f"{len(res.runs)} of {len(res.candidates)} plans meet the thresholds; the best: "
              f"{folder.path / 'plan_1.toml'}")
        return 0
    final(f"none of {len(res.candidates)} plans meets the thresholds. Advice: {folder.path / 'advice.csv'}")
    return 1
