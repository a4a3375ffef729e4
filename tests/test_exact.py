"""The rmcp-exact reading at full speed: what makes msgspec's answer stand, and what
replaces it where it may not, in both implementations.

* numbers: every number of a body is serde_json's value (generated bodies of thousands
  of numbers each, against :func:`~diverge_frames._exact.serde_json.serde_number`);
* keys: a repeated, escaped or 17th key at each depth gives what the reference
  reading (:func:`diverge_frames._exact.rmcp_read.read_exactly`, one token at a time) gives;
* the caller's stack depth does not change a result;
* nothing of a body stays behind after a decode;
* a buffer overwritten by another thread while it is decoded gives a FrameError or
  the value of one of its states, never another exception.

``DIVERGE_FRAMES_NUMBERS`` (default 100,000) sets how many numbers the first test reads.
"""

from __future__ import annotations

import gc
import os
import random
import sys
import threading
import tracemalloc
from collections.abc import Callable
from types import ModuleType
from typing import Any

import msgspec
import pytest
from helpers import decoder, encoder, outcome, same
from hypothesis import given, settings
from hypothesis import strategies as st
from number_tokens import NUMBER, tokens

from diverge_frames import FrameBodyError, FrameError, _frames_py
from diverge_frames._exact import rejection, rmcp_read
from diverge_frames._exact.rmcp_structs import (
    EXPECT_ERROR,
    EXPECT_NOTIFICATION,
    EXPECT_RESULT,
    EXPECTED,
)
from diverge_frames._exact.serde_json import Reject, serde_number
from diverge_frames._wire import result_decoder

COUNT = int(os.environ.get("DIVERGE_FRAMES_NUMBERS", "100000"))


def _reference(channel: str, payload: bytes) -> Any:
    """What the reference reading makes of a payload (tag 0 or 1)."""
    tag, body = payload[0], payload[1:]
    expected = (
        "ErrorData"
        if tag == 1
        else "ServerNotification"
        if channel == "notifications"
        else "ReadResourceResult"
    )
    try:
        return rmcp_read.read_exactly(body, tag, EXPECTED.index(expected))
    except FrameBodyError as exc:
        return exc


# ------------------------------------------------------------------ numbers


def test_numbers_are_serde_values(frames: ModuleType) -> None:
    """Generated numbers, a thousand to a body (in ``data``, free-form: serde's
    ``Value``), decode to serde_json's values, bit for bit; a body with a number out of
    range is rejected."""
    toks = [t for t in tokens(random.Random(7), COUNT) if NUMBER.match(t)]
    for start in range(0, len(toks), 1000):
        chunk = toks[start : start + 1000]
        try:
            want = [serde_number(t) for t in chunk]
        except Reject:
            want = None
        payload = b'\x01{"code":1,"message":"m","data":[' + ",".join(chunk).encode() + b"]}"
        got = outcome(frames.decode_notification, payload)
        if want is None:
            assert isinstance(got, FrameBodyError), chunk
            continue
        assert not isinstance(got, FrameError), (got, chunk)
        for token, a, b in zip(chunk, got.data, want, strict=True):
            assert type(a) is type(b) and msgspec.json.encode(a) == msgspec.json.encode(b), (
                token,
                a,
                b,
            )


def test_rmcp_numbers_stay_plain() -> None:
    """What rmcp and ordinary servers write is plain: it takes no rewrite and no exact
    reading (the pre-check of the pure twin says 0)."""
    for number in ("1e-7", "0.30000000000000004", "1733011200123456789", "1e-05", "1e+16"):
        body = b'{"code":1,"message":"m","data":' + number.encode() + b"}"
        assert _frames_py._precheck(body, EXPECT_ERROR) == 0, number
    log = (
        b'{"method":"notifications/message","params":{"level":"info","data":{'
        + b",".join(b'"f%d":%d' % (i, i) for i in range(17))
        + b"}}}"
    )
    assert _frames_py._precheck(log, EXPECT_NOTIFICATION) == 0


# ------------------------------------------------------------------ keys

_KEY_CASES: list[tuple[str, bytes]] = []


