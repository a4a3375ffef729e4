#!/usr/bin/env bash
# The given tests (default: the whole suite) on arm64 (aarch64), on an x86-64 Linux
# machine: a minimal Debian arm64 chroot (debootstrap) run through qemu-user
# (qemu-user-static and binfmt_misc), with the compiled extension built there by the
# chroot's own gcc, so the C of the arm64 wheels (no SSE2: the portable scanners;
# unsigned char) is compiled and run as on an arm64 machine.
#
# Needs root, apt-get, and Debian's and PyPI's packages: qemu-user-static and
# debootstrap on the host (installed when missing), Debian's arm64 archive for the
# chroot (its python3, gcc), and the aarch64 wheels of the build and test requirements
# (fetched on the host with `pip download`, installed in the chroot with --no-index).
# Where one of these is missing (not root, no apt-get, no binfmt_misc, a host that is not
# x86-64, a download that fails) it says why and exits 0: skipped, not passed. A build
# or test failure in the chroot exits 1. It leaves the host as it found it: the chroot
# is deleted, and a binfmt_misc mount or qemu handler it added is removed.
#
# Usage: bash scripts/check_arm64.sh [pytest arguments]
# Environment: ARM64_SUITE (Debian release, default bookworm: python3 3.11),
# KEEP_WORK=1 keeps the chroot (about 600 MB).
set -euo pipefail
cd "$(dirname "$0")/.."
SUITE=${ARM64_SUITE:-bookworm}
skip() { echo "arm64: skipped: $*"; exit 0; }
fail() { printf '\ncheck_arm64: FAILED: %s\n' "$*" >&2; exit 1; }
START=$SECONDS
note() { printf -- '-- [%ds] %s\n' "$((SECONDS - START))" "$*"; }

[[ "$(uname -s)/$(uname -m)" == Linux/x86_64 ]] || skip "the host is $(uname -s)/$(uname -m), not Linux/x86_64"
[[ "$(id -u)" == 0 ]] || skip "needs root (apt-get, debootstrap, chroot, binfmt_misc)"
command -v apt-get >/dev/null 2>&1 || skip "no apt-get for qemu-user-static and debootstrap"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/diverge-frames-arm64.XXXXXX")
ROOT=$WORK/root
MOUNTED_BINFMT="" REGISTERED="" MOUNTED_PROC=""
BINFMT=/proc/sys/fs/binfmt_misc
cleanup() {
  if [[ -n "$MOUNTED_PROC" ]]; then umount "$ROOT/proc" || true; fi
  if [[ -n "$REGISTERED" ]]; then echo -1 >"$BINFMT/qemu-aarch64" || true; fi
  if [[ -n "$MOUNTED_BINFMT" ]]; then umount "$BINFMT" || true; fi
  if [[ -n "${KEEP_WORK:-}" ]]; then
    echo "kept $WORK"
  elif mountpoint -q "$ROOT/proc" 2>/dev/null; then
    echo "check_arm64: $ROOT/proc still mounted: $WORK left in place" >&2
  else
    rm -rf --one-file-system "$WORK"
  fi
}
trap cleanup EXIT

note "qemu-user-static and debootstrap"
if ! command -v debootstrap >/dev/null 2>&1 || [[ ! -e /usr/libexec/qemu-binfmt/aarch64-binfmt-P ]]; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static debootstrap; } \
    >"$WORK/apt.log" 2>&1 || { tail -5 "$WORK/apt.log"; skip "apt-get install qemu-user-static debootstrap failed"; }
fi

note "binfmt_misc: arm64 executables run through qemu-aarch64"
if [[ ! -e "$BINFMT/register" ]]; then
  mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null || skip "binfmt_misc cannot be mounted here"
  MOUNTED_BINFMT=1
