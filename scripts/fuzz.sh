#!/usr/bin/env bash
# Run every atheris fuzz target for N seconds each (default 60):
#   scripts/fuzz.sh [SECONDS]
# Targets: fuzz/fuzz_notifications.py and fuzz/fuzz_read_resource.py, each once with
# DIVERGE_FRAMES_FUZZ_IMPL=cython and once with =python (4 runs, one after another).
# Each starts from the committed corpus fuzz/corpus/<channel>/ and writes what it finds
# to a scratch folder, so the committed corpus is left alone.
# Environment: PYTHON (default: python), FUZZ_WORK (scratch folder, default: a new
# temporary one; new inputs land in $FUZZ_WORK/<channel>-<impl>/, crashes and hangs in
# $FUZZ_WORK/artifacts/), FUZZ_IMPLS (default: "cython python"), FUZZ_LD_PRELOAD
# (preloaded into the fuzzer process only: atheris's asan_with_fuzzer.so when msgspec and
# the compiled module are built with clang -fsanitize=address,fuzzer-no-link, see
# fuzz/README.md).
# Exit status: 0 when every run ends without a finding, 1 otherwise; 2 when nothing ran
# (atheris not installed for $PYTHON, or a bad SECONDS), with one line saying why.
set -u
seconds="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || ((seconds < 1)); then
    echo "scripts/fuzz.sh: SECONDS must be a whole number of at least 1, not '$seconds'" >&2
    exit 2
fi
if ! "$python" -c "import atheris" >/dev/null 2>&1; then
    echo "scripts/fuzz.sh: atheris is not installed for $python (pip install atheris; see fuzz/README.md): nothing fuzzed" >&2
    exit 2
fi
work="${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/diverge-frames-fuzz.XXXXXX")}"
mkdir -p "$work/artifacts"
status=0
# The harness shares its case shapes with the tests (tests/json_shapes.py).
export PYTHONPATH="$root/tests${PYTHONPATH:+:$PYTHONPATH}"
for channel in notifications read_resource; do
    for impl in ${FUZZ_IMPLS:-cython python}; do
        out="$work/$channel-$impl"
        mkdir -p "$out"
        echo "== fuzz $channel ($impl) for ${seconds}s; log: $out.log"
        if ! LD_PRELOAD="${FUZZ_LD_PRELOAD:-${LD_PRELOAD:-}}" DIVERGE_FRAMES_FUZZ_IMPL="$impl" "$python" "$root/fuzz/fuzz_$channel.py" \
            "$out" "$root/fuzz/corpus/$channel" \
            -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
            -print_final_stats=1 -artifact_prefix="$work/artifacts/$channel-$impl-" \
            >"$out.log" 2>&1; then
            status=1
            echo "!! finding: see $out.log and $work/artifacts/"
            tail -n 30 "$out.log"
        fi
        grep -E '^stat::number_of_executed_units|^Done ' "$out.log" || true
    done
done
exit "$status"
