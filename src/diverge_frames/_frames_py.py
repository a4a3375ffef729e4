"""The hot path in pure Python: tag split, pre-check, dispatch to msgspec, encode.

The readable reference of the two twins; ``_frames_c.pyx`` does the same, with fast
paths of its own (its docstring lists them). Both pass the same tests and give the
same values, bytes and errors. Each holds its whole hot path; what both use lives in
:mod:`._wire` (decoders and encoders), :mod:`._serde_json` and :mod:`._rmcp` (the
rules).

A body goes to msgspec's typed decoders unless :func:`_needs_exact` says msgspec might
read it otherwise than serde_json, or msgspec rejects it: then the rmcp-exact reading
(:func:`._rmcp.decode_exact`) decides.
"""

from __future__ import annotations

import json.scanner
import threading
from types import SimpleNamespace
from typing import Any

import msgspec

from . import types as t
from ._checks import check, unicode_error
from ._rmcp import (
    MODEL_MEMBER_DEPTH,
    MODEL_MEMBER_NAMES,
    STRUCT_DEPTH,
    decode_custom,
    decode_exact,
    encode_custom,
    read_resource_result,
)
from ._serde_json import (
    MAX_DEPTH,
    MAX_PLAIN_DECIMAL_DIGITS,
    MAX_PLAIN_INTEGER_DIGITS,
    after_ws,
    exponent_candidate,
    fix_exponents,
)
from ._stack import on_fresh_stack, run_fresh
from ._wire import (
    DECODE_ERRORS,
    TYPED_CLASSES,
    Payload,
    encoder,
    error_decoder,
    notification_decoder,
    notification_encoder,
    result_decoder,
)
from .errors import EmptyFrameError, FrameError, UnknownTagError

__all__ = [
    "decode_notification",
    "encode_notification",
    "decode_read_resource",
    "encode_read_resource",
]

_TAG_NOTIFICATION = 0
_TAG_RESULT = 0
_TAG_ERROR = 1
_TAG_NOTIFICATION_BYTE = b"\x00"
_TAG_RESULT_BYTE = b"\x00"
_TAG_ERROR_BYTE = b"\x01"
#: Below this many bytes a ``bytes`` body is sliced (a small copy beats a memoryview).
_SLICE_LIMIT = 512

_decode_typed = notification_decoder.decode
_decode_result = result_decoder.decode
_decode_error_data = error_decoder.decode
_encode = encoder.encode
_encode_notification = notification_encoder.encode
_DECODE_ERRORS = DECODE_ERRORS
_ValidationError = msgspec.ValidationError
_Result = t.ReadResourceResult
#: What tags 0 and 1 announce on each channel (for an error of ``run_fresh``).
_NOTIFICATION_TYPES = ("ServerNotification", "ErrorData")
_READ_RESOURCE_TYPES = ("ReadResourceResult", "ErrorData")
_Custom = t.CustomNotification
_ErrorData = t.ErrorData


# ------------------------------------------------------------------ the pre-check


class _ScanState(threading.local):
    """Per-thread stdlib JSON scanner that records number literals as it reads."""

    def __init__(self) -> None:
        self.ints: list[str] = []
        self.floats: list[str] = []
        context = SimpleNamespace(
            strict=True,
            object_hook=None,
            object_pairs_hook=tuple,
            parse_int=self.ints.append,
            parse_float=self.floats.append,
            parse_constant=self.floats.append,
            memo={},
        )
        self.scan = _make_scanner(context)


_scanner: Any = json.scanner  # typeshed lacks c_make_scanner / py_make_scanner
_make_scanner = _scanner.c_make_scanner or _scanner.py_make_scanner
_scan_state = _ScanState()
#: Bodies longer than this are first scanned on a prefix of this many bytes.
_PREFIX = 64 * 1024
#: In a body longer than ``_PREFIX``, a ``"blob"`` value at least this long with no
#: escape is left out of the scan (``_without_long_blobs``).
_LONG_BLOB_CHARS = 4096