def _key_cases() -> list[tuple[str, bytes]]:
    """Bodies with a key repeated, escaped, or one of many, at each depth and position."""
    if _KEY_CASES:
        return _KEY_CASES
    many = b",".join(b'"k%d":%d' % (i, i) for i in range(40))
    esc = b'"\\u006cevel"'  # "level"
    deep = b"[" * 127 + b"]" * 127
    bodies = [
        ("notifications", b'\x00{"method":"notifications/message","params":{"level":"info","level":"debug","data":1}}'),
        ("notifications", b'\x00{"method":"notifications/message","params":{"level":"info",' + esc + b':"debug","data":1}}'),
        ("notifications", b'\x00{"method":"notifications/message","params":{' + esc + b':"debug","data":1}}'),
        ("notifications", b'\x00{"method":"notifications/message","params":{"level":"info","data":{"a":1,"a":2}}}'),
        ("notifications", b'\x00{"method":"notifications/message","params":{"level":"info","data":{' + many + b"}}}"),
        ("notifications", b'\x00{"method":"notifications/message","params":{' + many + b',"level":"info","data":1}}'),
        ("notifications", b'\x00{' + many + b',"method":"x/y","params":{"a":1}}'),
        ("notifications", b'\x00{"method":"x/y","params":{"a":1,"a":2,"_meta":{"b":1,"b":2}}}'),
        ("notifications", b'\x00{"method":"x/y","params":{"_meta":{},"_meta":{}}}'),
        ("notifications", b'\x00{"method":"x/y","\\u006dethod":"z","params":{}}'),
        ("notifications", b'\x00{"method":"notifications/progress","params":{"progressToken":1,"progress":1,"progress":2}}'),
        ("notifications", b'\x00{"method":"notifications/progress","params":{"progressToken":1,"progress":1,"total":1,"x":1,"x":2}}'),
        ("notifications", b'\x00{"method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true,"toolsListChanged":false}}}'),
        ("notifications", b'\x00{"method":"notifications/subscriptions/acknowledged","params":{"notifications":[true,false]}}'),
        ("notifications", b'\x00["notifications/message",{"level":"info","level":"info","data":1}]'),
        ("notifications", b'\x01{"code":1,"message":"m","code":2}'),
        ("notifications", b'\x01{"code":1,"message":"m","data":{"x":1,"x":2},"y":{"z":1,"z":1}}'),
        ("notifications", b'\x01{"code":1,"message":"m","data":[{"x":1,"x":2}],"\\u0063ode":3}'),
        ("read-resource", b'\x00{"contents":[{"uri":"u","text":"a","text":"b","blob":"c"}]}'),
        ("read-resource", b'\x00{"contents":[{"uri":"u","blob":"a","blob":"b","text":"c"}]}'),
        ("read-resource", b'\x00{"contents":[{"uri":"u","uri":"v","text":"t"}]}'),
        ("read-resource", b'\x00{"contents":[{"uri":"u","text":"t","_meta":{"a":1,"a":2}}],"_meta":{"b":1,"b":2}}'),
        ("read-resource", b'\x00{"contents":[],"ttlMs":1,"ttlMs":2}'),
        ("read-resource", b'\x00{"contents":[{' + many + b',"uri":"u","text":"t"}]}'),
        ("read-resource", b'\x00{"x":{"a":1,"a":2},"contents":[],"x":[1e400]}'),
        # a repeated key's first value, too deep, then overwritten: serde read it
        ("notifications", b'\x00{"method":"x/y","params":{"a":' + deep + b',"a":1}}'),
        ("notifications", b'\x01{"code":1,"message":"m","data":{"a":' + deep + b',"a":1}}'),
        ("notifications", b'\x01{"code":1,"message":"m","x":' + deep + b',"x":1}'),
        ("read-resource", b'\x00{"contents":[],"_meta":{"a":' + deep + b',"a":1}}'),
    ]  # fmt: skip
    _KEY_CASES.extend(bodies)
    return _KEY_CASES


@pytest.mark.parametrize("index", range(29))
def test_keys_as_the_reference(frames: ModuleType, index: int) -> None:
    channel, payload = _key_cases()[index]
    assert same(outcome(decoder(frames, channel), payload), _reference(channel, payload)), payload


# Short string content, each escape JSON has and what serde_json rejects (a lone
# surrogate, an unknown escape, a bad hex digit, a raw control byte, invalid UTF-8), read
# in 16-byte steps by the compiled twin's first look at a body.
_ESCAPES = [
    b'\\"', b"\\\\", b"\\/", b"\\b", b"\\f", b"\\n", b"\\r", b"\\t", b"\\u0041",
    b"\\u00e9", b"\\uffff", b"\\u0000", b"\\ud83d\\ude00", b"\\ud800", b"\\udc00",
    b"\\uD800\\u0041", b"\\ud7ff", b"\\ue000", b"\\x", b"\\u12G4", b"\\u12", b"\\\x01",
    b"\x01", "\u00e9".encode(), b"\xff", b"\\",
]  # fmt: skip


