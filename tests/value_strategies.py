"""Hypothesis strategies for values users build: every public struct class, each member
drawn from what its plan takes (``diverge_frames._plans``) and, now and then, from what
it does not (wrong types, edge and out-of-range numbers, NaN and infinities, ``None``
and ``UNSET``, values outside an enum, free-form values with keys, numbers and
containers JSON or rmcp cannot hold).

Derived from the plans, so a member added to ``types.py`` is drawn too. Used by
``tests/test_checks.py`` and, through the oracle, ``tests/interop/test_oracle.py``.
"""

from __future__ import annotations

import enum
import math
from typing import Any

from hypothesis import reject
from hypothesis import strategies as st
from msgspec import UNSET

from diverge_frames import _plans as p
from diverge_frames import types as t

#: The classes a channel carries, each with the channel it is encoded on.
TOP_CLASSES: tuple[tuple[type, str], ...] = (
    *((cls, "notifications") for cls in t.TYPED_NOTIFICATIONS),
    (t.CustomNotification, "notifications"),
    (t.ErrorData, "notifications"),
    (t.ReadResourceResult, "read-resource"),
    (t.ErrorData, "read-resource"),
)


class Level(str, enum.Enum):
    """A str enum (msgspec writes its value)."""

    INFO = "info"
    LOUD = "loud"


class Code(enum.IntEnum):
    """An int enum (msgspec writes its value)."""

    NOT_FOUND = -32002


_EDGE_INTS = [
    0,
    1,
    -1,
    2**31 - 1,
    2**31,
    -(2**31),
    -(2**31) - 1,
    2**53 + 1,
    2**63 - 1,
    2**63,
    -(2**63),
    -(2**63) - 1,
    2**64 - 1,
    2**64,
    10**400,
]
_EDGE_FLOATS = [0.0, -0.0, 1.0, 0.1, 1e16, 1e-7, 5e-324, 1.7976931348623157e308, 2.5, 1e22]
_BAD_FLOATS = [math.nan, math.inf, -math.inf]

_text = st.text(
    alphabet=st.characters(codec="utf-8") | st.sampled_from(["\ud800", '"', "\\", "\x00", "é"]),
    max_size=8,
)
_good_text = st.text(st.characters(codec="utf-8"), max_size=8)
_keys = st.sampled_from(["a", "b", "_meta", "A", "é", "", "z"]) | _good_text


def _scalars(good: bool) -> st.SearchStrategy[Any]:
    ints = st.integers(-(2**63), 2**64 - 1) | st.sampled_from(_EDGE_INTS[:13])
    floats = st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(_EDGE_FLOATS)
    base = st.none() | st.booleans() | ints | floats | _good_text
    if good:
        return base
    bad = (
        st.sampled_from([*_BAD_FLOATS, 2**64, -(2**63) - 1, 10**30])
        | _text
        | st.sampled_from([b"x", {1, 2}, Level.INFO, Code.NOT_FOUND, object()])
    )
    return base | bad


def json_values(good: bool = True, depth: int = 3) -> st.SearchStrategy[Any]:
    """Free-form values: JSON builtins; with ``good`` false, also what JSON cannot hold
    (non-str keys, NaN, wide ints, sets, bytes, lone surrogates), tuples and enums."""

    def extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        arrays = st.lists(children, max_size=3)
        objects = st.dictionaries(_keys, children, max_size=3)
        if good:
            return arrays | objects
        keys = _keys | st.sampled_from([1, None, True])
        return arrays | objects | st.tuples(children) | st.dictionaries(keys, children, max_size=2)

    return st.recursive(_scalars(good), extend, max_leaves=6)


def _deep(levels: int) -> Any:
    value: Any = []
    for _ in range(levels):
        value = [value]
    return value


#: A free-form member whose content rmcp types all the same: a task's ``inputRequests``
#: (rmcp reads each entry as an ``InputRequest``; docs/compatibility.md). While
#: ``types.py`` keeps it free-form, only an empty one is drawn.
FREE_FORM_RMCP_TYPES = {(t.DetailedTaskNotificationParams, "input_requests")}


