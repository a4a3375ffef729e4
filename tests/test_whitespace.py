"""JSON whitespace between tokens is ordinary in both twins.

A body written with spaces, tabs, LF and CR between its tokens (JSON's four whitespace
bytes, any amount, wherever JSON allows them: ``json.dumps(v, indent=2)``, Python's
default separators, CRLF line ends) decodes to what the same body written compact
decodes to, and takes the same way through the compiled twin: its long-string cuts, its
shortcuts, no reading or scan the compact body does not need. Any other byte in those
places (\\f, \\v, NBSP, U+2028, a BOM, a control byte) is refused as serde_json refuses
it, worded alike by both twins (``tests/interop/test_whitespace_oracle.py`` holds rmcp to
the same cases).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from types import ModuleType
from typing import Any

import helpers
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diverge_frames import FrameBodyError
from diverge_frames import types as t

#: JSON's whitespace bytes, the only ones serde_json skips.
WHITESPACE = " \t\n\r"
#: Bytes that look like whitespace to someone, and that JSON does not allow between
#: tokens: form feed, vertical tab, NBSP, U+2028, a BOM, NUL, U+3000, a file separator.
NOT_WHITESPACE = [
    b"\x0c", b"\x0b", "\u00a0".encode(), "\u2028".encode(), "\ufeff".encode(), b"\x00",
    "\u3000".encode(), b"\x1c",
]  # fmt: skip

#: A compact JSON body's tokens: a string, a punctuation byte, or a run of anything
#: else (a number, a literal).
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^{}\[\]:,"]+', re.DOTALL)


def tokens(body: bytes) -> list[bytes]:
    """The tokens of the compact JSON ``body``, in order (they join back to it)."""
    found = _TOKEN.findall(body)
    assert b"".join(found) == body
    return found


def spaced(body: bytes, gaps: list[str]) -> bytes:
    """``body`` (compact JSON) with ``gaps[i]`` before its token ``i`` (the last gap after
    the last token)."""
    parts = tokens(body)
    assert len(gaps) == len(parts) + 1
    return b"".join(g.encode() + p for g, p in zip(gaps, [*parts, b""], strict=True))


def compact(value: Any, ascii_only: bool = False) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=ascii_only).encode()


_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
_long_text = st.integers(0, 3000).flatmap(
    lambda pad: st.text(max_size=200).map(lambda s: "p" * pad + s)
)
_leaf = st.one_of(st.none(), st.booleans(), st.integers(-(2**53), 2**53), st.text(max_size=8))
_free = st.recursive(
    _leaf,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
_item = st.one_of(
    st.fixed_dictionaries(
        {"uri": st.text(max_size=10), "text": _long_text},
        optional={
            "mimeType": st.text(max_size=10),
            "_meta": st.dictionaries(st.text(max_size=4), _free, max_size=2),
        },
    ),
    st.fixed_dictionaries(
        {"uri": st.text(max_size=10), "blob": st.integers(0, 2000).map(lambda n: "QUJD" * n)},
        optional={"mimeType": st.text(max_size=10)},
    ),
)
#: (channel, tag, value) of a frame the compact body of which every twin accepts.
FRAMES = st.one_of(
    st.tuples(st.just("read-resource"), st.just(0), st.fixed_dictionaries(
        {"contents": st.lists(_item, min_size=1, max_size=3)},
        optional={"_meta": st.dictionaries(st.text(max_size=4), _free, max_size=2)})),
    st.tuples(st.just("notifications"), st.just(0), st.fixed_dictionaries(
        {"method": st.just("notifications/message"), "params": st.fixed_dictionaries(
            {"level": st.sampled_from(_LEVELS), "data": _long_text | _free},
            optional={"logger": st.text(max_size=8)})})),
    st.tuples(st.just("notifications"), st.just(0), st.fixed_dictionaries(
        {"method": st.just("notifications/progress"), "params": st.fixed_dictionaries(
            {"progressToken": st.text(max_size=5) | st.integers(0, 99),
             "progress": st.floats(0, 1e6)}, optional={"total": st.floats(0, 1e6),
                                                      "message": st.text(max_size=20)})})),
    st.tuples(st.just("notifications"), st.just(0), st.fixed_dictionaries(
        {"method": st.sampled_from(["x/y", "notifications/other", "notifications/cancelled"]),
         "params": st.dictionaries(st.text(max_size=5), _free, max_size=4)})),
    st.tuples(st.just("notifications"), st.just(0), st.just(
        {"method": "notifications/resources/list_changed"})),
    st.tuples(st.sampled_from(["notifications", "read-resource"]), st.just(1),
              st.fixed_dictionaries({"code": st.integers(-32768, 32767),
                                     "message": st.text(max_size=30)}, optional={"data": _free})),
)  # fmt: skip


def _way(frames: ModuleType, channel: str, body: bytes, tag: int) -> Any:
    """What the compiled twin did with ``body``: the value of its long-string cut (None
    when it stepped aside) and the readings and scans it made after a fast path failed."""
    frames._counts()
    helpers.outcome(helpers.decoder(frames, channel), bytes((tag,)) + body)
    counts = frames._counts()
    cut = frames._long_strings(body, channel == "notifications") if tag == 0 else None
    return cut, counts


def _same_as_compact(channel: str, tag: int, body: bytes, with_gaps: bytes) -> None:
    for frames in helpers.both():
        decode = helpers.decoder(frames, channel)
        want = helpers.outcome(decode, bytes((tag,)) + body)
        assert not isinstance(want, Exception), (frames.__name__, want, body[:200])
        got = helpers.outcome(decode, bytes((tag,)) + with_gaps)
        assert helpers.same(got, want), (frames.__name__, got, with_gaps[:200])
    frames = helpers.compiled()
    assert _way(frames, channel, with_gaps, tag) == _way(frames, channel, body, tag)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frame=FRAMES, ascii_only=st.booleans(), data=st.data())
def test_whitespace_at_every_token_boundary(
    frame: tuple[str, int, Any], ascii_only: bool, data: st.DataObject
) -> None:
    """Whitespace drawn for each boundary between tokens, and before and after the
    body: both twins give the compact body's value, the compiled twin the same way."""
    channel, tag, value = frame
    body = compact(value, ascii_only)
    gaps = data.draw(
        st.lists(
            st.text(WHITESPACE, max_size=4),
            min_size=len(tokens(body)) + 1,
            max_size=len(tokens(body)) + 1,
        )
    )
    _same_as_compact(channel, tag, body, spaced(body, gaps))


