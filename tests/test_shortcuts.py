"""The compiled twin's shortcuts through CPython's C API (``_capi.h``) are taken, and
what they give is what the general path gives.

* msgspec's decoders and encoders are called through their C functions (``FAST_CALLS``,
  ``METHOD_FAST_CALLS``: the decoder of each typed method's class);
* an all-text or all-blob result decoded to its wire shape is made the public
  ``ReadResourceResult`` in place (``RETYPE``): the value is of the public class, equal
  to the pure twin's, and behaves as one built by hand.
"""

from __future__ import annotations

import copy
import pickle
import re

import helpers
import msgspec
import pytest
from value_strategies import encoded

from diverge_frames import FrameError, _frames_py, _wire
from diverge_frames import types as t

pytestmark = pytest.mark.c_extension

RESULTS = [
    b'\x00{"contents":[{"uri":"a","text":"x"}]}',
    (
        b'\x00{"contents":[{"uri":"a","mimeType":"text/plain","text":"x","_meta":{"k":1}}],'
        b'"ttlMs":-5,"resultType":"complete","cacheScope":"private","_meta":{"m":[1]}}'
    ),
    b'\x00{"ttlMs":9,"contents":[{"uri":"b","blob":"AAE="},{"uri":"c","blob":""}]}',
    b'\x00{"contents":[]}',
]


def test_msgspec_is_called_through_its_c_functions() -> None:
    assert helpers.compiled().FAST_CALLS is True
    assert helpers.compiled().METHOD_FAST_CALLS is True


def test_wire_results_are_retyped() -> None:
    assert helpers.compiled().RETYPE is True


@pytest.mark.parametrize("payload", RESULTS)
def test_retyped_result_is_the_public_value(payload: bytes) -> None:
    c = helpers.compiled()
    value = c.decode_read_resource(payload)
    expected = _frames_py.decode_read_resource(payload)
    assert type(value) is t.ReadResourceResult
    assert value == expected and repr(value) == repr(expected)
    assert value.ttl_ms is None or value.ttl_ms >= 0
    assert c.encode_read_resource(value) == _frames_py.encode_read_resource(expected)
    assert copy.copy(value) == expected
    assert pickle.loads(pickle.dumps(value)) == expected
    assert msgspec.structs.replace(value, ttl_ms=1) == msgspec.structs.replace(expected, ttl_ms=1)
    assert hash(type(value)) == hash(t.ReadResourceResult)


def test_wire_types_stay_what_they_were() -> None:
    """Making one decoded value public leaves the wire class and its decoder alone."""
    c = helpers.compiled()
    c.decode_read_resource(RESULTS[0])
    wire = _wire.text_result_decoder.decode(RESULTS[0][1:])
    assert type(wire) is _wire.TextReadResourceResultWire


def test_public_functions_are_builtins_with_the_pure_signature() -> None:
    """Called by CPython as fast as msgspec's own methods (``binding=False``), and
    documented and signed as the pure twin's (``_impl.document``)."""
    import inspect
    import types

    c = helpers.compiled()
    for name in (
        "decode_notification",
        "encode_notification",
        "decode_read_resource",
        "encode_read_resource",
    ):
        function = getattr(c, name)
        assert type(function) is types.BuiltinFunctionType, name
        shape = [(p.name, p.kind) for p in inspect.signature(function).parameters.values()]
        pure = inspect.signature(getattr(_frames_py, name)).parameters.values()
        assert shape == [(p.name, p.kind) for p in pure], name
        assert inspect.getdoc(function), name
    assert c.decode_read_resource(payload=RESULTS[0]) == c.decode_read_resource(RESULTS[0])
    with pytest.raises(TypeError):
        c._set_doc(len, "not ours")


def test_bare_notifications_are_every_typed_method_without_params() -> None:
    # The table is built from the decode itself: every typed method whose bare body
    # decodes to a value of None and str members (the list-changed notifications, and
    # the custom notifications rmcp reads a typed method without its params as).
    compiled = helpers.compiled()
    expected = []
    for method in _wire.TYPED_METHODS:
        try:
            value = _frames_py.decode_notification(b'\x00{"method":"%s"}' % method.encode())
        except FrameError:
            continue
        if all(getattr(value, f) is None or type(getattr(value, f)) is str
               for f in value.__struct_fields__):  # fmt: skip
            expected.append(method)
    assert list(compiled.BARE_METHODS) == expected
    assert {"notifications/tools/list_changed", "notifications/resources/list_changed",
            "notifications/prompts/list_changed"} <= set(expected)  # fmt: skip


@pytest.mark.parametrize("method", [*_wire.TYPED_METHODS, "x/unknown"])
@pytest.mark.parametrize("kind", [bytes, bytearray, memoryview, "readonly"])
def test_a_bare_notification_is_a_new_value_equal_to_the_pure_twins(method, kind) -> None:
    compiled = helpers.compiled()
    raw = b'\x00{"method":"%s"}' % method.encode()
    payload = memoryview(raw) if kind == "readonly" else kind(raw)  # type: ignore[operator]
    try:
        expected = _frames_py.decode_notification(raw)
    except FrameError as exc:
        with pytest.raises(type(exc)):
            compiled.decode_notification(payload)
        return
    first = compiled.decode_notification(payload)
    second = compiled.decode_notification(payload)
    assert type(first) is type(expected) and first == expected
    assert first is not second and second == expected
    if "params" in type(first).__struct_fields__:
        first.params = t.NotificationParams(meta={"k": 1})  # one changed: the next is not
        assert compiled.decode_notification(payload) == expected


