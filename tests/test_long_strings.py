"""Long ``text`` and ``blob`` strings, and a logging message's long ``data``, take the
compiled twin's long-string path (built in C and cut out of the JSON before msgspec reads
the rest). Whatever a long string holds
(each escape JSON has, the ones serde_json rejects, raw control bytes, raw and invalid
UTF-8, an early quote, no closing quote), both twins must give the value and the error
that the general path gives; the path must take every string serde_json accepts, and
give way on every other, on each path of the string loops the CPU has."""

from __future__ import annotations

import json
import random
from typing import Any

import helpers
import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diverge_frames import _frames_py
from diverge_frames import types as t

# Sizes around the path's thresholds: the shortest string it cuts (256), the buffer on
# the stack (1 KiB), 64-byte steps, the first 64 KiB of room.
SIZES = [200, 255, 256, 257, 1000, 1023, 1024, 1025, 1100, 65_470, 65_536, 65_600, 200_000]
# JSON string content, as bytes, that serde_json reads into a str ...
GOOD = [
    b'\\"', b"\\\\", b"\\/", b"\\b", b"\\f", b"\\n", b"\\r", b"\\t", b"\\u0041", b"\\u00e9",
    b"\\u00E9", b"\\u0080", b"\\u07ff", b"\\u0800", b"\\uffff", b"\\u2028", b"\\u0000",
    b"\\u001f", b"\\ud83d\\ude00", b"\\uDBFF\\uDFFF", b"\\\\\\\\\\n", "é".encode(),
    "\u2028".encode(), "😀".encode(), b"\x7f", b"/", b"\\\\u0041",
]  # fmt: skip
# ... and that it rejects (a lone surrogate, an unknown escape, a bad hex digit, a raw
# control byte, invalid UTF-8), or that ends the string early (a quote) or never.
BAD = [
    b"\\ud800", b"\\udc00", b"\\ud800\\u0041", b"\\ud800\\n", b"\\uD800\\uE000",
    b"\\ud800\\ud800", b"\\x", b"\\u12G4", b"\\u12", "\\é".encode(), b"\\\x01", b"\x00",
    b"\x1f", b"\n", b"\t", b"\xff", b"\xc3", b"\xc0\x80", b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80", b"\xe2\x80", b'"', b"\\",
]  # fmt: skip
ODD = GOOD + BAD


def _plain(size: int, seed: int = 0) -> bytes:
    rng = random.Random(seed)
    words = [b"lorem", b"ipsum", b"dolor", b"sit", b"amet", b"text", b"blob", b":", b","]
    out = bytearray()
    while len(out) < size:
        out += rng.choice(words) + b" "
    return bytes(out[:size])


def _body(content: bytes, key: str = "text", before: bytes = b"", after: bytes = b"") -> bytes:
    item = b'{"uri":"file:///a.md","mimeType":"text/markdown","' + key.encode() + b'":"'
    return b'{"contents":[' + before + item + content + b'"}' + after + b"]}"


@pytest.fixture(params=[3, 2, 1, 0], ids=["avx512", "avx2", "sse2", "swar"])
def path(request: pytest.FixtureRequest) -> Any:
    """Each path of the compiled string loops the CPU has (the others skip)."""
    frames = helpers.compiled()
    if frames._string_path(request.param) != request.param:
        frames._string_path(99)
        pytest.skip("this CPU has no such path")
    yield request.param
    frames._string_path(99)


def _check(body: bytes, taken: bool | None = None, notification: bool = False) -> Any:
    """Both twins give the general path's outcome for ``body``; the compiled long-string
    path gives it too, or steps aside (it must when the general path raises; it must
    not when ``taken``)."""
    frames = helpers.compiled()
    payload = b"\x00" + body
    channel = "notifications" if notification else "read-resource"
    general = helpers.outcome(helpers.decoder(_frames_py, channel), payload)
    assert helpers.same(helpers.outcome(helpers.decoder(frames, channel), payload), general)
    spliced = frames._long_strings(body, notification)
    if spliced is not None:
        assert not isinstance(general, Exception)
        assert spliced == general
    if taken is not None:
        assert (spliced is not None) == taken, (taken, general)
    return general


