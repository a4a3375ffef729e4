"""The hot path in pure Python: tag split, pre-check, dispatch to msgspec, encode.

The readable reference of the two twins; ``_frames_c.pyx`` does the same, with fast
paths of its own (its docstring lists them). Both pass the same tests and give the
same values, bytes and errors. Each holds its whole hot path; what both use lives in
:mod:`._wire` (decoders and encoders) and :mod:`._exact` (the rmcp-exact reading's
rules).

A body goes to msgspec's typed decoders (respelled when only its numbers differ) unless
:func:`_precheck` says msgspec might read it otherwise than serde_json, or msgspec
rejects it: then the rmcp-exact reading (:func:`._exact.rmcp_read.decode_exact`, the
body read by :func:`._exact.serde_json_reader.read`) decides.
"""

from __future__ import annotations

import json.scanner
import re
import threading
from types import SimpleNamespace
from typing import Any

import msgspec

from . import types as t
from ._checks import check, unicode_error
from ._exact.rejection import bare, item_rejection, msgspec_rejection
from ._exact.rmcp_custom import custom, encode_custom
from ._exact.rmcp_positions import STRUCT_POSITIONS, Position, models_below
from ._exact.rmcp_read import read_exactly
from ._exact.rmcp_result import read_resource_result
from ._exact.rmcp_structs import (
    EXPECT_ERROR,
    EXPECT_NOTIFICATION,
    EXPECT_RESULT,
    EXPECTED,
    STRUCT_DEPTH,
)
from ._exact.serde_json import (
    MAX_DEPTH,
    RECURSION_LIMIT,
    after_ws,
    exponent_candidate,
    fix_exponents,
    too_deep,
)
from ._exact.serde_json_spelling import not_plain, respelled
from ._stack import run_fresh
from ._wire import (
    DECODE_ERRORS,
    TAG_ERROR,
    TAG_NOTIFICATION,
    TAG_RESULT,
    TYPED_CLASSES,
    Payload,
    custom_decoder,
    encoder,
    error_decoder,
    notification_decoder,
    payload_view,
    result_decoder,
)
from .errors import EmptyFrameError, FrameError, UnknownTagError

__all__ = [
    "decode_notification",
    "encode_notification",
    "decode_read_resource",
    "encode_read_resource",
]

_TAG_NOTIFICATION = TAG_NOTIFICATION
_TAG_RESULT = TAG_RESULT
_TAG_ERROR = TAG_ERROR
_TAG_NOTIFICATION_BYTE = bytes((TAG_NOTIFICATION,))
_TAG_RESULT_BYTE = bytes((TAG_RESULT,))
_TAG_ERROR_BYTE = bytes((TAG_ERROR,))
#: Below this many bytes a ``bytes`` body is sliced (a small copy beats a memoryview).
_SLICE_LIMIT = 512

_decode_typed = notification_decoder.decode
_decode_custom = custom_decoder.decode
_decode_result = result_decoder.decode
_decode_error_data = error_decoder.decode
_encode = encoder.encode
_DECODE_ERRORS = DECODE_ERRORS
_ValidationError = msgspec.ValidationError
_Result = t.ReadResourceResult
#: What tags 0 and 1 announce on each channel (for an error of ``run_fresh``).
_NOTIFICATION_TYPES = ("ServerNotification", "ErrorData")
_READ_RESOURCE_TYPES = ("ReadResourceResult", "ErrorData")
_Custom = t.CustomNotification
_ErrorData = t.ErrorData


# ------------------------------------------------------------------ the pre-check

#: What the pre-check finds (bits; 0: msgspec reads the body as serde_json does).
_NUMBERS = 1  # a number that is not plain: the exact reading takes serde's numbers
_PAIRS = 2  # a member repeated at a struct position, or serde's sequence form of a struct
_DEEP = 4  # more than MAX_DEPTH levels of nesting
_OTHER = 8  # invalid UTF-8, or nesting the scanner could not follow: the exact reading decides
_MODEL = 16  # a member only _exact.rmcp_types reads (inputRequests): pairs kept all the way down
_TRAILING = 32  # more than whitespace after a whole value: serde_json rejects the body
_SYNTAX = 64  # not JSON: msgspec reads (and rejects) it, but may name a type first


