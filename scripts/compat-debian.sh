#!/usr/bin/env bash
# Run the test suite on a newer Debian's Python stack, from Debian packages only (no PyPI), in a
# debootstrap chroot kept in a cache folder outside the repository.
#
#   scripts/compat-debian.sh trixie [--worktree] [pytest args...]
#       Debian 13: Python 3.13, numpy 2.2, pandas 2.2, scipy 1.15, statsmodels 0.14, rpy2 3.5,
#       with R and sdcMicro (CRAN): the cross-validation is required (SDC_REQUIRE_SDCMICRO=1).
#   scripts/compat-debian.sh sid [--worktree] [pytest args...]
#       unstable with numpy and pandas from experimental (pandas 3, Python 3.14), R 4.6 and
#       rpy2 3.6 with sdcMicro (CRAN): the cross-validation is required; then the sdcMicro tests
#       once more with rpy2 made unimportable, where they must skip (a machine without R).
#
# Run as root on Debian 12. The first run builds the chroot (debootstrap --variant=minbase) at
# $SDC_COMPAT_CACHE/SUITE (default /var/cache/sdc-compat/SUITE); later runs reuse it, and
# scripts/install.sh, run inside it, finds everything installed. Each run clones the committed
# tree (HEAD) afresh into the chroot; --worktree also copies the uncommitted changes and
# untracked files over it. It prints the versions, runs pytest, then builds the wheel, installs it with pip (offline) into a
# fresh venv and runs `sdc assess` on the bundled example from outside the tree.
# A changed package list (scripts/install.sh --print-packages), mirror or pin rebuilds the chroot
# from scratch. Everything is mounted inside a private mount namespace (unshare --mount), so
# nothing stays mounted when the script ends, whatever way it ends. The browser tests skip in
# the chroot (no chromium there). Exit status: pytest's, or 1 when only the wheel check failed.
#
# Environment: SDC_COMPAT_CACHE (cache folder), SDC_COMPAT_MIRROR (Debian mirror; default: the
# one in this machine's apt sources), SDC_CRAN (CRAN mirror, passed to scripts/install.sh).
set -euo pipefail

log() { printf '[compat %s] %s\n' "${suite:-?}" "$*" >&2; }
usage() { echo "usage: scripts/compat-debian.sh trixie|sid [--worktree] [pytest args...]" >&2; exit 2; }

[ $# -ge 1 ] || usage
suite=$1
shift
case "$suite" in trixie | sid) ;; *) usage ;; esac
worktree=()
if [ "${1:-}" = --worktree ]; then worktree=(--worktree); shift; fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ "$(id -u)" = 0 ] || { log "run as root (debootstrap, chroot and mounts need it)"; exit 1; }

# Re-run inside a private mount namespace: every mount below disappears with it.
if [ -z "${SDC_COMPAT_IN_NS:-}" ]; then
  export SDC_COMPAT_IN_NS=1
  exec unshare --mount --propagation private "$BASH" "${BASH_SOURCE[0]}" "$suite" "${worktree[@]}" "$@"
fi

start=$SECONDS
cache=${SDC_COMPAT_CACHE:-/var/cache/sdc-compat}
dir=$cache/$suite
mkdir -p "$cache"
exec 9>"$cache/$suite.lock"
flock 9  # one run per suite at a time

# The Debian mirror of this machine's apt sources (deb822 .sources or one-line .list files).
host_mirror() {
  local codename
  codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v want="$codename" '
      function flush() { if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " want " ") && uris != "") {
                           split(uris, u, " "); print u[1]; found = 1; exit } types = suites = uris = "" }
      /^[ \t]*$/ { flush(); next }
      /^Types:/  { sub(/^Types:[ \t]*/, "");  types = $0 }
      /^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
      /^URIs:/   { sub(/^URIs:[ \t]*/, "");   uris = $0 }
      END { if (!found) flush() }' "$f"
  done
  { cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true; } |
    awk -v want="$codename" '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i ~ /:\/\//) { if ($(i+1) == want) print $i; break } }'
}
mirror=${SDC_COMPAT_MIRROR:-$(host_mirror | head -n 1 || true)}
[ -n "$mirror" ] || { log "no Debian mirror found in /etc/apt/sources.list.d (set SDC_COMPAT_MIRROR)"; exit 1; }

