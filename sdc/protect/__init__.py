"""Protection methods: recoding, top/bottom coding, local suppression, PRAM, microaggregation,
noise, rank swapping and pseudonymisation. Each is pure: it returns a new DataFrame aligned to
the input's index in a :class:`~sdc.protect._result.ProtectionResult`, never changes the input,
and records its parameters and seed. Built on :mod:`sdc.core` and the risk and attribute
measures; never imports the workflow, report or CLI."""
