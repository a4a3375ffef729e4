"""Cold paths shared by both hot-path implementations.

The hot path hands a body to msgspec. For nearly every frame that gives exactly what
rmcp 3.1.4 (serde_json 1.0.154) gives. It does not for a few shapes that rmcp writers
never produce but a hostile or buggy peer may send; those take the rmcp-exact path
here, :func:`decode_exact`, which reads the body the way serde_json does:

* duplicate members of a struct: serde rejects the struct (``duplicate field``); msgspec
  keeps the last. A known notification with a duplicated params member is therefore a
  ``CustomNotification`` in rmcp, and a duplicated ``method`` / ``params`` / ``_meta``,
  result or error member rejects the body. In free-form objects the last one wins in both.
* nesting deeper than 127 arrays/objects: serde_json's recursion limit rejects it
  (members rmcp skips as unknown in ``ErrorData`` and ``ReadResourceResult`` are not
  counted); msgspec goes on to Python's recursion limit.
* numbers: serde_json (without ``float_roundtrip``) computes a float as
  ``significand * 10^exp`` in f64 and drops digits past 19 or 20, which is not always the
  nearest double; an integer outside ``i64``/``u64`` becomes an f64; ``-0`` is the
  float ``-0.0``. msgspec rounds correctly and keeps Python ints.
* top-level arrays: serde's derived structs also read a JSON array of their fields in
  order (``[method, params]``, ``[code, message, data]``, the five members of a
  ``ReadResourceResult``; a ``SubscriptionFilter`` of up to four); msgspec does not.

:func:`unusual` (and its compiled twin in ``_frames_c``) is the cheap pre-check that
sends a body here: it is true for every body with invalid UTF-8 (msgspec does not check
what it skips), a duplicated key in an object nested three levels or less, 128 levels of
nesting, or a number that is not plain (an exponent, more than 15 digits in a decimal,
17 in an integer, ``-0``). A body for which it is false decodes the same with msgspec as
with serde. It may be true for ordinary bodies too; that only costs time. Bodies msgspec
rejects (top-level arrays among them) come here too, after msgspec has failed.

Encoding: serde_json 1.0.154 writes an f64 whose decimal exponent is outside -5..=15 in
exponent form, always with a sign (``1e+16``); msgspec writes ``1e16``. Only positive
exponents differ, so the twins look for ``e`` followed by a digit in what msgspec wrote
(cheaply; a float ``>= 1e16`` is rare) and, if one is outside a string,
:func:`fix_exponents` inserts the ``+``.

A notification that no typed class fits falls back to ``CustomNotification`` (rmcp's
last untagged variant) in :func:`decode_custom`, and a ``CustomNotification`` is written
in :func:`encode_custom` the way rmcp writes one.
"""

from __future__ import annotations

import json.decoder
import json.scanner
import re
import threading
from types import SimpleNamespace
from typing import Any, Literal, overload

import msgspec

from . import types as t
from .errors import FrameBodyError
from .types import CustomNotification

__all__ = [
    "encoder",
    "fix_exponents",
    "exponent_candidate",
    "notification_encoder",
    "decode_custom",
    "encode_custom",
    "decode_exact",
    "unusual",
]


#: A string (skipped whole) or an ``e`` between digits outside strings: the exponent of
#: a float msgspec wrote, which rmcp writes with a sign.
_EXPONENT_TOKENS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|(?<=[0-9])e(?=[0-9])')
#: The quick test for the pure-Python twin: any ``e`` followed by a digit at all.
exponent_candidate = re.compile(rb"e[0-9]").search


def _signed(match: re.Match[bytes]) -> bytes:
    token = match.group()
    return token if token[0] == 34 else b"e+"


def fix_exponents(out: bytes) -> bytes:
    """``out`` (JSON written by msgspec) with every float exponent written the way
    serde_json 1.0.154 writes it: ``1e16`` -> ``1e+16`` (strings untouched)."""
    return _EXPONENT_TOKENS.sub(_signed, out)