class _ScanState(threading.local):
    """Per-thread stdlib JSON scanner that records number literals as it reads.

    The lists are emptied before it returns: nothing of a body stays behind.
    """

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
#: In a body longer than ``_PREFIX``, a ``"blob"`` value (its key: ``_BLOB_KEY``, JSON
#: whitespace around the colon) at least this long with no escape is left out of the scan.
_LONG_BLOB_CHARS = 4096
_BLOB_KEY = re.compile(r'"blob"[ \t\n\r]*:[ \t\n\r]*"')


def _precheck(body: Any, expected: int | None = None, hard: dict[str, int] | None = None) -> int:
    """What may make msgspec read ``body`` otherwise than serde_json (0: nothing).

    ``_NUMBERS``, a number that is not plain (:func:`plain_number`); ``_PAIRS``, a
    member repeated at a struct position of ``expected`` (:data:`STRUCT_POSITIONS`), or
    an array where a struct is read (with ``_MODEL``: a member only
    ``_exact.rmcp_types`` reads, ``inputRequests``); ``_DEEP``, ``MAX_DEPTH + 1`` levels
    of nesting; ``_OTHER``, invalid UTF-8 (msgspec does not check what it skips) or
    nesting past the scanner's recursion; ``_TRAILING``, more than whitespace after the
    body's value (invalid UTF-8 too); ``_SYNTAX``, not JSON: msgspec rejects it.
    Without ``expected``, the struct positions of every top-level type count; ``hard``
    is given every literal that is not plain, with how often it was read.

    The same contract as ``_frames_c``'s pre-check, another method: the stdlib JSON
    scanner reads the body once, keeping objects as tuples of pairs and the text of
    every number.
    """
    state = _scan_state
    ints, floats = state.ints, state.floats
    try:
        if len(body) > _PREFIX:
            # A prefix first: nesting too deep for this scanner shows there, without
            # decoding (and allocating) the whole body.
            try:
                state.scan(str(body[:_PREFIX], "utf-8", "replace"), 0)
            except RecursionError:
                return _OTHER
            except (StopIteration, ValueError):
                pass
            ints.clear()
            floats.clear()
        try:
            text = str(body, "utf-8")
        except UnicodeDecodeError as exc:
            # msgspec does not check the UTF-8 of what it skips; serde mostly does
            text, found = str(body[: exc.start], "utf-8"), _OTHER | _TRAILING
        else:
            found = 0
        if len(text) > _PREFIX:
            text = _without_long_blobs(text)
        try:
            tree, end = state.scan(text, after_ws(text, 0))
        except RecursionError:
            return _OTHER
        except (StopIteration, ValueError):
            return found & _OTHER | _SYNTAX  # msgspec rejects it, the exact reading confirms
        if found or after_ws(text, end) != len(text):  # the exact reading, if need be, sees all
            return _TRAILING | _OTHER | _NUMBERS | _PAIRS
        if (ints or floats) and not_plain(ints, floats, hard):
            found |= _NUMBERS
        if len(text) >= 256 and text.count("[") + text.count("{") > MAX_DEPTH and too_deep(tree):
            found |= _DEEP
        for name in STRUCT_POSITIONS if expected is None else (EXPECTED[expected],):
            found |= _repeated(tree, STRUCT_POSITIONS[name])
        return found
    finally:
        ints.clear()
        floats.clear()


def _without_long_blobs(text: str) -> str:
    """``text`` with each long ``"blob"`` string value left out, so the scan copies no blob.

    The content of each without a backslash is cut (``"blob":""``): the peak
    memory of a decode stays near one blob, not two. What ``_precheck`` looks for is
    unchanged: a string value takes no part in repeated members, numbers or nesting, and
    the UTF-8 of the whole body is checked before. An unescaped ``"`` in JSON text is a
    string's delimiter (closing one after a letter), so in JSON ``"blob" : "`` opens the
    value of a ``blob`` key, and the next ``"`` (no backslash before it) closes it. In
    text that is not JSON the cut may change the verdict, harmlessly: msgspec rejects
    the body either way, and the exact reading words the error."""
    pieces = []
    start = 0
    at = _BLOB_KEY.search(text)
    while at is not None:
        value = at.end()
        end = text.find('"', value)
        if end < 0:
            break
        if end - value >= _LONG_BLOB_CHARS and text.find("\\", value, end) < 0:
            pieces.append(text[start:value])
            start = end
        at = _BLOB_KEY.search(text, end + 1)
    if not pieces:
        return text
    pieces.append(text[start:])
    return "".join(pieces)


