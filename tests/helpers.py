"""Helpers the tests share: a channel's functions in a hot-path module, a decode's
outcome, the comparison of two outcomes (and of one with the reference reading's), and
each twin (the hot path's and the channel classes'). (Fixtures are in ``conftest.py``.)"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from diverge_frames import _channel_py, _frames_py
from diverge_frames._exact import rmcp_read
from diverge_frames._exact.rmcp_structs import EXPECT_RESULT
from diverge_frames.errors import FrameError

try:
    from diverge_frames import _frames_c
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None
try:
    from diverge_frames import _channel_c
except ImportError:  # pragma: no cover - pure-Python install
    _channel_c = None

#: Set DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1 (CI does) to fail rather than skip when the
#: compiled module is missing.
REQUIRE_EXTENSIONS = bool(os.environ.get("DIVERGE_FRAMES_REQUIRE_EXTENSIONS"))
#: Set by ``pytest --no-extensions`` (conftest.py): the pure-Python twin alone.
NO_EXTENSIONS = False

#: The two channels, as the capture format and the CLI spell them.
CHANNELS = ("notifications", "read-resource")

_FUNCTIONS = {
    "notifications": ("decode_notification", "encode_notification"),
    "read-resource": ("decode_read_resource", "encode_read_resource"),
}


def decoder(frames: ModuleType, channel: str) -> Callable[[Any], Any]:
    """The decode function of ``channel`` (``"notifications"``, ``"read-resource"``;
    ``"read_resource"`` too) in the hot-path module ``frames``."""
    return getattr(frames, _FUNCTIONS[channel.replace("_", "-")][0])  # type: ignore[no-any-return]


def encoder(frames: ModuleType, channel: str) -> Callable[[Any], bytes]:
    """The encode function of ``channel`` in the hot-path module ``frames``."""
    return getattr(frames, _FUNCTIONS[channel.replace("_", "-")][1])  # type: ignore[no-any-return]


def outcome(decode: Callable[[Any], Any], payload: Any) -> Any:
    """The decoded value, or the FrameError raised; anything else propagates."""
    try:
        return decode(payload)
    except FrameError as exc:
        return exc


def same(a: Any, b: Any, messages: bool = True) -> bool:
    """Same value (and type), or the same error class (and message, unless
    ``messages`` is false)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, FrameError):
        return not messages or str(a) == str(b)
    return bool(a == b)


def said(value: Any) -> str:
    """A value by its ``repr`` (``-0.0`` is not ``0.0``), an error by class and message."""
    if isinstance(value, FrameError):
        return f"{type(value).__name__}: {value}"
    return repr(value)


def check_as_reference(frames: ModuleType, tag: int, expected: int, body: bytes) -> None:
    """``frames`` decodes ``body`` behind ``tag`` as the reference reading reads it
    (``rmcp_read.read_exactly``): the same value, or the same error and message. A
    ``ReadResourceResult`` (``expected``) on the read-resource channel, else on the
    notification channel."""
    try:
        want = said(rmcp_read.read_exactly(body, tag, expected))
    except FrameError as exc:
        want = said(exc)
    channel = "read-resource" if expected == EXPECT_RESULT else "notifications"
    got = said(outcome(decoder(frames, channel), bytes((tag,)) + body))
    assert got == want, body[:300]


def compiled() -> ModuleType:
    """The compiled twin, ``_frames_c``; skips the test when it is not in use (fails it
    under ``DIVERGE_FRAMES_REQUIRE_EXTENSIONS`` when it did not build)."""
    return _require(_frames_c, "_frames_c")


def compiled_channels() -> ModuleType:
    """The compiled channel twin, ``_channel_c``; skips or fails as :func:`compiled`."""
    return _require(_channel_c, "_channel_c")


def _require(module: ModuleType | None, name: str) -> ModuleType:
    if NO_EXTENSIONS:
        pytest.skip("--no-extensions: the pure-Python implementation alone")
    if module is None:
        if REQUIRE_EXTENSIONS:
            pytest.fail(f"the compiled extension diverge_frames.{name} did not build")
        pytest.skip("compiled extension not built")
    return module


def both() -> tuple[ModuleType, ModuleType]:
    """``(_frames_py, _frames_c)``, or skip as :func:`compiled` does."""
    return _frames_py, compiled()


def both_channels() -> tuple[ModuleType, ModuleType]:
    """``(_channel_py, _channel_c)``, or skip as :func:`compiled` does."""
    return _channel_py, compiled_channels()
