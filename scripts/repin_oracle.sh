#!/usr/bin/env bash
# Re-pin the rmcp oracle to another rmcp (and serde_json) release, rebuild it, regenerate
# the golden vectors from it, and run the differential suite against it.
#
#   bash scripts/repin_oracle.sh RMCP_VERSION [SERDE_JSON_VERSION]
#   bash scripts/repin_oracle.sh 3.1.4            # the version this release matches
#
# Without SERDE_JSON_VERSION, serde_json is pinned to the version cargo resolves for that
# rmcp. Writes interop/rmcp-oracle/{Cargo.toml,Cargo.lock,src/main.rs} and
# tests/vectors/*.jsonl; the differences are then in `git diff`. A codec that disagrees
# with the new rmcp fails the last step (docs/compatibility.md, "Keeping up with rmcp",
# says what to review). Needs cargo (and crates.io, unless the crates are cached:
# CARGO_NET_OFFLINE=true) and a Python with this package and its test extra
# (PYTHON, default .venv/bin/python).
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: bash scripts/repin_oracle.sh RMCP_VERSION [SERDE_JSON_VERSION]"
rmcp=${1:?$usage}
serde_json=${2:-}
semver='^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$'
[[ $rmcp =~ $semver ]] || { echo "$usage: $rmcp is not a version" >&2; exit 2; }
[[ -z $serde_json || $serde_json =~ $semver ]] || { echo "$usage: $serde_json is not a version" >&2; exit 2; }
PYTHON=${PYTHON:-.venv/bin/python}
oracle=interop/rmcp-oracle
manifest=$oracle/Cargo.toml
trap 'echo "repin_oracle: failed; git checkout $oracle tests/vectors undoes it" >&2' ERR

echo "== pin rmcp =$rmcp"
sed -i.bak -E "s/^(rmcp = \{ version = \")=[^\"]+/\1=$rmcp/" "$manifest"
sed -i.bak -E "s/^(const RMCP_VERSION: &str = \")[^\"]+/\1$rmcp/" "$oracle/src/main.rs"
sed -i.bak -E -e "s/^(description = \"Reports what rmcp )[^ ]+/\1$rmcp/" \
  -e "s/^(# The version rmcp )[^ ]+/\1$rmcp/" "$manifest"
rm -f "$manifest.bak" "$oracle/src/main.rs.bak"
if [[ -z $serde_json ]]; then
  # Let cargo pick the serde_json this rmcp resolves to, then pin exactly that.
  sed -i -E 's/^serde_json = "=[^"]+"/serde_json = "1"/' "$manifest"
  cargo update --quiet --manifest-path "$manifest"
  serde_json=$(cargo metadata --format-version 1 --manifest-path "$manifest" |
    "$PYTHON" -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "serde_json"))')
fi
echo "== pin serde_json =$serde_json"
sed -i -E "s/^serde_json = \"[^\"]+\"/serde_json = \"=$serde_json\"/" "$manifest"
cargo update --quiet --manifest-path "$manifest"

echo "== build and check the oracle"
cargo test --quiet --release --manifest-path "$manifest"
cargo build --quiet --release --manifest-path "$manifest"
export DIVERGE_FRAMES_ORACLE="$PWD/$oracle/target/release/rmcp-oracle"
echo "oracle: rmcp $("$DIVERGE_FRAMES_ORACLE" --version), serde_json $serde_json"

echo "== regenerate the golden vectors"
"$PYTHON" scripts/gen_vectors.py

echo "== the differential suite against it (both implementations)"
"$PYTHON" -m pytest -q -p no:cacheprovider tests/interop