def _repeated(tree: Any, position: Position) -> int:
    """Whether ``tree`` repeats a member, or has an array, at a struct position.

    ``_PAIRS`` for a member repeated in an object (a tuple of pairs) at a struct
    position, or an array at one (serde's sequence form); with ``_MODEL`` for a member
    only ``_exact.rmcp_types`` reads; else 0. Without recursion.
    """
    stack: list[tuple[Any, Position | None]] = [(tree, position)]
    while stack:
        node, at = stack.pop()
        kind = type(node)
        if at is None or kind not in (tuple, list):
            continue
        if not at.members:
            values = (v for _, v in node) if kind is tuple else node
            stack.extend((v, at.items) for v in values)
            continue
        if kind is list:  # (a model member may be among its items)
            return _PAIRS | _MODEL if models_below(at) else _PAIRS
        seen = set()
        for key, value in node:
            if key in at.members:
                if key in at.models:
                    return _PAIRS | _MODEL
                if key in seen:
                    return _PAIRS
                seen.add(key)
                stack.append((value, at.children[at.members.index(key)]))
    return 0


def _source(body: Any, expected: int) -> tuple[int, Any]:
    """What the pre-check finds, and what msgspec reads: the body, its respelling, or None."""
    hard: dict[str, int] = {}
    found = _precheck(body, expected, hard)
    rules = found & ~_SYNTAX  # a body that is not JSON is msgspec's to reject first
    return found, body if not rules else respelled(body, hard) if rules == _NUMBERS else None


def _exact(
    body: Any, tag: int, expected: int, exc: BaseException | None = None, found: int = 0
) -> Any:
    """rmcp's reading of ``body``, read by serde_json's rules with what the pre-check ``found``."""
    error = msgspec_rejection(body, tag, expected) if found & _TRAILING else None
    if error is not None:  # more after the value: rejected whatever it is, msgspec words it
        raise error
    # What the pre-check could not read (_OTHER) may hold serde's first reason: all read.
    unseen = found & _OTHER
    keep = RECURSION_LIMIT if found & _MODEL or unseen else STRUCT_DEPTH
    how = {"numbers": bool(found & _NUMBERS or unseen), "pairs": bool(found & _PAIRS or unseen)}
    deep = None if unseen else bool(found & _DEEP)
    return read_exactly(body, tag, expected, exc, keep=keep, deep=deep, **how)


# ------------------------------------------------------------------ the hot path


def _split(payload: Payload) -> tuple[int, Any]:
    """Return ``(tag, body)``.

    ``body`` shares the payload's memory, never copying a large body of an immutable
    payload. A writable buffer (a ``bytearray``, a view of one) is copied first: this
    twin's reading runs Python code, during which another thread could write to the
    buffer, and one state of it is what is decoded. Raises EmptyFrameError, or TypeError
    when not bytes-like.
    """
    if type(payload) is bytes:
        if not payload:
            raise EmptyFrameError()
        if len(payload) <= _SLICE_LIMIT:
            return payload[0], payload[1:]
        return payload[0], memoryview(payload)[1:]
    view = payload_view(payload)
    if (
        not view.readonly
        or not view.c_contiguous
        or (view.ndim == 1 and view.strides != (view.itemsize,))
    ):
        # (a one-item strided view counts as contiguous, but its slices are not)
        copy = view.tobytes()
        view.release()
        view = memoryview(copy)
    elif view.ndim != 1 or view.itemsize != 1:
        view = view.cast("B")
    if not view.nbytes:
        view.release()
        raise EmptyFrameError()
    return view[0], view[1:]


