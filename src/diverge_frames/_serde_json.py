"""serde_json 1.0.154, as rmcp 3.1.4 reads and writes JSON with it: the rules that know
JSON and nothing of MCP.

Reading (``serde_json::de``): :func:`parse` reads a JSON text the way serde_json's
``Deserializer`` does and keeps what the rmcp rules need (:mod:`diverge_frames._rmcp`):

* objects as :class:`Obj`, their (key, value) pairs with duplicates and order kept (a
  derived struct rejects a duplicated member; a ``Map`` keeps the last);
* numbers as ``Value`` holds them (:func:`serde_number`, mirroring ``parse_integer``,
  ``parse_decimal``, ``parse_exponent`` and ``f64_from_parts`` without the
  ``float_roundtrip`` feature): an ``int`` for ``u64`` / ``i64``, else the f64 computed
  as ``significand * 10^exp`` with digits past the 19th or 20th dropped, which is not
  always the nearest double; ``-0`` is the float ``-0.0``;
* strings checked as ``parse_str`` checks them: UTF-8, escapes, surrogate pairs, no raw
  control character;
* depth: ``RECURSION_LIMIT`` (128) arrays/objects fail at the first one that reaches it,
  before reading further; ``ignore_value`` skips a value by its syntax alone.

Where msgspec reads the same: a body with valid UTF-8, fewer than ``RECURSION_LIMIT``
levels, no duplicated struct member and only plain numbers (no exponent, at most
``MAX_PLAIN_DECIMAL_DIGITS`` digits in a number with a fraction, at most
``MAX_PLAIN_INTEGER_DIGITS`` in one without, not ``-0``) decodes to the same values with
msgspec as with serde_json. The hot paths' pre-checks test exactly that.

Writing (``serde_json::ser``, ``ryu``): an f64 whose decimal exponent is outside
``-5..=15`` is written in exponent form with its sign, ``1e+16``, where msgspec writes
``1e16``; only positive exponents differ, and :func:`fix_exponents` inserts the ``+``.
"""

from __future__ import annotations

import json.decoder
import re
from typing import Any

__all__ = [
    "RECURSION_LIMIT",
    "MAX_DEPTH",
    "MAX_PLAIN_DECIMAL_DIGITS",
    "MAX_PLAIN_INTEGER_DIGITS",
    "Reject",
    "Obj",
    "parse",
    "serde_number",
    "plain",
    "fix_exponents",
    "exponent_candidate",
]

#: serde_json's ``remaining_depth`` starts at 128: the 128th nested array/object fails.
RECURSION_LIMIT = 128
#: The deepest nesting serde_json reads.
MAX_DEPTH = RECURSION_LIMIT - 1
#: Digits (before and after the point) of a number with a fraction and no exponent that
#: msgspec and serde_json read as the same f64: a significand below 2^53 and a power of
#: ten within 10^22 make serde's one multiplication or division exact-rounded, as
#: msgspec's reading is (Clinger's fast path).
MAX_PLAIN_DECIMAL_DIGITS = 15
#: Digits of an integer that fits ``i64`` whatever its sign (serde_json's ``Value`` and
#: msgspec both hold it exactly); a longer one may not fit, and serde_json then makes it
#: an f64.
MAX_PLAIN_INTEGER_DIGITS = 18

# ------------------------------------------------------------------ reading


