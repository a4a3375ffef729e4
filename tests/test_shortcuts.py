"""The compiled twin's shortcuts through CPython's C API (``_capi.h``) are taken, and
what they give is what the general path gives.

* msgspec's decoders and encoders are called through their C functions (``FAST_CALLS``);
* an all-text or all-blob result decoded to its wire shape is made the public
  ``ReadResourceResult`` in place (``RETYPE``): the value is of the public class, equal
  to the pure twin's, and behaves as one built by hand.
"""

from __future__ import annotations

import copy
import pickle

import helpers
import msgspec
import pytest

from diverge_frames import _frames_py, _wire
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