def _needs_exact(body: Any) -> bool:
    """True when ``body`` may decode differently with msgspec than with serde_json, so
    that it must take the rmcp-exact path: invalid UTF-8 (msgspec does not check what it
    skips), a key repeated in an object nested ``STRUCT_DEPTH`` levels or less, a key
    of ``MODEL_MEMBER_NAMES`` at depth ``MODEL_MEMBER_DEPTH``, ``MAX_DEPTH + 1`` levels
    of nesting, or a number that is not plain (an exponent,
    more digits than ``MAX_PLAIN_DECIMAL_DIGITS`` / ``MAX_PLAIN_INTEGER_DIGITS``, a
    sign counted; ``-0``). False for a body that is not JSON: msgspec rejects it.

    The same contract as ``_frames_c._needs_exact``, another method: the stdlib JSON
    scanner reads the body once, keeping objects as tuples of pairs and the text of
    every number.
    """
    state = _scan_state
    ints, floats = state.ints, state.floats
    if len(body) > _PREFIX:
        # A prefix first: nesting too deep for this scanner shows there, without
        # decoding (and allocating) the whole body.
        try:
            state.scan(str(body[:_PREFIX], "utf-8", "replace"), 0)
        except RecursionError:
            if not on_fresh_stack():
                raise  # the caller's stack may be at fault: decode again on a fresh one
            return True
        except (StopIteration, ValueError):
            pass
    try:
        text = str(body, "utf-8")
    except UnicodeDecodeError:
        return True  # msgspec does not check the UTF-8 of what it skips; serde mostly does
    if len(text) > _PREFIX:
        text = _without_long_blobs(text)
    ints.clear()
    floats.clear()
    try:
        tree = state.scan(text, after_ws(text, 0))[0]
    except RecursionError:
        if not on_fresh_stack():
            raise
        return True
    except (StopIteration, ValueError):
        return False  # not JSON: msgspec rejects it, decode_exact confirms
    if ints and (max(map(len, ints)) > MAX_PLAIN_INTEGER_DIGITS or "-0" in ints):
        return True
    if floats:
        joined = "".join(floats)
        if "e" in joined or "E" in joined or "N" in joined or "I" in joined:
            return True
        if max(map(len, floats)) > MAX_PLAIN_DECIMAL_DIGITS + 1:  # the point
            return True
    if len(text) >= 256 and text.count("[") + text.count("{") > MAX_DEPTH and _too_deep(tree):
        return True
    return _has_duplicate(tree, 1)


def _without_long_blobs(text: str) -> str:
    """``text`` with the content of each long ``"blob"`` string value without a
    backslash left out (``"blob":""``), so that the scan does not copy a blob: the peak
    memory of a decode stays near one blob, not two. What ``_needs_exact`` looks for is
    unchanged: a string value takes no part in duplicate keys, numbers or nesting, and
    the UTF-8 of the whole body is checked before. An unescaped ``"`` in JSON text is a
    string's delimiter, so in JSON ``"blob":"`` opens the value of a ``blob`` key, and
    the next ``"`` (no backslash before it) closes it. In text that is not JSON the cut
    may change the verdict, harmlessly: msgspec rejects the body either way, and
    ``decode_exact`` words the error."""
    pieces = []
    start = 0
    at = text.find('"blob":"')
    while at >= 0:
        value = at + 8
        end = text.find('"', value)
        if end < 0:
            break
        if end - value >= _LONG_BLOB_CHARS and text.find("\\", value, end) < 0:
            pieces.append(text[start:value])
            start = end
        at = text.find('"blob":"', end + 1)
    if not pieces:
        return text
    pieces.append(text[start:])
    return "".join(pieces)


def _too_deep(tree: Any) -> bool:
    """More than ``MAX_DEPTH`` levels of arrays/objects (tuples of pairs), without recursion."""
    stack = [(tree, 1)] if type(tree) in (tuple, list) else []
    while stack:
        node, level = stack.pop()
        if level > MAX_DEPTH:
            return True
        children = (v for _, v in node) if type(node) is tuple else node
        stack.extend((child, level + 1) for child in children if type(child) in (tuple, list))
    return False


def _has_duplicate(node: Any, depth: int) -> bool:
    """A duplicated key in an object at ``depth`` <= ``STRUCT_DEPTH``, or a key of
    ``MODEL_MEMBER_NAMES`` in one at ``MODEL_MEMBER_DEPTH`` (tuples of pairs)."""
    if type(node) is tuple:
        keys = dict(node)
        if len(node) != len(keys):
            return True
        if depth == MODEL_MEMBER_DEPTH and not MODEL_MEMBER_NAMES.isdisjoint(keys):
            return True
        children: Any = (value for _, value in node)
    elif type(node) is list:
        children = node
    else:
        return False
    if depth < STRUCT_DEPTH:
        for child in children:
            if type(child) in (tuple, list) and _has_duplicate(child, depth + 1):
                return True
    return False