def decode_notification(payload: Payload) -> t.ServerNotification | t.ErrorData:
    try:
        tag, body = _split(payload)
        try:
            if tag == _TAG_NOTIFICATION:
                found, src = _source(body, EXPECT_NOTIFICATION)
                if src is None:
                    return _exact(body, tag, EXPECT_NOTIFICATION, None, found)  # type: ignore[no-any-return]
                try:
                    return _decode_typed(src)
                except _ValidationError:
                    pass
                except _DECODE_ERRORS as exc:
                    return _exact(body, tag, EXPECT_NOTIFICATION, _own(exc, src, body), found)  # type: ignore[no-any-return]
                try:
                    other = custom(_decode_custom(src), tag)
                except _DECODE_ERRORS as exc:
                    return _exact(body, tag, EXPECT_NOTIFICATION, _own(exc, src, body), found)  # type: ignore[no-any-return]
                if other is None:  # serde's forms of a typed method: its reading decides
                    return _exact(body, tag, EXPECT_NOTIFICATION, None, found)  # type: ignore[no-any-return]
                return other
            if tag == _TAG_ERROR:
                return _decode_error(body, tag)
            raise UnknownTagError(tag, "notifications")
        finally:
            if type(body) is memoryview:
                body.release()  # else an error's traceback keeps the payload exported
    except FrameError as exc:
        payload = None  # type: ignore[assignment]
        raise bare(exc)  # noqa: B904 - re-raised as is: its own __cause__ stays
    except RecursionError:
        pass  # the caller's stack, not the body: once more on a fresh one (_stack)
    ok, value = run_fresh(decode_notification, payload, _NOTIFICATION_TYPES)
    if ok:
        return value  # type: ignore[return-value]
    payload = None  # type: ignore[assignment]
    raise bare(value)  # type: ignore[arg-type]


def decode_read_resource(payload: Payload) -> t.ReadResourceResult | t.ErrorData:
    try:
        tag, body = _split(payload)
        try:
            if tag == _TAG_RESULT:
                found, src = _source(body, EXPECT_RESULT)
                if src is None:
                    return _exact(body, tag, EXPECT_RESULT, None, found)  # type: ignore[no-any-return]
                try:
                    wire = _decode_result(src)
                except _DECODE_ERRORS as exc:
                    # inside ``contents``: the exact reading rejects it too, worded by exc
                    # (not JSON: it words serde's syntax error, past msgspec's openings)
                    plain = src is body and not found & _SYNTAX
                    error = item_rejection(tag, exc, body) if plain else None
                    if error is not None:
                        raise error from exc
                    return _exact(body, tag, EXPECT_RESULT, _own(exc, src, body), found)  # type: ignore[no-any-return]
                return read_resource_result(wire, tag)
            if tag == _TAG_ERROR:
                return _decode_error(body, tag)
            raise UnknownTagError(tag, "read-resource")
        finally:
            if type(body) is memoryview:
                body.release()  # else an error's traceback keeps the payload exported
    except FrameError as exc:
        payload = None  # type: ignore[assignment]
        raise bare(exc)  # noqa: B904 - re-raised as is: its own __cause__ stays
    except RecursionError:
        pass  # the caller's stack, not the body: once more on a fresh one (_stack)
    ok, value = run_fresh(decode_read_resource, payload, _READ_RESOURCE_TYPES)
    if ok:
        return value  # type: ignore[return-value]
    payload = None  # type: ignore[assignment]
    raise bare(value)  # type: ignore[arg-type]


def _decode_error(body: Any, tag: int) -> t.ErrorData:
    found, src = _source(body, EXPECT_ERROR)
    if src is None:
        return _exact(body, tag, EXPECT_ERROR, None, found)  # type: ignore[no-any-return]
    try:
        return _decode_error_data(src)
    except _DECODE_ERRORS as exc:
        return _exact(body, tag, EXPECT_ERROR, _own(exc, src, body), found)  # type: ignore[no-any-return]


def _own(exc: BaseException, src: Any, body: Any) -> BaseException | None:
    return exc if src is body else None  # msgspec's error of the body itself, else asked again


def encode_notification(value: t.ServerNotification | t.ErrorData) -> bytes:
    cls = type(value)
    if cls in TYPED_CLASSES:
        out = _TAG_NOTIFICATION_BYTE + _written(_encode, check(value))
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
    """``encode(value)`` for a value :func:`._checks.check` passed.

    Msgspec can still refuse a ``str`` that is not UTF-8, said here with its path.
    """
    try:
        return encode(value)  # type: ignore[no-any-return]
    except UnicodeEncodeError:
        raise unicode_error(value) from None
