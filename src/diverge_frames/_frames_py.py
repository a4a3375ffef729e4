"""The hot path in pure Python: tag split, pre-check, dispatch to msgspec, encode.

The readable reference of the two twins; ``_frames_c.pyx`` does the same, with fast
paths of its own (its docstring lists them). Both pass the same tests and give the
same values, bytes and errors. Each holds its whole hot path; what both use lives in
:mod:`._wire` (decoders and encoders), :mod:`._serde_json` and :mod:`._rmcp` (the
rules).

A body goes to msgspec's typed decoders unless :func:`_needs_exact` says msgspec might
read it otherwise than serde_json, or msgspec rejects it: then the rmcp-exact reading
(:func:`._rmcp.decode_exact`, the body read by :func:`._serde_read.read`) decides.
"""

from __future__ import annotations

import functools
import json.scanner
import re
import threading
from types import SimpleNamespace
from typing import Any

import msgspec

from . import types as t
from ._checks import check, unicode_error
from ._rmcp import (
    STRUCT_DEPTH,
    decode_custom,
    decode_exact,
    encode_custom,
    item_rejection,
    read_resource_result,
)
from ._rmcp_positions import STRUCT_POSITIONS, Position, models_below
from ._serde_json import (
    MAX_DEPTH,
    RECURSION_LIMIT,
    after_ws,
    exponent_candidate,
    fix_exponents,
    plain_number,
)
from ._serde_read import read
from ._stack import run_fresh
from ._wire import (
    DECODE_ERRORS,
    RELEASED_PAYLOAD,
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

#: What the pre-check finds (bits; 0: msgspec reads the body as serde_json does).
_NUMBERS = 1  # a number that is not plain: the exact reading takes serde's numbers
_PAIRS = 2  # a member repeated at a struct position, or serde's sequence form of a struct
_DEEP = 4  # more than MAX_DEPTH levels of nesting
_OTHER = 8  # invalid UTF-8, or nesting the scanner could not follow: the exact reading decides
_MODEL = 16  # a member only _rmcp_model reads (inputRequests): pairs kept all the way down


class _ScanState(threading.local):
    """Per-thread stdlib JSON scanner that records number literals as it reads (the
    lists are emptied before it returns: nothing of a body stays behind)."""

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
#: Number literals that are plain at a glance: at most 15 digits (16 characters with the
#: point, or the sign), with an exponent of at most 7 (a power of ten within 10^22);
#: integers of at most 18 characters but -0. The others :func:`plain_number` decides.
_PLAIN_FLOATS = re.compile(
    r"(?<![^,])-?(?:[0-9]{1,15}|(?=[0-9.]{3,16}(?![0-9.]))[0-9]+\.[0-9]+)"
    r"(?:[eE][-+]?0{0,3}[0-7])?(?![^,])"
)
_PLAIN_INTS = re.compile(r"(?<![^,])(?!-0(?:,|$))-?[0-9]{1,18}(?![^,])")
_LITERAL = re.compile(r"[^,]+")


def _needs_exact(body: Any, expected: str | None = None) -> int:
    """What may make msgspec read ``body`` otherwise than serde_json (0: nothing):
    ``_NUMBERS``, a number that is not plain (:func:`plain_number`); ``_PAIRS``, a
    member repeated at a struct position of ``expected`` (:data:`STRUCT_POSITIONS`), or
    an array where a struct is read (with ``_MODEL``: a member only ``_rmcp_model``
    reads, ``inputRequests``); ``_DEEP``, ``MAX_DEPTH + 1`` levels of nesting;
    ``_OTHER``, invalid UTF-8 (msgspec does not check what it skips) or nesting past the
    scanner's recursion. 0 for a body that is not JSON: msgspec rejects it. Without
    ``expected``, the struct positions of every top-level type count.

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
        except UnicodeDecodeError:
            return _OTHER  # msgspec does not check the UTF-8 of what it skips; serde mostly does
        if len(text) > _PREFIX:
            text = _without_long_blobs(text)
        try:
            tree = state.scan(text, after_ws(text, 0))[0]
        except RecursionError:
            return _OTHER
        except (StopIteration, ValueError):
            return 0  # not JSON: msgspec rejects it, the exact reading confirms
        found = 0
        if ints and _hard(ints, _PLAIN_INTS):
            found |= _NUMBERS
        if floats and _hard(floats, _PLAIN_FLOATS):
            found |= _NUMBERS
        if len(text) >= 256 and text.count("[") + text.count("{") > MAX_DEPTH and _too_deep(tree):
            found |= _DEEP
        for name in STRUCT_POSITIONS if expected is None else (expected,):
            found |= _repeated(tree, STRUCT_POSITIONS[name])
        return found
    finally:
        ints.clear()
        floats.clear()


def _hard(literals: list[str], plain: re.Pattern[str]) -> bool:
    """Some of the number ``literals`` is not plain: those not ``plain`` at a glance are
    looked at one by one (as they are found, until one is not plain)."""
    rest = _LITERAL.finditer(plain.sub("", ",".join(literals)))
    return not all(map(plain_number, map(re.Match.group, rest)))


def _without_long_blobs(text: str) -> str:
    """``text`` with the content of each long ``"blob"`` string value without a
    backslash left out (``"blob":""``), so that the scan does not copy a blob: the peak
    memory of a decode stays near one blob, not two. What ``_needs_exact`` looks for is
    unchanged: a string value takes no part in repeated members, numbers or nesting, and
    the UTF-8 of the whole body is checked before. An unescaped ``"`` in JSON text is a
    string's delimiter, so in JSON ``"blob":"`` opens the value of a ``blob`` key, and
    the next ``"`` (no backslash before it) closes it. In text that is not JSON the cut
    may change the verdict, harmlessly: msgspec rejects the body either way, and the
    exact reading words the error."""
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


def _repeated(tree: Any, position: Position) -> int:
    """``_PAIRS`` for a member repeated in an object (a tuple of pairs) at a struct
    position, or an array at one (serde's sequence form); with ``_MODEL`` for a member
    only ``_rmcp_model`` reads; else 0. Without recursion."""
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


def _exact(
    body: Any, tag: int, expected: str, exc: BaseException | None = None, found: int = 0
) -> Any:
    """rmcp's reading of ``body`` (:func:`._rmcp.decode_exact`, called as it is), the
    body read by :func:`._serde_read.read` with what the pre-check ``found``."""
    reader = functools.partial(
        read,
        # a model member, or a body the pre-check could not read all of: every pair kept
        keep=RECURSION_LIMIT if found & (_MODEL | _OTHER) else STRUCT_DEPTH,
        numbers=bool(found & _NUMBERS),
        pairs=bool(found & _PAIRS),
        deep=None if found & _OTHER else bool(found & _DEEP),
    )
    return decode_exact(body, tag, expected, exc, reader)


# ------------------------------------------------------------------ the hot path


def _split(payload: Payload) -> tuple[int, Any]:
    """Return ``(tag, body)``; ``body`` shares the payload's memory, never copying a
    large body of an immutable payload. A writable buffer (a ``bytearray``, a view of
    one) is copied first: this twin's reading runs Python code, during which another
    thread could write to the buffer, and one state of it is what is decoded. Raises
    EmptyFrameError, or TypeError when not bytes-like."""
    if type(payload) is bytes:
        if not payload:
            raise EmptyFrameError()
        if len(payload) <= _SLICE_LIMIT:
            return payload[0], payload[1:]
        return payload[0], memoryview(payload)[1:]
    try:
        view = memoryview(payload)
    except ValueError:  # released
        raise ValueError(RELEASED_PAYLOAD) from None
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
                found = _needs_exact(body, "ServerNotification")
                if found:
                    return _exact(body, tag, "ServerNotification", None, found)  # type: ignore[no-any-return]
                try:
                    return _decode_typed(body)
                except _ValidationError:
                    return decode_custom(body, tag, _exact)
                except _DECODE_ERRORS as exc:
                    return _exact(body, tag, "ServerNotification", exc)  # type: ignore[no-any-return]
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
                found = _needs_exact(body, "ReadResourceResult")
                if found:
                    return _exact(body, tag, "ReadResourceResult", None, found)  # type: ignore[no-any-return]
                try:
                    wire = _decode_result(body)
                except _DECODE_ERRORS as exc:
                    # inside ``contents``: the exact reading rejects it too, worded by exc
                    error = item_rejection(tag, exc)
                    if error is not None:
                        raise error from exc
                    return _exact(body, tag, "ReadResourceResult", exc)  # type: ignore[no-any-return]
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
    found = _needs_exact(body, "ErrorData")
    if found:
        return _exact(body, tag, "ErrorData", None, found)  # type: ignore[no-any-return]
    try:
        return _decode_error_data(body)
    except _DECODE_ERRORS as exc:
        return _exact(body, tag, "ErrorData", exc)  # type: ignore[no-any-return]


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
