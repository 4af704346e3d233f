"""Re-identification risk: individual and global risk, the threshold, k-anonymity, household
risk, key-subset snapshots, SUDA2, log-linear model risk, population uniqueness, attacker
models and intervals. Built on :mod:`sdc.core`; never imports the workflow, report or CLI."""
