"""The words of a body rmcp rejects: the FrameBodyError each twin raises.

msgspec's own error is preferred when msgspec rejects the body too (its message and path
are better than serde_json's reasons), unless serde_json read the body whole and msgspec's
is an error of syntax (:data:`SKIPPED_UNREAD`); else serde_json's or rmcp's reason. The quick
reading asked for that error is one table on the expected type (:data:`_QUICK`, in the
order of :data:`.rmcp_structs.EXPECTED`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec

from .._stack import on_fresh_stack, within_openings
from .._wire import (
    DECODE_ERRORS,
    custom_decoder,
    error_decoder,
    notification_decoder,
    result_decoder,
)
from ..errors import INVALID_UTF8, FrameBodyError
from .rmcp_custom import custom_notification
from .rmcp_result import check_items
from .rmcp_structs import EXPECT_RESULT, EXPECTED
from .serde_json import Reject, plain_number
from .serde_json_reader import NUMBER_GOES_ON
from .serde_json_spelling import spelled_number

__all__ = [
    "rejection",
    "msgspec_rejection",
    "utf8_rejection",
    "item_rejection",
    "bare",
    "detached",
    "serde_spelling",
]

#: msgspec's message for input that ends early (``msgspec.DecodeError``).
_TRUNCATED = "Input data was truncated"


def rejection(
    body: Any,
    tag: int,
    expected: int,
    reason: str | None,
    cause: BaseException | None = None,
    exc: BaseException | None = None,
    failed: BaseException | None = None,
    numbers_plain: bool = False,
    asked: bool = False,
    parsed: bool = False,
) -> FrameBodyError:
    """The FrameBodyError for a body of type ``EXPECTED[expected]`` that rmcp rejects.

    ``reason`` (caused by ``cause``), or msgspec's error when msgspec rejects the body
    too, since its message and path are better: ``exc``, the twin's, or else the quick
    reading's asked again (or ``failed``, the exact reading's own). ``numbers_plain``:
    the twin found every number of the body plain (its scan, or :func:`_maybe_hard`'s
    C copy), so that none is spelled anew for the quick reading and ``exc`` is not asked
    again. ``asked``: the quick reading was asked already and read the body (so not
    again). ``parsed``: serde_json read the whole body, so that rmcp rejects it for its
    types alone (:data:`SKIPPED_UNREAD`: msgspec's syntax errors do not word it).
    Returned, for the caller to raise.
    """
    if exc is None:
        exc = failed if asked else _msgspec_error(body, tag, expected, numbers_plain) or failed
    elif not isinstance(exc, FrameBodyError):
        src, cut = within_openings(body)
        if cut:
            # The twin's error came from the whole body: msgspec's words count only for
            # the part it is asked of (its first openings), the same in both twins.
            exc = _msgspec_error(body, tag, expected, numbers_plain) or failed
        elif not numbers_plain and _maybe_hard(src):
            # The twin's error came from the body as written: a number serde_json reads
            # otherwise (``-0``, beyond 64 bits) may come before a later syntax error.
            exc = _msgspec_error(body, tag, expected) or exc
    if parsed and _unread_by_serde(exc):
        exc = failed
    if exc is not None:
        return _worded(tag, expected, exc)
    error = FrameBodyError(tag, EXPECTED[expected], reason or "rejected")
    error.__cause__ = cause
    return error


#: serde_json skips the value of a member a struct does not have (``ignore_value``)
#: checking its syntax alone: an escape's hex digits, not whether it makes a lone
#: surrogate (``"\ud800"``), which msgspec rejects wherever it reads or skips one. So
#: when serde_json read a body whole, a syntax error msgspec gives for it is about what
#: serde_json skipped unread, not rmcp's reason: the rejection is worded by the rule
#: that rejected it (an item neither text nor blob, a missing member), as rmcp words it.
SKIPPED_UNREAD = "a lone surrogate escape in a value serde_json skips"


def _unread_by_serde(exc: BaseException | None) -> bool:
    """Whether ``exc`` is msgspec's error of syntax (not a ValidationError).

    Of a body serde_json read whole, such an error is about what it skipped unread
    (:data:`SKIPPED_UNREAD`)."""
    return isinstance(exc, DECODE_ERRORS) and not isinstance(exc, msgspec.ValidationError)


def msgspec_rejection(body: Any, tag: int, expected: int) -> FrameBodyError | None:
    """The FrameBodyError for a body rmcp rejects whatever its value, worded by msgspec.

    That is a body with more than whitespace after its value: serde_json rejects it,
    and msgspec's quick reading words it as :func:`rejection` would. None when msgspec
    does not reject what it is asked of (a body of many openings): the exact reading
    then finds serde_json's first reason.
    """
    exc = _msgspec_error(body, tag, expected)
    return None if exc is None else _worded(tag, expected, exc)


def utf8_rejection(
    shortened: bytes, tag: int, expected: int, numbers_plain: bool
) -> FrameBodyError | None:
    """msgspec's FrameBodyError for a body serde_json rejects for a string's UTF-8, or None.

    ``shortened`` is the body without a run of that string's characters before its
    invalid UTF-8 (the compiled twin's ``df_sj_plain_run``: whole UTF-8 characters, no
    quote, backslash, control byte or opening). msgspec reads it as it reads the body up
    to that string, then meets the same bytes, so that its words for invalid UTF-8 (which
    hold no offset) are the body's, at the cost of what is left: a long string is not read
    twice, nor held twice by a ``UnicodeDecodeError``. None when msgspec gives other
    words (they may hold the shortened body's offsets): the caller asks of the body.
    ``numbers_plain`` as for :func:`rejection`.
    """
    exc = _msgspec_error(shortened, tag, expected, numbers_plain)
    if isinstance(exc, UnicodeDecodeError) or (
        isinstance(exc, DECODE_ERRORS) and str(exc) == INVALID_UTF8
    ):
        return _worded(tag, expected, exc)
    return None


def _worded(tag: int, expected: int, exc: BaseException) -> FrameBodyError:
    """The FrameBodyError of msgspec's error (or the exact reading's) ``exc``."""
    if isinstance(exc, FrameBodyError):
        return exc
    error = FrameBodyError.from_exception(tag, EXPECTED[expected], exc)
    error.__cause__ = exc
    return error


def item_rejection(
    tag: int, exc: BaseException, body: Any = b"", numbers_plain: bool = False
) -> FrameBodyError | None:
    """The FrameBodyError for a result msgspec rejects inside ``contents``, or None.

    ``exc`` is msgspec's typed reading's error of ``body`` as it is, a ValidationError at
    ``$.contents`` or below, for a ``ReadResourceResult`` body in which the pre-check
    found no rule of rmcp's to apply (no member repeated at a struct position, nothing
    skipped): the exact reading reads each of its items as msgspec does (it rewrites only
    an item with a repeated member), so it rejects the body too, and :func:`rejection`
    words it, from ``exc`` unless a number serde_json reads otherwise (``-0``) comes
    first (``numbers_plain`` as there); past the openings msgspec is asked of, from
    ``exc`` too, the words the exact reading's own msgspec step gives. None when
    ``exc`` lies elsewhere (a top-level member: rmcp reads serde's forms of its enums and
    of the struct itself): the exact reading decides.
    """
    if not isinstance(exc, msgspec.ValidationError):
        return None
    path = FrameBodyError.from_exception(tag, EXPECTED[EXPECT_RESULT], exc).path or ""
    if path != "$.contents" and not path.startswith("$.contents["):
        return None
    return rejection(
        body, tag, EXPECT_RESULT, None, None, exc, exc, numbers_plain=numbers_plain, parsed=True
    )


def bare(exc: BaseException) -> BaseException:
    """``exc`` with its traceback, and those of the exceptions it chains, dropped.

    They hold the frames of a decode, and those frames the caller's buffer (a bytearray
    could not be resized while the error is kept). The compiled twin has no frames.
    """
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        error = todo.pop()
        if error is not None and id(error) not in seen:
            seen.add(id(error))
            error.__traceback__ = None
            todo += (error.__cause__, error.__context__)
    return exc


def detached(error: BaseException) -> BaseException:
    """``error`` kept to be chained later: :func:`bare`, and without its context."""
    error.__context__ = None
    return bare(error)


def _quick_notification(src: Any, tag: int) -> None:
    try:
        notification_decoder.decode(src)
    except msgspec.ValidationError:
        value = custom_decoder.decode(src)
        custom_notification(value.method, value.params, tag)


def _quick_result(src: Any, tag: int) -> None:
    check_items(result_decoder.decode(src), tag)


def _quick_error(src: Any, tag: int) -> None:
    error_decoder.decode(src)


#: msgspec's quick reading of each expected type, to ask it for its error.
_QUICK: tuple[Callable[[Any, int], None], ...] = (_quick_notification, _quick_result, _quick_error)


#: ``-0`` as a whole number, or text that looks like one.
_NEGATIVE_ZERO = re.compile(rb"-0(?![.0-9])").search
#: The glance of :func:`_maybe_hard`: a digit or a point -> ``0``, ``e`` / ``E`` -> ``e``,
#: a sign -> ``+``, any other byte -> a space.
_GLANCE = bytes(
    b"0"[0] if b in b"0123456789." else b"e"[0] if b in b"eE" else b"+"[0] if b in b"+-" else 32
    for b in range(256)
)


def _maybe_hard(body: Any) -> bool:
    """A number that may not be plain, at a glance, or text that looks like one.

    An exponent, a run of 16 digits and points, a ``-0``: only then is a body spelled
    anew. At memory speed (``bytes.translate`` and ``find``, no regex over the body).
    """
    if _NEGATIVE_ZERO(body) is not None:
        return True
    glance = (body if type(body) is bytes else bytes(body)).translate(_GLANCE)
    if b"0" * 16 in glance:
        return True
    return b"e" in glance and (b"e0" in glance or b"e+0" in glance)  # memchr first


#: A JSON string, or a JSON number (outside strings: the strings are matched first). A
#: string left open runs to the end, so that no quote is tried twice (linear time).
_STRING_OR_NUMBER = re.compile(
    rb'"(?:[^"\\]|\\.)*(?:"|\\?\Z)|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?',
    re.DOTALL,
)


def serde_spelling(body: Any) -> Any:
    """``body`` (bytes-like JSON) with each number spelled as the value serde_json reads.

    A number that is not plain (:func:`plain_number`) is written as its
    :func:`serde_number` (an integer beyond 64 bits, ``-0`` and the like as floats); one
    out of range is left as it is. So msgspec, asked for its error about the body, types
    the numbers as rmcp does. ``body`` itself when nothing may need it (one search).
    """
    if not _maybe_hard(body):
        return body
    return _STRING_OR_NUMBER.sub(_spelled, body)


def _spelled(match: re.Match[bytes]) -> bytes:
    token = match.group()
    if token[0] == 34 or plain_number(token.decode("ascii")):  # a string, a plain number
        return token
    end = match.end()
    if match.string[end : end + 1] and match.string[end] in NUMBER_GOES_ON:
        # only a piece of digits that are no JSON number (``-01``, ``1.``, ``1e``): left
        # as it is, since spelled otherwise (``-0`` as ``-0.0``) it could hide the error
        return token
    try:
        return spelled_number(token.decode("ascii")).encode("ascii")
    except Reject:
        return token


def _msgspec_error(
    body: Any, tag: int, expected: int, numbers_plain: bool = False
) -> BaseException | None:
    """The error msgspec's quick reading gives for a body rmcp rejects, or None.

    None when msgspec reads it. A body that opens many arrays and objects is asked only
    up to ``_stack.MSGSPEC_MESSAGE_OPENINGS`` of them (``within_openings``), so that the
    answer never depends on the stack's recursion budget and a deep body costs no more
    than its first openings. Msgspec reads that part with its numbers spelled as
    serde_json reads them (:func:`serde_spelling`: ``-0`` and an integer beyond 64 bits
    are floats), so that its first error is the one rmcp's types meet, in both twins; a
    syntax error is then asked of the body itself (its byte offset is the body's). With
    ``numbers_plain``, none needs it: the body is asked as it is.
    """
    src, cut = within_openings(body)
    spelled = src if numbers_plain else serde_spelling(src)
    error = _asked(spelled, cut, tag, expected)
    if (
        spelled is not src
        and isinstance(error, DECODE_ERRORS)
        and not isinstance(error, msgspec.ValidationError)
    ):
        error = _asked(src, cut, tag, expected)
    return error


def _asked(src: Any, cut: bool, tag: int, expected: int) -> BaseException | None:
    """Msgspec's quick reading's error for ``src``, or None.

    ``cut`` says that ``src`` is the body cut at its last opening asked of: None then
    when msgspec reads that far without an error (it would have read on).
    """
    try:
        _QUICK[expected](src, tag)
    except DECODE_ERRORS as exc:
        if cut and _TRUNCATED in str(exc):
            return None  # msgspec would have read on past the prefix
        return detached(exc)
    except RecursionError:
        if not on_fresh_stack():
            raise  # the caller's stack may be at fault: the hot path decodes on a fresh one
        return None  # nesting msgspec cannot follow: the exact reading's reason stands
    except FrameBodyError as exc:
        return detached(exc)
    return None
