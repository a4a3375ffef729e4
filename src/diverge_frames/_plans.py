"""The rules encode checks a value against before it writes it, as plans.

rmcp 3.1.4's types and ranges for every member of every public type.

A value that passes is written as exactly the bytes rmcp writes for it (rmcp reads them
back as the same variant and writes the same bytes); any other raises ``TypeError`` (a
member of the wrong Python type, ``None`` where a member is required included) or
``ValueError`` (the right type, a value rmcp cannot hold), each naming the member by its
wire path: ``$.params.level: ...``.

The rules are derived once, here, from the annotations of :mod:`diverge_frames.types`
(:data:`PLANS`: one :class:`Plan` per struct class), with what the annotations do not
say written beside them and named:

* scalars are the builtin types msgspec writes as the JSON rmcp reads (``str``, ``int``
  not ``bool``, ``float``, ``bool``), exact types; an ``enum.Enum`` member stands for
  its value, as msgspec writes it;
* an ``f64`` member (``float``) takes a finite float, or an ``int`` that is written as
  the float rmcp holds for it (``1`` -> ``1.0``, the check makes a copy);
* integers are within their ``Meta`` bounds and at most ``u64::MAX``
  (:data:`U64_MAX`, serde_json's widest integer); ``ttlMs`` of a result is at least 0
  (:data:`NON_NEGATIVE`: rmcp reads a negative one as 0);
* free-form values (``Any``, ``dict[str, Any]``: ``data``, ``_meta``, a custom
  notification's ``params``) are JSON: ``dict`` with ``str`` keys, ``list`` or
  ``tuple``, ``str``, ``int`` in serde_json's range (``-2**63`` to ``2**64 - 1``),
  finite ``float``, ``bool``, ``None``; nested at most ``MAX_DEPTH`` levels in the
  whole frame (serde_json's recursion limit);
* what the constructors make canonical (their ``__post_init__``) is made canonical
  again, on a copy, for a value changed after it was built (:data:`NONE_IS_DEFAULT`,
  :data:`EMPTY_IS_NONE`, :data:`NONE_IS_UNSET`, :data:`UNSET_IS_NONE`,
  :data:`PAYLOAD_BY_STATUS`); a custom notification's ``_meta`` is an object or
  ``None`` (:data:`META_IS_OBJECT`);
* a :class:`~diverge_frames.types.CustomNotification` is written as rmcp writes one,
  even when its method and params fit a typed notification (``"notifications/progress"``
  with ``{"progress": 1, "progressToken": 1}``): rmcp writes the same bytes for it and
  reads them back as the typed one. Such a value arises from a frame rmcp reads as
  custom (a duplicated member), and a relay must write what rmcp writes; to send the
  typed notification, build its class.

Both twins use these plans: :func:`diverge_frames._checks.check` walks them (the pure
twin, on every value); the compiled twin walks a C copy of them (``_check.h``,
``_check_plans.pxi``) and calls ``check`` only when that walk cannot say the value is
fine as it is.
"""

from __future__ import annotations

import types as _pytypes
import typing
from typing import Any, Literal, Union

import msgspec
from msgspec import UnsetType

from . import types as t

__all__ = [
    "U64_MAX",
    "I64_MIN",
    "KIND_STR",
    "KIND_BOOL",
    "KIND_F64",
    "KIND_INT",
    "KIND_ENUM",
    "KIND_JSON",
    "KIND_OBJECT",
    "KIND_STRUCT",
    "KIND_LIST",
    "KIND_MAP",
    "KIND_F32",
    "KIND_MODEL",
    "MODEL_CHECKED",
    "F32_MEMBERS",
    "FLAG_NONE",
    "FLAG_UNSET",
    "FLAG_NONE_DEFAULT",
    "FLAG_NONE_UNSET",
    "FLAG_UNSET_NONE",
    "FLAG_EMPTY_NONE",
    "FLAG_META_OBJECT",
    "NONE_IS_DEFAULT",
    "EMPTY_IS_NONE",
    "NONE_IS_UNSET",
    "UNSET_IS_NONE",
    "META_IS_OBJECT",
    "NON_NEGATIVE",
    "PAYLOAD_BY_STATUS",
    "Field",
    "Plan",
    "PLANS",
    "union_members",
]

#: The widest integer serde_json's ``Value`` holds (``u64``), and the lowest (``i64``).
U64_MAX = 2**64 - 1
I64_MIN = -(2**63)

# What a member takes (one or more of these, each with its argument).
KIND_STR = 0  # str
KIND_BOOL = 1  # bool
KIND_F64 = 2  # finite float, or an int written as its float
KIND_INT = 3  # int in (low, high)
KIND_ENUM = 4  # str in a frozenset (a Literal)
KIND_JSON = 5  # any JSON value
KIND_OBJECT = 6  # a JSON object (dict with str keys)
KIND_STRUCT = 7  # an instance of exactly the plan's class
KIND_LIST = 8  # list or tuple, each item one of the alternatives
KIND_MAP = 9  # dict with str keys, each value one of the alternatives
KIND_F32 = 10  # an rmcp f32: a float or int, held (and written) rounded to single precision
KIND_MODEL = 11  # (alternatives, wire name): those, then rmcp's own reading of what is written

