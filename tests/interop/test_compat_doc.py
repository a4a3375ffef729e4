"""docs/compatibility.md's comparison table tells the truth about this codec.

The table is written by ``scripts/compat_table.py`` (which needs the rmcp oracle and the
official SDK); here, without either, each row's diverge-frames cell is recomputed from the
code, on both implementations, and must be the one in the document.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import compat_table  # noqa: E402


def test_diverge_frames_column_is_current() -> None:
    doc = compat_table.DOC.read_text(encoding="utf-8")
    block = doc[doc.index(compat_table.BEGIN) : doc.index(compat_table.END)]
    lines = [line for line in block.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(lines) == len(compat_table.ROWS), (
        "rows added or removed: run scripts/compat_table.py"
    )
    for index, (row, line) in enumerate(zip(compat_table.ROWS, lines, strict=True), 1):
        assert line.startswith(f"| {index} | {row.shape} "), (index, line[:80])
        cells = line.split(" | ")
        assert cells[-2] == compat_table.ours_cell(row), (row.shape, cells[-2])


def _oracle_pins() -> tuple[str, str]:
    """(rmcp, serde_json) as interop/rmcp-oracle pins them."""
    main_rs = (ROOT / "interop" / "rmcp-oracle" / "src" / "main.rs").read_text(encoding="utf-8")
    manifest = (ROOT / "interop" / "rmcp-oracle" / "Cargo.toml").read_text(encoding="utf-8")
    rmcp = re.search(r'^const RMCP_VERSION: &str = "([^"]+)";', main_rs, re.M)
    serde_json = re.search(r'^serde_json = "=([^"]+)"', manifest, re.M)
    assert rmcp and serde_json, "the pins scripts/repin_oracle.sh rewrites are not there"
    assert re.search(rf'^rmcp = \{{ version = "={re.escape(rmcp[1])}"', manifest, re.M)
    return rmcp[1], serde_json[1]


def test_docs_name_the_rmcp_the_oracle_pins() -> None:
    rmcp, serde_json = _oracle_pins()
    doc = compat_table.DOC.read_text(encoding="utf-8")
    assert f"This release matches **rmcp {rmcp}** with **serde_json {serde_json}**" in doc
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"This release matches rmcp {rmcp} (serde_json {serde_json})" in readme


def test_repin_script_finds_what_it_rewrites() -> None:
    """Each line ``scripts/repin_oracle.sh`` rewrites (its sed patterns, in Python) is in
    the oracle's manifest once, and the script parses."""
    manifest = (ROOT / "interop" / "rmcp-oracle" / "Cargo.toml").read_text(encoding="utf-8")
    for pattern in (
        r'^rmcp = \{ version = "=',
        r'^serde_json = "=',
        r'^description = "Reports what rmcp ',
        r"^# The version rmcp ",
    ):
        assert len(re.findall(pattern, manifest, re.M)) == 1, pattern
    script = ROOT / "scripts" / "repin_oracle.sh"
    assert subprocess.run(["bash", "-n", str(script)], check=False).returncode == 0