fi
if [[ ! -e "$BINFMT/qemu-aarch64" ]]; then
  # the F flag: qemu is opened now, so it runs inside the chroot too
  cat /usr/lib/binfmt.d/qemu-aarch64.conf >"$BINFMT/register" 2>/dev/null ||
    skip "the qemu-aarch64 binfmt handler cannot be registered"
  REGISTERED=1
fi
grep -q '^flags: .*F' "$BINFMT/qemu-aarch64" || skip "the qemu-aarch64 handler lacks the F flag (needed in a chroot)"

note "debootstrap: Debian $SUITE arm64 with python3, python3-venv, python3-dev, gcc"
debootstrap --arch=arm64 --variant=minbase --include=python3,python3-venv,python3-dev,gcc,libc6-dev \
  "$SUITE" "$ROOT" >"$WORK/debootstrap.log" 2>&1 ||
  { tail -5 "$WORK/debootstrap.log"; skip "debootstrap of Debian $SUITE arm64 failed"; }
# /proc in the chroot: the tests read /proc/self/statm (resident memory)
mount -t proc proc "$ROOT/proc" || fail "cannot mount /proc in the chroot"
MOUNTED_PROC=1
in_root() {
  chroot "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
    DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1 "$@"
}
[[ "$(in_root uname -m)" == aarch64 ]] || fail "the chroot does not run as aarch64"
PYVER=$(in_root python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
note "the chroot: $(in_root python3 --version), $(in_root gcc --version | head -1)"

note "aarch64 wheels of the build and test requirements (pip download on the host)"
# From pyproject.toml: [build-system] requires, the dependencies, and pytest, pytest-xdist and
# hypothesis as the test extra pins them (the other test requirements are not needed
# by the core suite).
mapfile -t REQUIREMENTS < <(python3 - <<'PY'
try:
    import tomllib
except ImportError:  # Python 3.10
    from pip._vendor import tomli as tomllib
import re

with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)
test = project["project"]["optional-dependencies"]["test"]
print("\n".join(project["build-system"]["requires"] + project["project"]["dependencies"]))
print("\n".join(r for r in test if re.match(r"(pytest|pytest-xdist|hypothesis)(?![\w-])", r)))
PY
)
((${#REQUIREMENTS[@]} >= 4)) || fail "requirements not read from pyproject.toml: ${REQUIREMENTS[*]}"
python3 -m pip download -q --only-binary :all: --implementation cp --python-version "$PYVER" \
  --platform manylinux_2_28_aarch64 --platform manylinux_2_17_aarch64 --platform manylinux2014_aarch64 \
  -d "$ROOT/wheels" "${REQUIREMENTS[@]}" >"$WORK/download.log" 2>&1 ||
  { tail -5 "$WORK/download.log"; skip "pip download of the aarch64 wheels failed"; }
echo "${REQUIREMENTS[*]}"

note "build the compiled extension in the chroot (its gcc, emulated)"
mkdir "$ROOT/src"
git ls-files -z | tar -cf - --null -T - | tar -xf - -C "$ROOT/src"
in_root /bin/sh -c 'cd /src && python3 -m venv /venv &&
  /venv/bin/pip install -q --disable-pip-version-check \
    --no-index --find-links /wheels . pytest pytest-xdist hypothesis' >"$WORK/build.log" 2>&1 ||
  { tail -30 "$WORK/build.log"; fail "the build in the arm64 chroot"; }
in_root /venv/bin/python -c 'import diverge_frames as d, platform
assert d.IMPLEMENTATION == "cython", d.IMPLEMENTATION
print(platform.machine(), "implementation:", d.IMPLEMENTATION)'

note "the tests in the chroot (emulated)"
in_root /bin/sh -c 'cd /src && exec /venv/bin/python -m pytest -q -p no:cacheprovider "$@"' \
  sh "$@" >"$WORK/tests.log" 2>&1 || { tail -60 "$WORK/tests.log"; fail "the tests on arm64"; }
tail -1 "$WORK/tests.log"
note "check_arm64: passed"