# How a member treats None and UNSET.
FLAG_NONE = 1  # None is a value as it is (left out or written null, as rmcp does)
FLAG_UNSET = 2  # UNSET is a value as it is (left out)
FLAG_NONE_DEFAULT = 4  # None stands for the member's class built with no arguments
FLAG_NONE_UNSET = 8  # None stands for UNSET
FLAG_UNSET_NONE = 16  # UNSET stands for None
FLAG_EMPTY_NONE = 32  # a struct whose members are all None stands for None
FLAG_META_OBJECT = 64  # a dict whose ``_meta`` member must be a dict or None

#: ``CancelledNotification.params``: ``None`` is empty params (rmcp writes ``{}``).
NONE_IS_DEFAULT: frozenset[tuple[type, str]] = frozenset({(t.CancelledNotification, "params")})
#: The list-changed notifications' ``params`` and a ``roots/list`` input request's:
#: without ``_meta`` rmcp writes none.
EMPTY_IS_NONE: frozenset[tuple[type, str]] = frozenset(
    {(t._ListChanged, "params"), (t.ListRootsRequest, "params")}
)
#: Params rmcp keeps custom: a ``None`` ``_meta`` is dropped, as rmcp drops ``null``.
NONE_IS_UNSET: frozenset[tuple[type, str]] = frozenset({(t._ExactParams, "meta")})
#: rmcp writes a task's ``ttlMs`` always, ``null`` when unlimited.
UNSET_IS_NONE: frozenset[tuple[type, str]] = frozenset(
    {(t.DetailedTaskNotificationParams, "ttl_ms")}
)
#: A custom notification's ``params``: rmcp reads ``_meta`` as an object or ``null``.
META_IS_OBJECT: frozenset[tuple[type, str]] = frozenset({(t.CustomNotification, "params")})
#: rmcp ``f32`` members: rmcp holds the value rounded to single precision (``0.7`` is
#: ``0.699999988079071``; past the f32 range an infinity, written ``null``).
F32_MEMBERS: frozenset[tuple[type, str]] = frozenset(
    {
        (t.ModelPreferences, "cost_priority"),
        (t.ModelPreferences, "speed_priority"),
        (t.ModelPreferences, "intelligence_priority"),
        (t.CreateMessageRequestParams, "temperature"),
    }
)
#: Members that rmcp reads with a model of its own (``_exact.rmcp_types``) that our types keep
#: partly free-form (the content blocks of a task's ``inputRequests``): what encode
#: writes of one must be what rmcp reads and writes back, or encode refuses it.
MODEL_CHECKED: frozenset[tuple[type, str]] = frozenset(
    {(t.DetailedTaskNotificationParams, "input_requests")}
)
#: ``ReadResourceResult.ttl_ms``: rmcp reads a negative ``ttlMs`` as 0.
NON_NEGATIVE: frozenset[tuple[type, str]] = frozenset({(t.ReadResourceResult, "ttl_ms")})
#: A task's payload member follows its ``status``: the one named here is required, the
#: others are dropped (rmcp ``DetailedTask``'s ``TryFrom``).
PAYLOAD_BY_STATUS: dict[type, tuple[str, dict[str, str], tuple[str, ...]]] = {
    t.DetailedTaskNotificationParams: (
        "status",
        dict(t.DetailedTaskNotificationParams._PAYLOAD),
        ("input_requests", "result", "error"),
    ),
}


class Field:
    """One member of a struct: its attribute, its wire name, what it takes."""

    __slots__ = ("alternatives", "flags", "name", "required", "wire")

    def __init__(
        self,
        name: str,
        wire: str,
        alternatives: tuple[tuple[int, Any], ...],
        flags: int,
        required: bool,
    ) -> None:
        self.name = name
        self.wire = wire
        #: ``((kind, argument), ...)``: the value must fit one of them.
        self.alternatives = alternatives
        self.flags = flags
        self.required = required

    def __repr__(self) -> str:
        return f"Field({self.name!r}, {self.alternatives!r}, flags={self.flags})"


class Plan:
    """The members of one struct class, in declaration order, and its class rules."""

    __slots__ = ("cls", "fields", "payload")

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.fields: tuple[Field, ...] = ()
        #: ``(status field index, {status: payload field index}, payload field indices)``
        #: for a class under :data:`PAYLOAD_BY_STATUS`, else None.
        self.payload: tuple[int, dict[str, int], tuple[int, ...]] | None = None

    def __repr__(self) -> str:
        return f"Plan({self.cls.__name__})"


