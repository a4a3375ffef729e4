"""serde_json's reading of a whole body, as the rmcp rules need it.

:mod:`.serde_json` says what a reading keeps and rejects.

* :func:`parse`: the reference, one token at a time, as serde_json's ``Deserializer``
  goes; the first thing serde_json rejects is the one reported.
* :func:`read`: the same answer, the text read by the stdlib's C scanner (the pure
  twin's reader). What the scanner does not check (depth, ranges, surrogates, UTF-8,
  the members a direct struct skips) is checked after; when two different reasons
  to reject are found (only :func:`parse` knows which comes first), or a value is
  nested past the scanner's recursion, :func:`parse` decides.

The compiled twin reads bodies in C (``_serde_json.h``) and builds the same tree with
:func:`~.serde_json.tree`.
"""

from __future__ import annotations

import json.decoder
import json.scanner
import re
from types import SimpleNamespace
from typing import Any

import msgspec

from .._stack import MSGSPEC_MESSAGE_OPENINGS
from .serde_json import (
    COLON,
    DEPTH,
    EXPECTED_COMMA,
    EXPECTED_COMMA_TOP,
    EXPECTED_VALUE,
    KEY,
    MAX_DEPTH,
    NUMBER,
    RANGE,
    RECURSION_LIMIT,
    STRING,
    SURROGATE,
    TRAILING,
    UNICODE,
    Obj,
    Reject,
    after_ws,
    dicts_below,
    reject,
    serde_number,
    too_deep,
    tree,
)

__all__ = ["parse", "read", "NUMBER_GOES_ON"]

_BNUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
NUMBER_GOES_ON = frozenset(b"0123456789.eE")  #: bytes that go on a number's text
#: What serde_json's parse_number rejects where _BNUMBER ends (then NUMBER_GOES_ON):
#: a digit after a leading 0, a fraction or an exponent with no digit.
_BAD_NUMBER = re.compile(
    rb"-?(?:0[0-9]|(?:0|[1-9][0-9]*)(?:\.(?![0-9])|(?:\.[0-9]+)?[eE][-+]?(?![0-9])))"
)
#: A string as serde_json's reader delimits it: no raw control character, valid
#: escapes (``\uXXXX`` any four hex digits). UTF-8 is checked separately.
_BSTRING = re.compile(
    rb'"[^"\\\x00-\x1f]*(?:(?:\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"'
)  # unrolled, so no backtracking blow-up on a bad string
_LITERAL = re.compile(rb"true|false|null")
_LITERALS = {b"true": True, b"false": False, b"null": None}
_OPEN_OBJECT, _CLOSE_OBJECT, _OPEN_ARRAY, _CLOSE_ARRAY = 123, 125, 91, 93
_QUOTE, _COMMA, _COLON, _MINUS = 34, 44, 58, 45
_SURROGATE = re.compile("[\ud800-\udfff]")
_scanstring: Any = json.decoder.scanstring  # type: ignore[attr-defined]

# ------------------------------------------------------------------ the reference


def parse(
    body: Any, skip_unknown: tuple[str, ...] | None = None, keep: int = RECURSION_LIMIT
) -> Any:
    """Read a JSON text as serde_json does, one token at a time.

    Objects nested ``keep`` levels or less as :class:`Obj`, deeper ones as dicts (the
    last duplicate wins), numbers per :func:`serde_number`, strings checked (UTF-8,
    escapes, surrogate pairs), at any depth without recursion. ``body`` is read in place
    (no copy). Raises Reject, at the first thing serde_json rejects.

    ``skip_unknown``: the members of a struct serde reads directly (``ErrorData``,
    ``ReadResourceResult``); the values of other top-level members are only skipped,
    as serde's ``ignore_value`` does (syntax only: no UTF-8, surrogate or range check,
    no depth limit), and kept as ``None``.
    """
    data = body
    pos = after_ws(data, 0)
    if skip_unknown is not None and _at(data, pos) == _OPEN_OBJECT:
        value, pos = _top_object(data, pos, skip_unknown, keep)
    else:
        value, pos = _value(data, pos, 0, keep)
    if after_ws(data, pos) != len(data):
        raise Reject(TRAILING)
    return value


def _at(data: Any, pos: int) -> int:
    """The byte at ``pos``, or -1 past the end."""
    return data[pos] if pos < len(data) else -1


