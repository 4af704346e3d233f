#!/usr/bin/env bash
# The two things a newcomer does, each installing whatever is missing first (idempotent):
#
#   ./quickstart.sh example   install everything, then assess the bundled example dataset
#                             (sdc assess: writes the report folder ./sdc-report)
#   ./quickstart.sh test      install everything (with chromium, for the HTML report test), then
#                             run the test suite
#
# Extra arguments go to the command: ./quickstart.sh example --out DIR, ./quickstart.sh test -k risk.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$root"
what=${1:-}
[ $# -gt 0 ] && shift
case "$what" in
  example)
    scripts/install.sh
    exec .venv/bin/sdc assess "$@"
    ;;
  test)
    scripts/install.sh --with-browser
    export HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci}
    exec .venv/bin/python -m pytest "$@"
    ;;
  *)
    echo "usage: ./quickstart.sh example|test [args...]" >&2
    exit 2
    ;;
esac
