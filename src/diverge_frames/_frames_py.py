"""The hot path in pure Python: tag split, dispatch to a cached decoder, encode.

Twin of ``_frames_c.pyx``, kept alike line by line; both pass the same tests.
"""

from __future__ import annotations

from typing import Any

import msgspec

from . import types as t
from ._shared import (
    decode_custom,
    decode_exact,
    encode_custom,
    encoder,
    exponent_candidate,
    fix_exponents,
    notification_encoder,
    unusual,
)
from .errors import EmptyFrameError, FrameBodyError, FrameError, UnknownTagError

Payload = bytes | bytearray | memoryview

_NOTIFICATION = 0
_RESULT = 0
_ERROR = 1
_TAG_NOTIFICATION = b"\x00"
_TAG_RESULT = b"\x00"
_TAG_ERROR = b"\x01"
#: Below this many bytes a ``bytes`` body is sliced (a small copy beats a memoryview).
_SLICE_LIMIT = 512

_notification_decoder = msgspec.json.Decoder(t.TypedNotification)
_result_decoder = msgspec.json.Decoder(t._ReadResourceResultWire)
_error_decoder = msgspec.json.Decoder(t.ErrorData)
_encode = encoder.encode
_encode_notification = notification_encoder.encode
_TYPED = frozenset(t.TYPED_NOTIFICATIONS)
_DecodeError = msgspec.DecodeError
_ValidationError = msgspec.ValidationError
_Text = t.TextResourceContents
_Blob = t.BlobResourceContents
_Result = t.ReadResourceResult
_Custom = t.CustomNotification
_ErrorData = t.ErrorData
#: The pre-check that sends a body to the rmcp-exact path (see ``_shared``).
_unusual = unusual
#: The quick test for a float exponent msgspec wrote without rmcp's ``+``.
_exponent_candidate = exponent_candidate


def _split(payload: Payload) -> tuple[int, Any]:
    """Return ``(tag, body)``; ``body`` shares the payload's memory, never copying a
    large body. Raises EmptyFrameError, or TypeError when not bytes-like."""
    if type(payload) is bytes:
        if not payload:
            raise EmptyFrameError()
        if len(payload) <= _SLICE_LIMIT:
            return payload[0], payload[1:]
        return payload[0], memoryview(payload)[1:]
    view = memoryview(payload)
    if not view.c_contiguous or (view.ndim == 1 and view.strides != (view.itemsize,)):
        # (a one-item strided view counts as contiguous, but its slices are not)
        view = memoryview(view.tobytes())
    elif view.ndim != 1 or view.itemsize != 1:
        view = view.cast("B")
    if not view.nbytes:
        view.release()
        raise EmptyFrameError()
    return view[0], view[1:]


def _bare(exc: BaseException) -> BaseException:
    """``exc`` with its traceback, and those of the exceptions it chains, dropped: they
    hold this module's frames, and those frames hold the caller's buffer (a bytearray
    could not be resized while the error is kept). The compiled twin has no frames."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        error = todo.pop()
        if error is not None and id(error) not in seen:
            seen.add(id(error))
            error.__traceback__ = None
            todo += (error.__cause__, error.__context__)
    return exc


def decode_notification(payload: Payload) -> t.ServerNotification | t.ErrorData:
    try:
        tag, body = _split(payload)
        try:
            if tag == _NOTIFICATION:
                if _unusual(body):
                    return decode_exact(body, tag, "ServerNotification")
                try:
                    return _notification_decoder.decode(body)
                except _ValidationError:
                    return decode_custom(body, tag)
                except (_DecodeError, RecursionError) as exc:
                    return decode_exact(body, tag, "ServerNotification", exc)
            if tag == _ERROR:
                return _decode_error(body, tag)
            raise UnknownTagError(tag, "notifications")
        finally:
            if type(body) is memoryview:
                body.release()  # else an error's traceback keeps the payload exported
    except FrameError as exc:
        payload = None  # type: ignore[assignment]
        raise _bare(exc)  # noqa: B904 - re-raised as is: its own __cause__ stays


def decode_read_resource(payload: Payload) -> t.ReadResourceResult | t.ErrorData:
    try:
        tag, body = _split(payload)
        try:
            if tag == _RESULT:
                if _unusual(body):
                    return decode_exact(body, tag, "ReadResourceResult")
                try:
                    wire = _result_decoder.decode(body)
                except (_DecodeError, RecursionError) as exc:
                    return decode_exact(body, tag, "ReadResourceResult", exc)
                return _result(wire, tag)
            if tag == _ERROR:
                return _decode_error(body, tag)
            raise UnknownTagError(tag, "read-resource")
        finally:
            if type(body) is memoryview:
                body.release()  # else an error's traceback keeps the payload exported
    except FrameError as exc:
        payload = None  # type: ignore[assignment]
        raise _bare(exc)  # noqa: B904 - re-raised as is: its own __cause__ stays


def _decode_error(body: Any, tag: int) -> t.ErrorData:
    if _unusual(body):
        return decode_exact(body, tag, "ErrorData")
    try:
        return _error_decoder.decode(body)
    except (_DecodeError, RecursionError) as exc:
        return decode_exact(body, tag, "ErrorData", exc)


def _result(wire: Any, tag: int) -> t.ReadResourceResult:
    """rmcp's untagged ``ResourceContents``: text when ``text`` is a string, else blob
    when ``blob`` is; rmcp's ``ttlMs`` clamp to 0."""
    contents: list[t.ResourceContents] = []
    for index, item in enumerate(wire.contents):
        if type(item.text) is str:
            contents.append(
                _Text(uri=item.uri, mime_type=item.mime_type, text=item.text, meta=item.meta)
            )
        elif type(item.blob) is str:
            contents.append(
                _Blob(uri=item.uri, mime_type=item.mime_type, blob=item.blob, meta=item.meta)
            )
        else:
            raise FrameBodyError(
                tag,
                "ReadResourceResult",
                "data did not match any variant of untagged enum ResourceContents"
                " (no string `text` or `blob`)",
                f"$.contents[{index}]",
            )
    ttl_ms = wire.ttl_ms
    if ttl_ms is not None and ttl_ms < 0:
        ttl_ms = 0
    return _Result(
        result_type=wire.result_type,
        ttl_ms=ttl_ms,
        cache_scope=wire.cache_scope,
        contents=contents,
        meta=wire.meta,
    )


def encode_notification(value: t.ServerNotification | t.ErrorData) -> bytes:
    cls = type(value)
    if cls in _TYPED:
        out = _TAG_NOTIFICATION + _encode_notification(value)
    elif cls is _ErrorData:
        out = _TAG_ERROR + _encode(value)
    elif cls is _Custom:
        out = _TAG_NOTIFICATION + encode_custom(value)  # type: ignore[arg-type]
    else:
        raise TypeError(
            f"a notification channel carries a ServerNotification or ErrorData, not {cls.__name__}"
        )
    if _exponent_candidate(out):
        return fix_exponents(out)
    return out


def encode_read_resource(value: t.ReadResourceResult | t.ErrorData) -> bytes:
    cls = type(value)
    if cls is _Result:
        out = _TAG_RESULT + _encode(value)
    elif cls is _ErrorData:
        out = _TAG_ERROR + _encode(value)
    else:
        raise TypeError(
            f"a read-resource channel carries a ReadResourceResult or ErrorData, not {cls.__name__}"
        )
    if _exponent_candidate(out):
        return fix_exponents(out)
    return out