_plain_encode = msgspec.json.Encoder().encode
#: For results and errors, which rmcp serializes directly: struct fields in declared
#: order, dict keys sorted (serde_json's ``Map`` is a ``BTreeMap``).
encoder = msgspec.json.Encoder(order="deterministic")
#: For notifications: rmcp writes ``params`` through ``serde_json::to_value``, so every
#: member comes out in sorted key order (``_meta`` sorts first among MCP's names). The
#: notification params structs declare their fields in that order (a test checks it), so
#: "deterministic" (struct fields as declared, dict keys sorted) writes what "sorted"
#: would, 15-28% faster: "sorted" sorts struct fields again on every call.
notification_encoder = msgspec.json.Encoder(order="deterministic")
#: Decodes straight into the public type: one struct per notification, not two.
_custom_decoder = msgspec.json.Decoder(CustomNotification)
_notification_decoder = msgspec.json.Decoder(t.TypedNotification)
_result_decoder = msgspec.json.Decoder(t._ReadResourceResultWire)
_error_decoder = msgspec.json.Decoder(t.ErrorData)


# --------------------------------------------------------------------- custom notification


def decode_custom(body: Any, tag: int) -> t.ServerNotification:
    """Decode a notification body no typed class took as rmcp's ``CustomNotification``.

    ``params`` must be an object or ``null``/absent, and its ``_meta`` an object or
    ``null`` (a ``null`` ``_meta`` is dropped, as rmcp drops it). A method rmcp types,
    or a body this quick reading rejects, goes to :func:`decode_exact`.
    Raises FrameBodyError.
    """
    try:
        value = _custom_decoder.decode(body)
    except (msgspec.DecodeError, RecursionError) as exc:
        return decode_exact(body, tag, "ServerNotification", exc)
    if value.method in _RMCP_TYPED:
        return decode_exact(body, tag, "ServerNotification")
    params = value.params
    if params is None or "_meta" not in params:
        return value
    return _custom(value.method, params, tag)


def _custom(method: str, params: dict[str, Any] | None, tag: int) -> CustomNotification:
    if params is not None and "_meta" in params:
        meta = params["_meta"]
        if meta is None:
            del params["_meta"]
        elif type(meta) is not dict:
            raise FrameBodyError(
                tag,
                "ServerNotification",
                f"Expected `object | null`, got `{_json_type(meta)}`",
                "$.params._meta",
            )
    return CustomNotification(method, params)


def encode_custom(value: CustomNotification) -> bytes:
    """Write a ``CustomNotification`` as rmcp does: ``{"method":..,"params":..}`` with
    ``"params":null`` when ``None``, ``_meta`` first, then the other members sorted."""
    method = value.method
    if type(method) is not str:
        raise TypeError(f"CustomNotification.method must be str, not {type(method).__name__}")
    params = value.params
    if type(params) is dict and "_meta" not in params:
        # Without ``_meta`` rmcp's order is plain sorted order: the encoder's own.
        return encoder.encode(value)
    head = b'{"method":' + encoder.encode(method)
    if params is None:
        return head + b',"params":null}'
    if not isinstance(params, dict):
        raise TypeError(
            f"CustomNotification.params must be a dict or None, not {type(params).__name__}"
        )
    meta = params.get("_meta")
    if meta is None:
        rest = encoder.encode({k: v for k, v in params.items() if k != "_meta"})
        return head + b',"params":' + rest + b"}"
    if not isinstance(meta, dict):
        raise TypeError(f"params['_meta'] must be a dict or None, not {type(meta).__name__}")
    rest = encoder.encode({k: v for k, v in params.items() if k != "_meta"})
    body = b'{"_meta":' + encoder.encode(meta) + (b"}" if rest == b"{}" else b"," + rest[1:])
    return head + b',"params":' + body + b"}"


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else type(value).__name__


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
_WS = re.compile(r"[ \t\n\r]*")
#: In a body longer than ``_PREFIX``, a ``"blob"`` value at least this long with no
#: escape is left out of the scan (``_without_long_blobs``).
_LONG_BLOB = 4096


