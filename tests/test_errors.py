"""Every way a payload fails: empty, unknown tag, bad body, not bytes-like.

Each test takes the ``frames`` fixture, so it runs against both hot paths. Every body
rejected here is rejected by rmcp 3.1.4 too (checked with ``interop/rmcp-oracle``).
"""

from __future__ import annotations

import pickle
from array import array
from pathlib import Path
from typing import Any

import msgspec
import pytest
from helpers import CHANNELS, decoder

import diverge_frames
from diverge_frames import (
    EmptyFrameError,
    FrameBodyError,
    FrameError,
    SequenceError,
    UnknownTagError,
    errors,
)

EDGE = Path(__file__).parent / "data" / "edge-cases"


def _edge(name: str) -> bytes:
    return (EDGE / name).read_bytes().rstrip(b"\n")


# ---------------------------------------------------------------------------- classes


def test_error_classes_are_value_errors() -> None:
    for cls in (FrameError, EmptyFrameError, UnknownTagError, FrameBodyError, SequenceError):
        assert issubclass(cls, ValueError)
        assert issubclass(cls, FrameError)
        assert getattr(diverge_frames, cls.__name__) is cls is getattr(errors, cls.__name__)
    assert {c.kind for c in (EmptyFrameError, UnknownTagError, FrameBodyError, SequenceError)} == {
        "empty",
        "unknown_tag",
        "body",
        "sequence",
    }


def test_errors_pickle_with_their_fields() -> None:
    body = pickle.loads(pickle.dumps(FrameBodyError(1, "ErrorData", "bad", "$.code")))
    assert (body.tag, body.expected, body.reason, body.path) == (1, "ErrorData", "bad", "$.code")
    assert str(body) == str(FrameBodyError(1, "ErrorData", "bad", "$.code"))
    assert pickle.loads(pickle.dumps(UnknownTagError(9))).tag == 9


# ------------------------------------------------------------------------------ empty

EMPTY = {
    "bytes": b"",
    "bytearray": bytearray(),
    "memoryview": memoryview(b""),
    "memoryview-end": memoryview(b"\x00{}")[3:],
    "array": array("H"),
}


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize("kind", sorted(EMPTY))
def test_empty_payload(frames: Any, channel: str, kind: str) -> None:
    with pytest.raises(EmptyFrameError):
        decoder(frames, channel)(EMPTY[kind])


# ------------------------------------------------------------------------ unknown tag


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize("body", [b"", b"{}", b'{"method":"x/y"}'])
def test_every_other_tag_is_unknown(frames: Any, channel: str, body: bytes) -> None:
    decode = decoder(frames, channel)
    for tag in range(2, 256):
        with pytest.raises(UnknownTagError) as info:
            decode(bytes([tag]) + body)
        assert info.value.tag == tag
        assert str(tag) in str(info.value)


def test_unknown_tag_from_other_buffers(frames: Any) -> None:
    for payload in (bytearray(b"\x02{}"), memoryview(b"\xff{}"), memoryview(b"..\x80")[2:]):
        with pytest.raises(UnknownTagError) as info:
            frames.decode_notification(payload)
        assert info.value.tag == bytes(payload)[0]


# --------------------------------------------------------------------------- bad body

