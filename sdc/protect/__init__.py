"""Protection methods: recoding, top/bottom coding, local suppression, PRAM, microaggregation,
noise, rank swapping, pseudonymisation, a saved transformation re-applied and redaction of identifiers in text. Each is pure: it returns a new DataFrame aligned to
the input's index in a :class:`~sdc.protect._result.ProtectionResult`, never changes the input,
and records its parameters and seed. Built on :mod:`sdc.core` and the risk and attribute
measures; never imports the workflow, report or CLI.

Each method declares what it can do beside its function (:mod:`sdc.protect._declare`); the
methods a plan may name are the declared functions imported below, in the order they are
usually applied (:func:`method_infos`). A new method is its module and one line here (the
function imported as ``_name`` when its module has its name, so that ``sdc.protect.pram``
stays the module).
"""

from sdc.protect._declare import MethodInfo, info_of
from sdc.protect.recode import global_recode, top_bottom_code
from sdc.protect.transformation import apply_transformation
from sdc.protect.topcode_mv import mv_top_code
from sdc.protect.suppression import local_suppression
from sdc.protect.suppression_risk import local_suppression_by_risk
from sdc.protect.ghost import add_ghost_vars
from sdc.protect.microaggregation import microaggregation as _microaggregation  # noqa: F401
from sdc.protect.microaggregation_gower import microaggregation_gower as _microaggregation_gower  # noqa: F401
from sdc.protect.pram import pram as _pram  # noqa: F401
from sdc.protect.noise import add_noise
from sdc.protect.swap import rank_swap
from sdc.protect.record_swap import record_swap
from sdc.protect.shuffling import shuffle
from sdc.protect.pseudonym import pseudonymise
from sdc.protect.redact import redact
from sdc.protect.recode_local import local_recoding

__all__ = ["method_infos", "MethodInfo", "info_of", "global_recode", "top_bottom_code", "apply_transformation", "mv_top_code",
           "local_suppression", "local_suppression_by_risk", "add_ghost_vars", "add_noise", "rank_swap", "record_swap", "shuffle",
           "pseudonymise", "redact", "local_recoding"]


def method_infos() -> dict[str, MethodInfo]:
    """The declared protection methods of this package, by name, in the order imported above."""
    found = (info_of(v) for v in list(globals().values()))
    return {i.name: i for i in found if isinstance(i, MethodInfo)}
