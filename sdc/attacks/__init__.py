"""Attacks: what an intruder achieves against the released file, simulated.

Risk models estimate; an attack shows. Record linkage against an outside file (exact and
nearest-neighbour, :mod:`sdc.attacks.linkage`), sdcMicro's distance-based measures for
continuous keys (``dRisk``, ``dRiskRMD``, ``recordLinkage``; :mod:`sdc.attacks.distance`),
the singling-out, linkability and inference attacks of anonymeter with a baseline and control
records (:mod:`sdc.attacks.anonymeter`; singling out in :mod:`sdc.attacks.singling_out`), and
the skewness and similarity attacks on a sensitive variable (:mod:`sdc.attacks.skewness`).
Every random step is seeded and the seed recorded. Built on :mod:`sdc.core` (matching, classes); never imports the workflow, report or CLI.
"""

from sdc.attacks.anonymeter import AnonymeterResult, SuccessRate, inference_attack, linkability_attack, split_control
from sdc.attacks.distance import (
    DistanceRiskResult, RecordLinkageResult, RmdRiskResult, distance_risk, distance_risk_rmd, record_linkage,
)
from sdc.attacks.linkage import LinkageResult, draw_external, linkage_attack, simulate_linkage_attack
from sdc.attacks.singling_out import singling_out_attack
from sdc.attacks.skewness import SkewnessResult, skewness_attack

__all__ = [
    "linkage_attack", "simulate_linkage_attack", "draw_external", "LinkageResult",
    "distance_risk", "DistanceRiskResult", "distance_risk_rmd", "RmdRiskResult", "record_linkage",
    "RecordLinkageResult",
    "singling_out_attack", "linkability_attack", "inference_attack", "split_control", "AnonymeterResult",
    "SuccessRate",
    "skewness_attack", "SkewnessResult",
]
