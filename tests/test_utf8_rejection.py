"""Bodies rejected for a string's UTF-8 after a long run of plain characters.

The compiled twin asks msgspec for its words of such a body without the run (its
``df_sj_plain_run``: whole UTF-8 characters, none a quote, backslash, control byte or
opening), so that a long string is neither read twice nor held twice while rejecting.
Both twins must still give what the reference reading gives (``rmcp_read.read_exactly``),
word for word, wherever the string is and whatever comes around it; and the run must be
exactly the rule's.
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import helpers
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diverge_frames import FrameError
from diverge_frames._exact.rmcp_structs import EXPECT_ERROR, EXPECT_NOTIFICATION, EXPECT_RESULT
from diverge_frames._stack import MSGSPEC_MESSAGE_OPENINGS as OPENINGS

#: Characters of a run (ASCII, 2-, 3- and 4-byte UTF-8), and what ends one.
_PLAIN = [bytes((c,)) for c in b" a~]}\x7f"] + [c.encode() for c in "éж€中😀"]
_ENDS = [b'\\"', b"\\n", b"\\u00e9", b"\\ud800", b"[", b"{", b"\x01", b"\x1f"]
#: Bytes that are no UTF-8 character as Rust's str reads them.
_INVALID = (
    b"\xff \x80 \xc0\x80 \xc1\xbf \xe0\x80\x80 \xed\xa0\x80 \xf4\x90\x80\x80 \xf5\x80\x80\x80"
    b" \xe2\x82 \xe2\x82a \xf0\x9f\x98"
).split(b" ")

#: Where the string goes: (tag, template); tag 2 is a read-resource result.
_POSITIONS = [
    (1, b'{"code":1,"message":"%s"}'),
    (1, b'{"message":"%s","code":1}'),
    (1, b'{"code":1,"message":"m","data":{"k":["%s"]}}'),
    (1, b'{"code":1,"message":"m","x":"%s"}'),
    (1, b'{"code":"1","message":"%s"}'),
    (0, b'{"method":"x","params":{"p":"%s"}}'),
    (0, b'{"method":"x","params":{"%s":1}}'),
    (0, b'{"method":"x","params":{"p":"%s","p":1}}'),
    (0, b'{"method":"notifications/message","params":{"level":"info","data":"%s"}}'),
    (0, b'{"method":"notifications/message","params":{"level":"info","data":1,"z":"%s"}}'),
    (0, b'{"method":"notifications/message","params":{"level":"bogus","data":"%s"}}'),
    (0, b'{"method":"notifications/progress","params":{"progressToken":"%s","progress":-0}}'),
    (0, b'{"method":"notifications/resources/updated","params":{"uri":"%s","_meta":{}}}'),
    (
        0,
        b'{"method":"x","params":{"a":-0,"b":'
        + b"[" * (OPENINGS + 2)
        + b'"%s"'
        + b"]" * (OPENINGS + 2)
        + b"}}",
    ),
    (2, b'{"contents":[{"uri":"u","text":"%s"}]}'),
    (2, b'{"contents":[{"uri":"%s","text":"t"}]}'),
    (2, b'{"contents":[{"uri":"u","text":"t","_meta":{"k":"%s"}}]}'),
    (2, b'{"contents":[],"x":"%s"}'),
]
_EXPECTED = {0: EXPECT_NOTIFICATION, 1: EXPECT_ERROR, 2: EXPECT_RESULT}


def _reference_run(body: bytes, start: int) -> int:
    """The rule: the plain run's length at ``body[start:]``, a character at a time."""
    i = start
    while i < len(body):
        c = body[i]
        if c < 0x80:
            if c < 0x20 or c in b'"\\[{':
                break
            i += 1
            continue
        size = 2 if c < 0xE0 else 3 if c < 0xF0 else 4
        try:
            if len(body[i : i + size].decode("utf-8")) != 1:
                break
        except UnicodeDecodeError:
            break
        i += size
    return i - start


_pieces = st.lists(st.sampled_from(_PLAIN + _ENDS + _INVALID), max_size=60).map(b"".join)


