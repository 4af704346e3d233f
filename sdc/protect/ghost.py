"""Ghost (linked) variables (sdcMicro's ``addGhostVars``): variables linked to a key variable
carry its suppressions, so that a suppressed key value cannot be read back from a variable that
holds the same information (a region's code beside its name, a detailed and a coarse
occupation).

For every record whose key value is missing, each linked variable is set to missing too, as
sdcMicro's ``localSuppression`` and ``localSupp`` do to the ghost variables of an sdcMicroObj
(``manipGhostVars[[g]][is.na(manipKeyVars[[key]])] <- NA``, after each suppression; a key value
missing from the start counts as sdcMicro counts it). In a plan the step goes after the
suppression steps of its key: it copies the key's missing cells at that point.

References
----------
sdcMicro ``addGhostVars`` (``R/addGhostVars.R``) and the transfer in ``R/localSuppression.R``
and ``R/localSupp.R``; Templ, M. (2017), *Statistical Disclosure Control for Microdata*,
Springer, section 3.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from sdc._schema import Name
from sdc._validation import check_columns
from sdc.protect._common import check_variables, output_frame
from sdc.protect._declare import ROW_WISE, param, protection_method
from sdc.protect._rcode import RStep, StepRun, r_names, r_value
from sdc.protect._result import ProtectionResult

__all__ = ["add_ghost_vars"]


def _r_ghost(run: StepRun) -> RStep:
    key = r_value(run.parameters["key_var"])
    code = (f"for (g in {r_names(run.variables)}) data[[g]][is.na(data[[{key}]])] <- NA", "data")
    return RStep(code, True, "sdcMicro's transfer of a key's suppressions to its ghost variables; the same cells")


@protection_method(
    "add_ghost_vars", sdcmicro=_r_ghost, dask=ROW_WISE, repeatable=True,
    summary="variables linked to a key set to missing wherever the key is missing (its suppressions carried over)",
    example={"variables": ["relation"], "key_var": "region"},
    options={"key_var": param(Name(), "the key variable whose missing cells the linked variables follow "
                                  "(sdcMicro's keyVar)")})
def add_ghost_vars(data: pd.DataFrame, variables: Sequence[str] | str, *, key_var: str) -> ProtectionResult:
    """Set the linked `variables` to missing in every record whose `key_var` is missing.

    Parameters
    ----------
    data : pandas.DataFrame
        Microdata. Not modified.
    variables : list of str
        The ghost variables (sdcMicro's ``ghostVars``); any type. Not the key itself.
    key_var : str
        The key variable they are linked to (sdcMicro's ``keyVar``; ``key`` is the name a plan
        keeps for secrets).

    Returns
    -------
    ProtectionResult
        ``changed`` the cells that became missing per variable; ``details``: ``key_missing``
        (records whose key is missing). Integer and boolean variables become pandas' nullable
        ``Int64`` and ``boolean`` (whether or not a cell is hit).

    Examples
    --------
    >>> import pandas as pd, sdc
    >>> df = pd.DataFrame({"region": ["north", None, "south"], "code": [1, 2, 3]})
    >>> sdc.add_ghost_vars(df, ["code"], key_var="region").data["code"].tolist()
    [1, <NA>, 3]
    """
    frame, cols = check_variables(data, variables, role="variables")
    check_columns(frame, [key_var], role="key_var")
    if key_var in cols:
        raise ValueError(f"`key_var` {key_var!r} is also one of the `variables`: a key is not its own ghost variable.")
    gone = frame[key_var].isna().to_numpy()
    out = output_frame(frame)
    changed = {}
    for v in cols:
        hit = gone & ~frame[v].isna().to_numpy()
        changed[v] = int(hit.sum())
        s = frame[v]
        # nullable whether or not a cell is hit: every part of a file gets the same dtype
        # numpy bool and integer columns have no missing value: the nullable array built from the
        # values and the hits at once (astype's scan for missing values is most of the call)
        if s.dtype == np.bool_:
            out[v] = pd.Series(pd.arrays.BooleanArray(s.to_numpy(dtype=bool), hit.copy()), index=frame.index, name=v)
        elif s.dtype == np.int64:
            out[v] = pd.Series(pd.arrays.IntegerArray(s.to_numpy(), hit.copy()), index=frame.index, name=v)
        else:
            if pd.api.types.is_bool_dtype(s.dtype) and not isinstance(s.dtype, pd.BooleanDtype):
                out[v] = s = s.astype("boolean")
            elif pd.api.types.is_integer_dtype(s.dtype) and not isinstance(s.dtype, pd.api.extensions.ExtensionDtype):
                out[v] = s = s.astype("Int64")
            if hit.any():
                out[v] = s.mask(pd.Series(hit, index=frame.index))
    return ProtectionResult(method="add_ghost_vars", data=out, variables=cols,
                            parameters={"variables": list(cols), "key_var": key_var}, seed=None,
                            changed=pd.Series(changed, dtype=np.int64, name="cells_changed"),
                            details={"key_missing": int(gone.sum())})
