#!/usr/bin/env bash
# The two things a newcomer does, each installing whatever is missing first (idempotent):
#
#   ./quickstart.sh example   install everything, then assess the bundled example dataset
#   ./quickstart.sh test      install everything, then run the test suite
#
# Extra arguments go to the command: ./quickstart.sh example --json, ./quickstart.sh test -k risk.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$root"
what=${1:-}
[ $# -gt 0 ] && shift
case "$what" in
  example)
    scripts/install.sh
    exec .venv/bin/sdc example "$@"
    ;;
  test)
    scripts/install.sh
    export HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci}
    exec .venv/bin/python -m pytest "$@"
    ;;
  *)
    echo "usage: ./quickstart.sh example|test [args...]" >&2
    exit 2
    ;;
esac
