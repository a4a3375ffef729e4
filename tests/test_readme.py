"""The README's Python examples run, against both implementations."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_links_are_absolute() -> None:
    """PyPI shows the README without the repository beside it: a relative link breaks."""
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)", text) + re.findall(r"^\[[^\]]+\]:\s*(\S+)", text, re.M)
    assert targets, "README.md has no links (the pattern is broken?)"
    relative = [t for t in targets if not re.match(r"https?://|mailto:|#", t)]
    assert relative == []


def test_readme_has_python_examples() -> None:
    assert _python_blocks(), "README.md lost its Python examples"


@pytest.mark.parametrize("index", range(len(_python_blocks())))
def test_readme_example_runs(index: int, frames, monkeypatch: pytest.MonkeyPatch) -> None:
    from diverge_frames import notifications, read_resource

    monkeypatch.setattr(notifications, "decode", frames.decode_notification)
    monkeypatch.setattr(notifications, "encode", frames.encode_notification)
    monkeypatch.setattr(read_resource, "decode", frames.decode_read_resource)
    monkeypatch.setattr(read_resource, "encode", frames.encode_read_resource)
    exec(compile(_python_blocks()[index], f"README.md block {index}", "exec"), {})