# --- 1. the tree to test: the committed one (HEAD), cloned afresh ------------------------------
src=$cache/$suite.src
rm -rf "$src"
git clone -q --depth 1 "file://$root" "$src"
if [ ${#worktree[@]} -gt 0 ]; then
  # Uncommitted changes on top of HEAD: deleted files removed, changed and untracked ones copied.
  while IFS= read -r -d '' f; do rm -f "$src/$f"; done < <(git -C "$root" ls-files -z --deleted)
  git -C "$root" ls-files -z --modified --others --exclude-standard |
    (cd "$root" && while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done) |
    tar -C "$root" --null -T - -cf - | tar -C "$src" -xf -
  log "testing HEAD $(git -C "$root" rev-parse --short HEAD) with the working tree's changes"
else
  log "testing HEAD $(git -C "$root" rev-parse --short HEAD) (committed tree)"
fi

# --- 2. the chroot: built once, rebuilt when what goes into it changes ---------------------------
# apt: the mirror; sid's and experimental's Release files carry an expired Valid-Until date.
sources="deb $mirror $suite main"
[ "$suite" = sid ] && sources+=$'\n'"deb $mirror experimental main"
aptconf='Acquire::Check-Valid-Until "false";
Acquire::Languages "none";
APT::Install-Recommends "false";
Acquire::Retries "3";'
pins=""
# sid: numpy and pandas from experimental (pandas 3); everything else from sid.
[ "$suite" = sid ] && pins='Package: python3-numpy python3-numpy-dev python3-pandas python3-pandas-lib
Pin: release a=experimental
Pin-Priority: 990'
# The packages scripts/install.sh installs. A changed list (or mirror, or pins) rebuilds the chroot
# from scratch, so it never keeps a package the list dropped.
packages=$(bash "$src/scripts/install.sh" --print-packages)
want=$(printf '%s\n' "$suite" "$mirror" "$sources" "$pins" "$packages" | sha256sum | cut -c1-16)
if [ ! -f "$dir/.sdc-compat-bootstrapped" ] || [ "$(cat "$dir/.sdc-compat-bootstrapped")" != "$want" ]; then
  command -v debootstrap >/dev/null || {
    log "installing debootstrap"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  }
  t0=$SECONDS
  [ -d "$dir" ] && log "the package list, mirror or pins changed: rebuilding the chroot"
  log "building the $suite chroot at $dir from $mirror (debootstrap)"
  rm -rf "$dir"
  debootstrap --variant=minbase "$suite" "$dir" "$mirror" >"$cache/$suite.debootstrap.log" 2>&1 || {
    tail -n 20 "$cache/$suite.debootstrap.log" >&2; log "debootstrap failed (log: $cache/$suite.debootstrap.log)"; exit 1; }
  printf '%s\n' "$sources" >"$dir/etc/apt/sources.list"
  [ -n "$pins" ] && printf '%s\n' "$pins" >"$dir/etc/apt/preferences.d/90sdc-compat"
  echo "$want" >"$dir/.sdc-compat-bootstrapped"
  log "chroot built in $((SECONDS - t0)) s"
fi
printf '%s\n' "$aptconf" >"$dir/etc/apt/apt.conf.d/90sdc-compat"
cp /etc/resolv.conf "$dir/etc/resolv.conf"
# CRAN over https needs this machine's CA certificates (an egress proxy may sign with its own).
mkdir -p "$dir/usr/local/share/ca-certificates"
cp /usr/local/share/ca-certificates/*.crt "$dir/usr/local/share/ca-certificates/" 2>/dev/null || true
rm -rf "$dir/root/sdc"
mv "$src" "$dir/root/sdc"

mount -t proc proc "$dir/proc"
mount --rbind /dev "$dir/dev"
mount --rbind /sys "$dir/sys"
mount -t tmpfs -o size=8g tmpfs "$dir/tmp"
in_chroot() {
  chroot "$dir" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
if ! in_chroot dpkg-query -W -f='${Status}' ca-certificates 2>/dev/null | grep -q "install ok installed"; then
  in_chroot apt-get update -qq
  in_chroot apt-get install -y -qq ca-certificates >/dev/null
fi
in_chroot update-ca-certificates >/dev/null 2>&1

# The packages (only the missing ones), sdcMicro from CRAN, the venv with sdc.
t0=$SECONDS
in_chroot ${SDC_CRAN:+SDC_CRAN="$SDC_CRAN"} /bin/bash -c 'cd /root/sdc && scripts/install.sh'
log "set up in $((SECONDS - t0)) s"

# --- 3. versions, then the suite ----------------------------------------------------------------
stack=$(in_chroot /root/sdc/.venv/bin/python - <<'PY'
import importlib.metadata as md, platform, subprocess
def v(name):
    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return "-"
debian = open("/etc/debian_version").read().strip()
names = ["numpy", "pandas", "scipy", "statsmodels", "matplotlib", "rpy2", "pytest", "hypothesis"]
line = [f"Debian {debian}", f"Python {platform.python_version()}"] + [f"{n} {v(n)}" for n in names]
try:
    r = subprocess.run(["Rscript", "-e", 'cat(R.version$major, R.version$minor, sep = "."); '
                        'cat("", tryCatch(as.character(packageVersion("sdcMicro")), error = function(e) "-"))'],
                       capture_output=True, text=True, check=True).stdout.split()
    line += [f"R {r[0]}", f"sdcMicro {r[1]}"]
except (OSError, subprocess.CalledProcessError):
    line += ["no R"]
print(", ".join(line))
PY
)
log "stack: $stack"

t0=$SECONDS
status=0
# The docs' blocks run on this machine's suite (tests/project/test_docs_run.py, about 9 minutes with its
# wheel build): the same text on another stack adds little, and the wheel is checked below.
# SDC_COMPAT_DOCS=1 runs them here too.
docs=(--deselect tests/project/test_docs_run.py)
[ "${SDC_COMPAT_DOCS:-}" = 1 ] && docs=()
# The breadth of the random cases (tests/scale.py): a quarter of them and of hypothesis' examples
# (unless SDC_TEST_SCALE is given: 1 runs the whole breadth). Every comparison still runs.
breadth=(SDC_TEST_SCALE="${SDC_TEST_SCALE:-0.25}" HYPOTHESIS_PROFILE=ci)
in_chroot SDC_REQUIRE_SDCMICRO=1 "${breadth[@]}" /bin/bash -c 'cd /root/sdc && exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"' \
  pytest "${docs[@]}" "$@" || status=$?
log "pytest exit status $status in $((SECONDS - t0)) s"

# sid: a machine without R, as far as Python sees (rpy2 cannot be imported): every sdcMicro test
# must skip with its reason, and every test module must still load. Exit 5: none selected (-k).
if [ "$suite" = sid ]; then
  t0=$SECONDS
  mkdir -p "$dir/tmp/no-r"
  printf 'import sys\nsys.modules["rpy2"] = None  # import rpy2 fails, as without R\n' >"$dir/tmp/no-r/sitecustomize.py"
  no_r=0
  in_chroot PYTHONPATH=/tmp/no-r "${breadth[@]}" /bin/bash -c \
    'set -o pipefail; cd /root/sdc && .venv/bin/python -m pytest -q -p no:cacheprovider -m sdcmicro -rs "$@" | tail -n 3' \
    pytest "$@" || no_r=$?
  in_chroot PYTHONPATH=/tmp/no-r /root/sdc/.venv/bin/python -c 'import sys; from sdc._rbridge import bridge; sys.exit(bridge().is_available())' || no_r=1
  log "without R (rpy2 not importable): sdcMicro tests $([ $no_r = 0 ] || [ $no_r = 5 ] && echo skipped || echo "FAILED (exit $no_r)") in $((SECONDS - t0)) s"
  [ $no_r = 0 ] || [ $no_r = 5 ] || [ $status != 0 ] || status=1
fi

# --- 4. the wheel: built, installed with pip into a fresh venv (offline: the dependencies must be
# satisfied by the Debian packages, within pyproject.toml's ranges), used from outside the tree --
t0=$SECONDS
wheel=ok
cat >"$dir/tmp/sdc-wheel-check.sh" <<'SH'
set -euo pipefail
cd /root/sdc
.venv/bin/python -m pip wheel --quiet --no-deps --no-build-isolation -w /tmp/wheel . >/dev/null
python3 -m venv --system-site-packages /tmp/wheel-venv
# --no-deps, then sdc's own requirements checked against what is installed: pip's resolver would
# also demand the requirements of the Debian packages themselves (sid's statsmodels names
# formulaic, which Debian does not package).
/tmp/wheel-venv/bin/pip install --quiet --no-index --no-deps /tmp/wheel/sdc_microdata-*.whl
/tmp/wheel-venv/bin/python - <<'PY'
import importlib.metadata as md, sys
from packaging.requirements import Requirement
bad = []
for text in md.requires("sdc-microdata") or []:
    req = Requirement(text)
    if req.marker is not None and not req.marker.evaluate({"extra": ""}):
        continue  # an extra
    try:
        have = md.version(req.name)
    except md.PackageNotFoundError:
        bad.append(f"{req} (not installed)")
        continue
    if not req.specifier.contains(have, prereleases=True):
        bad.append(f"{req} (have {have})")
sys.exit("unsatisfied: " + ", ".join(bad) if bad else 0)
PY
cd /tmp
/tmp/wheel-venv/bin/sdc assess --out /tmp/wheel-report >/tmp/wheel-assess.log 2>&1 || {
  tail -n 20 /tmp/wheel-assess.log >&2; exit 1; }
test -s /tmp/wheel-report/report.html
SH
in_chroot /bin/bash /tmp/sdc-wheel-check.sh || wheel=FAILED
log "wheel: pip install + sdc assess on the bundled example: $wheel in $((SECONDS - t0)) s"
[ $wheel = ok ] || [ $status != 0 ] || status=1

log "$([ $status = 0 ] && echo passed || echo FAILED) on $stack; total $((SECONDS - start)) s"
exit $status