def _top_object(data: Any, pos: int, known: tuple[str, ...], keep: int) -> tuple[Obj, int]:
    obj = Obj()
    pos = after_ws(data, pos + 1)
    if _at(data, pos) == _CLOSE_OBJECT:
        return obj, pos + 1
    while True:
        key, pos = _key(data, pos)
        if key in known:
            value, pos = _value(data, pos, 1, keep)
        else:
            value, pos = None, _skip(data, pos)
        obj.append((key, value))
        pos = after_ws(data, pos)
        c = _at(data, pos)
        if c == _CLOSE_OBJECT:
            return obj, pos + 1
        if c != _COMMA:
            raise Reject(EXPECTED_COMMA_TOP)
        pos = after_ws(data, pos + 1)


def _scalar(data: Any, pos: int, c: int) -> tuple[Any, int]:
    """A string, number or literal at ``pos`` (first byte ``c``), checked."""
    if c == _QUOTE:
        return _string(data, pos)
    if c == _MINUS or 48 <= c <= 57:
        m = _number(data, pos)
        return serde_number(m.group().decode("ascii")), m.end()
    m = _LITERAL.match(data, pos)
    if m is None:
        raise Reject(EXPECTED_VALUE)
    return _LITERALS[m.group()], m.end()


def _number(data: Any, pos: int) -> Any:
    """The match of the number at ``pos``; serde's parse_number rejects a bad one there."""
    m = _BNUMBER.match(data, pos)
    if m is None or (_at(data, m.end()) in NUMBER_GOES_ON and _BAD_NUMBER.match(data, pos)):
        raise Reject(NUMBER)
    return m


def _value(data: Any, pos: int, depth: int, keep: int) -> tuple[Any, int]:
    """One checked JSON value from ``pos``, inside ``depth`` open arrays/objects.

    Returns it and the position after it. Like serde_json, fails at the first array or
    object 128 levels deep, before reading further.
    """
    stack: list[list[Any]] = []  # [container, pending key]
    n = len(data)  # below, `_at` and `after_ws` inlined where a byte > 32 is no whitespace
    while True:
        c = data[pos] if pos < n else -1
        if c in (_OPEN_OBJECT, _OPEN_ARRAY):
            level = depth + len(stack)
            if level >= MAX_DEPTH:
                raise reject(DEPTH)
            pos = after_ws(data, pos + 1) if pos + 1 < n and data[pos + 1] <= 32 else pos + 1
            is_object = c == _OPEN_OBJECT
            new: Any = (Obj() if level < keep else {}) if is_object else []
            if _at(data, pos) == (_CLOSE_OBJECT if is_object else _CLOSE_ARRAY):
                value: Any = new
                pos += 1
            elif is_object:
                key, pos = _key(data, pos)
                stack.append([new, key])
                continue
            else:
                stack.append([new, None])
                continue
        else:
            value, pos = _scalar(data, pos, c)
        while True:  # a value is complete: hand it to its container
            if not stack:
                return value, pos
            pos = after_ws(data, pos) if pos < n and data[pos] <= 32 else pos
            frame = stack[-1]
            container = frame[0]
            kind = type(container)
            if kind is Obj:
                container.append((frame[1], value))
            elif kind is dict:
                container[frame[1]] = value
            else:
                container.append(value)
            c = data[pos] if pos < n else -1
            if c == _COMMA:
                pos = after_ws(data, pos + 1) if pos + 1 < n and data[pos + 1] <= 32 else pos + 1
                if kind is not list:
                    frame[1], pos = _key(data, pos)
                break
            if c == (_CLOSE_ARRAY if kind is list else _CLOSE_OBJECT):
                stack.pop()
                value = container
                pos += 1
                continue
            raise Reject(EXPECTED_COMMA)


def _string(data: Any, pos: int) -> tuple[str, int]:
    """A checked string at ``pos`` (its opening quote): serde's ``parse_str``."""
    m = _BSTRING.match(data, pos)
    if m is None:
        raise Reject(STRING)
    try:
        text = m.group().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Reject(UNICODE) from exc
    value = _scanstring(text, 1, True)[0]
    if _SURROGATE.search(value):
        raise Reject(SURROGATE)
    return value, m.end()


def _key(data: Any, pos: int) -> tuple[str, int]:
    if _at(data, pos) != _QUOTE:
        raise Reject(KEY)
    key, pos = _string(data, pos)
    pos = after_ws(data, pos)
    if _at(data, pos) != _COLON:
        raise Reject(COLON)
    return key, after_ws(data, pos + 1)