@pytest.mark.parametrize("escape", _ESCAPES, ids=repr)
def test_short_strings_as_the_reference(frames: ModuleType, escape: bytes) -> None:
    """An escape (or a byte serde_json rejects) at each offset of a short key or value
    string, near a body's end too, in a member read or skipped (serde_json skips a lone
    surrogate), reads as the reference reading reads it."""
    for shift in range(18):
        pad = b"a" * shift
        for channel, payload in (
            ("notifications", b'\x00{"method":"notifications/message","params":{"level":"info","data":"'
             + pad + escape + b'"}}'),
            ("notifications", b'\x00{"method":"x/y","params":{"' + pad + escape + b'":1}}'),
            ("notifications", b'\x01{"code":1,"message":"' + pad + escape + b'"}'),
            ("read-resource", b'\x00{"contents":[{"uri":"' + pad + escape + b'","text":"t"}]}'),
            ("read-resource", b'\x00{"contents":[],"' + pad + escape + b'":0}'),
            ("read-resource", b'\x00{"contents":[],"x":"' + pad + escape + b'"}'),
            ("notifications", b'\x01{"code":1,"message":"m","x":["' + pad + escape + b'"]}'),
        ):  # fmt: skip
            got = outcome(decoder(frames, channel), payload)
            assert same(got, _reference(channel, payload)), payload


# ------------------------------------------------------------------ the caller's stack


def _at_depth(depth: int, call: Callable[[Any], Any], arg: Any) -> Any:
    if depth > 0:
        return _at_depth(depth - 1, call, arg)
    return outcome(call, arg)


DEEP_BODIES = [
    ("notifications", b'\x01{"code":1,"message":"m","data":' + b"[" * 126 + b"]" * 126 + b"}"),
    ("notifications", b'\x01{"code":1,"message":"m","data":' + b"[" * 120 + b"-0" + b"]" * 120 + b"}"),
    ("notifications", b'\x01{"code":1,"message":"m","data":' + b"[" * 200 + b"]" * 200 + b"}"),
    ("notifications", b'\x00{"method":"notifications/message","params":{"level":"info","level":"info","data":'
     + b"[" * 120 + b"]" * 120 + b"}}"),
    ("read-resource", b'\x00{"contents":[],"x":' + b"[" * 3000 + b"]" * 3000 + b"}"),
]  # fmt: skip


@pytest.mark.parametrize("index", range(len(DEEP_BODIES)))
def test_caller_stack_depth_changes_nothing(frames: ModuleType, index: int) -> None:
    """A body of 127 levels (or past rmcp's limit, or deep in a member rmcp skips)
    decodes to the same value or error from a shallow stack and from one 40 frames
    short of the recursion limit (msgspec's recursion is done again on a fresh stack)."""
    channel, payload = DEEP_BODIES[index]
    decode = decoder(frames, channel)
    shallow = outcome(decode, payload)
    limit = sys.getrecursionlimit()
    here = len(_frames_here())
    for depth in range(limit - here - 300, limit - here - 40, 20):
        assert same(_at_depth(depth, decode, payload), shallow), depth


def _frames_here() -> list[Any]:
    frame, out = sys._getframe(), []
    while frame is not None:
        out.append(frame)
        frame = frame.f_back  # type: ignore[assignment]
    return out


# ------------------------------------------------------------------ what stays behind


@pytest.mark.heavy
def test_nothing_stays_behind(frames: ModuleType) -> None:
    """After a decode (value or error) of a body of a million numbers, the memory it took
    is given back (the pure twin's scanner keeps no number's text)."""
    payloads = [
        b'\x01{"code":1,"message":"m","data":[' + b"1.5e300," * 125000 + b"-0]}",
        b'\x01{"code":1,"message":"m","data":[' + b"1," * 125000 + b"1e400]}",
        b'\x01{"code":1,"message":"m","data":[' + b"123456789.5," * 80000 + b"1]}",
    ]
    for payload in payloads:
        outcome(frames.decode_notification, payload)  # warm up
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            result = outcome(frames.decode_notification, payload)
            del result
            gc.collect()
            left = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        assert left < 64 * 1024, (left, payload[:60])
    state = _frames_py._scan_state
    assert state.ints == [] and state.floats == []


# ------------------------------------------------------------------ buffers written meanwhile


