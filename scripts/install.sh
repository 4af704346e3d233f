#!/usr/bin/env bash
# Install everything sdc needs on this project's machine (Debian 12, R 4.2, CRAN, no PyPI),
# idempotently: each step checks first and does nothing when its part is already there.
#
#   1. Debian packages: Python's scientific stack (python3-*), R's sdcMicro dependencies (r-cran-*).
#   2. sdcMicro (and prettydoc, which it imports) from CRAN; speff2trial (ACTG 175) and NHANES (test data).
#   3. A venv at .venv (with --system-site-packages) holding sdc installed editable.
#
# Options: --with-browser also installs Debian's chromium, which the tests use to render the
# HTML report, with chromium-driver and python3-selenium, which drive `sdc app` in the browser
# test (./quickstart.sh test passes it); --print-packages prints the Debian packages it
# would install (one line) and exits.
# Environment: SDC_SKIP_R=1 skips steps 1's R part and step 2 (the sdcMicro tests then skip);
# SDC_CRAN sets the CRAN mirror (default https://cloud.r-project.org).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
log() { printf '[install] %s\n' "$*" >&2; }

py_debs=(python3 python3-venv python3-pip python3-setuptools python3-wheel
  python3-packaging python3-numpy python3-pandas python3-scipy python3-statsmodels python3-matplotlib
  python3-pytest python3-hypothesis python3-jinja2 python3-openpyxl python3-yaml python3-tqdm
  python3-dask python3-distributed)
# python3-rpy2 depends on R (r-base-core), so it belongs to the R part that SDC_SKIP_R=1 skips.
r_debs=(python3-rpy2 r-base-dev r-cran-car r-cran-cardata r-cran-rmarkdown r-cran-knitr r-cran-data.table
  r-cran-xtable r-cran-robustbase r-cran-cluster r-cran-mass r-cran-e1071 r-cran-rcpp
  r-cran-ggplot2 r-cran-shiny r-cran-haven r-cran-rhandsontable r-cran-dt r-cran-vim
  r-cran-laeken r-cran-httr r-cran-jsonlite r-cran-clue)
# Installed where the Debian release has them (Debian 12 has none; 13 has pyreadstat; sid all
# three): SPSS and SAS transport v8 through pyreadstat, Parquet through pyarrow or R's arrow.
# Without them sdc reads those files through R's haven (r-cran-haven above), or says which
# extra is missing.
optional_debs=(python3-pyreadstat python3-pyarrow)
[ "${SDC_SKIP_R:-0}" = 1 ] || optional_debs+=(r-cran-arrow)
debs=("${py_debs[@]}")
[ "${SDC_SKIP_R:-0}" = 1 ] || debs+=("${r_debs[@]}")
print_only=0
for arg in "$@"; do
  case "$arg" in
    --with-browser) debs+=(chromium chromium-driver python3-selenium) ;;
    --print-packages) print_only=1 ;;
    *) log "unknown option: $arg"; exit 2 ;;
  esac
done
if [ $print_only = 1 ]; then echo "${debs[*]} ${optional_debs[*]}"; exit 0; fi

# --- 1. Debian packages --------------------------------------------------------------------
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${#missing[@]} Debian packages: ${missing[*]}"
  if [ "$(id -u)" = 0 ]; then sudo=(); elif command -v sudo >/dev/null; then sudo=(sudo); else
    log "need root (or sudo) to install: ${missing[*]}"; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The optional packages this release's package lists have (apt-cache asks no registry).
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
extra=()
for p in "${optional_debs[@]}"; do
  installed "$p" || ! apt-cache show --no-all-versions "$p" >/dev/null 2>&1 || extra+=("$p")
done
if [ ${#extra[@]} -gt 0 ]; then
  log "installing the optional Debian packages this release has: ${extra[*]}"
  if [ "$(id -u)" = 0 ]; then sudo=(); else sudo=(sudo); fi
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${extra[@]}" >/dev/null ||
    log "could not install ${extra[*]}; those formats are read through R or refused with the extra's name"
fi

# --- 2. sdcMicro from CRAN -------------------------------------------------------------------
if [ "${SDC_SKIP_R:-0}" != 1 ]; then
  if ! Rscript -e 'quit(status = !requireNamespace("sdcMicro", quietly = TRUE))' >/dev/null 2>&1; then
    cran=${SDC_CRAN:-https://cloud.r-project.org}
    log "installing sdcMicro from CRAN ($cran); about a minute"
    lib=$(Rscript -e 'cat(.libPaths()[1])')
    Rscript -e "install.packages(c('prettydoc', 'sdcMicro'), repos = '$cran', lib = '$lib', Ncpus = 2, quiet = TRUE)"
    Rscript -e 'suppressMessages(library(sdcMicro)); cat("sdcMicro", as.character(packageVersion("sdcMicro")), "\n")' >&2
  fi
  # Test data from CRAN: speff2trial ships ACTG 175, the data of the ARX-recorded Pitman tests
  # (tests/risk/test_uniqueness_fit.py); NHANES the public survey of the identification tests
  # (tests/identify/test_nhanes.py). Without them those tests skip, saying so.
  for pkg in speff2trial NHANES; do
    if ! Rscript -e "quit(status = !requireNamespace('$pkg', quietly = TRUE))" >/dev/null 2>&1; then
      cran=${SDC_CRAN:-https://cloud.r-project.org}
      log "installing $pkg (test data) from CRAN ($cran)"
      lib=$(Rscript -e 'cat(.libPaths()[1])')
      Rscript -e "install.packages('$pkg', repos = '$cran', lib = '$lib', Ncpus = 2, quiet = TRUE)" \
        || log "$pkg could not be installed: the tests on its data will skip"
    fi
  done
fi

# --- 3. venv with sdc installed editable ----------------------------------------------------
if [ ! -x .venv/bin/python ]; then
  log "creating .venv (with Debian's system site packages)"
  /usr/bin/python3 -m venv --system-site-packages .venv
fi
# Reinstall only when pyproject.toml changed since the last install (or never installed).
stamp=.venv/.sdc-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ ! -x .venv/bin/sdc ]; then
  log "installing sdc into .venv (editable, offline)"
  # The distribution was called "sdc" before it became "sdc-microdata": drop the old one's record.
  if .venv/bin/python -c 'import importlib.metadata as m; m.distribution("sdc")' 2>/dev/null; then
    .venv/bin/pip uninstall --quiet --yes sdc >/dev/null 2>&1 || true
  fi
  .venv/bin/pip install --quiet --no-index --no-build-isolation --no-deps -e . >/dev/null
  .venv/bin/python - <<'PY'
# pip ran with --no-deps (no index to resolve from): check the declared dependencies are satisfied.
import importlib.metadata as md, sys
from packaging.requirements import Requirement
missing = []
for text in md.requires("sdc-microdata") or []:
    req = Requirement(text)
    if req.marker is not None and not req.marker.evaluate({"extra": ""}):
        continue  # an extra, or not for this Python
    try:
        have = md.version(req.name)
    except md.PackageNotFoundError:
        missing.append(f"{req} (not installed)")
        continue
    if not req.specifier.contains(have, prereleases=True):
        missing.append(f"{req} (have {have})")
if missing:
    sys.exit("[install] unsatisfied Python dependencies: " + ", ".join(missing))
PY
  touch "$stamp"
fi
log "ready: $(.venv/bin/python -c 'import sdc; print("sdc", sdc.__version__)')"
