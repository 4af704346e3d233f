"""Local suppression by individual risk (sdcMicro's ``localSupp``): the mu-Argus-style rule
that removes one key's value from every record whose re-identification risk is above a
threshold.

For each record i with individual risk r_i > threshold (strict, as sdcMicro's
``localSuppWORK``: ``rk > threshold``), the value of the chosen key `variable` is set to
missing; every other cell is kept. r_i is :func:`sdc.individual_risk` on the input: 1 / f_k
without weights, the Benedetti-Franconi approximation with sampling weights, missing key values
matched as the missing-value rule says (sdcMicro's wildcard rule with ``alpha`` by default). The
risk is not recomputed after the suppression (sdcMicro recomputes it for the next step only):
one step is one pass, and a plan may repeat the step with another key.

References
----------
Templ, M. (2008). Statistical disclosure control for microdata using the R-package sdcMicro.
Transactions on Data Privacy 1(2), 67-85 (``localSupp``). Hundepool, A. et al. (2012).
*Statistical Disclosure Control*, Wiley, section 3.4.2 (local suppression of risky records).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sdc._schema import Name, Real
from sdc._validation import check_columns, check_number
from sdc.core.missing import ALPHA, MISSING, MissingKind, MissingRule, missing_rule
from sdc.protect._common import check_variables, output_frame
from sdc.protect._declare import param, protection_method
from sdc.protect._rcode import RStep, StepRun, r_names, r_value
from sdc.protect._result import ProtectionResult
from sdc.risk.individual import individual_risk

__all__ = ["local_suppression_by_risk"]


def _r_local_supp(run: StepRun) -> RStep:
    """sdcMicro's ``localSupp`` on an sdcMicroObj of the same keys, weights and alpha."""
    p = run.parameters
    keys, v = list(run.variables), p["variable"]
    obj = [f"keyVars = {r_names(keys)}", f"alpha = {r_value(p.get('alpha', 1.0))}"]
    if p.get("weights"):
        obj.append(f"weightVar = {r_value(p['weights'])}")
    code = (f"x <- data; for (key in {r_names(keys)}) x[[key]] <- factor(x[[key]])",
            f"obj <- sdcMicro::createSdcObj(x, {', '.join(obj)})",
            f"obj <- sdcMicro::localSupp(obj, threshold = {r_value(p.get('threshold', 0.15))}, "
            f"keyVar = {r_value(v)})",
            f"data[[{r_value(v)}]][is.na(sdcMicro::get.sdcMicroObj(obj, type = \"manipKeyVars\")[[{r_value(v)}]])] "
            "<- NA",
            "data")
    if p.get("missing", "wildcard") != "wildcard":
        return RStep(code, False, "sdcMicro matches missing key values as wildcards; sdc's missing = "
                     "\"category\" counts them as a value: other risks, other cells")
    return RStep(code, True, "sdcMicro's localSupp; the same cells")


@protection_method(
    "local_suppression_by_risk", sdcmicro=_r_local_supp,
    summary="one key's value set to missing in every record whose individual risk is above a threshold",
    why="a record's risk depends on the frequencies of its key pattern in the whole file",
    example={"keys": ["age", "sex", "region"], "variable": "region", "threshold": 0.2},
    options={"threshold": param(Real(0.0, 1.0), "records with an individual risk above it lose the value"),
             "variable": param(Name(), "the key whose value is suppressed (sdcMicro's keyVar)"),
             "weights": param(Name(), "sampling-weight column (default: none, risk 1 / f_k)"),
             "missing": param(MISSING.rule, MISSING.help),
             "alpha": param(ALPHA.rule, ALPHA.help)})
def local_suppression_by_risk(
    data: pd.DataFrame,
    keys: Sequence[str] | str,
    *,
    threshold: float = 0.15,
    variable: str,
    weights: str | None = None,
    missing: MissingKind | MissingRule = "wildcard",
    alpha: float = 1.0,
) -> ProtectionResult:
    """Suppress `variable` in every record whose individual risk exceeds `threshold`.

    ``x_i[variable] <- NA`` for every record i with r_i > threshold, where r_i is the
    individual re-identification risk of record i over `keys` (:func:`sdc.individual_risk`:
    1 / f_k without weights, Benedetti and Franconi's approximation with them). Strict
    inequality, as sdcMicro's ``localSupp``: a record whose risk equals the threshold keeps
    its value. Deterministic (no seed).

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    keys : sequence of str
        The key variables the risk is computed over.
    threshold : float in [0, 1], default 0.15
        sdcMicro's default.
    variable : str
        The key whose value the risky records lose (one of `keys`; sdcMicro's ``keyVar``).
    weights : str, optional
        Sampling-weight column.
    missing, alpha
        The missing-value rule of the risk (:class:`sdc.MissingRule`).

    Returns
    -------
    ProtectionResult
        ``details`` = ``{"risky_records": n above the threshold, "suppressed": cells that
        became missing, "max_risk_before": the largest risk}``; ``changed[variable]`` the
        suppressed cells.

    References
    ----------
    sdcMicro ``localSupp`` (``R/localSupp.R``); Templ (2008), TDP 1(2), 67-85.

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"sex": list("mmmff"), "region": list("aabac")})
    >>> r = sdc.local_suppression_by_risk(df, ["sex", "region"], variable="region", threshold=0.5)
    >>> r.data["region"].tolist(), int(r.changed["region"])
    (['a', 'a', nan, nan, nan], 3)
    """
    frame, cols = check_variables(data, keys, role="keys")
    threshold = check_number(threshold, "threshold", low=0.0, high=1.0)
    if variable not in cols:
        raise ValueError(f"`variable` {variable!r} is not one of the `keys` ({', '.join(map(repr, cols))}): "
                         "the suppressed value must be a key's (sdcMicro's keyVar).")
    if weights is not None:
        check_columns(frame, [weights], role="weights")
    rule = missing_rule(missing, alpha)
    risk = individual_risk(frame, list(cols), weights=weights, missing=rule).risk.to_numpy(dtype=np.float64)
    risky = risk > threshold
    out = output_frame(frame)
    was = frame[variable].isna().to_numpy()
    hit = risky & ~was
    if hit.any():  # where() keeps the dtype where it can hold a missing value (ints become floats)
        out[variable] = frame[variable].where(~hit)
    n = int(hit.sum())
    details: dict[str, Any] = {"risky_records": int(risky.sum()), "suppressed": n,
                               "max_risk_before": float(risk.max()) if risk.size else float("nan")}
    params = {"keys": list(cols), "threshold": threshold, "variable": variable, "weights": weights,
              "missing": rule.kind, "alpha": rule.alpha}
    return ProtectionResult(method="local_suppression_by_risk", data=out, variables=cols, parameters=params,
                            seed=None, changed=pd.Series({v: n if v == variable else 0 for v in cols},
                                                         dtype=np.int64, name="cells_changed"),
                            details=details)