def _ruled(rules: frozenset[tuple[type, str]], cls: type, name: str) -> bool:
    return any(issubclass(cls, base) and name == member for base, member in rules)


def _alternatives(annotation: Any, cls: type, name: str) -> tuple[tuple[tuple[int, Any], ...], int]:
    """``(alternatives, flags)`` of one annotation."""
    flags = 0
    members = union_members(annotation)
    alternatives: list[tuple[int, Any]] = []
    for member in members:
        if member is type(None):
            flags |= FLAG_NONE
        elif member is UnsetType:
            flags |= FLAG_UNSET
        else:
            alternatives.append(_kind(member, cls, name))
            if member is Any:
                flags |= FLAG_NONE  # JSON null
    return tuple(alternatives), flags


def union_members(annotation: Any) -> tuple[Any, ...]:
    origin = typing.get_origin(annotation)
    if origin is Union or origin is _pytypes.UnionType:
        out: list[Any] = []
        for arg in typing.get_args(annotation):
            out.extend(union_members(arg))
        return tuple(out)
    return (annotation,)


def _kind(annotation: Any, cls: type, name: str) -> tuple[int, Any]:
    low, high = I64_MIN, U64_MAX
    if typing.get_origin(annotation) is typing.Annotated:
        base, *metas = typing.get_args(annotation)
        for meta in metas:
            if isinstance(meta, msgspec.Meta):
                low = int(meta.ge) if meta.ge is not None else low
                high = int(meta.le) if meta.le is not None else high
        annotation = base
    if annotation is str:
        return (KIND_STR, None)
    if annotation is bool:
        return (KIND_BOOL, None)
    if annotation is float:
        return (KIND_F32, None) if _ruled(F32_MEMBERS, cls, name) else (KIND_F64, None)
    if annotation is int:
        if _ruled(NON_NEGATIVE, cls, name):
            low = max(low, 0)
        return (KIND_INT, (low, high))
    if annotation is Any:
        return (KIND_JSON, None)
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return (KIND_ENUM, frozenset(typing.get_args(annotation)))
    if origin is list:
        (item,) = typing.get_args(annotation)
        alternatives, flags = _alternatives(item, cls, name)
        if flags:
            raise TypeError(f"{cls.__name__}.{name}: None or UNSET in a list is not a rule here")
        return (KIND_LIST, alternatives)
    if origin is dict:
        key, value = typing.get_args(annotation)
        if key is not str:
            raise TypeError(f"{cls.__name__}.{name}: dict keys other than str")
        if value is Any:
            return (KIND_OBJECT, None)
        alternatives, flags = _alternatives(value, cls, name)
        if flags:
            raise TypeError(f"{cls.__name__}.{name}: None or UNSET in a map is not a rule here")
        return (KIND_MAP, alternatives)
    if isinstance(annotation, type) and issubclass(annotation, msgspec.Struct):
        return (KIND_STRUCT, _plan(annotation))
    raise TypeError(f"{cls.__name__}.{name}: no encode rule for {annotation!r}")


_BUILDING: dict[type, Plan] = {}


def _plan(cls: type) -> Plan:
    plan = _BUILDING.get(cls)
    if plan is not None:
        return plan
    plan = _BUILDING[cls] = Plan(cls)
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = []
    for info in msgspec.structs.fields(cls):
        alternatives, flags = _alternatives(hints[info.name], cls, info.name)
        for rules, flag in (
            (NONE_IS_DEFAULT, FLAG_NONE_DEFAULT),
            (EMPTY_IS_NONE, FLAG_EMPTY_NONE),
            (NONE_IS_UNSET, FLAG_NONE_UNSET),
            (UNSET_IS_NONE, FLAG_UNSET_NONE),
            (META_IS_OBJECT, FLAG_META_OBJECT),
        ):
            if _ruled(rules, cls, info.name):
                flags |= flag
        if _ruled(MODEL_CHECKED, cls, info.name):
            alternatives = ((KIND_MODEL, (alternatives, info.encode_name)),)
        fields.append(Field(info.name, info.encode_name, alternatives, flags, info.required))
    plan.fields = tuple(fields)
    rule = next((r for base, r in PAYLOAD_BY_STATUS.items() if issubclass(cls, base)), None)
    if rule is not None:
        status, by_status, members = rule
        index = {f.name: i for i, f in enumerate(plan.fields)}
        plan.payload = (
            index[status],
            {value: index[member] for value, member in by_status.items()},
            tuple(index[m] for m in members),
        )
    return plan


#: Every public struct class -> its plan.
PLANS: dict[type, Plan] = {
    cls: _plan(cls)
    for cls in (
        *t.TYPED_NOTIFICATIONS,
        t.CustomNotification,
        t.ReadResourceResult,
        t.ErrorData,
    )
}
PLANS.update(_BUILDING)