def _after_ws(data: Any, pos: int) -> int:
    """``pos`` moved past JSON whitespace in ``data`` (``str`` or bytes-like)."""
    pattern: Any = _WS if isinstance(data, str) else _BWS
    return int(pattern.match(data, pos).end())  # `*`: always a match


def unusual(body: Any) -> bool:
    """True when ``body`` may decode differently with msgspec than with serde_json.

    Pure-Python twin of ``_frames_c._unusual`` (the same contract, another method: the
    stdlib JSON scanner reads the body once, keeping objects as tuples of pairs and the
    text of every number). See the module docstring for what it looks for.
    """
    state = _scan_state
    ints, floats = state.ints, state.floats
    if len(body) > _PREFIX:
        # A prefix first: nesting too deep for this scanner shows there, without
        # decoding (and allocating) the whole body.
        try:
            state.scan(str(body[:_PREFIX], "utf-8", "replace"), 0)
        except RecursionError:
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
        tree = state.scan(text, _after_ws(text, 0))[0]
    except RecursionError:
        return True
    except (StopIteration, ValueError):
        return False  # not JSON: msgspec rejects it, decode_exact confirms
    if ints and (max(map(len, ints)) >= 17 or "-0" in ints):
        return True
    if floats:
        joined = "".join(floats)
        if "e" in joined or "E" in joined or "N" in joined or "I" in joined:
            return True
        if max(map(len, floats)) > 16:
            return True
    if len(text) >= 256 and text.count("[") + text.count("{") >= 128 and _deep(tree):
        return True
    return _has_duplicate(tree, 1)


