"""The core: key encoding, pattern frequencies, the missing-value rule, classes and binning.

The only place that factorises or groups key columns, so the missing-value rule has one home
and a second back end (Dask) one place to plug in. Imports only the base modules of ``sdc``.
"""
