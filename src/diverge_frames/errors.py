"""``FrameError`` and its kinds: every way a channel payload can fail to decode.

They mirror the Diverge SDK's ``FrameError`` (``Empty``, ``UnknownTag(u8)``,
``Body(serde_json::Error)``). All are ``ValueError`` subclasses, so a caller that only
wants "bad input" catches :class:`FrameError` (or ``ValueError``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar

from ._names import public_dir

__all__ = [
    "FrameError",
    "EmptyFrameError",
    "UnknownTagError",
    "FrameBodyError",
    "PayloadTooLargeError",
    "SequenceError",
]


__dir__: Callable[[], list[str]] = public_dir(__all__)


class FrameError(ValueError):
    """A channel payload could not be decoded (base class of every frame error).

    ``kind`` names the failure: ``"empty"``, ``"unknown_tag"``, ``"body"``,
    ``"too_large"`` or ``"sequence"`` (each subclass's; ``"frame"`` on this base class
    itself).
    """

    kind: ClassVar[str] = "frame"


class EmptyFrameError(FrameError):
    """The payload has no bytes at all, so no tag byte."""

    kind: ClassVar[str] = "empty"

    def __init__(self, message: str = "empty payload: no tag byte") -> None:
        super().__init__(message)


class UnknownTagError(FrameError):
    """The tag byte is neither ``0`` nor ``1``. ``tag`` is the byte (0-255)."""

    kind: ClassVar[str] = "unknown_tag"

    def __init__(self, tag: int, channel: str = "") -> None:
        self.tag = tag
        where = f" on a {channel} channel" if channel else ""
        super().__init__(f"unknown tag byte {tag}{where}: expected 0 or 1")

    def __reduce__(self) -> Any:
        return (type(self), (self.tag,))


_PATH = re.compile(r" - at `(\$[^`]*)`$")

#: msgspec's message for a string that is not UTF-8 (0.23 and later; at no offset).
INVALID_UTF8 = "Invalid UTF-8 encoded string"


class FrameBodyError(FrameError):
    """The JSON after the tag byte is not JSON, or not the shape the tag announces.

    ``tag`` is the tag byte; ``expected`` the MCP type that was expected
    (e.g. ``"ReadResourceResult"``); ``path`` the JSON path of the offending value
    (e.g. ``"$.contents[0].uri"``), or ``"$"`` when the whole body is at fault.
    The msgspec error (or ``RecursionError``) that caused it is chained as
    ``__cause__``.
    """

    kind: ClassVar[str] = "body"

    def __init__(self, tag: int, expected: str, reason: str, path: str = "$") -> None:
        self.tag = tag
        self.expected = expected
        self.reason = reason
        self.path = path
        where = "" if path == "$" and " at " in reason else f" at {path}"
        super().__init__(f"tag {tag} body is not a valid {expected}: {reason}{where}")

    @classmethod
    def from_exception(cls, tag: int, expected: str, exc: BaseException) -> FrameBodyError:
        """Build from the error a decoder raised on the body.

        That is a msgspec ``DecodeError`` / ``ValidationError``, a ``UnicodeDecodeError``
        (what msgspec before 0.23 raises for invalid UTF-8, worded as msgspec 0.23 words
        it) or a ``RecursionError``."""
        if isinstance(exc, RecursionError):
            return cls(tag, expected, "JSON nested too deeply")
        if isinstance(exc, UnicodeDecodeError):
            return cls(tag, expected, INVALID_UTF8)
        text = str(exc)
        m = _PATH.search(text)
        if m is not None:
            return cls(tag, expected, text[: m.start()], m.group(1))
        return cls(tag, expected, text)

    def __reduce__(self) -> Any:
        return (type(self), (self.tag, self.expected, self.reason, self.path))


class PayloadTooLargeError(FrameError):
    """A channel payload longer than the channel's ``max_payload_size``, refused before it is read.

    The length is in bytes, the tag byte counted; ``size`` and ``limit`` are the two lengths.
    rmcp sets no such limit; a relay that takes frames from a peer it does not trust sets one
    (see :class:`~diverge_frames.channel.NotificationChannel`)."""

    kind: ClassVar[str] = "too_large"

    def __init__(self, size: int, limit: int) -> None:
        self.size = size
        self.limit = limit
        super().__init__(f"payload of {size} bytes is over the limit of {limit} bytes")

    def __reduce__(self) -> Any:
        return (type(self), (self.size, self.limit))


class SequenceError(FrameError):
    """An event the sequence rules forbid; the state is unchanged.

    A channel response after the error or the finish, a second response on a one-shot
    channel, a finish twice, anything after an abort; or, on the proxy's side, an ask that is
    not due."""

    kind: ClassVar[str] = "sequence"