@pytest.mark.parametrize("key", ["text", "blob"])
@pytest.mark.parametrize("where", [0, 1, 63, 64, 65, 1023, -1])
@pytest.mark.parametrize("odd", ODD, ids=repr)
def test_each_odd_sequence(path: int, key: str, where: int, odd: bytes) -> None:
    plain = _plain(1500)
    at = len(plain) if where == -1 else where
    body = _body(plain[:at] + odd + plain[at:], key)
    general = helpers.outcome(_frames_py.decode_read_resource, b"\x00" + body)
    # the long-string path takes what the general path reads (all of GOOD, and a few of
    # BAD that make another escape: a backslash before a "t"), and nothing else
    accepted = not isinstance(general, Exception)
    assert accepted or odd in BAD
    _check(body, taken=accepted)
    if accepted:
        assert getattr(general.contents[0], key) == json.loads(body)["contents"][0][key]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("odd", [b"", b"\\n", "é".encode(), b"\\ud83d\\ude00", b"\x01"], ids=repr)
def test_each_size(path: int, size: int, odd: bytes) -> None:
    """Around each threshold, and with the odd byte at the end of the first room."""
    plain = _plain(size, seed=size)
    for at in {0, size // 2, min(size, 65_536 - 40), size}:
        content = plain[:at] + odd + plain[at:]
        body = _body(content)
        long = len(content) >= helpers.compiled()._LONG_STRING
        value = _check(body, taken=long and odd != b"\x01")
        if odd != b"\x01":
            assert value.contents[0].text == json.loads(body)["contents"][0]["text"]


@pytest.mark.parametrize(
    ("before", "after", "taken"),
    [
        (b"", b"", True),
        (b"", b',{"uri":"s","text":"short"},{"uri":"b","blob":"QUJD"}', True),
        # a short string first: a result of small items, left to msgspec
        (b'{"uri":"s","text":"short"},', b',{"uri":"b","blob":"QUJD"}', False),
        # an empty string of the body's own: the cut ones could not be told from it
        (b'{"uri":"e","text":""},', b"", False),
        # a long "text" in a _meta: not an item's text, so the general path decides
        (b"", b',{"uri":"m","text":"x","_meta":{"text":"' + _plain(2000) + b'"}}', False),
        # an item with both members long: rmcp takes the text
        (
            b"",
            b',{"uri":"tb","text":"' + _plain(2000) + b'","blob":"' + _plain(3000) + b'"}',
            False,
        ),
        # a repeated key: the exact path decides
        (b"", b',{"uri":"d","uri":"e","text":"x"}', False),
        (b"", b',{"uri":"n","mimeType":null,"text":"' + _plain(1200) + b'"}', True),
        (b"", b',{"uri":"x"}', False),  # neither text nor blob: the error
        (b"", b',{"uri":"x","text":7,"blob":"' + _plain(1200) + b'"}', True),  # a number
    ],
)
def test_items_around_a_long_string(path: int, before: bytes, after: bytes, taken: bool) -> None:
    _check(_body(_plain(5000), "text", before, after), taken=taken)
    _check(_body(_plain(5000), "blob", before, after), taken=taken)


def test_result_members_around_long_strings() -> None:
    for tail in [b"", b',"ttlMs":-3', b',"_meta":{"k":[1,2]}', b',"resultType":"complete"']:
        body = _body(_plain(3000)).removesuffix(b"}") + tail + b"}"
        value = _check(body, taken=True)
        assert value == _frames_py.decode_read_resource(b"\x00" + body)


def _random_bodies(seed: int, count: int) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        items = []
        for j in range(rng.randint(1, 4)):
            size = rng.choice([10, 900, 1100, 5000, 70_000])
            content = bytearray(_plain(size, seed=rng.random()))
            for _ in range(rng.choice([0, 0, 1, 3, 30])):
                at = rng.randrange(len(content) + 1)
                content[at:at] = rng.choice(GOOD if rng.random() < 0.9 else BAD)
            key = rng.choice(["text", "blob"])
            extra = rng.choice([b"", b',"mimeType":"a/b"', b',"_meta":{"x":1}', b',"mimeType":""'])
            items.append(b'{"uri":"u%d","%s":"%s"%s}' % (j, key.encode(), bytes(content), extra))
        tail = rng.choice([b"", b',"_meta":{"k":1}', b',"ttlMs":-3'])
        body = b'{"contents":[' + b",".join(items) + b"]" + tail + b"}"
        if rng.random() < 0.1:
            body = body[: rng.randrange(len(body) + 1)]
        out.append(body)
    return out


RANDOM_BODIES = _random_bodies(seed=7, count=40)


@pytest.mark.parametrize("index", range(len(RANDOM_BODIES)))
def test_random_bodies(path: int, index: int) -> None:
    _check(RANDOM_BODIES[index])


@settings(max_examples=150, deadline=None)
@given(text=st.text(min_size=0, max_size=300), ascii_only=st.booleans(), pad=st.integers(0, 1500))
def test_any_text(text: str, ascii_only: bool, pad: int) -> None:
    """Any str, written by msgspec or by json.dumps (every non-ASCII character as a
    \\u escape, surrogate pairs too), long or not, reads back as itself."""
    frames = helpers.compiled()
    text = "p" * pad + text
    value = t.ReadResourceResult(contents=[t.TextResourceContents(uri="u", text=text)])
    for body in [
        msgspec.json.encode(value),
        json.dumps({"contents": [{"uri": "u", "text": text}]}, ensure_ascii=ascii_only).encode(),
    ]:
        assert frames.decode_read_resource(b"\x00" + body) == value
        spliced = frames._long_strings(body)
        assert spliced is None or spliced == value


def _log(data: bytes, before: bytes = b"", after: bytes = b',"level":"info"') -> bytes:
    return (
        b'{"method":"notifications/message","params":{'
        + before
        + b'"data":"'
        + data
        + b'"'
        + after
        + b"}}"
    )


@pytest.mark.parametrize("where", [0, 64, -1])
@pytest.mark.parametrize("odd", ODD, ids=repr)
def test_log_data_each_odd_sequence(path: int, where: int, odd: bytes) -> None:
    plain = _plain(1500)
    at = len(plain) if where == -1 else where
    body = _log(plain[:at] + odd + plain[at:])
    general = helpers.outcome(_frames_py.decode_notification, b"\x00" + body)
    _check(body, taken=type(general) is t.LoggingMessageNotification, notification=True)


@pytest.mark.parametrize(
    ("before", "after", "taken"),
    [
        (b"", b',"level":"info","logger":"l"', True),
        (b'"_meta":{"k":1},', b',"level":"debug"', True),
        (b"", b',"level":"loud"', False),  # not a level: a custom notification
        (b"", b',"level":"info","logger":""', False),  # an empty string of its own
        (b'"_meta":{"data":"x"},', b',"level":"info"', True),
        (b'"_meta":{"data":"' + _plain(2000) + b'"},"data":1,', b',"level":"info"', False),
        (b"", b',"level":"info","data":"x"', False),  # a repeated key: the exact path
        (b"", b"", False),  # no level
    ],
)
def test_log_data_around(path: int, before: bytes, after: bytes, taken: bool) -> None:
    _check(_log(_plain(3000), before, after), taken=taken, notification=True)


def test_log_data_nested_or_elsewhere(path: int) -> None:
    long = _plain(3000)
    for body in [
        b'{"method":"notifications/message","params":{"data":{"data":"'
        + long
        + b'"},"level":"info"}}',
        b'{"method":"notifications/progress","params":{"data":"'
        + long
        + b'","progress":1,"progressToken":1}}',
        b'{"method":"x/y","params":{"data":"' + long + b'"}}',
        b'{"params":{"data":"' + long + b'","level":"info"},"method":"notifications/message"}',
    ]:
        _check(body, taken=False, notification=True)


@pytest.mark.parametrize(
    "late",
    [b"", b"\\n", b"\\u00e9", b"\x01", b"\xff", "😀".encode(), b"\\x", b'"'],
    ids=repr,
)
@pytest.mark.parametrize("size", [1500, 70_000])
def test_non_ascii_first_then_something_late(path: int, late: bytes, size: int) -> None:
    """Non-ASCII in the first KiB and no escape there: the content is decoded where it
    is, unless an escape, a control byte or invalid UTF-8 comes later."""
    plain = "é".encode() + _plain(size)
    _check(_body(plain[: size - 100] + late + plain[size - 100 :]))
    _check(_body(plain + late)[:-2])  # not closed


def test_a_string_not_closed(path: int) -> None:
    for content in [_plain(3000), "é".encode() + _plain(3000), b"\\n" + _plain(3000)]:
        _check(b'{"contents":[{"uri":"u","text":"' + content)
        _check(b'{"contents":[{"uri":"u","text":"' + content + b"\\")
