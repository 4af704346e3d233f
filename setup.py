"""The packages of the distribution (everything else is in pyproject.toml).

r_bridge/ is installed as ``sdc_r_bridge``: PyPI's ``r-bridge`` installs a top-level
``r_bridge`` module, and the two must not overwrite each other. In the repository the folder
keeps its name; sdc reaches its bridge through :func:`sdc._rbridge.bridge`, never by the name
``r_bridge`` (docs/design.md, "Distribution").
"""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["sdc", "sdc.*"]), "sdc_r_bridge"],
      package_dir={"sdc_r_bridge": "r_bridge"})