def _skip(data: Any, pos: int) -> int:
    """Skip one value as serde's ``ignore_value`` does; returns the position after it."""
    closers: list[int] = []
    while True:
        c = _at(data, pos)
        if c in (_OPEN_OBJECT, _OPEN_ARRAY):
            pos = after_ws(data, pos + 1)
            close = _CLOSE_OBJECT if c == _OPEN_OBJECT else _CLOSE_ARRAY
            if _at(data, pos) == close:
                pos += 1
            else:
                closers.append(close)
                if c == _OPEN_OBJECT:
                    pos = _skip_key(data, pos)
                continue
        elif c == _MINUS or 48 <= c <= 57:
            pos = _number(data, pos).end()
        else:
            m = (_BSTRING if c == _QUOTE else _LITERAL).match(data, pos)
            if m is None:
                raise Reject(STRING if c == _QUOTE else EXPECTED_VALUE)
            pos = m.end()
        while True:
            if not closers:
                return pos
            pos = after_ws(data, pos)
            c = _at(data, pos)
            if c == _COMMA:
                pos = after_ws(data, pos + 1)
                if closers[-1] == _CLOSE_OBJECT:
                    pos = _skip_key(data, pos)
                break
            if c == closers[-1]:
                closers.pop()
                pos += 1
                continue
            raise Reject(EXPECTED_COMMA)


def _skip_key(data: Any, pos: int) -> int:
    m = _BSTRING.match(data, pos)
    if m is None:
        raise Reject(STRING if _at(data, pos) == _QUOTE else KEY)
    pos = after_ws(data, m.end())
    if _at(data, pos) != _COLON:
        raise Reject(COLON)
    return after_ws(data, pos + 1)


# ------------------------------------------------------------------ the stdlib's scanner

_scanner: Any = json.scanner  # typeshed lacks c_make_scanner / py_make_scanner
_make_scanner = _scanner.c_make_scanner or _scanner.py_make_scanner
#: A surrogate escape somewhere (or text that looks like one): strings are then checked.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]").search
_check_strings = msgspec.json.Encoder().encode  # raises on a lone surrogate in a str


class _Numbers:
    """The scanner's number hooks.

    Serde_json's values, and whether one was out of range (counted, not raised: what
    else is wrong is known only once the text is read).
    """

    def __init__(self) -> None:
        self.out_of_range = 0

    def integer(self, text: str) -> Any:
        if len(text) < 19 and text != "-0":
            return int(text)  # within i64: serde's value too
        return self.number(text)

    def real(self, text: str) -> Any:
        if len(text) <= 16 and "e" not in text and "E" not in text:
            return float(text)  # at most 15 digits: plain (serde_number agrees)
        return self.number(text)

    def number(self, text: str) -> Any:
        try:
            return serde_number(text)
        except Reject:
            self.out_of_range += 1
            return 0.0

    def constant(self, text: str) -> Any:
        raise Reject(EXPECTED_VALUE)  # NaN, Infinity: not JSON


