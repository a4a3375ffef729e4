"""serde_json 1.0.154, as rmcp 3.1.4 reads and writes JSON with it.

The rules that know JSON and nothing of MCP.

Reading (``serde_json::de``). :mod:`diverge_frames._exact.serde_json_reader` reads a whole body the way
serde_json's ``Deserializer`` does (the reference :func:`~.serde_json_reader.parse`, and
:func:`~.serde_json_reader.read`, the same answer from the stdlib's C scanner); the compiled
twin does it in C (``_serde_json.h``). Each keeps what the rmcp rules need
(:mod:`.rmcp_read`):

* objects nested ``keep`` levels or less as :class:`Obj`, their (key, value) pairs with
  duplicates and order kept (a derived struct rejects a duplicated member); deeper ones
  as dicts, the last duplicate winning as in serde_json's ``Map``;
* numbers as ``Value`` holds them (:func:`serde_number`, mirroring ``parse_integer``,
  ``parse_decimal``, ``parse_exponent`` and ``f64_from_parts`` without the
  ``float_roundtrip`` feature): an ``int`` for ``u64`` / ``i64``, else the f64 computed
  as ``significand * 10^exp`` with digits past the 19th or 20th dropped, which is not
  always the nearest double; ``-0`` is the float ``-0.0``;
* strings checked as ``parse_str`` checks them: UTF-8, escapes, surrogate pairs, no raw
  control character;
* depth: ``RECURSION_LIMIT`` (128) arrays/objects fail at the first one that reaches it,
  before reading further; ``ignore_value`` skips a value by its syntax alone.

Why a body is rejected is worded by :data:`REASONS` (the same words in all three readers).

Where msgspec reads the same: a body with valid UTF-8, fewer than ``RECURSION_LIMIT``
levels, no duplicated struct member and only plain numbers (:func:`plain_number`: an
integer within ``u64`` / ``i64`` but ``-0``; a number with a fraction or an exponent whose
significand serde_json keeps whole, converts to an f64 exactly and is scaled by a power
of ten within 10^22, so that serde's one multiplication or division rounds once, as
msgspec's correct reading does: Clinger's fast path) decodes to the same values with
msgspec as with serde_json. The pre-checks test that; a number that is not plain is
spelled for msgspec as serde_json's value before msgspec reads it (the compiled twin),
or read by the pure twin's reader.

Writing (``serde_json::ser``, ``ryu``): an f64 whose decimal exponent is outside
``-5..=15`` is written in exponent form with its sign, ``1e+16``, where msgspec writes
``1e16``; only positive exponents differ, and :func:`fix_exponents` inserts the ``+``
(the compiled twin: ``df_sj_exponents``).
"""

from __future__ import annotations

import functools
import operator
import re
from typing import Any

__all__ = [
    "RECURSION_LIMIT",
    "MAX_DEPTH",
    "MAX_SIGNIFICAND",
    "MAX_POWER",
    "REASONS",
    "Reject",
    "reject",
    "Obj",
    "serde_number",
    "plain_number",
    "plain",
    "too_deep",
    "dicts_below",
    "tree",
    "after_ws",
    "fix_exponents",
    "exponent_candidate",
]

#: serde_json's ``remaining_depth`` starts at 128: the 128th nested array/object fails.
RECURSION_LIMIT = 128
#: The deepest nesting serde_json reads.
MAX_DEPTH = RECURSION_LIMIT - 1
#: A plain number's significand is at most this (2^53: every integer up to it is an f64),
#: or an integer that converts to an f64 exactly all the same (trailing zero bits).
MAX_SIGNIFICAND = 2**53
#: A plain number's power of ten is within +-MAX_POWER: 10^22 is the last exact f64.
MAX_POWER = 22

# ------------------------------------------------------------------ reading

EXPECTED_VALUE = "expected value"
TRAILING = "trailing characters"
EXPECTED_COMMA = "expected `,` or end of container"
EXPECTED_COMMA_TOP = "expected `,` or `}`"
KEY = "key must be a string"
COLON = "expected `:`"
NUMBER = "invalid number"
STRING = "invalid string (control character, escape or end of input)"
UNICODE = "invalid unicode code point"
SURROGATE = "lone surrogate in hex escape"
RANGE = "number out of range"
DEPTH = f"JSON nested too deeply (more than {MAX_DEPTH} levels)"
#: Why serde_json rejects a body, indexed as the ``DF_SJ_*`` codes of ``_serde_json.h``
#: (0: it does not).
REASONS = (
    "",
    EXPECTED_VALUE,
    TRAILING,
    EXPECTED_COMMA,
    EXPECTED_COMMA_TOP,
    KEY,
    COLON,
    NUMBER,
    STRING,
    UNICODE,
    SURROGATE,
    RANGE,
    DEPTH,
)


