"""Where rmcp reads a struct.

The positions of a body at which a repeated member fails serde's derived struct (a rule
of :mod:`.rmcp_read`), for the pre-checks.

Derived from the types (as ``rmcp_structs.RMCP_TYPED`` is), so that a struct added there counts:
a notification's top level and the params of the methods rmcp types (every such
method's at once: the method may come after its params), a result's members and its
``contents`` items, ``ErrorData``'s members, and the unit enums among them (serde reads
one from a one-key map too, whose key repeated fails it). A repeated key anywhere else is in a
``Value`` map, where serde_json and msgspec both keep the last. Each twin's pre-check
walks these positions (the compiled one has them flattened into C arrays at import).
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import msgspec.inspect as mi

from .. import types as t
from .._wire import ReadResourceResultWire
from .rmcp_structs import MODEL_MEMBER_DEPTH, RMCP_TYPED, STRUCT_DEPTH
from .rmcp_types import MODEL_MEMBER_NAMES

__all__ = ["Position", "STRUCT_POSITIONS", "models_below"]


class Position(NamedTuple):
    """A place in a body where serde reads a derived struct, an array or a map of them.

    ``members``: the struct's members (wire names, in declaration order), a repeated one
    of which fails the struct; ``children``: the position of each member's value (None:
    nothing there is a struct). Without members it is an array or a map whose items
    (values) are at ``items``. A struct position holding an array is serde's sequence
    form of the struct. ``models``: the members only :mod:`.rmcp_types` reads (its
    :data:`~.rmcp_types.MODEL_MEMBER_NAMES`): a body with one takes the exact reading,
    pairs kept all the way down."""

    members: tuple[str, ...]
    children: tuple[Position | None, ...]
    items: Position | None
    models: frozenset[str] = frozenset()


def _merge(a: Position | None, b: Position | None) -> Position | None:
    """Both positions at once (a union type, or the params of every typed method)."""
    if a is None or b is None:
        return a or b
    members = a.members + tuple(m for m in b.members if m not in a.members)
    children = tuple(
        _merge(
            a.children[a.members.index(m)] if m in a.members else None,
            b.children[b.members.index(m)] if m in b.members else None,
        )
        for m in members
    )
    return Position(members, children, _merge(a.items, b.items), a.models | b.models)


def _position(info: Any, depth: int) -> Position | None:
    """The position of a value of msgspec type ``info`` nested ``depth`` levels deep."""
    if isinstance(info, mi.Metadata):
        return _position(info.type, depth)
    if isinstance(info, mi.UnionType):
        found: Position | None = None
        for member in info.types:
            found = _merge(found, _position(member, depth))
        return found
    if isinstance(info, mi.StructType):
        if issubclass(info.cls, t._ExactParams):
            return None  # rmcp keeps these params as a Value: no struct
        if depth > STRUCT_DEPTH:
            raise ImportError(
                f"{info.cls.__name__} is nested {depth} levels deep: "
                f"STRUCT_DEPTH ({STRUCT_DEPTH}) must be at least that"
            )
        fields = [f for f in info.fields if f.encode_name != info.tag_field]
        models = frozenset(
            f.encode_name
            for f in fields
            if depth == MODEL_MEMBER_DEPTH and f.encode_name in MODEL_MEMBER_NAMES
        )
        return Position(
            tuple(f.encode_name for f in fields),
            tuple(
                None if f.encode_name in models else _position(f.type, depth + 1) for f in fields
            ),
            None,
            models,
        )
    if isinstance(info, mi.LiteralType):
        # a unit enum, which serde also reads as a one-key map ({"info": null}): a
        # variant's name repeated there fails it, as a struct's member would
        names = tuple(str(v) for v in info.values)
        return Position(names, (None,) * len(names), None)
    if isinstance(info, (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)):
        items = _position(info.item_type, depth + 1)
    elif isinstance(info, mi.DictType):
        items = _position(info.value_type, depth + 1)
    else:
        return None
    return None if items is None else Position((), (), items)


def _notification_positions() -> Position:
    params: Position | None = None
    for cls in t.TYPED_NOTIFICATIONS:
        if str(cls.__struct_config__.tag) in RMCP_TYPED:  # type: ignore[attr-defined]
            info = mi.type_info(cls)
            assert isinstance(info, mi.StructType)
            field = next(f for f in info.fields if f.name == "params")
            params = _merge(params, _position(field.type, 2))
    return Position(("method", "params"), (None, params), None)


#: Where a repeated member can change rmcp's reading of a body: the struct positions of
#: each top-level type (derived from the types, so that a struct added there counts).
#: A repeated key elsewhere (a ``Value`` map) keeps the last in both readers.
STRUCT_POSITIONS: dict[str, Position] = {
    "ServerNotification": _notification_positions(),
    "ReadResourceResult": _position(mi.type_info(ReadResourceResultWire), 1),  # type: ignore[dict-item]
    "ErrorData": _position(mi.type_info(t.ErrorData), 1),  # type: ignore[dict-item]
}


@functools.cache
def models_below(position: Position | None) -> bool:
    """Whether a model member (``Position.models``) is at ``position`` or below it.

    An array there (serde's sequence form) may hold one.
    """
    if position is None:
        return False
    return bool(position.models) or any(map(models_below, (*position.children, position.items)))
