"""Attribute disclosure: l-diversity, t-closeness, beta-likeness, delta-disclosure and the
inference of sensitive values. Built on :mod:`sdc.core`; never imports the workflow, report
or CLI."""