# ------------------------------------------------------------------ the hot path


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
            if tag == _TAG_NOTIFICATION:
                if _needs_exact(body):
                    return decode_exact(body, tag, "ServerNotification")
                try:
                    return _decode_typed(body)
                except _ValidationError:
                    return decode_custom(body, tag)
                except _DECODE_ERRORS as exc:
                    return decode_exact(body, tag, "ServerNotification", exc)
            if tag == _TAG_ERROR:
                return _decode_error(body, tag)
            raise UnknownTagError(tag, "notifications")
        finally:
            if type(body) is memoryview:
                body.release()  # else an error's traceback keeps the payload exported
    except FrameError as exc:
        payload = None  # type: ignore[assignment]
        raise _bare(exc)  # noqa: B904 - re-raised as is: its own __cause__ stays
    except RecursionError:
        pass  # the caller's stack, not the body: once more on a fresh one (_stack)
    ok, value = run_fresh(decode_notification, payload, _NOTIFICATION_TYPES)
    if ok:
        return value  # type: ignore[return-value]
    payload = None  # type: ignore[assignment]
    raise _bare(value)  # type: ignore[arg-type]


def decode_read_resource(payload: Payload) -> t.ReadResourceResult | t.ErrorData:
    try:
        tag, body = _split(payload)
        try:
            if tag == _TAG_RESULT:
                if _needs_exact(body):
                    return decode_exact(body, tag, "ReadResourceResult")
                try:
                    wire = _decode_result(body)
                except _DECODE_ERRORS as exc:
                    return decode_exact(body, tag, "ReadResourceResult", exc)
                return read_resource_result(wire, tag)
            if tag == _TAG_ERROR:
                return _decode_error(body, tag)
            raise UnknownTagError(tag, "read-resource")
        finally:
            if type(body) is memoryview:
                body.release()  # else an error's traceback keeps the payload exported
    except FrameError as exc:
        payload = None  # type: ignore[assignment]
        raise _bare(exc)  # noqa: B904 - re-raised as is: its own __cause__ stays
    except RecursionError:
        pass  # the caller's stack, not the body: once more on a fresh one (_stack)
    ok, value = run_fresh(decode_read_resource, payload, _READ_RESOURCE_TYPES)
    if ok:
        return value  # type: ignore[return-value]
    payload = None  # type: ignore[assignment]
    raise _bare(value)  # type: ignore[arg-type]


def _decode_error(body: Any, tag: int) -> t.ErrorData:
    if _needs_exact(body):
        return decode_exact(body, tag, "ErrorData")
    try:
        return _decode_error_data(body)
    except _DECODE_ERRORS as exc:
        return decode_exact(body, tag, "ErrorData", exc)


def encode_notification(value: t.ServerNotification | t.ErrorData) -> bytes:
    cls = type(value)
    if cls in TYPED_CLASSES:
        out = _TAG_NOTIFICATION_BYTE + _written(_encode_notification, check(value))
    elif cls is _ErrorData:
        out = _TAG_ERROR_BYTE + _written(_encode, check(value))
    elif cls is _Custom:
        out = _TAG_NOTIFICATION_BYTE + _written(encode_custom, check(value))
    else:
        raise TypeError(
            f"a notification channel carries a ServerNotification or ErrorData, not {cls.__name__}"
        )
    if exponent_candidate(out):
        return fix_exponents(out)
    return out


def encode_read_resource(value: t.ReadResourceResult | t.ErrorData) -> bytes:
    cls = type(value)
    if cls is _Result:
        out = _TAG_RESULT_BYTE + _written(_encode, check(value))
    elif cls is _ErrorData:
        out = _TAG_ERROR_BYTE + _written(_encode, check(value))
    else:
        raise TypeError(
            f"a read-resource channel carries a ReadResourceResult or ErrorData, not {cls.__name__}"
        )
    if exponent_candidate(out):
        return fix_exponents(out)
    return out


def _written(encode: Any, value: Any) -> bytes:
    """``encode(value)`` for a value :func:`._checks.check` passed: msgspec can still
    refuse a ``str`` that is not UTF-8, said here with its path."""
    try:
        return encode(value)  # type: ignore[no-any-return]
    except UnicodeEncodeError:
        raise unicode_error(value) from None
