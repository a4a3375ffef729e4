"""A JSON body with its numbers spelled as the values serde_json reads (for msgspec).

A number that is not plain (:func:`.serde_json.plain_number`: ``-0``, an integer beyond
64 bits, a float serde_json rounds otherwise) is read by msgspec otherwise than by
serde_json. Written as the value serde_json reads (:func:`spelled_number`: ``-0`` as
``-0.0``, the others as the ``repr`` of serde's f64), msgspec reads serde's value from
it, in any member, free-form or typed, so a body whose only difference is its numbers
needs no exact reading (the compiled twin's rewrite does the same in C).

:func:`not_plain` finds those among the literals a scan read (the pure twin's
pre-check); :func:`respelled` is the pure twin's rewrite: the non-plain literals its pre-check's
scan found (in order of reading, with their counts) are replaced by one ``re``
substitution on the bytes, without Python code per string or per plain number. A match
is a whole number token outside strings when it is one of the literals the scan read;
one inside a string (text that looks like the number) shows as one match too many, and
then the strings are matched too, to be left as they are (a Python step per string).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from .serde_json import Reject, plain_number, serde_number

__all__ = ["not_plain", "spelled_number", "respelled"]

#: Number literals that are plain at a glance: at most 15 digits (16 characters with the
#: point, or the sign), with an exponent of at most 7 (a power of ten within 10^22);
#: integers of at most 18 characters but -0. The others :func:`plain_number` decides.
_PLAIN_FLOATS = re.compile(
    r"(?<![^,])-?(?:[0-9]{1,15}|(?=[0-9.]{3,16}(?![0-9.]))[0-9]+\.[0-9]+)"
    r"(?:[eE][-+]?0{0,3}[0-7])?(?![^,])"
)
_PLAIN_INTS = re.compile(r"(?<![^,])(?!-0(?:,|$))-?[0-9]{1,18}(?![^,])")
_LITERAL = re.compile(r"[^,]+")

#: More distinct literals than this are matched as any number token (a Python call per
#: number), not as an alternation of the literals themselves.
_MAX_LITERALS = 32
#: Up to this many literals are replaced one by one, else by ``re`` a chunk of about
#: ``_CHUNK`` bytes at a time (:func:`_chunks`).
_FEW = 256
_CHUNK = 1024
_COMMA = re.compile(rb",")
#: A JSON string (of a body the scan read: valid), unrolled.
_STRING = rb'"[^"\\]*(?:\\.[^"\\]*)*"'
#: What may stand next to a number token and be part of it.
_IN_NUMBER = rb"[-+.0-9eE]"
_ANY_NUMBER = rb"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


def not_plain(ints: list[str], floats: list[str], hard: dict[str, int] | None = None) -> bool:
    """Some of the number literals a scan read (integers, others) is not plain.

    ``hard`` is given each that is not, with how often it was read. Those not plain at
    a glance are looked at one by one (without ``hard``, until one is not plain; with
    it, each distinct one once).
    """
    found = False
    for literals, plain in ((ints, _PLAIN_INTS), (floats, _PLAIN_FLOATS)):
        if not literals:
            continue
        rest = map(re.Match.group, _LITERAL.finditer(plain.sub("", ",".join(literals))))
        if hard is None:
            found = found or not all(map(plain_number, rest))
            continue
        for literal, count in Counter(rest).items():
            if not plain_number(literal):
                hard[literal] = hard.get(literal, 0) + count
                found = True
    return found


def spelled_number(text: str) -> str:
    """The JSON number ``text`` written as the value serde_json reads from it.

    ``-0`` as ``-0.0``, an integer beyond 64 bits or a float serde rounds otherwise as
    the ``repr`` of serde's f64 (which msgspec reads back to the same f64). Raises
    Reject for a number out of serde's range.
    """
    return repr(serde_number(text))


def _token(literal: bytes) -> bytes:
    """A pattern matching ``literal`` as a whole number token.

    The look-behind comes after the first byte, so that ``re`` still searches for a
    literal prefix.
    """
    return (
        re.escape(literal[:1])
        + rb"(?<!" + _IN_NUMBER + rb".)"
        + re.escape(literal[1:])
        + rb"(?!" + _IN_NUMBER + rb")"
    )  # fmt: skip


def respelled(body: Any, counts: dict[str, int]) -> bytearray | None:
    """``body`` (bytes-like JSON) with each literal of ``counts`` spelled by :func:`spelled_number`.

    ``counts``: every non-plain number literal of ``body`` as a scan read it, with how
    often. None when one is no JSON number (``NaN``) or out of serde's range (serde
    rejects the body), or when they are not all found where the scan read them.
    """
    if not all(map(_JSON_NUMBER.fullmatch, counts)):
        return None
    try:
        table = {k.encode("ascii"): spelled_number(k).encode("ascii") for k in counts}
    except Reject:
        return None
    seen = 0

    def spell(match: re.Match[bytes]) -> bytes:
        nonlocal seen
        token = match.group()
        spelling = table.get(token)
        if spelling is None:
            return token
        seen += 1
        return spelling

    repl: bytes | Callable[[re.Match[bytes]], bytes]
    if len(table) == 1:  # (a template: no Python call per match)
        ((literal, spelling),) = table.items()
        pattern, repl = re.compile(_token(literal)), spelling
    elif len(table) <= _MAX_LITERALS:
        tokens = b"|".join(_token(k) for k in sorted(table, key=len, reverse=True))
        pattern, repl = re.compile(tokens), spell
    else:
        any_token = rb"(?<!" + _IN_NUMBER + rb")" + _ANY_NUMBER + rb"(?!" + _IN_NUMBER + rb")"
        pattern, repl = re.compile(any_token), spell
    expected = sum(counts.values())
    view = memoryview(body)
    if expected <= _FEW:
        out, matched = _replaced(view, pattern, table)
    else:
        out, matched = bytearray(), 0  # (msgspec reads it as it is: no last copy)
        for chunk in _chunks(view):
            piece, found = pattern.subn(repl, chunk)
            out += piece
            matched += found
        matched = seen if repl is spell else matched
    if matched != expected:  # a literal's text in a string too: the strings matched first
        out, matched = _replaced(view, re.compile(_STRING + rb"|" + pattern.pattern), table)
    return out if matched == expected else None


def _replaced(view: memoryview, pattern: re.Pattern[bytes], table: dict[bytes, bytes]) -> Any:
    """``view`` with each match of ``pattern`` that ``table`` has replaced, and how many.

    The text between matches is copied once, straight into the ``bytearray``; a Python
    step per match (a string too, when ``pattern`` matches strings to leave them be).
    """
    out = bytearray()
    last = matched = 0
    for match in pattern.finditer(view):
        token = table.get(match.group())
        if token is not None:
            out += view[last : match.start()]
            out += token
            last = match.end()
            matched += 1
    out += view[last:]
    return out, matched


def _chunks(view: memoryview) -> Any:
    """``view`` in views of about ``_CHUNK`` bytes, each cut before a comma.

    No number token spans one, and a token's neighbours are still in its view, so each
    is matched as in the whole; ``re`` holds the pieces of one view at a time (a piece
    per match: many times a view's size when numbers are dense).
    """
    start = 0
    while start < len(view):
        comma = _COMMA.search(view, start + _CHUNK)
        end = len(view) if comma is None else comma.start()
        yield view[start:end]
        start = end
