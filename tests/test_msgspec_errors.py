"""Every step that maps msgspec's errors maps all of them, whatever msgspec version
``pyproject.toml`` allows: ``DecodeError`` and, before msgspec 0.23, the
``UnicodeDecodeError`` it raises for invalid UTF-8 in a string (``_wire.DECODE_ERRORS``).
``.ci/run`` also runs the suite on the lowest msgspec allowed."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pytest
from helpers import decoder

from diverge_frames import FrameBodyError, _wire
from diverge_frames._exact import rejection

SRC = Path(_wire.__file__).parent
ROOT = Path(__file__).resolve().parents[1]


class _OldDecoder:
    """A decoder as msgspec 0.19-0.22 behaves on invalid UTF-8 in a string."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def decode(self, body: Any) -> Any:
        data = bytes(body)
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            raise UnicodeDecodeError("utf-8", data, 0, 1, "invalid start byte") from None
        return self.real.decode(body)


@pytest.mark.parametrize(
    ("channel", "payload", "names"),
    [
        (
            "notifications",
            b'\x00{"method":"x/y","params":{"a":"\xff"}}',
            ("notification_decoder", "custom_decoder"),
        ),
        ("read-resource", b'\x00{"contents":[{"uri":"\xff","text":"t"}]}', ("result_decoder",)),
        ("notifications", b'\x01{"code":1,"message":"\xff"}', ("error_decoder",)),
    ],
)
def test_unicode_decode_error_of_old_msgspec_is_a_frame_error(
    frames: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    channel: str,
    payload: bytes,
    names: tuple[str, ...],
) -> None:
    """The exact path words rmcp's rejection with msgspec's error: an old msgspec's
    ``UnicodeDecodeError`` there is a FrameBodyError worded as msgspec 0.23 words it."""
    for name in names:
        monkeypatch.setattr(rejection, name, _OldDecoder(getattr(_wire, name)))
    with pytest.raises(FrameBodyError, match="Invalid UTF-8 encoded string") as info:
        decoder(frames, channel)(payload)
    assert info.value.tag == payload[0]


def test_from_exception_words_unicode_errors_as_msgspec_does() -> None:
    error = UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
    assert FrameBodyError.from_exception(0, "ErrorData", error).reason == (
        "Invalid UTF-8 encoded string"
    )
    with pytest.raises(_wire.DECODE_ERRORS) as info:  # whichever this msgspec raises
        msgspec.json.decode(b'"\xff"')
    reason = FrameBodyError.from_exception(0, "ErrorData", info.value).reason
    assert reason.startswith("Invalid UTF-8 encoded string")


def _names(node: ast.expr) -> set[str]:
    return {
        n.attr if isinstance(n, ast.Attribute) else n.id
        for n in ast.walk(node)
        if isinstance(n, ast.Attribute | ast.Name)
    }


@pytest.mark.parametrize(
    "path", sorted(SRC.glob("*.py")) + sorted(SRC.glob("*.pyx")), ids=lambda p: p.name
)
def test_no_handler_catches_part_of_msgspecs_errors(path: Path) -> None:
    """No ``except`` names ``DecodeError`` (or ``UnicodeDecodeError`` with it) by itself:
    each catches ``DECODE_ERRORS`` (``ValidationError`` alone is a type mismatch, which
    every version raises the same way)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".pyx":
        handlers = re.findall(r"except\s+\(?([^:]*?)\)?(?:\s+as\s+\w+)?:", text)
        assert not [h for h in handlers if re.search(r"\bDecodeError\b|msgspec\.DecodeError", h)]
        assert "msgspec.DecodeError" not in text.replace("w.DECODE_ERRORS", "")
        return
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ExceptHandler) and node.type is not None:
            assert "DecodeError" not in _names(node.type), f"{path.name}:{node.lineno}"


def test_ci_runs_the_lowest_msgspec_allowed() -> None:
    """``.ci/run`` installs ``msgspec==<floor>``, the floor read from ``pyproject.toml``
    with the same pattern as here, and runs the suite with it."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.findall(r'"msgspec>=([0-9.]+)"', pyproject), "one msgspec floor in pyproject"
    if not (ROOT / ".ci" / "run").exists():
        pytest.skip("no .ci/run here (an unpacked sdist)")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert """sed -n 's/.*"msgspec>=\\([0-9.]*\\)".*/\\1/p' pyproject.toml""" in ci
    assert '"msgspec==$floor"' in ci and ".venv-msgspec-floor/bin/python -m pytest" in ci