def _states() -> list[tuple[str, bytes, bytes]]:
    """(channel, state A, state B): two payloads of one length, both taking the exact
    reading (numbers to rewrite, a repeated member), one of them rejected by rmcp."""
    filler = b'"' + b"x" * 20000 + b'"'
    a = b'\x01{"code":1,"message":' + filler + b',"data":[' + b"1.5e300," * 3000 + b"-0]}"
    b = a.replace(b"1.5e300", b"2.5e-99")
    c = b"1.5e999".join(a.replace(b'"code":1,', b'"code":2,', 1).rsplit(b"1.5e300", 1))
    d = (
        b'\x00{"method":"notifications/message","params":{"level":"info","level":"info","data":['
        + b"-0," * 9000
        + b"1]}}"
    )
    e = d.replace(b"-0,", b"7.5", 3000).replace(b"-0,", b"0e1")
    f = b'\x00{"contents":[' + b'{"uri":"u","text":"t","text":"u","blob":"b"},' * 600 + b"1]}"
    g = f.replace(b'"blob":"b"', b'"blob":"c"')
    assert len(a) == len(b) == len(c) and len(d) == len(e) and len(f) == len(g)
    return [("notifications", a, b), ("notifications", a, c), ("notifications", d, e),
            ("read-resource", f, g)]  # fmt: skip


@pytest.mark.heavy
@pytest.mark.parametrize("index", range(4))
@pytest.mark.parametrize("how", ["bytearray", "memoryview", "slice"])
def test_buffer_overwritten_during_decode(frames: ModuleType, index: int, how: str) -> None:
    """Another thread writes one state or the other into the buffer while it is decoded
    again and again: each decode gives the value (or error) of one state, or a
    FrameError; nothing else is raised."""
    channel, a, b = _states()[index]
    decode = decoder(frames, channel)
    encode = encoder(frames, channel)
    wanted = [outcome(decode, bytes(x)) for x in (a, b)]
    buffer = bytearray(b"#" + a + b"#")
    payload: Any = {
        "bytearray": None,
        "memoryview": None,
        "slice": memoryview(buffer)[1:-1],
    }[how]
    if how == "bytearray":
        buffer = bytearray(a)
        payload = buffer
    elif how == "memoryview":
        buffer = bytearray(a)
        payload = memoryview(buffer)
    offset = 1 if how == "slice" else 0
    stop = threading.Event()

    def write() -> None:
        states = (a, b)
        k = 0
        while not stop.is_set():
            k ^= 1
            buffer[offset : offset + len(a)] = states[k]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    writer = threading.Thread(target=write)
    writer.start()
    try:
        for _ in range(30):
            try:
                got = decode(payload)
            except FrameError:
                continue
            assert any(same(got, w) for w in wanted if not isinstance(w, FrameError)), encode(got)[
                :200
            ]
    finally:
        stop.set()
        writer.join()
        sys.setswitchinterval(interval)
        if how != "bytearray":
            payload.release()


# ------------------------------------------------------------------ a result's items

_GOOD = b'{"uri":"u%d","text":"t"}'
#: Items msgspec's typed reading rejects, each with its error inside it.
_FAILING = [
    b'{"text":"t"}',  # no uri
    b'{"uri":5,"text":"t"}',
    b'{"uri":"u","text":"t","_meta":5}',  # nested: $.contents[i]._meta
    b'{"uri":"u","text":"t","mimeType":["m"]}',
    b'{"uri":"u","text":5}',
    b'["u",null,"t",null]',  # serde's sequence form of the struct
    b"5",
]
#: Items the exact reading rewrites (a repeated member), beside a failing one.
_FLAGGED = [
    b'{"uri":"f","text":"t","text":"t","blob":"b"}',
    b'{"uri":"f","text":"t","blob":"b","blob":"b"}',
    b'{"uri":"f","uri":"f","text":"t"}',
]


def _result(items: list[bytes], head: bytes = b"", tail: bytes = b"") -> bytes:
    return b"\x00{" + head + b'"contents":[' + b",".join(items) + b"]" + tail + b"}"


