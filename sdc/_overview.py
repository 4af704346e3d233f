"""What ``sdc`` alone prints (no imports: ``sdc`` starts light, :mod:`sdc.__main__`)."""

__all__ = ["OVERVIEW"]

#: What ``sdc`` alone prints: the workflow, one command per stage.
OVERVIEW = """sdc: statistical disclosure control for microdata. The workflow, one command per stage:

  identify  sdc identify DATA                      roles of the columns, HIPAA, a starter config
  assess    sdc assess DATA --config run.toml      every risk measure, a report folder
  protect   sdc protect DATA --plan plan.toml      recode, suppress, PRAM, noise, ... (seeded)
  compare   sdc compare ORIGINAL RELEASED          risk and utility before and after
  sweep     sdc sweep DATA --plan sweep.toml       a grid of settings on the risk-utility plane
  advise    sdc advise DATA --config run.toml      candidate plans that meet the thresholds, ranked
  search    sdc search DATA --config search.toml   the optimal generalisation (ARX's lattice)
  attack    sdc attack linkage|singling-out|...    attacks on the release
  release   the protected file in protect's --out folder, with its log and plan

Start with the bundled example: `sdc example --save example` writes its data, config, plan
and sweep plan; `cd example && sdc assess --config example.toml` assesses it.
`sdc COMMAND --help` for a command (what it does, an example, its docs page); `sdc --help`
for every command and the global flags (-q/--quiet, -v/--verbose, -V/--version);
`sdc completion bash|zsh` for shell completion. Docs: docs/index.md, docs/cli.md.
"""
