"""The missing-value rule: how a missing key value counts when records are grouped.

One value, :class:`MissingRule`, travels through every measure that groups keys, instead of
two loose arguments (``missing``, ``alpha``) checked again in each function. The rule is
sdcMicro's (``freqCalc``'s ``alpha``, ``measure_risk``'s ``missing``):

* ``"wildcard"``: a missing key value matches any value of that key, and a record with missing
  keys adds ``alpha`` (in [0, 1]) to the frequency of each compatible pattern (sdcMicro 5.8's
  asymmetric rule; ``alpha = 1`` is the classic wildcard, ``alpha = 0`` counts a missing value
  towards its own pattern only);
* ``"category"``: a missing value is a value of its own (ARX's and pandas' grouping).

Source: Templ, Kowarik and Meindl (2015), *Statistical Disclosure Control for Micro-Data
Using the R Package sdcMicro*, J. Stat. Softw. 67(4), section 3.1; sdcMicro's ``freqCalc``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sdc._schema import PROBABILITY, Choice, Option

__all__ = ["MissingRule", "MISSING_RULES", "MissingKind", "MISSING", "ALPHA", "missing_rule"]

#: The kinds of rule.
MISSING_RULES = ("wildcard", "category")
MissingKind = Literal["wildcard", "category"]

#: The two options, declared once (the configuration's [options], the flags, every measure).
MISSING = Option("missing", Choice(MISSING_RULES), "wildcard", section="options",
                 label="missing key values", help="missing key values: wildcard (sdcMicro's rule) or category")
ALPHA = Option("alpha", PROBABILITY, 1.0, section="options", label="alpha",
               help="sdcMicro's alpha: what a record with a missing key adds to a compatible pattern")


@dataclass(frozen=True)
class MissingRule:
    """How missing key values count: `kind` (``"wildcard"`` or ``"category"``) and, for the
    wildcard, `alpha` (in [0, 1]). Checked once, when made."""

    kind: MissingKind = "wildcard"
    alpha: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", MISSING.check(self.kind))
        object.__setattr__(self, "alpha", ALPHA.check(self.alpha))

    @property
    def wildcard(self) -> bool:
        return self.kind == "wildcard"

    def __str__(self) -> str:
        return f"wildcard (alpha = {self.alpha:g})" if self.wildcard else "category"


def missing_rule(missing: Any = "wildcard", alpha: Any = 1.0) -> MissingRule:
    """The rule of a public function's ``missing`` and ``alpha`` arguments (``missing`` may
    already be a :class:`MissingRule`; `alpha` is then ignored unless the rule is given as a
    string). Raises naming the argument (`` `missing` must be one of ...``)."""
    if isinstance(missing, MissingRule):
        return missing
    return MissingRule(missing, alpha)
