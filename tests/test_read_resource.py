"""The read-resource channel: real results and errors, buffers, encoding.

Every decode/encode test takes the ``frames`` fixture (conftest.py), so it runs against
both hot paths. Expected bytes written out here are what the rmcp 3.1.4 oracle
(``interop/rmcp-oracle``) printed for the same input.
"""

from __future__ import annotations

import json
from array import array
from pathlib import Path
from typing import Any

import helpers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diverge_frames import FrameBodyError, _frames_py, types
from diverge_frames._exact import rmcp_read, rmcp_result, rmcp_structs

try:
    from diverge_frames import _frames_c
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None

DATA = Path(__file__).parent / "data"
EDGE = DATA / "edge-cases"


def _corpus(name: str) -> list[Any]:
    """Every line of ``corpus/*/<name>`` as a pytest param (id ``server:line``)."""
    params = []
    for path in sorted((DATA / "corpus").glob(f"*/{name}")):
        for number, line in enumerate(path.read_bytes().splitlines(), 1):
            if line.strip():
                params.append(pytest.param(line, id=f"{path.parent.name}:{number}"))
    assert params, f"no corpus lines in corpus/*/{name}"
    return params


RESULTS = _corpus("read_resource_results.jsonl")
ERRORS = _corpus("errors.jsonl")


def _edge(name: str) -> bytes:
    return (EDGE / name).read_bytes().rstrip(b"\n")


# --------------------------------------------------------------------- real traffic


@pytest.mark.parametrize("body", RESULTS)
def test_corpus_result_decodes_to_read_resource_result(frames: Any, body: bytes) -> None:
    wire = json.loads(body)
    value = frames.decode_read_resource(b"\x00" + body)
    assert type(value) is types.ReadResourceResult
    assert len(value.contents) == len(wire["contents"])
    for item, sent in zip(value.contents, wire["contents"], strict=True):
        if "text" in sent:
            assert type(item) is types.TextResourceContents
            assert item.text == sent["text"]
        else:
            assert type(item) is types.BlobResourceContents
            assert item.blob == sent["blob"]
        assert item.uri == sent["uri"]
        assert item.mime_type == sent.get("mimeType")


@pytest.mark.parametrize("body", RESULTS)
def test_corpus_result_loses_nothing(frames: Any, body: bytes) -> None:
    encoded = frames.encode_read_resource(frames.decode_read_resource(b"\x00" + body))
    assert json.loads(encoded[1:]) == json.loads(body)


@pytest.mark.parametrize("body", ERRORS)
def test_corpus_error_decodes_to_error_data(frames: Any, body: bytes) -> None:
    wire = json.loads(body)
    value = frames.decode_read_resource(b"\x01" + body)
    assert type(value) is types.ErrorData
    assert (value.code, value.message, value.data) == (
        wire["code"],
        wire["message"],
        wire.get("data"),
    )


@pytest.mark.parametrize(
    "payload",
    [b"\x00" + body.values[0] for body in RESULTS] + [b"\x01" + body.values[0] for body in ERRORS],
)
def test_corpus_round_trips(frames: Any, payload: bytes) -> None:
    value = frames.decode_read_resource(payload)
    encoded = frames.encode_read_resource(value)
    assert encoded[0] == payload[0]
    assert frames.decode_read_resource(encoded) == value
    assert frames.encode_read_resource(frames.decode_read_resource(encoded)) == encoded


@pytest.mark.parametrize(
    "payload",
    [b"\x00" + body.values[0] for body in RESULTS] + [b"\x01" + body.values[0] for body in ERRORS],
)
def test_both_implementations_decode_alike(payload: bytes) -> None:
    """The Python and the compiled hot path give equal values and equal bytes."""
    if _frames_c is None:
        pytest.skip("compiled extension not built")
    value = _frames_py.decode_read_resource(payload)
    assert _frames_c.decode_read_resource(payload) == value
    assert _frames_c.encode_read_resource(value) == _frames_py.encode_read_resource(value)


#: Results whose items are all text, or all blobs (no "text" key), which the compiled
#: path decodes straight to the public types, and their neighbours that it must not.
ONE_KIND = [
    b'{"contents":[{"uri":"u","blob":"AA=="}]}',
    b'{"contents":[{"uri":"u","mimeType":"text","blob":"AA=="},{"uri":"v","blob":""}]}',
    b'{"ttlMs":-3,"contents":[{"uri":"u","blob":"AA==","_meta":{"a":1}}],"_meta":{}}',
    b'{"contents":[{"uri":"u","blob":7}]}',
    b'{"contents":[{"uri":"u","blob":null}]}',
    b'{"contents":[{"uri":"u","blob":"AA=="},{"uri":"v"}]}',
    b'{"contents":[{"uri":"u","blob":"AA==","text":null}]}',
    b'{"contents":[{"uri":"u","blob":"AA==","_meta":{"text":"t"}}]}',
    b'{"contents":[{"uri":"u","blob":"AA==","blob":"AQ=="}]}',
    b'{"contents":[{"uri":"u","text":"t"},{"uri":"v","text":"s","mimeType":"blob"}]}',
    b'{"contents":[{"uri":"u","text":7}]}',
    b'{"contents":[{"uri":"u"}]}',
    b'{"contents":{}}',
]


