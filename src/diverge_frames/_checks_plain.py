"""The encode checks applied to the plain Python value of a frame (both twins).

What ``convert`` and the ``mcp`` bridge are given (dicts keyed by wire names, lists,
scalars) is walked along the plans of :mod:`diverge_frames._plans`, as
:mod:`diverge_frames._checks` walks a built value: :func:`check_plain` refuses what has
no JSON that rmcp reads back as the same value, worded as encode words it, and
:func:`plain_json` says, without paths, when there is nothing to refuse.
"""

from __future__ import annotations

import enum
import math
from typing import Any

from msgspec import UNSET

from ._checks import (
    _depth,
    _json,
    _key,
    _lone_surrogate,
    _member,
    _Problem,
    _value,
)
from ._exact.serde_json import MAX_DEPTH
from ._plans import (
    I64_MIN,
    KIND_JSON,
    KIND_LIST,
    KIND_MAP,
    KIND_MODEL,
    KIND_OBJECT,
    KIND_STRUCT,
    PLANS,
    U64_MAX,
    Field,
    Plan,
)

__all__ = ["check_plain", "plain_json"]


def plain_json(obj: Any) -> bool:
    """Whether ``obj`` (the plain value of a frame) passes :func:`check_plain` whatever its class.

    That is plain JSON: only ``dict`` with ``str`` keys, ``list``, ``tuple``, ``str``,
    ``bool``, ``None``, finite ``float`` and ``int`` in serde_json's range, nested at most
    :data:`MAX_DEPTH` levels. Stricter than :func:`check_plain` (an enum member, a wide int
    in an ``f64`` member answer False) and without paths, to skip it at the cost of a walk
    without Python calls; a lone surrogate is left to the writing of the JSON
    (:func:`unicode_error`)."""
    layer, level = [obj], 1  # level by level: no tuple a node
    while layer:
        below: list[Any] = []
        for node in layer:
            cls = type(node)
            if cls is str or cls is bool or node is None:
                continue
            if cls is int:
                if not I64_MIN <= node <= U64_MAX:
                    return False
            elif cls is float:
                if not math.isfinite(node):
                    return False
            elif cls is dict:
                if level > MAX_DEPTH:
                    return False
                for key in node:
                    if type(key) is not str:
                        return False
                below.extend(node.values())
            elif cls is list or cls is tuple:
                if level > MAX_DEPTH:
                    return False
                below.extend(node)
            else:
                return False
        layer, level = below, level + 1
    return True


def check_plain(obj: Any, cls: type) -> None:
    """Raise what :func:`check` raises when ``obj`` holds what has no JSON that rmcp reads back.

    ``obj`` is the plain Python value of a frame of class ``cls`` (dicts keyed by wire names,
    lists, scalars); the ``TypeError`` / ``ValueError`` is worded and placed as :func:`check`
    words it. Refused: a NaN or an infinity, an object that is no JSON value (``bytes``, a
    set, ...), a key that is no ``str``, a lone surrogate, an integer beyond serde_json's
    range in a free-form member, nesting past :data:`MAX_DEPTH` (a cycle included).

    What has JSON is left to the reading of that JSON (a member of the wrong type, a
    number out of a typed member's range, a string outside an enum), as are unknown
    members, which rmcp skips (only what has no JSON is refused in them). But when
    ``obj`` holds something without JSON, the error is the first one :func:`check`
    finds, as encode would raise it for the same value.
    """
    alternatives = ((KIND_STRUCT, PLANS[cls]),)
    try:
        _plain(obj, alternatives, "$", 0, False)
    except _Problem:
        try:
            _plain(obj, alternatives, "$", 0, True)
        except _Problem as problem:
            raise problem.error_type(problem.message) from None
        raise  # pragma: no cover - the strict walk refuses all the lenient one does


