"""``python -m sdc``: the same command-line interface as the ``sdc`` script."""

from sdc.cli import main

if __name__ == "__main__":  # Dask's worker processes import the main module: run only as a script
    raise SystemExit(main())
