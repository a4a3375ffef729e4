"""The notification channel (kind 4): ``/mcp/notifications/{channel}``.

Each channel response payload is one tag byte and JSON (Diverge provider protocol
2.3.0, ``shared/mcp/notifications/response/frame.rs``)::

    [0][ServerNotification JSON]   zero or more, in order
    [1][ErrorData JSON]            at most one, the last response on the channel

The ask that opens the channel (:class:`Request`, kind 4 on ``/requests``) has an
empty payload. For the sequence rules see :mod:`diverge_frames.channel`.
"""

from __future__ import annotations

from collections.abc import Callable

from . import _wire
from ._docs import document
from ._impl import frames as _frames
from ._names import public_dir
from ._wire import Payload
from .types import ErrorData, ServerNotification

__all__ = [
    "Request",
    "decode",
    "encode",
    "decode_request",
    "encode_request",
    "TAG_NOTIFICATION",
    "TAG_ERROR",
]


__dir__: Callable[[], list[str]] = public_dir(__all__)


#: Tag byte of a notification frame.
TAG_NOTIFICATION = _wire.TAG_NOTIFICATION
#: Tag byte of an error frame (the last on the channel).
TAG_ERROR = _wire.TAG_ERROR


decode: Callable[[Payload], ServerNotification | ErrorData] = _frames.decode_notification
document(
    decode,
    """Decode one notification-channel payload.

    ``payload``: ``bytes``, ``bytearray`` or ``memoryview`` (any slice of a larger
    buffer). A read-only one is read in place (the compiled twin copies a ``bytes``
    body of up to 16 KiB into a reused buffer, faster over so few bytes); a writable
    one is copied first, so that a thread writing to it meanwhile cannot change what
    is read. The value returned shares no memory with the payload.

    Returns a typed notification (rmcp ``ServerNotification``'s variants, e.g.
    :class:`~diverge_frames.types.ProgressNotification`), a
    :class:`~diverge_frames.types.CustomNotification` for an unknown method or a known
    method whose params do not fit, or :class:`~diverge_frames.types.ErrorData` (tag 1).

    Raises :class:`~diverge_frames.EmptyFrameError` (no bytes),
    :class:`~diverge_frames.UnknownTagError` (tag not 0 or 1),
    :class:`~diverge_frames.FrameBodyError` (not JSON, or not a JSON object with a
    string ``method`` / not an ``ErrorData``), ``TypeError`` (not bytes-like).
    """,
)


encode: Callable[[ServerNotification | ErrorData], bytes] = _frames.encode_notification
document(
    encode,
    """Encode a notification (tag 0) or an :class:`ErrorData` (tag 1) as a payload.

    The JSON is what rmcp 3.1 writes for the same value: compact, params with
    ``_meta`` first and their members sorted, free-form objects with their keys
    sorted, ``None`` optionals left out, ``f64`` members as floats (``1`` -> ``1.0``).
    Every member is checked first against rmcp's types and ranges; the value itself is
    never changed.

    Raises ``TypeError`` for a value of another class, or a member of the wrong type
    (``None`` where one is required too); ``ValueError`` for a member rmcp cannot hold
    as it is (an integer out of its range, a string outside an enum, NaN or an
    infinity, a ``str`` that is not UTF-8, nesting deeper than serde_json reads). The
    message starts with the member's path: ``$.params.level: ...``.
    """,
)


class Request:
    """The notification ask (kind 4): it carries nothing, so its payload is empty.

    Diverge SDK ``shared/mcp/notifications/request/request.rs``. All instances are equal.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Request)

    def __hash__(self) -> int:
        return hash(Request)

    def __repr__(self) -> str:
        return "Request()"


def encode_request(request: Request | None = None) -> bytes:
    """The payload of the notification ask (``request``, a :class:`Request` or None).

    Always ``b""``. Raises ``TypeError`` for anything else.
    """
    if request is not None and type(request) is not Request:
        raise TypeError(f"encode_request takes a Request or None, not {type(request).__name__}")
    return b""


def decode_request(payload: Payload) -> Request:
    """Decode the notification ask.

    Whatever bytes are there are ignored rather than rejected (a newer writer may send
    some); never raises for a bytes-like payload. Raises ``TypeError`` only when
    ``payload`` is not bytes-like.
    """
    memoryview(payload).release()
    return Request()
