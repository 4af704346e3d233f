"""The comparisons with sdcMicro, as the harness and the tests use them.

They live in :mod:`sdc.workflow.crosscheck` (``sdc assess --cross-check`` runs them too); this
module only names them for the harness, so the harness uses the library and never the other
way round.
"""

from sdc.workflow.crosscheck import (  # noqa: F401
    COMPARISONS, RTOL, RTOL_MODEL, RTOL_SUMS, Case, Diff, compare_case, compare_freq_calc, compare_household,
    compare_indiv_risk_exact, compare_ldiversity, compare_measure_risk, compare_modrisk, compare_sdc_obj,
    compare_snapshots, compare_suda2, compare_values, has_correlated_items, summarise,
)