#: The typed notification classes a value can be built of with no arguments.
_BUILT_BARE = [
    cls
    for cls in (getattr(t, name) for name in t.__all__)
    if isinstance(cls, type)
    and issubclass(cls, msgspec.Struct)
    and cls.__name__.endswith("Notification")
    and all(f.required is False for f in msgspec.structs.fields(cls))
]


@pytest.mark.parametrize("cls", _BUILT_BARE, ids=lambda cls: cls.__name__)
def test_a_notification_without_params_is_written_as_its_method(cls: type) -> None:
    # Encode's mirror of the bare decode: a list-changed notification whose members are
    # all None is written as the bytes the general path wrote for it at import (one
    # bytes object, given again), the pure twin's bytes; one with params is not.
    compiled = helpers.compiled()
    value = cls()
    expected = encoded(_frames_py.encode_notification, value)
    assert encoded(compiled.encode_notification, value) == expected
    if expected == b'\x00{"method":"%s"}' % cls.method.encode():
        assert compiled.encode_notification(cls()) is compiled.encode_notification(value)
    if "params" in cls.__struct_fields__:
        for params in (t.NotificationParams(meta={"k": [1]}), t.NotificationParams()):
            value.params = params  # set after it was built: not None, not the shortcut
            written = encoded(compiled.encode_notification, value)
            assert written == encoded(_frames_py.encode_notification, value)


def test_the_list_changed_notifications_are_written_as_their_method() -> None:
    names = {cls.__name__ for cls in _BUILT_BARE}
    assert {
        "ToolListChangedNotification",
        "ResourceListChangedNotification",
        "PromptListChangedNotification",
    } <= names


@pytest.mark.parametrize(
    "body",
    [
        b'{"method":"notifications/tools/list_changed" }',
        b'{ "method":"notifications/tools/list_changed"}',
        b'{"method":"notifications/tools/list_changed","params":{}}',
        b'{"method":"notifications/tools/list_changed","params":{"_meta":{"a":1}}}',
        b'{"method":"notifications/tools/list_changed","params":null}',
        b'{"method":"notifications/tools/list_changed"}}',
        b'{"method":"notifications/tools/list_changeD"}',
        b'{"method":"notifications/tools\\/list_changed"}',
    ],
)
def test_near_bare_bodies_are_read_as_the_pure_twin_reads_them(body: bytes) -> None:
    compiled = helpers.compiled()
    try:
        expected = _frames_py.decode_notification(b"\x00" + body)
    except FrameError as exc:
        kind, message = type(exc), str(exc)
    else:
        got = compiled.decode_notification(b"\x00" + body)
        assert type(got) is type(expected) and got == expected
        return
    with pytest.raises(kind, match=f"^{re.escape(message)}$"):
        compiled.decode_notification(b"\x00" + body)


#: Bodies of a typed method in the forms the compiled twin reads with the method's class
#: alone (its first key, unescaped, as rmcp writes it or with whitespace) and in those
#: it leaves to the union (method not first, escaped): params absent, null, empty,
#: with ``_meta``, of another shape, misfit, and bodies msgspec rejects.
METHOD_FORMS = [
    '{"method":"%s"}',
    '{"method":"%s","params":null}',
    '{"method":"%s","params":{}}',
    '{"method":"%s","params":{"_meta":{"a":1}}}',
    '{"method":"%s","params":{"x":1,"progress":"p"}}',
    '{"method":"%s","params":[1]}',
    '{ "method" :\t"%s" , "params" : {} }',
    '{"params":{},"method":"%s"}',
    '{"method":"%s","params":{"a":1}',
    '{"method":"%s","params":{"a":tru}}',
    '{"method":"%s","params":{"level":"info","data":1,"progress":1,"progressToken":1}}',
]


@pytest.mark.parametrize("form", METHOD_FORMS)
@pytest.mark.parametrize("method", _wire.TYPED_METHODS)
def test_a_typed_method_read_by_its_class_is_read_as_the_pure_twin_reads_it(
    method: str, form: str
) -> None:
    compiled = helpers.compiled()
    for body in (form % method, form.replace("%s", method.replace("/", "\\/"))):
        payload = b"\x00" + body.encode()
        expected = helpers.outcome(_frames_py.decode_notification, payload)
        got = helpers.outcome(compiled.decode_notification, payload)
        assert helpers.same(got, expected), (payload, got, expected)


#: Params of a method no typed notification has, with "_meta" where the glance sees it
#: as a key (params', the body's) and where it does not (deeper, in strings, in lists).
CUSTOM_PARAMS = [
    "{}",
    '{"content":"warn"}',
    '{"_meta":{"a":1},"z":2}',
    '{"z":2,"_meta":null}',
    '{"a":{"_meta":1}}',
    '{"a":[{"_meta":1}]}',
    '"_meta"',
    '["_meta"]',
    '{"x":"\\\\"_meta\\\\":1"}',
    "null",
    "1",
]


@pytest.mark.parametrize("params", CUSTOM_PARAMS)
@pytest.mark.parametrize("where", ["params", "top"])
def test_custom_params_are_read_as_the_pure_twin_reads_them(params: str, where: str) -> None:
    compiled = helpers.compiled()
    extra = ',"_meta":{"k":1}' if where == "top" else ""
    payload = b'\x00{"method":"x/custom","params":%s%s}' % (params.encode(), extra.encode())
    expected = helpers.outcome(_frames_py.decode_notification, payload)
    got = helpers.outcome(compiled.decode_notification, payload)
    assert helpers.same(got, expected), (payload, got, expected)
