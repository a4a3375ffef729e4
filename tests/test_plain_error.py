"""The ErrorData body rmcp writes without ``data`` (``{"code":<i32>,"message":"<str>"}``,
compact) is read at once by the compiled twin (``_rmcp_error.h``): on every body of
that shape and of the shapes around it, both twins give the same value or the same
error, and the compiled twin takes its shortcut exactly for the bodies of that shape."""

from __future__ import annotations

import re
from typing import Any

import pytest

from diverge_frames import FrameError, _frames_py

try:
    from diverge_frames import _frames_c
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None

I32 = (-(2**31), 2**31 - 1)
CODES = [
    b"0", b"7", b"-1", b"-32601", b"-32042", b"2147483647", b"-2147483648", b"2147483648",
    b"-2147483649", b"9999999999", b"12345678901", b"-12345678901", b"-0", b"00", b"01",
    b"-01", b"1.0", b"1e3", b"-", b"", b"99999999999999999999999",
]  # fmt: skip
PRINTABLE = bytes(c for c in range(0x20, 0x80) if c not in b'"\\')
MESSAGES = [
    b"", b"Method not found", PRINTABLE, b"\x7f", b'say \\"hi\\"', b"a\\\\b", b"line\\nnext",
    b'[\\n  {\\n    \\"code\\": \\"invalid_type\\"\\n  }\\n]', b"\\/\\b\\f\\r\\t", b"\\", b"a\\",
    b"\\\\\\", b"\\x", b"\\'", b"\\u0041", b"\\ud800", b"tab\there", b"nul\x00", b"\x1f",
    "é".encode(), "日本".encode(), b"\xff", b"\xed\xa0\x80", b'open " quote', b"x" * 990,
    b"x" * 1000,
]  # fmt: skip


def _bodies() -> list[bytes]:
    out = [
        b'{"code":%s,"message":"%s"}' % (code, message) for code in CODES for message in MESSAGES
    ]
    plain = b'{"code":-32601,"message":"Method not found"'
    out += [
        plain + b',"data":null}',
        plain + b',"data":{"k":[1,2]}}',
        plain + b"} ",
        plain + b"}x",
        plain,
        b'{"message":"Method not found","code":-32601}',
        b'{"code": -32601,"message":"Method not found"}',
        b'{ "code":-32601,"message":"Method not found"}',
        b'{"code":-32601 ,"message":"Method not found"}',
        b'{"code":-32601,"message": "Method not found"}',
        b'{"code":-32601,"message":"Method not found" }',
        b'{"code":-32601,"message":"Method not found","code":1}',
        b'{"code":-32601,"messagE":"Method not found"}',
        b'{"code":-32601,"message":"a"}"}',
        b'{"code":-32601,"message":""}}',
        b'{"code":1,"message":"}',
        b'{"code":,"message":""}',
    ]
    return out


BODIES = _bodies()


def _plain(body: bytes) -> bool:
    """Whether ``body`` has the shape of the shortcut, worked out here on its own."""
    text = rb'(?:[\x20\x21\x23-\x5b\x5d-\x7f]|\\["\\/bfnrt])*'  # printable, simple escapes
    match = re.fullmatch(rb'\{"code":(-?(?:0|[1-9][0-9]{0,9})),"message":"%s"\}' % text, body)
    if match is None or len(body) > 1024 or match.group(1) == b"-0":
        return False
    return I32[0] <= int(match.group(1)) <= I32[1]


def _outcome(decode: Any, payload: bytes) -> tuple[str, Any]:
    try:
        value = decode(payload)
    except FrameError as exc:
        return type(exc).__name__, str(exc)
    return type(value).__name__, value


@pytest.mark.parametrize("body", BODIES)
def test_both_twins_read_each_error_alike(twins: Any, body: bytes) -> None:
    python, compiled = twins
    payload = b"\x01" + body
    for name in ("decode_notification", "decode_read_resource"):
        assert _outcome(getattr(compiled, name), payload) == _outcome(
            getattr(python, name), payload
        ), (name, body)


@pytest.mark.c_extension
@pytest.mark.parametrize("body", BODIES)
def test_the_shortcut_takes_the_plain_bodies_alone(body: bytes) -> None:
    assert _frames_c is not None
    value = _frames_c._plain_error_of(body)
    assert (value is not None) == _plain(body), body
    if value is not None:
        expected = _frames_py.decode_notification(b"\x01" + body)
        assert value == expected and type(value.code) is int and type(value.message) is str


def test_the_plain_bodies_are_many() -> None:
    """The bodies above hold plenty of both kinds (the test above can fail both ways)."""
    plain = sum(map(_plain, BODIES))
    assert plain >= 30 and len(BODIES) - plain >= 300


@pytest.mark.c_extension
def test_the_shortcut_takes_bytes_alone() -> None:
    assert _frames_c is not None
    with pytest.raises(TypeError):
        _frames_c._plain_error_of(None)
    with pytest.raises(TypeError):
        _frames_c._plain_error_of(bytearray(b'{"code":1,"message":""}'))
