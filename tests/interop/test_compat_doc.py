"""docs/compatibility.md's comparison table tells the truth about this codec.

The table is written by ``scripts/compat_table.py`` (which needs the rmcp oracle and the
official SDK); here, without either, each row's diverge-frames cell is recomputed from the
code, on both implementations, and must be the one in the document.
"""

from __future__ import annotations

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
