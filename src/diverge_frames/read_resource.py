"""The read-resource channel: one response, then the finish.

Each channel response payload is one tag byte and JSON (Diverge provider protocol
2.3.0, ``shared/mcp/read_resource/response/frame.rs``)::

    [0][ReadResourceResult JSON]   the result
    [1][ErrorData JSON]            the MCP error, code untouched

For the sequence rules see :mod:`diverge_frames.channel`.
"""

from __future__ import annotations

from collections.abc import Callable

from . import _wire
from ._docs import document
from ._impl import frames as _frames
from ._names import public_dir
from ._wire import Payload
from .types import ErrorData, ReadResourceResult

__all__ = ["decode", "encode", "TAG_RESULT", "TAG_ERROR"]


__dir__: Callable[[], list[str]] = public_dir(__all__)


#: Tag byte of a result frame.
TAG_RESULT = _wire.TAG_RESULT
#: Tag byte of an error frame.
TAG_ERROR = _wire.TAG_ERROR


decode: Callable[[Payload], ReadResourceResult | ErrorData] = _frames.decode_read_resource
document(
    decode,
    """Decode one read-resource payload.

    ``payload``: ``bytes``, ``bytearray`` or ``memoryview`` (any slice of a larger
    buffer). A read-only one is read in place (the compiled twin copies a ``bytes``
    body of up to 16 KiB into a reused buffer, faster over so few bytes); a writable
    one is copied first, so that a thread writing to it meanwhile cannot change what
    is read. The value returned shares no memory with the payload.

    Returns :class:`~diverge_frames.types.ReadResourceResult` (tag 0; each item of
    ``contents`` a ``TextResourceContents`` when it has a string ``text``, else a
    ``BlobResourceContents``) or :class:`~diverge_frames.types.ErrorData` (tag 1).

    Raises :class:`~diverge_frames.EmptyFrameError`,
    :class:`~diverge_frames.UnknownTagError`, :class:`~diverge_frames.FrameBodyError`
    (message and ``path`` say where, e.g. ``$.contents[0].uri``), ``TypeError`` (not
    bytes-like).
    """,
)


encode: Callable[[ReadResourceResult | ErrorData], bytes] = _frames.encode_read_resource
document(
    encode,
    """Encode a :class:`ReadResourceResult` (tag 0) or :class:`ErrorData` (tag 1).

    The JSON is what rmcp 3.1 writes for the same value: members in rmcp's order,
    free-form objects with their keys sorted, ``None`` optionals left out. Every member
    is checked first against rmcp's types and ranges; the value itself is never
    changed.

    Raises ``TypeError`` for a value of another class, or a member of the wrong type
    (``None`` where one is required too, a ``contents`` item that is not text or
    blob); ``ValueError`` for a member rmcp cannot hold as it is (a negative
    ``ttl_ms``, a ``cache_scope`` outside ``public`` / ``private``, an ``ErrorData``
    code outside ``i32``, ...). The message starts with the member's path:
    ``$.contents[0].text: ...``.
    """,
)