def read(
    body: Any,
    skip_unknown: tuple[str, ...] | None = None,
    keep: int = RECURSION_LIMIT,
    numbers: bool = True,
    pairs: bool = True,
    deep: bool | None = None,
) -> Any:
    """:func:`parse`'s answer (the same tree, the same Reject), read by the stdlib's scanner.

    ``numbers``: some number may not be plain (else the scanner's own
    ``int`` and ``float`` read them, faster); ``pairs``: some object nested ``keep``
    levels or less may repeat a key (else objects are read as dicts, faster, unless a
    surrogate escape or the nesting has to be checked in every value, a repeated key's
    first one too: serde reads it before its map keeps the last); ``deep``:
    whether the body is nested more than ``MAX_DEPTH`` levels anywhere, when known (a
    repeated key's first value counts as much as its last: serde reads both). Raises
    Reject."""
    bad_utf8 = False
    try:
        text = str(body, "utf-8")
    except UnicodeDecodeError as exc:
        if skip_unknown is not None:
            try:  # a whole value before it: a trailing character (serde read all before)
                read(body[: exc.start], skip_unknown, keep, numbers, pairs, deep)
            except Reject as before:
                if str(before) != TRAILING:
                    return parse(body, skip_unknown, keep)  # maybe in a skipped value
            raise Reject(TRAILING) from None
        text = str(body, "utf-8", "surrogateescape")
        bad_utf8 = True
    if deep and skip_unknown is not None:
        deep = None  # maybe in a value a direct struct skips, which serde does not limit
    brackets = text.count("[") + text.count("{")
    escapes = _SURROGATE_ESCAPE(text) is not None
    if not pairs and (escapes or (deep is None and brackets > MAX_DEPTH)):
        # Serde reads a repeated key's first value as much as its last: objects read as
        # dicts would drop it before its strings (or its depth) are checked.
        pairs = True
    hooks = _Numbers()
    context = SimpleNamespace(
        strict=True,
        object_hook=None,
        object_pairs_hook=Obj if pairs else None,
        parse_int=hooks.integer if numbers else int,
        parse_float=hooks.real if numbers else float,
        parse_constant=hooks.constant,
        memo={},
    )
    scan = _make_scanner(context)
    start = after_ws(text, 0)
    try:
        if skip_unknown is not None and text[start : start + 1] == "{":
            value, checked, end = _read_top_object(text, start, scan, hooks, skip_unknown)
        else:
            value, end = scan(text, start)
            checked = value
    except RecursionError:
        return parse(body, skip_unknown, keep)  # nested past the scanner's recursion
    except (StopIteration, ValueError, Reject) as exc:  # JSONDecodeError: msgspec rejects it
        if brackets <= MSGSPEC_MESSAGE_OPENINGS:  # and words it; else only a prefix:
            raise exc if isinstance(exc, Reject) else Reject(EXPECTED_VALUE) from None
        return parse(body, skip_unknown, keep)  # serde's first reason, of all before it
    finally:
        del scan, context  # the scanner holds its context (memo: every key)
    trailing = after_ws(text, end) != len(text)  # after all the value's reasons
    if trailing and brackets <= MSGSPEC_MESSAGE_OPENINGS:
        raise Reject(TRAILING)  # msgspec words it
    reasons = [UNICODE] if bad_utf8 and _SURROGATE.search(text, 0, end) else []
    text = ""  # the tree holds what is needed (a body's worth of memory, freed)
    if hooks.out_of_range:
        reasons.append(RANGE)
    if deep or (deep is None and brackets > MAX_DEPTH and too_deep(checked)):
        reasons.append(DEPTH)
    if escapes:
        try:
            _check_strings(checked)
        except UnicodeEncodeError:  # a lone surrogate (or a byte that was not UTF-8)
            reasons.append(SURROGATE)
        except RecursionError:  # nested past msgspec's recursion: deep, and in which order
            return parse(body, skip_unknown, keep)
    if trailing:
        reasons.append(TRAILING)
    if len(reasons) == 1:
        raise reject(reasons[0])
    if reasons:
        return parse(body, skip_unknown, keep)  # which comes first
    return dicts_below(value, keep) if pairs else tree(value, keep)


def _read_top_object(
    text: str, pos: int, scan: Any, hooks: _Numbers, known: tuple[str, ...]
) -> tuple[Obj, Obj, int]:
    """A struct read directly (``text[pos]`` is its ``{``).

    Its members one by one, the values of those it does not have read and dropped
    (serde's ignore_value checks their syntax only). Returns the object, its members
    that serde checks, and the position after it.
    """
    obj, checked = Obj(), Obj()
    pos = after_ws(text, pos + 1)
    if text[pos : pos + 1] == "}":
        end = pos + 1
    else:
        while True:
            if text[pos : pos + 1] != '"':
                raise Reject(KEY)
            key, pos = _scanstring(text, pos + 1, True)
            pos = after_ws(text, pos)
            if text[pos : pos + 1] != ":":
                raise Reject(COLON)
            pos = after_ws(text, pos + 1)
            if key in known:
                value, pos = scan(text, pos)
                checked.append((key, value))
            else:
                before = hooks.out_of_range
                _, pos = scan(text, pos)
                hooks.out_of_range = before  # serde does not read a skipped number
                value = None
                checked.append((key, None))  # the key is read (a lone surrogate in it counts)
            obj.append((key, value))
            pos = after_ws(text, pos)
            c = text[pos : pos + 1]
            if c == "}":
                end = pos + 1
                break
            if c != ",":
                raise Reject(EXPECTED_COMMA_TOP)
            pos = after_ws(text, pos + 1)
    return obj, checked, end