class Reject(Exception):
    """serde_json (or rmcp) rejects the body.

    The message says why. ``cause`` is chained to the FrameBodyError (a RecursionError
    for nesting past serde_json's limit).
    """

    def __init__(self, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.cause = cause


def reject(reason: str) -> Reject:
    """The Reject for one of :data:`REASONS`.

    Nesting too deep has a RecursionError as its cause, as a recursion limit would.
    """
    if reason == DEPTH:
        return Reject(reason, RecursionError(f"serde_json's recursion limit: {reason}"))
    return Reject(reason)


_U64_MAX = 2**64 - 1
_second = operator.itemgetter(1)
_POW10 = tuple(float(f"1e{i}") for i in range(309))  # serde_json's POW10 table


class Obj(list):  # type: ignore[type-arg]
    """A JSON object as read: its (key, value) pairs, duplicates and order kept."""

    __slots__ = ()


def serde_number(text: str) -> int | float:
    """The value serde_json 1.0.154 reads from a JSON number (``Value`` semantics).

    An int for ``u64`` / ``i64``, else an f64 computed as serde does (no
    ``float_roundtrip``: ``significand * 10^exp``, digits past the 19th or 20th
    dropped).
    """
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
                raise Reject(RANGE)
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
                    raise Reject(RANGE)
            else:
                f /= _POW10[index]
            break
        if f == 0.0:
            break
        if exponent >= 0:
            raise Reject(RANGE)
        f /= 1e308
        exponent += 308
    return f if positive else -f


#: A JSON number's parts: sign, integer digits, fraction digits, exponent.
_NUMBER = re.compile(r"(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([-+]?[0-9]+))?\Z")


def plain_number(text: str) -> bool:
    """Whether msgspec reads the JSON number ``text`` to the value serde_json reads.

    That is (:func:`serde_number`): an integer within ``u64`` (a negative one within
    ``i64``, not ``-0``), or a number with a fraction or exponent whose digits serde
    keeps all of, whose significand converts to an f64 exactly (or is 0) and whose power
    of ten is within +-``MAX_POWER``. The rule ``df_sj_number`` applies in C.
    """
    m = _NUMBER.match(text)
    if m is None:
        return False
    sign, integer, fraction, exponent = m.groups()
    if fraction is None and exponent is None:
        if len(integer) > 20:
            return False
        value = int(integer)
        return value <= _U64_MAX if not sign else 0 < value <= 2**63
    digits = (integer + (fraction or "")).lstrip("0")
    if len(digits) > 20 or (exponent is not None and len(exponent.lstrip("+-")) > 10):
        return False
    significand = int(digits or "0")
    if significand > _U64_MAX:
        return False  # serde drops the digits past it
    power = (int(exponent) if exponent else 0) - len(fraction or "")
    if not -MAX_POWER <= power <= MAX_POWER:
        return False
    low_bit = significand & -significand
    return significand == 0 or significand // low_bit <= MAX_SIGNIFICAND


def plain(node: Any) -> Any:
    """A value of a tree the readers return, as plain Python.

    Its objects from :class:`Obj` to dicts (the last duplicate wins, as in serde_json's
    ``Map``). A dict is plain already (an object read where pairs are not kept), and so
    is a list or an ``Obj``'s values holding neither an ``Obj`` nor a list (one C-level
    look each).
    """
    kind = type(node)
    if kind is Obj:
        kinds = set(map(type, map(_second, node)))
        if Obj in kinds or list in kinds:
            return {k: plain(v) for k, v in node}
        return dict(node)
    if kind is list:
        kinds = set(map(type, node))
        if Obj in kinds or list in kinds:
            return [plain(v) for v in node]
    return node


def tree(value: Any, keep: int, prefixed: bool = False) -> Any:
    """``value`` in the shape the readers return.

    ``value`` is JSON read into dicts and lists by msgspec or the stdlib, with
    serde_json's numbers (an :class:`Obj` may stand for a dict); each object nested
    ``keep`` levels or less is made an :class:`Obj`, deeper ones dicts. ``prefixed``: the keys of those
    objects were written ``"<index>:<key>"`` (``df_sj_scan``'s ``keys``), so that
    repeated ones reached the dict apart; the prefix is taken off."""
    kind = type(value)
    if kind is dict or kind is Obj:
        items: Any = value.items() if kind is dict else value
        if prefixed:
            items = ((k.partition(":")[2], v) for k, v in items)
        if keep <= 1:
            return Obj(items)
        return Obj((k, tree(v, keep - 1, prefixed)) for k, v in items)
    if kind is list and keep > 1:
        kinds = set(map(type, value))
        if dict not in kinds and list not in kinds and Obj not in kinds:
            return value
        if keep == 2 and kinds == {dict} and not prefixed:
            return list(map(Obj, map(dict.items, value)))  # (without Python code per item)
        return [tree(v, keep - 1, prefixed) for v in value]
    return value


#: The types of an array or object in a tree: an :class:`Obj`, a list, a dict (the last
#: duplicate kept), or a tuple of pairs (the stdlib scanner's, as the pure pre-check reads).
_NESTING = (Obj, list, dict, tuple)


def too_deep(node: Any) -> bool:
    """More than :data:`MAX_DEPTH` levels of arrays and objects, ``node`` counted.

    Without recursion; ``node`` is a tree of any of :data:`_NESTING`'s types.
    """
    stack = [(node, 1)] if type(node) in _NESTING else []
    while stack:
        node, level = stack.pop()
        if level > MAX_DEPTH:
            return True
        nesting = type(node)
        children: Any = (
            (v for _, v in node)
            if nesting is Obj or nesting is tuple
            else node.values()
            if nesting is dict
            else node
        )
        stack.extend((child, level + 1) for child in children if type(child) in _NESTING)
    return False


def dicts_below(node: Any, keep: int) -> Any:
    """A tree of :class:`Obj` with those nested deeper than ``keep`` levels made dicts.

    ``node`` counted; the last duplicate wins. The caller's tree is changed in place, each
    old node freed as its new one takes its place: no second tree at once.
    """
    if keep <= 0:
        return _dicts(node)
    kind = type(node)
    if kind is Obj:
        for index, (key, value) in enumerate(node):
            if (made := dicts_below(value, keep - 1)) is not value:
                node[index] = (key, made)
        return node
    if kind is list and (Obj in map(type, node) or list in map(type, node)):
        for index, value in enumerate(node):
            if (made := dicts_below(value, keep - 1)) is not value:
                node[index] = made
    return node


def _dicts(node: Any) -> Any:
    """``node`` with every :class:`Obj` in it a dict (the last duplicate wins), in place, without recursion."""
    out = [node]
    stack: list[tuple[Any, Any]] = [(out, 0)]
    while stack:
        parent, slot = stack.pop()
        node = parent[slot]
        made: Any
        if type(node) is Obj:
            made = dict(node)
            slots: Any = made.items()
        elif type(node) is list and (Obj in map(type, node) or list in map(type, node)):
            made = node
            slots = enumerate(made)
        else:
            continue
        parent[slot] = made
        stack.extend((made, k) for k, v in slots if type(v) in (Obj, list))
    return out[0]


_WS = re.compile(r"[ \t\n\r]*")
_BWS = re.compile(rb"[ \t\n\r]*")


def after_ws(data: Any, pos: int) -> int:
    """``pos`` moved past JSON whitespace in ``data`` (``str`` or bytes-like)."""
    pattern: Any = _WS if isinstance(data, str) else _BWS
    return int(pattern.match(data, pos).end())  # `*`: always a match


# ------------------------------------------------------------------ writing

#: The strings of JSON that msgspec wrote (a capturing split: they land at odd indices).
_STRINGS = re.compile(rb'("[^"\\]*(?:\\.[^"\\]*)*")')
#: An ``e`` between digits: the exponent of a float msgspec wrote, outside strings.
_signed = functools.partial(re.compile(rb"(?<=[0-9])e(?=[0-9])").sub, b"e+")
#: The quick test: any ``e`` followed by a digit at all (a float exponent, or text).
exponent_candidate = re.compile(rb"e[0-9]").search


#: The text between strings is rewritten this much at a time (``re.sub`` holds every
#: piece of what it rewrites until it joins them: several times the text).
_CHUNK = 4096


def fix_exponents(out: bytes) -> bytes:
    """``out``, JSON msgspec wrote, with each float exponent as serde_json 1.0.154 writes it.

    ``1e16`` -> ``1e+16`` (strings untouched). The text between strings is rewritten by
    ``re`` alone (no Python code per string).
    """
    parts = _STRINGS.split(out)
    parts[::2] = map(_signed_between, parts[::2])
    return b"".join(parts)


def _signed_between(text: bytes) -> bytes:
    """``text`` (between two strings) with its exponents signed.

    ``_CHUNK`` bytes at a time, cut at a comma (no number spans one).
    """
    if len(text) <= _CHUNK:
        return _signed(text)
    pieces = []
    start = 0
    while start < len(text):
        end = text.find(b",", start + _CHUNK)
        end = len(text) if end < 0 else end
        pieces.append(_signed(text[start:end]))
        start = end
    return b"".join(pieces)