class Reject(Exception):
    """serde_json (or rmcp) rejects the body; the message says why. ``cause`` is chained
    to the FrameBodyError (a RecursionError for nesting past serde_json's limit)."""

    def __init__(self, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.cause = cause


_U64_MAX = 2**64 - 1
_POW10 = tuple(float(f"1e{i}") for i in range(309))  # serde_json's POW10 table
_SURROGATE = re.compile("[\ud800-\udfff]")
_scanstring: Any = json.decoder.scanstring  # type: ignore[attr-defined]


class Obj(list):  # type: ignore[type-arg]
    """A JSON object as read: its (key, value) pairs, duplicates and order kept."""

    __slots__ = ()


def serde_number(text: str) -> int | float:
    """The value serde_json 1.0.154 reads from a JSON number (``Value`` semantics):
    an int for ``u64`` / ``i64``, else an f64 computed as serde does (no
    ``float_roundtrip``: ``significand * 10^exp``, digits past the 19th or 20th dropped)."""
    positive = text[0] != "-"
    s = text if positive else text[1:]
    n = len(s)
    significand = 0
    i = 1 if s[0] == "0" else 0
    if i == 0:
        while i < n and "0" <= s[i] <= "9":
            digit = ord(s[i]) - 48
            if significand > 1844674407370955161 or (
                significand == 1844674407370955161 and digit > 5
            ):
                return _long_integer(positive, significand, s, i)
            significand = significand * 10 + digit
            i += 1
    if i < n and s[i] == ".":
        return _decimal(positive, significand, 0, s, i)
    if i < n:
        return _exponent(positive, significand, 0, s, i)
    if positive:
        return significand
    if significand == 0 or significand > 2**63:
        return -float(significand)
    return -significand


def _long_integer(positive: bool, significand: int, s: str, i: int) -> float:
    exponent = 0
    n = len(s)
    while i < n and "0" <= s[i] <= "9":
        exponent += 1
        i += 1
    if i < n and s[i] == ".":
        return _decimal(positive, significand, exponent, s, i)
    if i < n:
        return _exponent(positive, significand, exponent, s, i)
    return _f64_from_parts(positive, significand, exponent)


def _decimal(positive: bool, significand: int, exponent_before: int, s: str, i: int) -> float:
    i += 1
    n = len(s)
    exponent_after = 0
    while i < n and "0" <= s[i] <= "9":
        digit = ord(s[i]) - 48
        if significand > 1844674407370955161 or (significand == 1844674407370955161 and digit > 5):
            while i < n and "0" <= s[i] <= "9":  # serde ignores the rest of the digits
                i += 1
            break
        significand = significand * 10 + digit
        exponent_after -= 1
        i += 1
    exponent = exponent_before + exponent_after
    if i < n:
        return _exponent(positive, significand, exponent, s, i)
    return _f64_from_parts(positive, significand, exponent)


def _exponent(positive: bool, significand: int, starting: int, s: str, i: int) -> float:
    i += 1
    positive_exp = True
    if s[i] in "+-":
        positive_exp = s[i] == "+"
        i += 1
    exp = 0
    for c in s[i:]:
        digit = ord(c) - 48
        if exp > 214748364 or (exp == 214748364 and digit > 7):
            if significand != 0 and positive_exp:
                raise Reject("number out of range")
            return 0.0 if positive else -0.0
        exp = exp * 10 + digit
    final = starting + exp if positive_exp else starting - exp
    final = max(-(2**31), min(2**31 - 1, final))  # i32 saturating arithmetic
    return _f64_from_parts(positive, significand, final)


def _f64_from_parts(positive: bool, significand: int, exponent: int) -> float:
    f = float(significand)
    while True:
        index = abs(exponent)
        if index < len(_POW10):
            if exponent >= 0:
                f *= _POW10[index]
                if f == float("inf"):
                    raise Reject("number out of range")
            else:
                f /= _POW10[index]
            break
        if f == 0.0:
            break
        if exponent >= 0:
            raise Reject("number out of range")
        f /= 1e308
        exponent += 308
    return f if positive else -f


_BWS = re.compile(rb"[ \t\n\r]*")
_BNUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
#: A string as serde_json's reader delimits it: no raw control character, valid
#: escapes (``\uXXXX`` any four hex digits). UTF-8 is checked separately.
_BSTRING = re.compile(
    rb'"[^"\\\x00-\x1f]*(?:(?:\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"'
)  # unrolled, so no backtracking blow-up on a bad string
_IGNORED = object()


_LITERAL = re.compile(rb"true|false|null")
_LITERALS = {b"true": True, b"false": False, b"null": None}
_OPEN_OBJECT, _CLOSE_OBJECT, _OPEN_ARRAY, _CLOSE_ARRAY = 123, 125, 91, 93
_QUOTE, _COMMA, _COLON, _MINUS = 34, 44, 58, 45


def parse(body: Any, skip_unknown: tuple[str, ...] | None = None) -> Any:
    """Read a JSON text as serde_json does: objects as :class:`Obj`, numbers per
    :func:`serde_number`, strings checked (UTF-8, escapes, surrogate pairs), at any
    depth without recursion. ``body`` is read in place (no copy). Raises Reject.

    ``skip_unknown``: the members of a struct serde reads directly (``ErrorData``,
    ``ReadResourceResult``); the values of other top-level members are only skipped,
    as serde's ``ignore_value`` does (syntax only: no UTF-8, surrogate or range check,
    no depth limit), and kept as a placeholder.
    """
    data = body
    pos = after_ws(data, 0)
    if skip_unknown is not None and _at(data, pos) == _OPEN_OBJECT:
        value, pos = _top_object(data, pos, skip_unknown)
    else:
        value, pos = _value(data, pos, 0)
    if after_ws(data, pos) != len(data):
        raise Reject("trailing characters")
    return value


def _at(data: Any, pos: int) -> int:
    """The byte at ``pos``, or -1 past the end."""
    return data[pos] if pos < len(data) else -1


def _top_object(data: Any, pos: int, known: tuple[str, ...]) -> tuple[Obj, int]:
    obj = Obj()
    pos = after_ws(data, pos + 1)
    if _at(data, pos) == _CLOSE_OBJECT:
        return obj, pos + 1
    while True:
        key, pos = _key(data, pos)
        if key in known:
            value, pos = _value(data, pos, 1)
        else:
            value, pos = _IGNORED, _skip(data, pos)
        obj.append((key, value))
        pos = after_ws(data, pos)
        c = _at(data, pos)
        if c == _CLOSE_OBJECT:
            return obj, pos + 1
        if c != _COMMA:
            raise Reject("expected `,` or `}`")
        pos = after_ws(data, pos + 1)


def _scalar(data: Any, pos: int, c: int) -> tuple[Any, int]:
    """A string, number or literal at ``pos`` (first byte ``c``), checked."""
    if c == _QUOTE:
        return _string(data, pos)
    if c == _MINUS or 48 <= c <= 57:
        m = _BNUMBER.match(data, pos)
        if m is None:
            raise Reject("invalid number")
        return serde_number(m.group().decode("ascii")), m.end()
    m = _LITERAL.match(data, pos)
    if m is None:
        raise Reject("expected value")
    return _LITERALS[m.group()], m.end()


def _value(data: Any, pos: int, depth: int) -> tuple[Any, int]:
    """One checked JSON value from ``pos``, inside ``depth`` open arrays/objects; returns
    it and the position after it. Like serde_json, fails at the first array or object
    128 levels deep, before reading further."""
    stack: list[list[Any]] = []  # [container, pending key]
    while True:
        c = _at(data, pos)
        if c in (_OPEN_OBJECT, _OPEN_ARRAY):
            if depth + len(stack) >= MAX_DEPTH:
                reason = f"JSON nested too deeply (more than {MAX_DEPTH} levels)"
                raise Reject(reason, RecursionError(f"serde_json's recursion limit: {reason}"))
            pos = after_ws(data, pos + 1)
            is_object = c == _OPEN_OBJECT
            if _at(data, pos) == (_CLOSE_OBJECT if is_object else _CLOSE_ARRAY):
                value: Any = Obj() if is_object else []
                pos += 1
            elif is_object:
                key, pos = _key(data, pos)
                stack.append([Obj(), key])
                continue
            else:
                stack.append([[], None])
                continue
        else:
            value, pos = _scalar(data, pos, c)
        while True:  # a value is complete: hand it to its container
            if not stack:
                return value, pos
            pos = after_ws(data, pos)
            frame = stack[-1]
            container = frame[0]
            is_object = type(container) is Obj
            container.append((frame[1], value) if is_object else value)
            c = _at(data, pos)
            if c == _COMMA:
                pos = after_ws(data, pos + 1)
                if is_object:
                    frame[1], pos = _key(data, pos)
                break
            if c == (_CLOSE_OBJECT if is_object else _CLOSE_ARRAY):
                stack.pop()
                value = container
                pos += 1
                continue
            raise Reject("expected `,` or end of container")


def _string(data: Any, pos: int) -> tuple[str, int]:
    """A checked string at ``pos`` (its opening quote): serde's ``parse_str``."""
    m = _BSTRING.match(data, pos)
    if m is None:
        raise Reject("invalid string (control character, escape or end of input)")
    try:
        text = m.group().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Reject("invalid unicode code point") from exc
    value = _scanstring(text, 1, True)[0]
    if _SURROGATE.search(value):
        raise Reject("lone surrogate in hex escape")
    return value, m.end()


def _key(data: Any, pos: int) -> tuple[str, int]:
    if _at(data, pos) != _QUOTE:
        raise Reject("key must be a string")
    key, pos = _string(data, pos)
    pos = after_ws(data, pos)
    if _at(data, pos) != _COLON:
        raise Reject("expected `:`")
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
        else:
            m = (
                _BSTRING if c == _QUOTE else _BNUMBER if c == _MINUS or 48 <= c <= 57 else _LITERAL
            ).match(data, pos)
            if m is None:
                raise Reject("expected value")
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
            raise Reject("expected `,` or end of container")


def _skip_key(data: Any, pos: int) -> int:
    m = _BSTRING.match(data, pos)
    if m is None:
        raise Reject("key must be a string")
    pos = after_ws(data, m.end())
    if _at(data, pos) != _COLON:
        raise Reject("expected `:`")
    return after_ws(data, pos + 1)


def plain(node: Any) -> Any:
    """The JSON value as plain Python: objects as dicts (the last duplicate wins, as in
    serde_json's ``Map``). Only called on checked (<= 127 levels) values."""
    if type(node) is Obj:
        return {k: plain(v) for k, v in node}
    if type(node) is list:
        return [plain(v) for v in node]
    return node


_WS = re.compile(r"[ \t\n\r]*")


def after_ws(data: Any, pos: int) -> int:
    """``pos`` moved past JSON whitespace in ``data`` (``str`` or bytes-like)."""
    pattern: Any = _WS if isinstance(data, str) else _BWS
    return int(pattern.match(data, pos).end())  # `*`: always a match


# ------------------------------------------------------------------ writing

#: A string (skipped whole) or an ``e`` between digits outside strings: the exponent of
#: a float msgspec wrote, which rmcp writes with a sign.
_EXPONENT_TOKENS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|(?<=[0-9])e(?=[0-9])')
#: The quick test: any ``e`` followed by a digit at all (a float exponent, or text).
exponent_candidate = re.compile(rb"e[0-9]").search


def _signed(match: re.Match[bytes]) -> bytes:
    token = match.group()
    return token if token[0] == 34 else b"e+"


def fix_exponents(out: bytes) -> bytes:
    """``out`` (JSON written by msgspec) with every float exponent written the way
    serde_json 1.0.154 writes it: ``1e16`` -> ``1e+16`` (strings untouched)."""
    return _EXPONENT_TOKENS.sub(_signed, out)