@pytest.mark.parametrize("body", ONE_KIND)
def test_results_of_one_kind_decode_alike(body: bytes) -> None:
    if _frames_c is None:
        pytest.skip("compiled extension not built")
    payload = b"\x00" + body
    value = helpers.outcome(_frames_py.decode_read_resource, payload)
    assert helpers.same(helpers.outcome(_frames_c.decode_read_resource, payload), value)
    if not isinstance(value, FrameBodyError):
        first = json.loads(body)["contents"][0]
        assert type(value.contents[0]) is (
            types.TextResourceContents
            if type(first.get("text")) is str
            else types.BlobResourceContents
        )


# -------------------------------------------------------------- shapes (rmcp's bytes)

#: (body, the exact payload rmcp 3.1.4 wrote back after decoding it): oracle output.
RMCP_REENCODED = [
    pytest.param(
        _edge("10-blob-urlsafe-base64.json"),
        b'\x00{"contents":[{"uri":"resource://test/sample.bin",'
        b'"mimeType":"application/pdf","blob":"-_8AAQ=="}]}',
        id="10-urlsafe-base64-kept",
    ),
    pytest.param(
        _edge("12-readresource-legacy-no-cache-fields.json"),
        b'\x00{"contents":[{"uri":"file:///notes.md",'
        b'"mimeType":"text/markdown","text":"# Notes"}]}',
        id="12-no-2026-members-invented",
    ),
    pytest.param(
        b'{"_meta":{"z":1,"a":[2]},"contents":[{"_meta":{"k":"v"},"text":"t",'
        b'"mimeType":"text/plain","uri":"u"},{"blob":"AA==","uri":"b"}],'
        b'"cacheScope":"private","ttlMs":-5,"resultType":"complete"}',
        b'\x00{"resultType":"complete","ttlMs":0,"cacheScope":"private","contents":[{"uri":"u",'
        b'"mimeType":"text/plain","text":"t","_meta":{"k":"v"}},{"uri":"b","blob":"AA=="}],'
        b'"_meta":{"a":[2],"z":1}}',
        id="field-order-ttl-clamped-meta-sorted",
    ),
    pytest.param(
        b'{"contents":[{"uri":"u","text":"t","blob":"AA=="}]}',
        b'\x00{"contents":[{"uri":"u","text":"t"}]}',
        id="text-wins-over-blob",
    ),
    pytest.param(
        b'{"contents":[{"uri":"u","text":1,"blob":"AA=="}]}',
        b'\x00{"contents":[{"uri":"u","blob":"AA=="}]}',
        id="text-not-a-string",
    ),
    pytest.param(
        b'{"contents":[{"uri":"u","text":null,"blob":"AA=="}]}',
        b'\x00{"contents":[{"uri":"u","blob":"AA=="}]}',
        id="text-null",
    ),
    pytest.param(b'{"contents":[]}', b'\x00{"contents":[]}', id="no-contents"),
]


@pytest.mark.parametrize(("body", "expected"), RMCP_REENCODED)
def test_result_encodes_as_rmcp(frames: Any, body: bytes, expected: bytes) -> None:
    value = frames.decode_read_resource(b"\x00" + body)
    assert type(value) is types.ReadResourceResult
    assert frames.encode_read_resource(value) == expected


def test_error_encodes_as_rmcp(frames: Any) -> None:
    value = frames.decode_read_resource(
        b'\x01{"data":{"uri":"x","a":[1,{"d":1,"c":0}]},'
        b'"message":"Resource not found","code":-32002}'
    )
    assert value == types.ErrorData(
        -32002, "Resource not found", {"uri": "x", "a": [1, {"d": 1, "c": 0}]}
    )
    # rmcp's output for this input
    assert frames.encode_read_resource(value) == (
        b'\x01{"code":-32002,"message":"Resource not found",'
        b'"data":{"a":[1,{"c":0,"d":1}],"uri":"x"}}'
    )
    # edge case 16: "data": null is not written back (rmcp's output)
    value = frames.decode_read_resource(b"\x01" + _edge("16-error-data-null.json"))
    assert frames.encode_read_resource(value) == b'\x01{"code":-32603,"message":"Internal error"}'


def test_2026_members_decode(frames: Any) -> None:
    value = frames.decode_read_resource(
        b'\x00{"resultType":"complete","ttlMs":60000,"cacheScope":"public","contents":[]}'
    )
    assert (value.result_type, value.ttl_ms, value.cache_scope) == ("complete", 60000, "public")


@pytest.mark.parametrize(
    ("body", "path"),
    [
        (b'{"contents":[],"cacheScope":"shared"}', "$.cacheScope"),
        (b'{"contents":[],"ttlMs":1.5}', "$.ttlMs"),
        (b'{"contents":[],"ttlMs":9223372036854775808}', "$.ttlMs"),
        (b'{"contents":{}}', "$.contents"),
        (b'{"contents":[{"uri":"u","text":"t"}],"_meta":[]}', "$._meta"),
    ],
)
def test_result_member_of_wrong_shape_is_rejected(frames: Any, body: bytes, path: str) -> None:
    """rmcp rejects each of these bodies too."""
    with pytest.raises(FrameBodyError) as info:
        frames.decode_read_resource(b"\x00" + body)
    assert (info.value.tag, info.value.path, info.value.expected) == (0, path, "ReadResourceResult")
    assert path in str(info.value)


