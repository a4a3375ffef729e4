"""The capture format (``diverge_frames.capture``): records in, records out, and every
malformed line reported with its line number."""

from __future__ import annotations

import base64
import io
import pickle
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diverge_frames import capture
from diverge_frames.capture import CaptureError, Record, read_capture

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = resources.files("diverge_frames").joinpath("data").joinpath("sample.capture.jsonl")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_the_three_record_forms_parse() -> None:
    lines = [
        b'{"channel":"1","kind":"notifications","payload":"' + _b64(b"\x00{}").encode() + b'"}\n',
        b'{"channel":"1","kind":"notifications","finish":true}\n',
        b'{"channel":"r","kind":"read-resource","abort":true}\n',
    ]
    assert list(read_capture(lines)) == [
        (1, Record(channel="1", kind="notifications", payload=b"\x00{}")),
        (2, Record(channel="1", kind="notifications", finish=True)),
        (3, Record(channel="r", kind="read-resource", abort=True)),
    ]


def test_empty_payload_is_carried() -> None:
    line = capture.encode_record(capture.response("7", "read-resource", b""))
    assert line == b'{"channel":"7","kind":"read-resource","payload":""}\n'
    assert list(read_capture([line])) == [(1, Record("7", "read-resource", payload=b""))]


def test_builders_and_writer() -> None:
    sink = io.BytesIO()
    capture.write_record(sink, capture.response("a", "notifications", memoryview(b"\x01{}")))
    capture.write_record(sink, capture.finish("a", "notifications"))
    capture.write_record(sink, capture.abort("b", "read-resource"))
    assert sink.getvalue().splitlines() == [
        b'{"channel":"a","kind":"notifications","payload":"' + _b64(b"\x01{}").encode() + b'"}',
        b'{"channel":"a","kind":"notifications","finish":true}',
        b'{"channel":"b","kind":"read-resource","abort":true}',
    ]


@given(
    channel=st.text(min_size=1),
    kind=st.sampled_from(capture.KINDS),
    payload=st.binary(max_size=300),
)
def test_any_payload_round_trips(channel: str, kind: str, payload: bytes) -> None:
    records = [
        capture.response(channel, kind, payload),  # type: ignore[arg-type]
        capture.finish(channel, kind),  # type: ignore[arg-type]
        capture.abort(channel, kind),  # type: ignore[arg-type]
    ]
    lines = [capture.encode_record(r) for r in records]
    assert all(line.count(b"\n") == 1 and line.endswith(b"\n") for line in lines)
    assert [r for _, r in read_capture(lines)] == records


#: Record members, valid or not: what a caller might put in a Record.
_channels = st.text() | st.sampled_from(["", "1", "\u2028", "\ud800", "a\x00b"])
_kinds = st.sampled_from(capture.KINDS) | st.text(max_size=20)
_payloads = st.none() | st.binary(max_size=200) | st.integers() | st.sampled_from(["", "AAAA", "x"])
_flags = st.booleans() | st.sampled_from([0, 1, None])


@settings(max_examples=1000)
@given(
    channel=_channels,
    kind=_kinds,
    payload=_payloads,
    finish=_flags,
    abort=_flags,
)
def test_what_the_writer_accepts_the_reader_accepts(
    channel: Any, kind: Any, payload: Any, finish: Any, abort: Any
) -> None:
    """Any record: the writer refuses it (``ValueError``), or writes one line that the
    reader reads back as the same record."""
    record = Record(channel=channel, kind=kind, payload=payload, finish=finish, abort=abort)
    sink = io.BytesIO()
    try:
        capture.write_record(sink, record)
    except ValueError:
        assert sink.getvalue() == b""
        return
    [(number, again)] = read_capture(sink.getvalue().splitlines(keepends=True))
    assert number == 1 and again == record
    assert sink.getvalue().count(b"\n") == 1


@given(channel=_channels, kind=_kinds, payload=st.binary(max_size=200))
def test_what_the_builders_accept_the_reader_accepts(
    channel: Any, kind: Any, payload: bytes
) -> None:
    """``response`` / ``finish`` / ``abort``: a ``ValueError``, or a record that the
    writer writes and the reader reads back unchanged."""
    for build, args in (
        (capture.response, (channel, kind, payload)),
        (capture.finish, (channel, kind)),
        (capture.abort, (channel, kind)),
    ):
        try:
            record = build(*args)
        except ValueError:
            continue
        assert [r for _, r in read_capture([capture.encode_record(record)])] == [record]


