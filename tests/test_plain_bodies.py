"""The plainest bodies rmcp writes, an ErrorData without ``data``
(``{"code":<i32>,"message":"<str>"}``) and a ReadResourceResult of text or blob items
alone (``{"contents":[{"uri":"<str>","mimeType":"<str>","text":"<str>"}]}``), compact, are
read at once by the compiled twin (``_rmcp_plain.h``, ``_plain.pxi``): on every body of
those shapes and of the shapes around them, both twins give the same value or the same
error, and the compiled twin takes its shortcut exactly for the bodies of those shapes
whose strings it reads (plain: simple escapes, or valid UTF-8 without escapes)."""

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
    "é".encode(), "日本".encode(), "é\\n".encode(), "\U0001f600".encode(), b"\xff",
    b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b'open " quote', b"x" * 990, b"x" * 1000,
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


#: A JSON string's content as the shortcut may take it: no control byte, ``"`` and ``\\``
#: only in the simple escapes (its content is then checked by ``_plain_string``).
STRING = rb'((?:[^"\\\x00-\x1f]|\\["\\/bfnrt])*)'


def _plain_string(raw: bytes) -> bool:
    """Whether a string's content (its JSON, matched by ``STRING``) is plain: simple
    escapes with ASCII, or non-ASCII without escapes and valid UTF-8."""
    if b"\\" in raw and re.search(rb"[\x80-\xff]", raw):
        return False
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _plain(body: bytes) -> bool:
    """Whether ``body`` has the shape of the error shortcut, worked out here on its own."""
    match = re.fullmatch(rb'\{"code":(-?(?:0|[1-9][0-9]{0,9})),"message":"%s"\}' % STRING, body)
    if match is None or len(body) > 1024 or match.group(1) == b"-0":
        return False
    return I32[0] <= int(match.group(1)) <= I32[1] and _plain_string(match.group(2))


ITEM = rb'\{"uri":"%s"(?:,"mimeType":"%s")?,"(?:text|blob)":"%s"\}' % (STRING, STRING, STRING)


def _plain_result(body: bytes) -> bool:
    """Whether ``body`` has the shape of the result shortcut, worked out here on its own."""
    match = re.fullmatch(rb'\{"contents":\[((?:%s(?:,%s){0,7})?)\]\}' % (ITEM, ITEM), body)
    if match is None or len(body) > 1024:
        return False
    strings = [s for m in re.finditer(ITEM, match.group(1)) for s in m.groups() if s is not None]
    return all(map(_plain_string, strings))


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
    value = _frames_c._plain_of(body)
    assert (value is not None) == _plain(body), body
    if value is not None:
        expected = _frames_py.decode_notification(b"\x01" + body)
        assert value == expected and type(value.code) is int and type(value.message) is str


def _results() -> list[bytes]:
    texts = [m for m in MESSAGES if len(m) < 200]
    item = b'{"uri":"%s","mimeType":"text/plain","text":"%s"}'
    out = [item % (b"file:///a", t) for t in texts]
    out += [b'{"uri":"%s","blob":"QUJD"}' % t for t in texts]
    out += [b'{"uri":"u","mimeType":"%s","blob":"QUJD"}' % t for t in texts]
    one = b'{"uri":"demo://resource/1","mimeType":"text/plain","text":"Resource 1"}'
    blob = b'{"uri":"file:///b.bin","blob":"AAEC"}'
    bare = b'{"uri":"u","text":""}'
    bodies = [b'{"contents":[%s]}' % i for i in out]
    bodies += [
        b'{"contents":[%s]}' % b",".join([one, blob, bare][: k % 3 + 1] * k) for k in range(12)
    ]
    bodies += [
        b'{"contents":[]}',
        b'{"contents":[] }',
        b'{"contents":[],"_meta":{}}',
        b'{"contents":[%s],"ttlMs":5}' % one,
        b'{"contents":[%s],"resultType":"x"}' % one,
        b'{"_meta":null,"contents":[%s]}' % one,
        b'{"contents":[{"uri":"u","text":"t","_meta":{"k":1}}]}',
        b'{"contents":[{"uri":"u","text":"t","blob":"b"}]}',
        b'{"contents":[{"uri":"u","blob":"b","text":"t"}]}',
        b'{"contents":[{"text":"t","uri":"u"}]}',
        b'{"contents":[{"uri":"u","mimeType":null,"text":"t"}]}',
        b'{"contents":[{"uri":"u","text":null}]}',
        b'{"contents":[{"uri":"u","text":1}]}',
        b'{"contents":[{"uri":"u"}]}',
        b'{"contents":[{"uri":"u","mimeType":"m"}]}',
        b'{"contents":[{"uri":"u","text":"t"},]}',
        b'{"contents":[{"uri":"u","text":"t"}',
        b'{"contents":[{"uri":"u","text":"t"}]',
        b'{"contents":[{"uri":"u","text":"t"}]}x',
        b'{"contents":[{"uri":"u", "text":"t"}]}',
        b'{"contents":[{"uri":"u","text":"t"}]}]}',
        b'{"contents":{"uri":"u","text":"t"}}',
        b'{"contents":[{"uri":"u","text":"%s"}]}' % (b"y" * 1000),
    ]
    return bodies


RESULTS = _results()


@pytest.mark.parametrize("body", RESULTS)
def test_both_twins_read_each_result_alike(twins: Any, body: bytes) -> None:
    python, compiled = twins
    payload = b"\x00" + body
    assert _outcome(compiled.decode_read_resource, payload) == _outcome(
        python.decode_read_resource, payload
    ), body


@pytest.mark.c_extension
@pytest.mark.parametrize("body", RESULTS)
def test_the_result_shortcut_takes_the_plain_bodies_alone(body: bytes) -> None:
    assert _frames_c is not None
    value = _frames_c._plain_of(body, result=True)
    assert (value is not None) == _plain_result(body), body
    if value is not None:
        expected = _frames_py.decode_read_resource(b"\x00" + body)
        assert value == expected
        assert [type(i) for i in value.contents] == [type(i) for i in expected.contents]


def test_the_plain_bodies_are_many() -> None:
    """The bodies above hold plenty of both kinds (the tests above can fail both ways)."""
    plain = sum(map(_plain, BODIES))
    assert plain >= 50 and len(BODIES) - plain >= 300
    plain = sum(map(_plain_result, RESULTS))
    assert plain >= 40 and len(RESULTS) - plain >= 40


@pytest.mark.c_extension
def test_the_shortcut_takes_bytes_alone() -> None:
    assert _frames_c is not None
    with pytest.raises(TypeError):
        _frames_c._plain_of(None)
    with pytest.raises(TypeError):
        _frames_c._plain_of(bytearray(b'{"code":1,"message":""}'))