# ---------------------------------------------------------------------- buffer input

RESULT = b"\x00" + _edge("12-readresource-legacy-no-cache-fields.json")


@pytest.mark.parametrize("size", [len(RESULT), 4000], ids=["small", "large"])
def test_every_buffer_kind_decodes_like_bytes(frames: Any, size: int) -> None:
    payload = RESULT.ljust(size + size % 2)  # trailing whitespace is allowed after JSON
    wide = array("H")
    wide.frombytes(payload)
    strided = bytes(byte for each in payload for byte in (each, 0xAA))
    expected = frames.decode_read_resource(payload)
    for buffer in (
        bytearray(payload),
        memoryview(payload),
        memoryview(b"head" + payload + b"tail")[4:-4],
        memoryview(strided)[::2],
        wide,
        memoryview(wide),
    ):
        assert frames.decode_read_resource(buffer) == expected, buffer


@pytest.mark.parametrize("tag", [0, 1])
def test_one_byte_strided_view_is_a_body_error(frames: Any, tag: int) -> None:
    """A one-item strided memoryview counts as contiguous, but its empty body slice is
    not: still a FrameBodyError, as for ``bytes([tag])`` (found by the attack helper:
    the pure twin raised TypeError)."""
    view = memoryview(bytes([tag, 0]))[::2]
    with pytest.raises(FrameBodyError) as strided:
        frames.decode_read_resource(view)
    with pytest.raises(FrameBodyError) as plain:
        frames.decode_read_resource(bytes([tag]))
    assert str(strided.value) == str(plain.value)


def test_value_from_bytearray_survives_mutation(frames: Any) -> None:
    text = "x" * 2000
    buffer = bytearray(b'\x00{"contents":[{"uri":"u","text":"' + text.encode() + b'"}]}')
    value = frames.decode_read_resource(buffer)
    buffer[20:30] = b"Q" * 10
    buffer.extend(b" " * 10000)  # resizing needs every export released
    buffer.clear()
    assert value == types.ReadResourceResult(
        contents=[types.TextResourceContents(uri="u", text=text)]
    )


# --------------------------------------------------------------------------- encode


@pytest.mark.parametrize(
    "value",
    [
        types.ProgressNotification(
            params=types.ProgressNotificationParam(progress_token=1, progress=1.0)
        ),
        types.CustomNotification("x/y", None),
        types.TextResourceContents(uri="u", text="t"),
        {"contents": []},
        None,
    ],
    ids=lambda v: type(v).__name__,
)
def test_encode_rejects_other_values(frames: Any, value: Any) -> None:
    with pytest.raises(TypeError):
        frames.encode_read_resource(value)


def test_encode_tag_bytes(frames: Any) -> None:
    assert frames.encode_read_resource(types.ReadResourceResult(contents=[]))[:1] == b"\x00"
    assert frames.encode_read_resource(types.ErrorData(1, "m"))[:1] == b"\x01"


_ITEM_STRING = st.one_of(st.none(), st.text(max_size=3), st.integers(-2, 2))
_ITEMS = st.lists(
    st.fixed_dictionaries(
        {"uri": st.just("u")},
        optional={"text": _ITEM_STRING, "blob": _ITEM_STRING, "mimeType": st.just("m")},
    ),
    max_size=4,
)
_TTL = st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1))


@settings(max_examples=300, deadline=None)
@given(items=_ITEMS, ttl_ms=_TTL, shape=st.sampled_from(["ttl", "bare", "scope"]))
def test_compiled_copies_of_the_result_rules_are_the_reference(
    items: list[dict[str, Any]], ttl_ms: int | None, shape: str
) -> None:
    """The compiled twin's C copies of text-or-blob and the ``ttlMs`` clamp give what
    ``_exact.rmcp_result`` states, on generated items: the same values and messages as
    the pure twin and the reference reading."""
    _, compiled = helpers.both()
    body: dict[str, Any] = {"contents": items}
    if shape == "ttl":
        body["ttlMs"] = ttl_ms
    elif shape == "scope":
        body.update(cacheScope="private", ttlMs=ttl_ms)
    payload = b"\x00" + json.dumps(body).encode()

    def reference(payload: bytes) -> Any:
        return rmcp_read.read_exactly(payload[1:], 0, rmcp_structs.EXPECT_RESULT)

    expected = helpers.outcome(reference, payload)
    assert helpers.same(helpers.outcome(compiled.decode_read_resource, payload), expected)
    assert helpers.same(helpers.outcome(_frames_py.decode_read_resource, payload), expected)
    if not isinstance(expected, FrameBodyError):
        assert expected.ttl_ms == rmcp_result.clamp_ttl_ms(ttl_ms if shape != "bare" else None)