def _item_cases() -> list[bytes]:
    cases = []
    for bad in _FAILING:
        for at in (0, 2, 4):  # the failing item first, in the middle, last
            items = [_GOOD % i for i in range(4)]
            items.insert(at, bad)
            cases.append(_result(items))
            for flagged in _FLAGGED:  # flagged items before or after it
                cases.append(_result([flagged, *items]))
                cases.append(_result([*items, flagged]))
        two = [_GOOD % 0, bad, _GOOD % 1, bad]  # the first failing item is reported
        cases.append(_result(two))
    bad = b'{"text":"t"}'
    items = [_GOOD % 0, bad]
    # top-level members beside a failing item: serde's forms of the enum and of the
    # struct (rmcp reads them; msgspec's error may lie there or in the item), a number
    # spelled anew, a skipped unknown member, a member not in the struct's order
    for head, tail in [
        (b'"cacheScope":{"private":null},', b""),
        (b"", b',"cacheScope":{"private":null}'),
        (b'"cacheScope":"nope",', b""),
        (b"", b',"cacheScope":"nope"'),
        (b'"ttlMs":1e2,', b""),
        (b'"ttlMs":-5,', b""),
        (b'"other":[1e400,{"a":1,"a":2}],', b""),
        (b"", b',"resultType":"x","_meta":{"k":1}'),
    ]:
        cases.append(_result(items, head, tail))
        cases.append(_result([_GOOD % 0], head, tail))
    cases += [
        b'\x00{"contents":null}',
        b'\x00{"contents":{"uri":"u","text":"t"}}',
        b'\x00{"contents":[{"uri":"u"}]}',  # neither text nor blob: not msgspec's error
        b'\x00{"contents":[{"uri":"u","text":null,"blob":null}]}',
        b'\x00[null,null,null,[{"text":"t"}],null]',  # serde's sequence form of the result
        b'\x00[null,null,null,[{"uri":"u","text":"t"}],null]',
        b'\x00{"contents":[{"uri":"u","text":"t"}],"contents":[{"text":"t"}]}',
    ]
    return cases


@pytest.mark.parametrize("index", range(len(_item_cases())))
def test_result_items_as_the_reference(frames: ModuleType, index: int) -> None:
    """A result whose items msgspec rejects (the failing item first, in the middle, last,
    its error nested; beside items the exact reading rewrites, and top-level members
    rmcp reads in serde's forms) gives the reference reading's value or error, message
    and path included: the twins word a rejection inside ``contents`` from msgspec's
    error without reading the body again."""
    payload = _item_cases()[index]
    got = outcome(decoder(frames, "read-resource"), payload)
    want = _reference("read-resource", payload)
    assert same(got, want), (payload, got, want)
    if isinstance(want, FrameBodyError):
        assert (got.path, got.reason) == (want.path, want.reason)


def test_item_rejection_only_inside_contents() -> None:
    """``item_rejection`` words msgspec's errors at ``$.contents`` and below only (the
    exact reading decides the others), and ignores a syntax error."""

    def error(body: bytes) -> BaseException:
        try:
            result_decoder.decode(body)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            return exc
        raise AssertionError(body)

    inside = error(b'{"contents":[{"uri":"u","text":"t"},{"uri":"u","text":"t","_meta":1}]}')
    found = rejection.item_rejection(0, inside)
    assert found is not None and found.__cause__ is inside
    assert (found.path, found.expected) == ("$.contents[1]._meta", "ReadResourceResult")
    assert str(found) == str(rejection.rejection(b"", 0, EXPECT_RESULT, None, None, inside))
    assert rejection.item_rejection(0, error(b'{"contents":null}')).path == "$.contents"
    for body in [b'{"cacheScope":{"private":null},"contents":[]}', b"{}", b'{"contents":[']:
        assert rejection.item_rejection(0, error(body)) is None, body


def test_item_rejection_reads_nothing_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rejection inside ``contents`` of a body the pre-check finds plain does not go
    through the exact reading (a 1 MB body would be read three times more)."""

    def not_called(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the exact reading was called")

    monkeypatch.setattr(_frames_py, "read_exactly", not_called)
    monkeypatch.setattr(_frames_py, "_exact", not_called)
    payload = _result([_GOOD % i for i in range(100)] + [b'{"text":"t"}'])
    with pytest.raises(FrameBodyError) as caught:
        _frames_py.decode_read_resource(payload)
    assert caught.value.path == "$.contents[100]"
    with pytest.raises(AssertionError):  # (the patch reaches the twin)
        _frames_py.decode_read_resource(_result([_FLAGGED[0]]))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [b"a", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xff", b"\xc3"]
        ),
        max_size=30,
    ).map(b"".join),
    st.sampled_from([0, 65536 - 1, 65536 - 2, 65536 - 3]),
)
def test_is_utf8_is_the_codec(tail: bytes, pad: int) -> None:
    """rmcp_read.is_utf8 is Python's UTF-8 codec, a character cut by its 64 KiB
    pieces included, from bytes, bytearray and memoryview."""
    from diverge_frames._exact.rmcp_read import is_utf8

    body = b"a" * pad + tail
    try:
        body.decode("utf-8")
        expected = True
    except UnicodeDecodeError:
        expected = False
    for form in (body, bytearray(body), memoryview(b"x" + body)[1:]):
        assert is_utf8(form) is expected
