#!/usr/bin/env bash
# The compiled extension and msgspec built with AddressSanitizer and UBSan, then, under
# them, the test suite and a bounded loop of random and mutated payloads through both
# channels (fuzz/random_inputs.py). Any sanitizer report fails: a report stops the
# process (UBSan's halt_on_error=1; ASan always stops), and the log is searched for a
# report as well, so one in a subprocess whose exit a test tolerated fails too.
#
# The CPython here is not built with ASan, so the runtime is preloaded (LD_PRELOAD of
# `$CC -print-file-name=libasan.so`), leak detection is off (CPython's own allocations
# at exit would be reported) and PYTHONMALLOC=malloc gives every object its own block. Reports are allowed only as scripts/ubsan.supp lists them:
# one, msgspec's (signed overflow negating -9223372036854775808 in its _core.c), not ours.
#
# Usage: bash scripts/check_sanitizers.sh [pytest arguments, default: the whole suite,
# the heavy tests left out]
# Environment: PYTHON (default python3), CC (default gcc; clang works too),
# SANITIZE_INPUTS / SANITIZE_SECONDS (random inputs at most / seconds at most for the
# loop, default 100000 / 60), KEEP_WORK=1 keeps the temp dir with the logs.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
export CC=${CC:-gcc}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/diverge-frames-sanitize.XXXXXX")
cleanup() {
  if [[ -n "${KEEP_WORK:-}" ]]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
fail() { printf '\ncheck_sanitizers: FAILED: %s\n' "$*" >&2; exit 1; }
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

SANITIZE="-fsanitize=address,undefined"
LIBASAN=$("$CC" -print-file-name=libasan.so)
[[ -f "$LIBASAN" ]] || fail "$CC has no libasan.so ($LIBASAN)"

echo "-- build: diverge-frames and msgspec (from its sdist) with $SANITIZE, by $CC"
"$PYTHON" -m venv "$WORK/venv"
V=$WORK/venv/bin
export CFLAGS="$SANITIZE -fno-omit-frame-pointer -g -O1" LDFLAGS="$SANITIZE"
# msgspec first, the version the package would get, with --no-cache-dir: neither take a
# wheel built without the sanitizers from pip's cache nor leave an instrumented one there.
MSGSPEC=$("$V/pip" install -q --dry-run --report - . 2>/dev/null | "$V/python" -c '
import json, sys
print(next(i["metadata"]["version"] for i in json.load(sys.stdin)["install"]
           if i["metadata"]["name"] == "msgspec"))')
{
  "$V/pip" install --no-cache-dir --no-binary msgspec "msgspec==$MSGSPEC" &&
    DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1 "$V/pip" install ".[test]"
} >"$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log"; fail "the instrumented build"; }
unset CFLAGS LDFLAGS
# (not imported to find them: importing an instrumented module needs the preload)
SITE=$("$V/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
for so in "$SITE"/diverge_frames/_frames_c.*.so "$SITE"/diverge_frames/_channel_c.*.so \
  "$SITE"/msgspec/_core.*.so; do
  [[ -f "$so" ]] || fail "no compiled module: $so"
  [[ "$(ldd "$so")" == *libasan* ]] || fail "not built with ASan: $so"
  echo "${so#"$SITE"/}: built with ASan"
done

export ASAN_OPTIONS=detect_leaks=0
# Every Python object from malloc, not from pymalloc's arenas, in which ASan sees no
# bounds: a read past a bytes object's end is then a heap-buffer-overflow report.
export PYTHONMALLOC=malloc
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$PWD/scripts/ubsan.supp"
export DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1
# Without the live oracle: its differential tests (20,000 cases and 50,000 mutants in
# CI's plain run) check agreement with rmcp, not code paths the rest of the suite and the
# random payloads miss, and under the sanitizers each case costs far more (in a whole
# .ci/run here, 2,000 cases and 50,000 mutants made this step 20.7 minutes, against 6-8
# without them).
unset DIVERGE_FRAMES_ORACLE
# sanitized NAME COMMAND...: run under the preloaded runtime; fail on a non-zero exit or
# on any report in the log.
sanitized() {
  local name=$1
  shift
  local log=$WORK/$name.log status=0
  LD_PRELOAD=$LIBASAN "$@" >"$log" 2>&1 || status=$?
  if grep -qE 'runtime error:|ERROR: AddressSanitizer|Sanitizer:DEADLYSIGNAL|SUMMARY: (Address|UndefinedBehavior)Sanitizer' "$log"; then
    grep -m1 -A30 -E 'runtime error:|ERROR: AddressSanitizer|Sanitizer:DEADLYSIGNAL' "$log" >&2
    fail "$name: a sanitizer report (log: $log; KEEP_WORK=1 keeps it)"
  fi
  ((status == 0)) || { tail -30 "$log" >&2; fail "$name: exit status $status"; }
  tail -1 "$log"
}

echo "-- the C tests (tests/c/*.c, by their pytest files) built with $SANITIZE"
# Each header's functions against their references, default and -DDF_SCALAR: the string
# loops' AVX-512, AVX2, SSE2 and SWAR (as far as this CPU has them), the scanners, and
# serde_json's numbers. The tests compile them with $CC, here the sanitizing compiler; a
# report makes a program exit non-zero (-fno-sanitize-recover), which fails its test.
C_TESTS=(tests/test_scan_c.py tests/test_serde_json_c.py)
CC="$CC $SANITIZE -fno-sanitize-recover=all -fno-omit-frame-pointer -g" \
  sanitized c-tests "$V/python" -m pytest -q -p no:cacheprovider -m "" "${C_TESTS[@]}"

echo "-- the tests, under ASan and UBSan"
# --capture=sys leaves the real stderr (fd 2) to the sanitizers, so a report that stops
# the process is in the log, not lost with pytest's capture. test_no_leaks measures
# resident memory, which ASan's quarantine (freed blocks held back) makes grow.
# (The C tests ran above, instrumented.) The heavy tests (big sizes, slow
# parametrizations) are left out here: with them the sanitized suite ran past 30 minutes
# in a whole .ci/run. So is the pure twin (--extensions-only): its code is Python, and
# the msgspec it calls is the one the compiled twin calls too. pytest-xdist's workers
# take the tests one at a time from each other's queues (--dist worksteal): with the
# default split one of two workers sat idle for 20 minutes in a whole .ci/run under load.
# Nor the end-to-end tests (tests/e2e): real MCP servers as child processes, each a
# Python under the preloaded runtime, past their timeouts on a loaded machine; the C
# they reach is the C the rest of the suite reaches.
sanitized tests "$V/python" -m pytest -q -p no:cacheprovider --capture=sys \
  -n "${SANITIZE_WORKERS:-auto}" --dist worksteal --extensions-only \
  --deselect "tests/test_lifetimes.py::test_no_leaks" --ignore=tests/e2e \
  --ignore=tests/test_scan_c.py --ignore=tests/test_serde_json_c.py "$@"

echo "-- random and mutated payloads, both channels, under ASan and UBSan"
sanitized random-inputs "$V/python" fuzz/random_inputs.py \
  --count "${SANITIZE_INPUTS:-100000}" --seconds "${SANITIZE_SECONDS:-60}"
echo "check_sanitizers: no report"
