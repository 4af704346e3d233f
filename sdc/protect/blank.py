"""Blanking: chosen values of a variable set to missing (a scratch method showing the 2-file
recipe of a protection method: this module and one line in :mod:`sdc.protect`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from sdc._schema import Anything
from sdc.protect._common import check_variables, output_frame
from sdc.protect._declare import ROW_WISE, Listed, param, protection_method
from sdc.protect._result import ProtectionResult

__all__ = ["blank_values"]


@protection_method(
    "blank_values", summary="chosen values set to missing", dask=ROW_WISE,
    example={"variables": ["region"], "values": ["London"]},
    options={"values": param(Listed("a list of values"), "the values set to missing"),
             "label": param(Anything(), "unused: a second parameter of the scratch method")})
def blank_values(data: pd.DataFrame, variables: Sequence[str] | str, *, values: Sequence[object] = (),
                 label: object = None) -> ProtectionResult:
    """Set each of `values` to missing in the `variables` (row-wise: a record's new value
    depends on its own value alone).

    Returns
    -------
    ProtectionResult
        ``details[variable]``: the cells blanked.
    """
    frame, cols = check_variables(data, variables)
    out = output_frame(frame)
    changed, details = {}, {}
    for v in cols:
        hit = frame[v].isin(list(values)).to_numpy()
        out[v] = frame[v].mask(hit)
        changed[v] = int(hit.sum())
        details[v] = {"blanked": changed[v]}
    return ProtectionResult(method="blank_values", data=out, variables=cols,
                            parameters={"variables": list(cols), "values": list(values)}, seed=None,
                            changed=pd.Series(changed, dtype=np.int64, name="cells_changed"), details=details)