def test_the_writer_refuses_what_the_reader_rejects() -> None:
    bad = [
        Record(channel="", kind="notifications", finish=True),
        Record(channel="1", kind="tools", finish=True),  # type: ignore[arg-type]
        Record(channel="1", kind="notifications"),
        Record(channel="1", kind="notifications", payload=b"", finish=True),
        Record(channel="1", kind="notifications", finish=True, abort=True),
        Record(channel="1", kind="notifications", finish=1),  # type: ignore[arg-type]
        Record(channel="\ud800", kind="notifications", finish=True),
    ]
    for record in bad:
        with pytest.raises(ValueError, match=r"not a valid capture record|surrogates not allowed"):
            capture.encode_record(record)
    with pytest.raises(ValueError, match="empty channel id"):
        capture.response("", "notifications", b"\x00{}")
    with pytest.raises(ValueError, match="Invalid enum value 'tools'"):
        capture.finish("1", "tools")  # type: ignore[arg-type]


def test_str_lines_blank_lines_and_unknown_members() -> None:
    lines = [
        "\n",
        '{"channel":"1","kind":"notifications","finish":true,"at":"12:00"}\r\n',
        "   \n",
        '{"channel":"2","kind":"read-resource","abort":true}',
    ]
    assert [n for n, _ in read_capture(lines)] == [2, 4]


GOOD = b'{"channel":"1","kind":"notifications","finish":true}\n'

BAD = {
    "not JSON": (b'{"channel":"1",', "not a capture record: Input data was truncated"),
    "not UTF-8": (b"\xff\n", "not a capture record: JSON is malformed"),
    "not an object": (b"[1]\n", "Expected `object`, got `array`"),
    "bad base64": (
        b'{"channel":"1","kind":"notifications","payload":"AA-_"}\n',
        "Invalid base64 encoded string - at `$.payload`",
    ),
    "unpadded base64": (
        b'{"channel":"1","kind":"notifications","payload":"AAE"}\n',
        "Invalid base64 encoded string - at `$.payload`",
    ),
    "unknown kind": (
        b'{"channel":"1","kind":"tools","finish":true}\n',
        "Invalid enum value 'tools'",
    ),
    "channel not a string": (
        b'{"channel":1,"kind":"notifications","finish":true}\n',
        "Expected `str`, got `int` - at `$.channel`",
    ),
    "no channel": (b'{"kind":"notifications","finish":true}\n', "missing required field `channel`"),
    "empty channel": (b'{"channel":"","kind":"notifications","finish":true}\n', "empty channel id"),
    "no event": (b'{"channel":"1","kind":"notifications"}\n', "this one has 0"),
    "finish false": (b'{"channel":"1","kind":"notifications","finish":false}\n', "this one has 0"),
    "two events": (
        b'{"channel":"1","kind":"notifications","payload":"AA==","finish":true}\n',
        "this one has 2",
    ),
    "finish and abort": (
        b'{"channel":"1","kind":"notifications","finish":true,"abort":true}\n',
        "this one has 2",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_line_names_its_line(case: str) -> None:
    bad, reason = BAD[case]
    lines = [GOOD, b"\n", bad, GOOD]
    seen: list[int] = []

    def read_all() -> None:
        for number, _ in read_capture(lines):
            seen.append(number)

    with pytest.raises(CaptureError) as info:
        read_all()
    assert seen == [1], "the records before the bad line are yielded first"
    assert info.value.line == 3
    assert reason in info.value.reason
    assert str(info.value).startswith("line 3: ")
    assert isinstance(info.value, ValueError)


def test_capture_error_pickles() -> None:
    error = CaptureError(4, "why")
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), again.line, again.reason, str(again)) == (
        CaptureError,
        4,
        "why",
        "line 4: why",
    )


def test_deep_nesting_is_a_capture_error() -> None:
    with pytest.raises(CaptureError) as info:
        list(read_capture([b"[" * 100_000]))
    assert info.value.line == 1


def test_shipped_sample_is_a_valid_capture() -> None:
    records = [r for _, r in read_capture(SAMPLE.read_bytes().splitlines())]
    payloads = [r.payload for r in records if r.payload is not None]
    assert payloads and max(len(p) for p in payloads) <= 64 * 1024
    assert {p[0] for p in payloads} == {0, 1}, "both tags: responses and errors"
    assert {r.kind for r in records} == set(capture.KINDS)
    assert any(r.finish for r in records) and any(r.abort for r in records)


def test_shipped_sample_matches_its_generator() -> None:
    script = ROOT / "scripts" / "make_sample_capture.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