@st.composite
def _member(draw: st.DrawFn, field: p.Field, good: bool) -> Any:
    """One member's value: what its plan takes, or (``good`` false) anything near it."""
    flags = field.flags
    if field.alternatives == ((p.KIND_OBJECT, None),) and any(
        field.name == name for _, name in FREE_FORM_RMCP_TYPES
    ):
        return draw(st.none() | st.just({}))
    choices = []
    if flags & (p.FLAG_NONE | p.FLAG_NONE_DEFAULT | p.FLAG_NONE_UNSET) or not good:
        choices.append(st.none())
    if flags & (p.FLAG_UNSET | p.FLAG_UNSET_NONE) or not good:
        choices.append(st.just(UNSET))
    for kind, arg in field.alternatives:
        choices.append(_kind(kind, arg, good))
    if not good:
        choices.append(_scalars(False))
    value = draw(st.one_of(choices))
    return value


def _kind(kind: int, arg: Any, good: bool) -> st.SearchStrategy[Any]:
    if kind == p.KIND_STR:
        return _good_text if good else _text
    if kind == p.KIND_BOOL:
        return st.booleans()
    if kind == p.KIND_MODEL:
        return st.one_of([_kind(k, a, good) for k, a in arg[0]])
    if kind == p.KIND_F32:
        floats = st.floats(allow_nan=False, width=32) | st.sampled_from([0.7, 1e39, 3.5e38])
        return floats | st.integers(-(2**70), 2**70)
    if kind == p.KIND_F64:
        floats = st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(_EDGE_FLOATS)
        ints = st.integers(-(2**70), 2**70)
        if good:
            return floats | ints
        return floats | ints | st.sampled_from([*_BAD_FLOATS, True, 10**400])
    if kind == p.KIND_INT:
        low, high = arg
        inside = st.integers(low, high) | st.sampled_from([low, high])
        if good:
            return inside
        return (
            inside
            | st.sampled_from([low - 1, high + 1, 1.0, True])
            | st.sampled_from([Code.NOT_FOUND])
        )
    if kind == p.KIND_ENUM:
        inside = st.sampled_from(sorted(arg))
        if good:
            return inside
        return inside | st.sampled_from(["bogus", "INFO", "", Level.INFO, Level.LOUD])
    if kind == p.KIND_JSON:
        if good:
            return json_values(True)
        return json_values(False) | st.sampled_from([_deep(130), _deep(120)])
    if kind == p.KIND_OBJECT:
        objects = st.dictionaries(_keys, json_values(good), max_size=3)
        if good:
            return objects
        return objects | st.dictionaries(st.integers(0, 3), st.none(), min_size=1, max_size=2)
    if kind == p.KIND_STRUCT:
        return structs(arg.cls, good)
    if kind == p.KIND_LIST:
        items = st.one_of([_kind(k, a, good) for k, a in arg])
        if good:
            return st.lists(items, max_size=3)
        return st.lists(items, max_size=3) | st.tuples(items) | st.just({"not": "a list"})
    if kind == p.KIND_MAP:
        items = st.one_of([_kind(k, a, good) for k, a in arg])
        return st.dictionaries(_keys, items, max_size=2)
    raise AssertionError(f"no strategy for kind {kind}")


