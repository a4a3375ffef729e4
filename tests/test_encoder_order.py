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
