#!/usr/bin/env bash
# Lint and type checks, with the tools pinned in scripts/requirements-static.txt:
#   ruff check; ruff format --check; cython-lint on the .pyx files and the .pxi the
#   frames one includes; mypy (strict, on the package with the stub of its compiled
#   module, on tests/typing_sample.py and on tests/typing_mcp_sample.py, the bridge's,
#   with the MCP SDK installed); pyright --verifytypes on the installed
#   package (every public symbol's type known: 100%, or it fails) and pyright on the
#   typed sample (pyright's PyPI package fetches its node program on first use, and
#   needs node).
# Settings: [tool.ruff], [tool.cython-lint] and [tool.mypy] in pyproject.toml.
#
# Needs python3 (3.10+) and PyPI; the tools and the package's dependencies (for mypy)
# go into a venv in a temp dir. Runs every check and reports each; exits 1 if any failed.
# Usage: bash scripts/check_static.sh
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
PYTHON=${PYTHON:-python3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/diverge-frames-static.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 NO_COLOR=1

"$PYTHON" -m venv "$WORK/venv" || exit 1
T=$WORK/venv/bin
# msgspec (the package's one dependency) and the MCP Python SDK (the [mcp] extra), for
# mypy to follow: the bridge's types (diverge_frames.mcp, tests/typing_mcp_sample.py)
# are the SDK's classes, which mypy must know to check them. That the package needs no
# optional package is the suite's to show (it imports without mcp: test_public_api).
"$T/python" -m pip install -q -r scripts/requirements-static.txt "msgspec>=0.19" "mcp>=2" || exit 1
export PATH="$T:$PATH"  # cython-lint runs pycodestyle

failed=()
check() {
  printf '\n== %s\n' "$*"
  "$@" || failed+=("$*")
}
check ruff --version
check ruff check .
check ruff format --check .
check cython-lint src/diverge_frames/_frames_c.pyx src/diverge_frames/_channel_c.pyx \
  src/diverge_frames/_check_plans.pxi src/diverge_frames/_public.pxi \
  src/diverge_frames/_strings.pxi src/diverge_frames/_precheck.pxi \
  src/diverge_frames/_items.pxi \
  src/diverge_frames/_encode.pxi
check mypy --version
check mypy --cache-dir "$WORK/mypy-cache"
check pyright --version
# The package itself with its [mcp] extra, not editable (pyright follows no editable
# install); pure Python is enough for types (the compiled module has its stub).
check env DIVERGE_FRAMES_NO_EXTENSIONS=1 "$T/python" -m pip install -q ".[mcp]"
# From outside the tree, so that pyright reads the installed package, not src/.
verifytypes() { (cd "$WORK" && VIRTUAL_ENV="$WORK/venv" pyright --verifytypes diverge_frames --ignoreexternal); }
check verifytypes
check env VIRTUAL_ENV="$WORK/venv" pyright tests/typing_sample.py tests/typing_mcp_sample.py

if ((${#failed[@]})); then
  printf '\ncheck_static: FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
printf '\ncheck_static: all passed\n'