@st.composite
def structs(draw: st.DrawFn, cls: type, good: bool = False) -> Any:
    """An instance of ``cls`` built with drawn arguments (``good``: only what its plan
    takes; else mostly that, with wrong values mixed in). Half the time the arguments
    go to the constructor; else (or when it refuses them) a value built with good
    arguments has them set afterwards, as a user may change a value."""
    plan = p.PLANS[cls]
    drawn: dict[str, Any] = {}
    for field in plan.fields:
        if not field.required and draw(st.booleans()):
            continue  # left to its default
        wrong = not good and draw(st.integers(0, 9)) == 0
        drawn[field.name] = draw(_member(field, not wrong))
    if draw(st.booleans()):
        try:
            return cls(**_with_payload(plan, drawn))
        except (TypeError, ValueError, AttributeError):
            pass  # a __post_init__ refused (or tripped on) a wrong value
    base = {f.name: draw(_member(f, True)) for f in plan.fields if f.required}
    try:
        value = cls(**_with_payload(plan, base))
    except (TypeError, ValueError):
        # a rule of the constructor that no single member's plan says (a form
        # elicitation needs ``requested_schema``): every member drawn, or none of this
        base = {f.name: draw(_member(f, True)) for f in plan.fields}
        try:
            value = cls(**_with_payload(plan, base))
        except (TypeError, ValueError):
            reject()
    for name, item in drawn.items():
        setattr(value, name, item)
    return value


def _with_payload(plan: p.Plan, kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with the payload member a status requires, when it is missing."""
    if plan.payload is None:
        return kwargs
    status_index, by_status, _ = plan.payload
    status = kwargs.get(plan.fields[status_index].name)
    wanted = by_status.get(status) if isinstance(status, str) else None
    if wanted is not None and kwargs.get(plan.fields[wanted].name) is None:
        return {**kwargs, plan.fields[wanted].name: {}}
    return kwargs


def top_values(good: bool = False) -> st.SearchStrategy[tuple[Any, str]]:
    """``(value, channel)``: a value a channel carries, built from drawn arguments."""
    return st.sampled_from(TOP_CLASSES).flatmap(
        lambda pair: structs(pair[0], good).map(lambda value: (value, pair[1]))
    )


def same_but_float_digits(a: bytes, b: bytes) -> bool:
    """``a`` and ``b`` (tag byte + JSON) are the same frame, but for floats that differ by
    an ulp or two: serde_json 1.0.154 (no ``float_roundtrip``) reads about one double in
    five written in shortest digits as a neighbouring double, so rmcp (and our decoder,
    which reads as rmcp does) may write other digits back for a float it wrote."""
    import json

    def same(x: Any, y: Any) -> bool:
        if type(x) is not type(y):
            return False
        if type(x) is float:
            return x == y or math.isclose(x, y, rel_tol=1e-15, abs_tol=0.0)
        if type(x) is list:
            return len(x) == len(y) and all(same(i, j) for i, j in zip(x, y, strict=True))
        if type(x) is dict:
            return list(x) == list(y) and all(same(x[k], y[k]) for k in x)
        return bool(x == y)

    return a[:1] == b[:1] and same(json.loads(a[1:]), json.loads(b[1:]))


#: The wire names of rmcp's ``f32`` members (``_plans.F32_MEMBERS``): one past the f32
#: range is held as an infinity, written ``null``, read back as absent (``None``).
F32_WIRE_NAMES = frozenset(
    cls.__struct_encode_fields__[cls.__struct_fields__.index(name)] for cls, name in p.F32_MEMBERS
)


def same_but_f32_nulls(a: bytes, b: bytes) -> bool:
    """``a`` and ``b`` are the same frame (as :func:`same_but_float_digits` says), but for
    an ``f32`` member written ``null`` in ``b`` and absent from ``a``: rmcp writes the
    infinity an f32 past its range holds as ``null``, which it reads back as absent."""
    import json

    def drop(x: Any) -> Any:
        if type(x) is list:
            return [drop(i) for i in x]
        if type(x) is dict:
            return {k: drop(v) for k, v in x.items() if not (v is None and k in F32_WIRE_NAMES)}
        return x

    dropped = b[:1] + json.dumps(drop(json.loads(b[1:])), separators=(",", ":")).encode()
    return a == dropped or same_but_float_digits(a, dropped)


def encoded(encode: Any, value: Any) -> bytes | tuple[type, str]:
    """``encode(value)``, or ``(type, message)`` of the TypeError/ValueError it raised."""
    try:
        return encode(value)  # type: ignore[no-any-return]
    except (TypeError, ValueError) as exc:
        return type(exc), str(exc)