def _without_long_blobs(text: str) -> str:
    """``text`` with the content of each long ``"blob"`` string value without a
    backslash left out (``"blob":""``), so that the scan does not copy a blob: the peak
    memory of a decode stays near one blob, not two. What ``unusual`` looks for is
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
        if end - value >= _LONG_BLOB and text.find("\\", value, end) < 0:
            pieces.append(text[start:value])
            start = end
        at = text.find('"blob":"', end + 1)
    if not pieces:
        return text
    pieces.append(text[start:])
    return "".join(pieces)


def _deep(tree: Any) -> bool:
    """128 levels of arrays/objects (tuples of pairs), without recursion."""
    stack = [(tree, 1)] if type(tree) in (tuple, list) else []
    while stack:
        node, level = stack.pop()
        if level >= 128:
            return True
        children = (v for _, v in node) if type(node) is tuple else node
        stack.extend((child, level + 1) for child in children if type(child) in (tuple, list))
    return False


def _has_duplicate(node: Any, depth: int) -> bool:
    """A duplicated key in an object at ``depth`` <= 3 (tuples of pairs)."""
    if type(node) is tuple:
        if len(node) != len(dict(node)):
            return True
        children: Any = (value for _, value in node)
    elif type(node) is list:
        children = node
    else:
        return False
    if depth < 3:
        for child in children:
            if type(child) in (tuple, list) and _has_duplicate(child, depth + 1):
                return True
    return False


# ------------------------------------------------------------ serde_json, exactly


class _Reject(Exception):
    """serde_json (or rmcp) rejects the body; the message says why. ``cause`` is chained
    to the FrameBodyError (a RecursionError for nesting past serde_json's limit)."""

    def __init__(self, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.cause = cause


_MAX_DEPTH = 127  # serde_json: remaining_depth starts at 128, an error at 0
_U64_MAX = 2**64 - 1
_POW10 = tuple(float(f"1e{i}") for i in range(309))  # serde_json's POW10 table
_SURROGATE = re.compile("[\ud800-\udfff]")
_scanstring: Any = json.decoder.scanstring  # type: ignore[attr-defined]


class _Obj(list):  # type: ignore[type-arg]
    """A JSON object as read: its (key, value) pairs, duplicates and order kept."""

    __slots__ = ()


def _serde_number(text: str) -> int | float:
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
                raise _Reject("number out of range")
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
                    raise _Reject("number out of range")
            else:
                f /= _POW10[index]
            break
        if f == 0.0:
            break
        if exponent >= 0:
            raise _Reject("number out of range")
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


def _parse(body: Any, skip_unknown: tuple[str, ...] | None = None) -> Any:
    """Read a JSON text as serde_json does: objects as :class:`_Obj`, numbers per
    :func:`_serde_number`, strings checked (UTF-8, escapes, surrogate pairs), at any
    depth without recursion. ``body`` is read in place (no copy). Raises _Reject.

    ``skip_unknown``: the members of a struct serde reads directly (``ErrorData``,
    ``ReadResourceResult``); the values of other top-level members are only skipped,
    as serde's ``ignore_value`` does (syntax only: no UTF-8, surrogate or range check,
    no depth limit), and kept as a placeholder.
    """
    data = body
    pos = _after_ws(data, 0)
    if skip_unknown is not None and _at(data, pos) == _OPEN_OBJECT:
        value, pos = _top_object(data, pos, skip_unknown)
    else:
        value, pos = _value(data, pos, 0)
    if _after_ws(data, pos) != len(data):
        raise _Reject("trailing characters")
    return value


def _at(data: Any, pos: int) -> int:
    """The byte at ``pos``, or -1 past the end."""
    return data[pos] if pos < len(data) else -1


def _top_object(data: Any, pos: int, known: tuple[str, ...]) -> tuple[_Obj, int]:
    obj = _Obj()
    pos = _after_ws(data, pos + 1)
    if _at(data, pos) == _CLOSE_OBJECT:
        return obj, pos + 1
    while True:
        key, pos = _key(data, pos)
        if key in known:
            value, pos = _value(data, pos, 1)
        else:
            value, pos = _IGNORED, _skip(data, pos)
        obj.append((key, value))
        pos = _after_ws(data, pos)
        c = _at(data, pos)
        if c == _CLOSE_OBJECT:
            return obj, pos + 1
        if c != _COMMA:
            raise _Reject("expected `,` or `}`")
        pos = _after_ws(data, pos + 1)


def _scalar(data: Any, pos: int, c: int) -> tuple[Any, int]:
    """A string, number or literal at ``pos`` (first byte ``c``), checked."""
    if c == _QUOTE:
        return _string(data, pos)
    if c == _MINUS or 48 <= c <= 57:
        m = _BNUMBER.match(data, pos)
        if m is None:
            raise _Reject("invalid number")
        return _serde_number(m.group().decode("ascii")), m.end()
    m = _LITERAL.match(data, pos)
    if m is None:
        raise _Reject("expected value")
    return _LITERALS[m.group()], m.end()


def _value(data: Any, pos: int, depth: int) -> tuple[Any, int]:
    """One checked JSON value from ``pos``, inside ``depth`` open arrays/objects; returns
    it and the position after it. Like serde_json, fails at the first array or object
    128 levels deep, before reading further."""
    stack: list[list[Any]] = []  # [container, pending key]
    while True:
        c = _at(data, pos)
        if c in (_OPEN_OBJECT, _OPEN_ARRAY):
            if depth + len(stack) >= _MAX_DEPTH:
                reason = f"JSON nested too deeply (more than {_MAX_DEPTH} levels)"
                raise _Reject(reason, RecursionError(f"serde_json's recursion limit: {reason}"))
            pos = _after_ws(data, pos + 1)
            is_object = c == _OPEN_OBJECT
            if _at(data, pos) == (_CLOSE_OBJECT if is_object else _CLOSE_ARRAY):
                value: Any = _Obj() if is_object else []
                pos += 1
            elif is_object:
                key, pos = _key(data, pos)
                stack.append([_Obj(), key])
                continue
            else:
                stack.append([[], None])
                continue
        else:
            value, pos = _scalar(data, pos, c)
        while True:  # a value is complete: hand it to its container
            if not stack:
                return value, pos
            pos = _after_ws(data, pos)
            frame = stack[-1]
            container = frame[0]
            is_object = type(container) is _Obj
            container.append((frame[1], value) if is_object else value)
            c = _at(data, pos)
            if c == _COMMA:
                pos = _after_ws(data, pos + 1)
                if is_object:
                    frame[1], pos = _key(data, pos)
                break
            if c == (_CLOSE_OBJECT if is_object else _CLOSE_ARRAY):
                stack.pop()
                value = container
                pos += 1
                continue
            raise _Reject("expected `,` or end of container")


def _string(data: Any, pos: int) -> tuple[str, int]:
    """A checked string at ``pos`` (its opening quote): serde's ``parse_str``."""
    m = _BSTRING.match(data, pos)
    if m is None:
        raise _Reject("invalid string (control character, escape or end of input)")
    try:
        text = m.group().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Reject("invalid unicode code point") from exc
    value = _scanstring(text, 1, True)[0]
    if _SURROGATE.search(value):
        raise _Reject("lone surrogate in hex escape")
    return value, m.end()


def _key(data: Any, pos: int) -> tuple[str, int]:
    if _at(data, pos) != _QUOTE:
        raise _Reject("key must be a string")
    key, pos = _string(data, pos)
    pos = _after_ws(data, pos)
    if _at(data, pos) != _COLON:
        raise _Reject("expected `:`")
    return key, _after_ws(data, pos + 1)


def _skip(data: Any, pos: int) -> int:
    """Skip one value as serde's ``ignore_value`` does; returns the position after it."""
    closers: list[int] = []
    while True:
        c = _at(data, pos)
        if c in (_OPEN_OBJECT, _OPEN_ARRAY):
            pos = _after_ws(data, pos + 1)
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
                raise _Reject("expected value")
            pos = m.end()
        while True:
            if not closers:
                return pos
            pos = _after_ws(data, pos)
            c = _at(data, pos)
            if c == _COMMA:
                pos = _after_ws(data, pos + 1)
                if closers[-1] == _CLOSE_OBJECT:
                    pos = _skip_key(data, pos)
                break
            if c == closers[-1]:
                closers.pop()
                pos += 1
                continue
            raise _Reject("expected `,` or end of container")


def _skip_key(data: Any, pos: int) -> int:
    m = _BSTRING.match(data, pos)
    if m is None:
        raise _Reject("key must be a string")
    pos = _after_ws(data, m.end())
    if _at(data, pos) != _COLON:
        raise _Reject("expected `:`")
    return _after_ws(data, pos + 1)


def _plain(node: Any) -> Any:
    """The JSON value as plain Python: objects as dicts (the last duplicate wins, as in
    serde_json's ``Map``). Only called on checked (<= 127 levels) values."""
    if type(node) is _Obj:
        return {k: _plain(v) for k, v in node}
    if type(node) is list:
        return [_plain(v) for v in node]
    return node


def _keys(obj: _Obj) -> dict[str, int]:
    counts: dict[str, int] = {}
    for key, _ in obj:
        counts[key] = counts.get(key, 0) + 1
    return counts


def _last(obj: _Obj, key: str, default: Any = None) -> Any:
    for k, v in reversed(obj):
        if k == key:
            return v
    return default


def _duplicated(counts: dict[str, int], names: Any) -> list[str]:
    return [name for name in names if counts.get(name, 0) > 1]


def _fields(cls: type) -> tuple[str, ...]:
    return tuple(f.encode_name for f in msgspec.structs.fields(cls) if f.encode_name != "_meta")


#: rmcp's typed notifications: method -> the params members of its struct (a duplicate
#: of one makes the typed variant fail). list_changed params are a free-form object.
_RMCP_TYPED: dict[str, tuple[str, ...]] = {
    "notifications/cancelled": _fields(t.CancelledNotificationParam),
    "notifications/progress": _fields(t.ProgressNotificationParam),
    "notifications/message": _fields(t.LoggingMessageNotificationParam),
    "notifications/resources/updated": _fields(t.ResourceUpdatedNotificationParam),
    "notifications/resources/list_changed": (),
    "notifications/tools/list_changed": (),
    "notifications/prompts/list_changed": (),
    "notifications/subscriptions/acknowledged": _fields(
        t.SubscriptionsAcknowledgedNotificationParams
    ),
    "notifications/tasks": _fields(t.DetailedTaskNotificationParams),
}
#: rmcp's ``SubscriptionFilter`` members in its declaration order (an array form maps
#: onto them in this order); ``types.SubscriptionFilter`` declares them sorted.
_FILTER = (
    "toolsListChanged",
    "promptsListChanged",
    "resourcesListChanged",
    "resourceSubscriptions",
)
_RESULT = ("resultType", "ttlMs", "cacheScope", "contents", "_meta")
_ERROR = ("code", "message", "data")
_ABSENT = object()
#: Structs serde reads directly (not buffered as an untagged enum's content): members
#: outside these are skipped unread.
_SKIPPED = {"ReadResourceResult": _RESULT, "ErrorData": _ERROR}


@overload
def decode_exact(
    body: Any, tag: int, expected: Literal["ServerNotification"], exc: BaseException | None = None
) -> t.ServerNotification: ...
@overload
def decode_exact(
    body: Any, tag: int, expected: Literal["ReadResourceResult"], exc: BaseException | None = None
) -> t.ReadResourceResult: ...
@overload
def decode_exact(
    body: Any, tag: int, expected: Literal["ErrorData"], exc: BaseException | None = None
) -> t.ErrorData: ...
def decode_exact(body: Any, tag: int, expected: str, exc: BaseException | None = None) -> Any:
    """Decode ``body`` exactly as rmcp 3.1.4 does. ``expected`` is what the tag announces:
    ``"ServerNotification"``, ``"ReadResourceResult"`` or ``"ErrorData"``.

    Returns the value. Raises FrameBodyError when rmcp rejects the body; when the quick
    msgspec reading fails too, its error is the one reported (its message and path are
    better), chained as ``__cause__``.
    """
    reason: str | None = None
    cause: BaseException | None = None
    failed: BaseException | None = None
    try:
        tree = _parse(body, _SKIPPED.get(expected))
        if expected == "ServerNotification":
            value = _exact_notification(tree, tag)
        elif expected == "ReadResourceResult":
            value = _exact_result(tree, tag)
        else:
            value = _exact_error(tree, tag)
    except _Reject as reject:
        reason, cause = str(reject), reject.cause
    except (msgspec.DecodeError, FrameBodyError) as error:
        failed = _detached(error)
    else:
        return value
    # Outside the except blocks: no exception keeps this frame (and its caller's
    # payload) alive through a reference cycle.
    if exc is None or isinstance(exc, RecursionError):
        exc = _msgspec_error(body, tag, expected) or failed
    if isinstance(exc, FrameBodyError):
        raise exc
    if exc is not None:
        raise FrameBodyError.from_exception(tag, expected, exc) from exc
    raise FrameBodyError(tag, expected, reason or "rejected") from cause


def _detached(error: BaseException) -> BaseException:
    """``error`` without its traceback and context (which hold frames)."""
    error.__traceback__ = None
    error.__context__ = None
    return error


def _msgspec_error(body: Any, tag: int, expected: str) -> BaseException | None:
    """The error the quick msgspec reading gives for a body rmcp rejects (its message
    and path are better than ours), or None when msgspec reads it."""
    try:
        if expected == "ServerNotification":
            try:
                _notification_decoder.decode(body)
            except msgspec.ValidationError:
                _custom(**msgspec.structs.asdict(_custom_decoder.decode(body)), tag=tag)
        elif expected == "ReadResourceResult":
            from ._frames_py import _result

            _result(_result_decoder.decode(body), tag)
        else:
            _error_decoder.decode(body)
    except msgspec.DecodeError as exc:
        return _detached(exc)
    except RecursionError:
        return None  # where it trips depends on the stack: not a stable answer
    except FrameBodyError as exc:
        return _detached(exc)
    return None


def _as_struct(tree: Any, names: tuple[str, ...]) -> _Obj:
    """A derived serde struct read from a JSON object, or from an array of exactly its
    fields in order. Duplicated members reject it."""
    if type(tree) is list:
        if len(tree) != len(names):
            raise _Reject(f"invalid length {len(tree)}, expected {len(names)} elements")
        return _Obj(zip(names, tree, strict=True))
    if type(tree) is not _Obj:
        raise _Reject("invalid type, expected a struct")
    duplicated = _duplicated(_keys(tree), names)
    if duplicated:
        raise _Reject(f"duplicate field `{duplicated[0]}`")
    return tree


def _exact_notification(tree: Any, tag: int) -> Any:
    top = _as_struct(tree, ("method", "params"))
    method = _last(top, "method", _ABSENT)
    params = _last(top, "params", None)
    if type(method) is not str:
        raise _Reject("data did not match any variant of untagged enum ServerNotification")
    if params is not None:
        if type(params) is not _Obj:
            raise _Reject("data did not match any variant of untagged enum ServerNotification")
        counts = _keys(params)
        if counts.get("_meta", 0) > 1:
            raise _Reject("duplicate field `_meta`")
        if type(_last(params, "_meta")) not in (_Obj, type(None)):
            raise _Reject("data did not match any variant of untagged enum ServerNotification")
    custom_params = None if params is None else _plain(params)
    names = _RMCP_TYPED.get(method)
    typed = True
    typed_params: Any = custom_params
    if names is not None and params is not None and custom_params is not None:
        typed = not _duplicated(counts, names)
        if typed and method == "notifications/subscriptions/acknowledged":
            typed, typed_params = _subscription_params(params, custom_params)
    if typed:
        body = {"method": method}
        if _last(top, "params", _ABSENT) is not _ABSENT or type(tree) is list:
            body["params"] = typed_params
        try:
            return _notification_decoder.decode(_plain_encode(body))
        except msgspec.ValidationError:
            pass
    return _custom(method, custom_params, tag)


def _subscription_params(params: _Obj, plain: dict[str, Any]) -> tuple[bool, Any]:
    """rmcp's ``SubscriptionFilter`` is a derived struct: an object without duplicated
    members, or an array of up to its four fields in order."""
    notifications = _last(params, "notifications")
    if type(notifications) is _Obj:
        return not _duplicated(_keys(notifications), _FILTER), plain
    if type(notifications) is list:
        if len(notifications) > len(_FILTER):
            return False, plain
        return True, {
            **plain,
            "notifications": dict(zip(_FILTER, plain["notifications"], strict=False)),
        }
    return True, plain


def _exact_result(tree: Any, tag: int) -> t.ReadResourceResult:
    top = _as_struct(tree, _RESULT)
    fields = {k: v for k, v in top if k in _RESULT}
    contents = fields.get("contents")
    if type(contents) is list:
        fields["contents"] = [_contents_item(item) for item in contents]
    wire = _result_decoder.decode(_plain_encode({k: _plain(v) for k, v in fields.items()}))
    from ._frames_py import _result  # the hot path's own rule for text / blob

    return _result(wire, tag)


def _contents_item(item: Any) -> Any:
    """rmcp's untagged ``ResourceContents``: the text variant is tried, then the blob
    one; a duplicated member fails the variant that has it."""
    if type(item) is not _Obj:
        return item
    counts = _keys(item)
    if _duplicated(counts, ("uri", "mimeType", "_meta")):
        raise _Reject("data did not match any variant of untagged enum ResourceContents")
    if counts.get("text", 0) > 1:
        if counts.get("blob", 0) > 1:
            raise _Reject("data did not match any variant of untagged enum ResourceContents")
        return _Obj((k, v) for k, v in item if k != "text")
    if counts.get("blob", 0) > 1:
        return _Obj((k, v) for k, v in item if k != "blob")
    return item


def _exact_error(tree: Any, tag: int) -> t.ErrorData:
    top = _as_struct(tree, _ERROR)
    fields = {k: _plain(v) for k, v in top if k in _ERROR}
    return _error_decoder.decode(_plain_encode(fields))