#: (channel, payload, path, text the message must hold, msgspec error class or None).
BAD_BODIES = {
    "not-json": (
        "notifications",
        b"\x00" + _edge("23-garbage-stdout-line.json"),
        "$",
        "malformed",
        msgspec.DecodeError,
    ),
    "nan-literal": (
        "notifications",
        b"\x00" + _edge("20-nan-literal.json"),
        "$",
        "malformed",
        msgspec.DecodeError,
    ),
    "truncated": ("notifications", b'\x00{"method":"x', "$", "truncated", msgspec.DecodeError),
    "no-body": ("notifications", b"\x00", "$", "truncated", msgspec.DecodeError),
    "no-error-body": ("read-resource", b"\x01", "$", "truncated", msgspec.DecodeError),
    "trailing": ("notifications", b'\x00{"method":"x/y"} x', "$", "trailing", msgspec.DecodeError),
    "array": ("notifications", b"\x00[1,2]", "$", "array", msgspec.ValidationError),
    "string": ("notifications", b'\x00"s"', "$", "str", msgspec.ValidationError),
    "null": ("notifications", b"\x00null", "$", "null", msgspec.ValidationError),
    "no-method": ("notifications", b'\x00{"params":{}}', "$", "method", msgspec.ValidationError),
    "method-int": (
        "notifications",
        b'\x00{"method":1}',
        "$.method",
        "$.method",
        msgspec.ValidationError,
    ),
    "code-outside-i32": (
        "notifications",
        b"\x01" + _edge("13-error-code-outside-i32.json"),
        "$.code",
        "$.code",
        msgspec.ValidationError,
    ),
    "code-below-i32": (
        "read-resource",
        b'\x01{"code":-2147483649,"message":"m"}',
        "$.code",
        "$.code",
        msgspec.ValidationError,
    ),
    "code-float": (
        "notifications",
        b'\x01{"code":1.5,"message":"m"}',
        "$.code",
        "$.code",
        msgspec.ValidationError,
    ),
    "code-string": (
        "read-resource",
        b'\x01{"code":"1","message":"m"}',
        "$.code",
        "$.code",
        msgspec.ValidationError,
    ),
    "no-message": (
        "notifications",
        b"\x01" + _edge("15-error-missing-message.json"),
        "$",
        "message",
        msgspec.ValidationError,
    ),
    "message-null": (
        "read-resource",
        b'\x01{"code":1,"message":null}',
        "$.message",
        "$.message",
        msgspec.ValidationError,
    ),
    "error-array": ("notifications", b"\x01[]", "$", "array", msgspec.ValidationError),
    "no-contents": ("read-resource", b"\x00{}", "$", "contents", msgspec.ValidationError),
    "no-uri": (
        "read-resource",
        b'\x00{"contents":[{"text":"x"}]}',
        "$.contents[0]",
        "uri",
        msgspec.ValidationError,
    ),
    "uri-int": (
        "read-resource",
        b'\x00{"contents":[{"uri":1,"text":"t"}]}',
        "$.contents[0].uri",
        "$.contents[0].uri",
        msgspec.ValidationError,
    ),
    "no-text-or-blob": (
        "read-resource",
        b'\x00{"contents":[{"uri":"u"}]}',
        "$.contents[0]",
        "$.contents[0]",
        None,
    ),
    "second-item-bad": (
        "read-resource",
        b'\x00{"contents":[{"uri":"a","text":"t"},{"uri":"b","blob":1}]}',
        "$.contents[1]",
        "$.contents[1]",
        None,
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_BODIES))
def test_bad_body(frames: Any, case: str) -> None:
    channel, payload, path, text, cause = BAD_BODIES[case]
    with pytest.raises(FrameBodyError) as info:
        decoder(frames, channel)(payload)
    error = info.value
    assert error.tag == payload[0]
    assert error.path == path
    assert (
        error.expected
        == {
            1: "ErrorData",
            0: "ServerNotification" if channel == "notifications" else "ReadResourceResult",
        }[payload[0]]
    )
    assert text in str(error)
    assert error.reason in str(error)
    if cause is None:
        assert error.__cause__ is None
    else:
        assert isinstance(error.__cause__, cause)


N = 100_000
NEST = b"[" * N + b"]" * N
#: Bodies nested 100000 deep: (channel, payload). msgspec's recursion guard trips.
DEEP = {
    "custom-params-arrays": ("notifications", b'\x00{"method":"x/y","params":{"a":' + NEST + b"}}"),
    "custom-params-objects": (
        "notifications",
        b'\x00{"method":"x/y","params":' + b'{"a":' * N + b"1" + b"}" * N + b"}",
    ),
    "logging-data": (
        "notifications",
        b'\x00{"method":"notifications/message","params":{"level":"info","data":' + NEST + b"}}",
    ),
    "unclosed": ("notifications", b'\x00{"method":"x/y","params":{"a":' + b"[" * N),
    "error-data": ("read-resource", b'\x01{"code":1,"message":"m","data":' + NEST + b"}"),
    "result-meta": ("read-resource", b'\x00{"contents":[],"_meta":{"a":' + NEST + b"}}"),
}


@pytest.mark.parametrize("case", sorted(DEEP))
def test_deep_nesting_is_a_body_error(frames: Any, case: str) -> None:
    channel, payload = DEEP[case]
    with pytest.raises(FrameBodyError) as info:
        decoder(frames, channel)(payload)
    assert info.value.tag == payload[0]
    assert "nested too deeply" in str(info.value)
    assert isinstance(info.value.__cause__, RecursionError)


def test_params_nested_arrays_are_a_body_error(frames: Any) -> None:
    """100000 nested arrays as ``params``: rejected (params must be an object)."""
    with pytest.raises(FrameBodyError) as info:
        frames.decode_notification(b'\x00{"method":"x/y","params":' + NEST + b"}")
    assert info.value.path == "$.params"


# ------------------------------------------------------------------------ not bytes


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize("payload", ["", "\x00{}", 0, 1.5, None, [0], {}, (0,)], ids=repr)
def test_non_bytes_payload_is_a_type_error(frames: Any, channel: str, payload: Any) -> None:
    with pytest.raises(TypeError):
        decoder(frames, channel)(payload)


# ----------------------------------------------------- buffer released after an error


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize(
    "payload",
    [b"", b"\x07{}", b"\x00{", b"\x01[]", b'\x00{"contents":[{"uri":"u"}]}' + b" " * 600],
    ids=["empty", "unknown-tag", "truncated", "error-array", "large"],
)
def test_bytearray_can_be_resized_while_handling_the_error(
    frames: Any, channel: str, payload: bytes
) -> None:
    """A caller that reuses its receive buffer clears it in the ``except`` block; the
    error (alive there, with its traceback) must not keep the buffer exported."""
    buffer = bytearray(payload)

    def decode_then_reuse() -> None:
        try:
            decoder(frames, channel)(buffer)
        except FrameError:
            buffer.extend(b"more")  # BufferError if the payload is still exported
            buffer.clear()
            raise

    with pytest.raises(FrameError):
        decode_then_reuse()
