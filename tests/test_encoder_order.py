"""The notification encoder writes struct fields in declared order ("deterministic");
rmcp writes notification params in sorted key order. They agree only while every struct
a typed notification holds declares its fields in sorted wire-name order."""

from __future__ import annotations

import typing

import msgspec
import pytest

from diverge_frames import types as t


def _structs(tp: object, seen: set[type]) -> None:
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        if tp in seen:
            return
        seen.add(tp)
        for f in msgspec.structs.fields(tp):
            _structs(f.type, seen)
    for arg in typing.get_args(tp):
        _structs(arg, seen)


_SEEN: set[type] = set()
for _cls in t.TYPED_NOTIFICATIONS:
    _structs(_cls, _SEEN)


@pytest.mark.parametrize("cls", sorted(_SEEN, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_fields_are_declared_in_sorted_wire_order(cls: type) -> None:
    names = list(cls.__struct_encode_fields__)
    assert names == sorted(names)


def test_deterministic_equals_sorted_on_a_full_notification() -> None:
    value = msgspec.json.decode(
        b'{"method":"notifications/tasks","params":{"taskId":"t","status":"completed",'
        b'"createdAt":"a","lastUpdatedAt":"b","ttlMs":5,"pollIntervalMs":1,"result":{"z":1,"a":2},'
        b'"_meta":{"b":1,"a":2}}}',
        type=t.TypedNotification,
    )
    sorted_ = msgspec.json.Encoder(order="sorted").encode(value)
    assert msgspec.json.Encoder(order="deterministic").encode(value) == sorted_
    assert sorted_.index(b'"_meta"') < sorted_.index(b'"createdAt"') < sorted_.index(b'"taskId"')


# Keys whose sorted order is by code point (serde_json's BTreeMap, msgspec's
# "deterministic"): upper case before lower, a prefix before its extensions, Latin-1
# before the rest of the BMP before the astral planes.
_KEYS = ["Z", "a", "aa", "ab", "b", "z", "\xe9", "\xe9a", "\u20ac", "\U0001f600"]


#: The keys of the free-form objects below (the structs' members are in their own order).
_FREE = {*_KEYS, "outer", "x", "k", "list", "c"}


def _dicts(order: list[str]) -> list[dict[str, object]]:
    """Objects whose keys come in ``order``: flat, nested in an object and in a list."""
    flat = {k: _KEYS.index(k) for k in order}
    return [
        flat,
        {"outer": flat, "x": [flat, {"k": flat}]},
        {"a": {"b": {"c": flat}}},
        {"list": [1, flat, "s"]},
    ]


_ORDERS = {
    "sorted": sorted(_KEYS),
    "reversed": sorted(_KEYS, reverse=True),
    "last two swapped": [*sorted(_KEYS)[:-2], *sorted(_KEYS)[-2:][::-1]],
    "first two swapped": [*sorted(_KEYS)[:2][::-1], *sorted(_KEYS)[2:]],
    "one byte against four": ["\U0001f600", "a"],
    "prefix after": ["aa", "a"],
}


def _values(data: dict[str, object]) -> list[tuple[str, object]]:
    """Each place a free-form object is written: error data, custom params, ``_meta``."""
    return [
        ("notification", t.ErrorData(code=-32603, message="m", data=data)),
        ("notification", t.CustomNotification(method="x/y", params=data)),
        (
            "notification",
            t.LoggingMessageNotification(
                params=t.LoggingMessageNotificationParam(level="info", data=data)
            ),
        ),
        (
            "notification",
            t.ProgressNotification(
                params=t.ProgressNotificationParam(progress_token="p", progress=1.5, meta=data)
            ),
        ),
        ("read-resource", t.ErrorData(code=-32002, message="m", data=data)),
        (
            "read-resource",
            t.ReadResourceResult(
                contents=[t.TextResourceContents(uri="u", text="t", meta=data)], meta=data
            ),
        ),
    ]


@pytest.mark.parametrize("order", sorted(_ORDERS))
def test_objects_are_written_in_sorted_key_order_whatever_their_order(frames, order) -> None:
    # The compiled encode writes a value whose objects are all in sorted order with
    # msgspec's encoder that does not sort: the bytes must be the same as for any other
    # order of the same keys.
    names = _ORDERS[order]
    for data, reference in zip(_dicts(names), _dicts(sorted(names)), strict=True):
        for (channel, value), (_, same) in zip(_values(data), _values(reference), strict=True):
            encode = (
                frames.encode_notification if channel == "notification"
                else frames.encode_read_resource
            )  # fmt: skip
            expected = encode(same)
            assert encode(value) == expected
            free = [
                keys for keys in _key_orders(msgspec.json.decode(expected[1:]))
                if set(keys) <= _FREE
            ]  # fmt: skip
            assert free and all(keys == sorted(keys) for keys in free)


def _key_orders(value: object) -> list[list[str]]:
    """The keys of every object in a decoded JSON value, each object's in its order."""
    found: list[list[str]] = []
    if isinstance(value, dict):
        found.append(list(value))
        for item in value.values():
            found += _key_orders(item)
    elif isinstance(value, list):
        for item in value:
            found += _key_orders(item)
    return found
