"""``python -m sdc``: the same command-line interface as the ``sdc`` script."""

from sdc.cli import main

raise SystemExit(main())
