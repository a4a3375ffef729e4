"""Shapes of JSON text that the property tests and the fuzz harness (``fuzz/_harness.py``)
both need to recognise: whether a body has a duplicated key, and whether its
decode/encode is a fixed point in rmcp ("plain" JSON, docs/hostile-input.md)."""

from __future__ import annotations

import json
from typing import Any


class _Duplicate(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({k for k, _ in pairs}) != len(pairs):
        raise _Duplicate
    return dict(pairs)


def has_duplicate_keys(body: bytes) -> bool:
    """Whether the JSON ``body`` has an object with a key twice (True also when the
    standard library cannot read it: then nothing is claimed)."""
    try:
        json.loads(body.decode("utf-8"), object_pairs_hook=_no_duplicates)
    except (_Duplicate, ValueError, RecursionError):
        return True
    return False


class _NotPlain(Exception):
    pass


def _plain_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({k for k, _ in pairs}) != len(pairs):
        raise _NotPlain("duplicate key")
    return dict(pairs)


def _plain_float(literal: str) -> float:
    digits = literal.lstrip("-").replace(".", "").lstrip("0")
    if "e" in literal.lower() or len(digits) > 15 or abs(float(literal)) >= 1e16:
        raise _NotPlain(literal)
    return float(literal)


def _plain_int(literal: str) -> int:
    if literal == "-0" or len(literal.lstrip("-")) > 17:
        raise _NotPlain(literal)
    return int(literal)


def plain_json(body: bytes) -> bool:
    """Whether ``body`` is JSON whose decode/encode is a fixed point in rmcp: no
    duplicate key, every float with at most 15 digits (trailing zeros count), no exponent and
    below 10^16, every integer of at most 17 digits and not ``-0``. (False too when
    the standard library cannot read it.)"""
    try:
        json.loads(
            body.decode("utf-8"),
            object_pairs_hook=_plain_object,
            parse_float=_plain_float,
            parse_int=_plain_int,
            parse_constant=_plain_float,
        )
    except (_NotPlain, ValueError, RecursionError):
        return False
    return True
