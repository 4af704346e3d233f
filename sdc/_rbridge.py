"""sdc's own bridge to R (the ``r_bridge/`` folder of the repository), found without the name
``r_bridge``.

The wheel installs the folder as ``sdc_r_bridge``: PyPI's ``r-bridge`` (another project)
installs a top-level ``r_bridge`` module, and sdc must never import that one by mistake
(docs/design.md, "Distribution"). :func:`bridge` returns sdc's bridge: the ``r_bridge``
module already imported from the checkout beside this ``sdc`` package (the tests and the
validation harness import it by that name), else ``sdc_r_bridge`` (installed, or the editable
install's mapping of the checkout's folder). Importing it needs neither rpy2 nor R.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["bridge", "INSTALLED_NAME"]

#: The name the bridge is installed under (setup.py's package-dir mapping).
INSTALLED_NAME = "sdc_r_bridge"
_HERE = Path(__file__).resolve().parent


def _ours(module: ModuleType | None) -> bool:
    """Whether `module` is the r_bridge/ folder beside this sdc package (not another project's)."""
    where = getattr(module, "__file__", None)
    return where is not None and Path(where).resolve().parent == _HERE.parent / "r_bridge"


def bridge() -> ModuleType:
    """sdc's bridge to R, imported on first use (never a foreign ``r_bridge``).

    Raises
    ------
    ImportError
        The bridge is not installed beside sdc (a broken installation).
    """
    checkout = sys.modules.get("r_bridge")
    if _ours(checkout):
        return checkout  # type: ignore[return-value]
    return importlib.import_module(INSTALLED_NAME)