def _plain(item: Any, alternatives: Any, path: str, level: int, strict: bool) -> None:
    """:func:`check_plain` of ``item``, a member that takes ``alternatives``.

    ``level`` is the nesting level of the object or array that holds it; ``strict``: every
    problem :func:`check` finds, not only a want of JSON."""
    cls = type(item)
    if not strict and (
        cls is str
        or cls is bool
        or item is None
        or (cls is float and math.isfinite(item))
        or (cls is int and not _free(alternatives))
    ):
        # JSON, of the right type or not: the reading's to judge (a lone surrogate in
        # a str of the wrong type excepted, refused as check refuses the type)
        if (
            cls is str
            and _mistyped(item, alternatives, path, level)
            and _lone_surrogate(item, path) is not None
        ):
            _value(item, alternatives, path, level, alternatives)
        return
    if isinstance(item, enum.Enum):
        _plain(item.value, alternatives, path, level, strict)
        return
    wrong: _Problem | None = None
    struct = _struct_for(item, alternatives) if isinstance(item, dict) else None
    for kind, arg in alternatives:
        try:
            if kind == KIND_JSON or (kind == KIND_OBJECT and isinstance(item, dict)):
                _json(item, path, level)
                return
            if kind == KIND_MODEL:
                _plain(item, arg[0], path, level, strict)
                return
            if kind == KIND_STRUCT and struct is not None and arg is struct:
                _depth(path, level + 1)
                _plain_struct(item, struct, path, level + 1, strict)
                return
            if kind in (KIND_LIST, KIND_MAP) and isinstance(
                item, dict if kind == KIND_MAP else (list, tuple)
            ):
                _depth(path, level + 1)
                pairs = item.items() if isinstance(item, dict) else enumerate(item)
                for key, value in pairs:
                    if kind == KIND_MAP:
                        _key(key, path)
                    where = f"{path}.{key}" if kind == KIND_MAP else f"{path}[{key}]"
                    _plain(value, arg, where, level + 1, strict)
                return
        except _Problem as problem:
            wrong = problem
            if len(alternatives) == 1:
                raise
    if wrong is not None:
        raise wrong
    # A scalar, or a container where the member takes none: its JSON, if it has one,
    # is the reading's to judge. One without JSON is refused as check refuses it.
    if strict:
        _value(item, alternatives, path, level, alternatives)
    try:
        _json(item, path, level, exact_ints=False)
    except _Problem as problem:
        _value(item, alternatives, path, level, alternatives)
        raise problem from None
    if _mistyped(item, alternatives, path, level) and _lone_surrogate(item, path) is not None:
        _value(item, alternatives, path, level, alternatives)  # no JSON either


def _free(alternatives: Any) -> bool:
    """Whether ``alternatives`` take a free-form JSON value (whose ints are ranged)."""
    return any(kind == KIND_JSON for kind, _ in alternatives)


def _mistyped(item: Any, alternatives: Any, path: str, level: int) -> bool:
    """Whether :func:`check` refuses ``item`` where ``alternatives`` are taken."""
    try:
        _value(item, alternatives, path, level, alternatives)
    except _Problem:
        return True
    return False


def _struct_for(obj: dict[Any, Any], alternatives: Any) -> Plan | None:
    """The plan of the struct class among ``alternatives`` that the plain object ``obj`` stands for.

    The one its tag names (``method``), else the first with a member of each of its keys,
    else the first."""
    plans: list[Plan] = [arg for kind, arg in alternatives if kind == KIND_STRUCT]
    if len(plans) < 2:
        return plans[0] if plans else None
    for plan in plans:
        cls: Any = plan.cls
        config = cls.__struct_config__
        if config.tag_field is not None and obj.get(config.tag_field) == config.tag:
            return plan
    for plan in plans:
        if obj.keys() <= _by_wire(plan).keys():
            return plan
    return plans[0]


#: Each plan's fields by wire name, made as they are first asked for.
_BY_WIRE: dict[Plan, dict[str, Field]] = {}


def _by_wire(plan: Plan) -> dict[str, Field]:
    fields = _BY_WIRE.get(plan)
    if fields is None:
        fields = _BY_WIRE[plan] = {field.wire: field for field in plan.fields}
    return fields


def _plain_struct(obj: dict[Any, Any], plan: Plan, path: str, level: int, strict: bool) -> None:
    fields = _by_wire(plan)
    for key, item in obj.items():
        _key(key, path)
        field = fields.get(key)
        if field is None:  # unknown (or a notification's method): rmcp skips it
            if type(item) is not str:
                _json(item, f"{path}.{key}", level, exact_ints=False)
        elif item is None or item is UNSET:
            if strict:
                _member(item, field, f"{path}.{key}", level)
        else:
            _plain(item, field.alternatives, f"{path}.{key}", level, strict)
