"""``sdc sweep DATA --plan sweep.toml --out DIR``: risk and utility over a grid of protection settings.

One row per setting plus the baseline, as CSV, Markdown, JSON, XLSX and HTML with three plots
(see :mod:`sdc.report.sweep`; the plan format is in :mod:`sdc.workflow.sweep`).
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence
from typing import Any

from sdc.cli._output import final, show_progress
from sdc.cli._args import DATA_HELP, read_args, read_options
from sdc.cli.protect import plan_errors

__all__ = ["add_parsers", "run_sweep"]


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("sweep", help="risk and utility over a grid of protection settings",
                       description="Apply each setting of a sweep plan to DATA and tabulate risk and utility, with "
                                   "the settings no other setting beats on both.")
    p.add_argument("data", metavar="DATA", help=DATA_HELP)
    p.add_argument("--plan", metavar="FILE", required=True,
                   help="the sweep plan: [sweep] and [[steps]] with grid = { parameter = [values] }")
    p.add_argument("--out", metavar="DIR", required=True, help="output folder (new, empty, or an earlier sdc folder)")
    p.add_argument("--seed", type=int, help="the plan's seed (replaces the plan's)")
    read_args(p.add_argument_group("reading the data (override the plan's [data])"))
    p.add_argument("--no-png", action="store_true", help="no plots/*.png files (the plots stay in sweep.html)")
    p.add_argument("--json", action="store_true", help="print the settings as JSON instead of a table")
    p.set_defaults(run=run_sweep)


@plan_errors
def run_sweep(args: argparse.Namespace, argv: Sequence[str]) -> int:
    from sdc._stats import summary_values
    from sdc.cli.assess import _fixed_time
    from sdc.cli._args import read_with_notes
    from sdc.report import serialize
    from sdc.report.formatting import render_table
    from sdc.report.sweep import column_label, write_sweep
    from sdc.workflow.plan import with_read_settings
    from sdc.workflow.protect import plan_read_settings
    from sdc.workflow.header_check import check_plan_in_header
    from sdc.workflow.sweep import load_sweep, sweep

    plan = load_sweep(args.plan, seed=args.seed)
    reading = read_options(args, plan_read_settings(plan))
    sw = plan.sweep  # the plan's columns and the [sweep] section's, against the header first
    check_plan_in_header(plan, args.data, {f"[sweep].{k}": sw.get(k) for k in
                                           ("keys", "weights", "utility_variables", "variables", "sensitive")},
                         **reading)
    data, read_notes = read_with_notes(args.data, reading)
    plan = with_read_settings(plan, reading)  # the resolved plan.toml reads the file alike
    progress = show_progress(args)
    res = sweep(data, plan, progress=progress, now=_fixed_time(), input_file=args.data,
                command="sdc " + shlex.join(argv), read_notes=read_notes)
    folder = write_sweep(res, args.out, inputs=[args.data], png=not args.no_png)
    if args.json:
        print(serialize.dumps({"out": str(folder.path), "summary": summary_values(res.summary()),
                               "settings": serialize.frame_records(res.table)}))
        return 0
    cols = ["setting", "label", "pct_unique", "pct_fk_lt_k", "expected_reidentifications", "global_risk",
            "il1_overall", "eigen_similarity_pct", "nue_utility_retained", "pct_records_retained", "non_dominated"]
    cols[-1:-1] = [a for a in (res.risk_axis, res.utility_axis) if a not in cols]  # the axes always shown
    t = res.table[[c for c in cols if c in res.table.columns]].copy()
    t["non_dominated"] = ["*" if x else "" for x in t["non_dominated"]]
    t = t.rename(columns={c: column_label(c) for c in t.columns if c not in ("setting", "label", "non_dominated")})
    t = t.rename(columns={"non_dominated": "non-dominated"})
    print(f"Sweep of {len(res.table) - 1} settings on {len(data):,} records ({res.seconds:.1f} s); risk over "
          f"{', '.join(res.keys)}, k = {res.k}. *: no other setting beats it on both {column_label(res.risk_axis)} "
          f"and {column_label(res.utility_axis)}.")
    print(render_table(t))
    print(f"Sweep: {folder.path / 'sweep.html'} ({len(folder.files)} files in {folder.path}/)")
    final(f"Sweep of {len(res.table) - 1} settings on {len(data):,} records: {int(res.table['non_dominated'].sum())} "
          f"non-dominated. Sweep: {folder.path / 'sweep.html'}")
    return 0