#: How the usual writers space JSON.
WRITERS: dict[str, Callable[[Any], bytes]] = {
    "indent=2": lambda v: json.dumps(v, indent=2).encode(),
    "indent=tab, CRLF": lambda v: json.dumps(v, indent="\t").replace("\n", "\r\n").encode(),
    "default separators": lambda v: json.dumps(v).encode(),
    "spaces around colons": lambda v: json.dumps(v, separators=(" , ", " : ")).encode(),
}
#: Frames with long strings: each takes a long-string cut of the compiled twin.
LONG = {
    "text result": ("read-resource", {"contents": [
        {"uri": "file:///a.md", "mimeType": "text/markdown", "text": "é lorem: ipsum\n" * 700},
        {"uri": "file:///b.txt", "text": "x" * 5000, "_meta": {"k": [1, 2]}}]}),
    "blob result": ("read-resource", {"contents": [
        {"uri": "file:///a.bin", "mimeType": "application/octet-stream", "blob": "QUJD" * 3000}]}),
    "logging message": ("notifications", {"method": "notifications/message", "params": {
        "level": "info", "logger": "l", "data": "line: of a log\n" * 600}}),
}  # fmt: skip


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("frame", LONG)
def test_long_strings_written_spaced_take_the_cut(writer: str, frame: str) -> None:
    channel, value = LONG[frame]
    body = compact(value)
    _same_as_compact(channel, 0, body, WRITERS[writer](value))
    assert helpers.compiled()._long_strings(WRITERS[writer](value), channel == "notifications")


@pytest.mark.parametrize("writer", WRITERS)
def test_a_custom_notification_written_spaced_takes_the_shortcut(writer: str) -> None:
    """No typed attempt, no exact reading: the unknown method is seen with whitespace."""
    value = {"method": "x/y", "params": {"a": [1, {"b": None}], "c": "d"}}
    _same_as_compact("notifications", 0, compact(value), WRITERS[writer](value))
    frames = helpers.compiled()
    frames._counts()
    assert (
        type(frames.decode_notification(b"\x00" + WRITERS[writer](value))) is t.CustomNotification
    )
    assert frames._counts() in ((0, 0), None)


#: Small frames of each kind, compact, and where each one's tokens meet.
SMALL = [
    ("notifications", 0, compact({"method": "notifications/message",
                                  "params": {"level": "info", "data": "hello"}})),
    ("notifications", 0, compact({"method": "x/y", "params": {"a": [1, 2.5, None]}})),
    ("read-resource", 0, compact({"contents": [{"uri": "u", "text": "t" * 300}]})),
    ("read-resource", 1, compact({"code": -32002, "message": "not found", "data": {"uri": "u"}})),
]  # fmt: skip


@pytest.mark.parametrize("odd", NOT_WHITESPACE, ids=repr)
@pytest.mark.parametrize("frame", range(len(SMALL)))
def test_other_bytes_between_tokens_are_refused(odd: bytes, frame: int) -> None:
    """At each boundary (before the body, between two tokens, after it) the byte is
    refused, worded alike by both twins; JSON's own whitespace there is taken."""
    channel, tag, body = SMALL[frame]
    count = len(tokens(body)) + 1
    py, c = helpers.both()
    for at in range(count):
        gaps = [""] * count
        gaps[at] = " " + odd.decode("utf-8") + "\t"
        payload = bytes((tag,)) + spaced(body, gaps)
        errors = [helpers.outcome(helpers.decoder(f, channel), payload) for f in (py, c)]
        assert all(isinstance(e, FrameBodyError) for e in errors), (at, payload, errors)
        assert str(errors[0]) == str(errors[1]), (at, payload)
        gaps[at] = " \t\r\n"
        _same_as_compact(channel, tag, body, spaced(body, gaps))
