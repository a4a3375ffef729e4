"""The README as PyPI shows it (its python blocks run in test_snippets.py)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_links_are_absolute() -> None:
    """PyPI shows the README without the repository beside it: a relative link breaks."""
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)", text) + re.findall(r"^\[[^\]]+\]:\s*(\S+)", text, re.M)
    assert targets, "README.md has no links (the pattern is broken?)"
    relative = [t for t in targets if not re.match(r"https?://|mailto:|#", t)]
    assert relative == []
