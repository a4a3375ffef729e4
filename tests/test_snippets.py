"""Every python block of README.md and docs/*.md runs, in order per page, on both twins.

A page's blocks share one namespace, as a reader who pastes them in turn would have it,
and run in a fresh empty working directory (a block that writes a file writes it there,
and data comes from the sample capture shipped in the package). A block not meant to
run is fenced ``text``, ``console`` or ``sh``; a fence that looks like Python but is
not ``python`` (``py``, ``pycon``, ``python3``) is refused, so nothing is skipped by a
spelling.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: An opening or closing fence at the start of a line, and its info string.
FENCE = re.compile(r"^(`{3,}|~{3,})(.*)$")
#: Info strings that mean Python but would not run here.
NOT_RUN_PYTHON = re.compile(r"(?i)^(py|python3|pycon|ipython|python-console|pytb)\b")


@dataclass
class Block:
    """One fenced block of a page: its language, first line's number and text."""

    language: str
    line: int
    text: str


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of ``page``, in order (a fence closes with the same fence)."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        fence, info = opening.group(1), opening.group(2).strip()
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].rstrip() != fence:
            body.append(lines[j])
            j += 1
        assert j < len(lines), f"{page.name}:{i + 1}: a fence that never closes"
        language = info.split()[0] if info else ""
        found.append(Block(language, i + 2, "\n".join(body) + "\n"))
        i = j + 1
    return found


def python_blocks(page: Path) -> list[Block]:
    return [b for b in blocks(page) if b.language == "python"]


def test_pages_have_python_blocks() -> None:
    """The parser finds the blocks (a broken pattern would make every page pass)."""
    assert len(python_blocks(ROOT / "README.md")) >= 3
    assert sum(len(python_blocks(p)) for p in PAGES) >= 10


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_python_block_is_left_unrun(page: Path) -> None:
    unrun = [
        f"{page.name}:{b.line - 1}: ```{b.language}"
        for b in blocks(page)
        if NOT_RUN_PYTHON.match(b.language)
    ]
    assert unrun == [], "fence it `python` (it runs) or `text` (it does not)"


@pytest.mark.parametrize(
    "page",
    [p for p in PAGES if python_blocks(p)],
    ids=lambda p: p.name,
)
def test_page_runs(page: Path, frames, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Each python block of ``page`` runs, after the ones above it, on ``frames``; a
    ``print(...)  # text`` line prints ``text`` (its start, when ``text`` ends ``...``)."""
    from diverge_frames import notifications, read_resource

    monkeypatch.setattr(notifications, "decode", frames.decode_notification)
    monkeypatch.setattr(notifications, "encode", frames.encode_notification)
    monkeypatch.setattr(read_resource, "decode", frames.decode_read_resource)
    monkeypatch.setattr(read_resource, "encode", frames.encode_read_resource)
    monkeypatch.chdir(tmp_path)
    name = str(page.relative_to(ROOT))
    printed: dict[int, list[str]] = {}

    def recorded(*args: object, sep: str = " ", **kwargs: object) -> None:
        frame = sys._getframe(1)
        if frame.f_code.co_filename == name:
            printed.setdefault(frame.f_lineno, []).append(sep.join(map(str, args)))

    namespace: dict[str, object] = {"__name__": "__main__", "print": recorded}
    for block in python_blocks(page):
        # Line numbers in a traceback are the page's own.
        source = "\n" * (block.line - 1) + block.text
        exec(compile(source, name, "exec"), namespace)
    for line, said in said_prints(page):
        assert line in printed, f"{name}:{line}: the print of ``# {said}`` never ran"
        for text in printed[line]:
            expected = said.removesuffix("...")
            same = text.startswith(expected) if said.endswith("...") else text == said
            assert same, f"{name}:{line}: printed {text!r}, the comment says {said!r}"


#: A line that prints and says, in its comment, what it prints.
PRINT_SAYS = re.compile(r"^\s*print\(.*\)\s+# (.+)$")


def said_prints(page: Path) -> list[tuple[int, str]]:
    """``(line, text)`` of each ``print(...)  # text`` line of ``page``'s python blocks."""
    out = []
    for block in python_blocks(page):
        for k, text in enumerate(block.text.splitlines()):
            match = PRINT_SAYS.match(text)
            if match is not None:
                out.append((block.line + k, match.group(1)))
    return out


def test_pages_say_what_they_print() -> None:
    """The pattern finds the printed comments (a broken one would check nothing)."""
    assert len(said_prints(ROOT / "README.md")) >= 2
    assert len(said_prints(ROOT / "docs" / "index.md")) >= 1