@pytest.mark.c_extension
@settings(max_examples=2000, deadline=None)
@given(_pieces, st.integers(0, 40))
def test_the_compiled_plain_run_is_the_rule(body: bytes, start: int) -> None:
    """df_sj_plain_run is the rule at every start, from bytes, bytearray and memoryview."""
    frames = helpers.compiled()
    start = min(start, len(body))
    want = _reference_run(body, start)
    for form in (body, bytearray(body), memoryview(b"x" + body)[1:]):
        assert frames._plain_run(form, start) == want


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)  # a module, no state
@given(
    st.sampled_from(_POSITIONS),
    st.lists(st.sampled_from(_PLAIN), min_size=1, max_size=8).map(b"".join),
    st.integers(0, 3000),
    _pieces,
    st.sampled_from(_INVALID),
    _pieces,
)
def test_invalid_utf8_after_a_long_run_is_worded_as_the_reference_words_it(
    frames: Any,
    position: tuple[int, bytes],
    chunk: bytes,
    repeat: int,
    before: bytes,
    invalid: bytes,
    after: bytes,
) -> None:
    """Each twin gives the reference's error for the string ``before + run + invalid +
    after`` (the run ``repeat`` chunks long, past the compiled twin's cut or not) at
    every position: the message of the whole body, never of a shortened one."""
    tag, template = position
    body = template.replace(b"%s", before + chunk * repeat + invalid + after)
    helpers.check_as_reference(frames, 1 if tag == 1 else 0, _EXPECTED[tag], body)


#: What serde_json rejects (or reads) before a string's invalid UTF-8: a number out of
#: range, a lone surrogate escape, nesting past its recursion limit, a member repeated.
_BEFORE = [b"1e400", b"-1e400", b'"\\ud800"', b"[" * 130 + b"]" * 130, b'{"a":1,"a":2}']
#: Where: (tag, template), the value at %v, the invalid string at %s after it.
_AROUND = [
    (0, b'{"a":%v,"b":%s,"method":"x/y"}'),
    (0, b'{"method":"x/y","a":%v,"b":%s}'),
    (0, b'{"a":[%v,%s],"method":"x/y"}'),
    (0, b'{"method":"x/y","method":%v,"b":%s}'),
    (0, b'{"method":"x/y","params":{"a":%v,"b":%s}}'),
    (2, b'{"a":%v,"b":%s,"contents":[]}'),
    (2, b'{"contents":[{"uri":"u","text":"t","x":%v,"y":%s}]}'),
    (1, b'{"code":1,"message":"m","data":{"a":%v,"b":%s}}'),
    (1, b'{"code":1,"x":%v,"message":%s}'),
]


@pytest.mark.parametrize("around", _AROUND, ids=lambda a: a[1].decode()[:32])
@pytest.mark.parametrize("before", _BEFORE, ids=lambda b: b.decode()[:12])
@pytest.mark.parametrize("invalid", [b"\xed", b"\xff", b"\xed\xa0\x80"])
def test_what_serde_reads_before_invalid_utf8_comes_first(
    frames: Any, around: tuple[int, bytes], before: bytes, invalid: bytes
) -> None:
    """Each twin gives the reference's verdict and words for a value serde_json rejects
    (or reads) before a string of invalid UTF-8, wherever the two are: the first fault in
    the bytes is the one rmcp names (``1e400`` before ``"\\xed"``: number out of range),
    not the UTF-8 the pure twin's pre-check stops at."""
    tag, template = around
    body = template.replace(b"%v", before).replace(b"%s", b'"' + invalid + b'"')
    helpers.check_as_reference(frames, 1 if tag == 1 else 0, _EXPECTED[tag], body)


@pytest.mark.parametrize("tail", [b"\xff", "é".encode()[:1], b"\xed\xa0\x80"])
def test_a_long_string_rejected_for_its_utf8_is_not_held_twice(tail: bytes) -> None:
    """The compiled twin rejects a 1 MB message whose last byte is not UTF-8 holding
    less than half the body beside it (msgspec asked of the whole body holds 2x: the
    string's copy in a ``UnicodeDecodeError`` beside the decoder's own)."""
    frames = helpers.compiled()
    payload = b'\x01{"code":1,"message":"' + "aé€".encode() * 150_000 + tail + b'"}'
    tracemalloc.start()
    try:
        with pytest.raises(FrameError, match="Invalid UTF-8 encoded string"):
            frames.decode_notification(payload)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < len(payload) / 2
