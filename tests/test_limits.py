"""Limits: huge, deep, long and broken payloads, both implementations.

Every case gives a value or a clear :class:`~diverge_frames.FrameError`, in time linear
in the input and with memory bounded by a constant multiple of it:

* time: the per-byte cost (CPU time of the thread) at a size that takes ~5 ms and at
  8 times that size are compared (best of a few runs each, CPython's cyclic GC
  paused); a ratio under 3 passes (quadratic work would give 8). No absolute time is
  asserted. The GC is paused because its cost is not the decoder's: with it on, a
  payload of millions of small containers costs up to ~10x more per byte at 8 MB than
  at 200 kB before it levels off (as ``json.loads`` does; see
  ``docs/hostile-input.md``). Nor is the memory hierarchy's: objects built past the
  caches cost more each, so a body that becomes millions of small objects costs up to
  ~3x more per byte at 8 MB than at 1 MB before it levels off, in a plain
  ``msgspec.json.decode`` of the same body too. The bound is therefore 3 times the
  plain decode's own growth between the two sizes, that growth taken as at least 1 and
  at most 2: never more than 6, so quadratic work still fails.
* memory: ``tracemalloc``'s peak during the decode, over the payload's length. Strings
  stay within 6x (a 4-byte UTF-8 character is 4 bytes of ``str``, and CPython's UTF-8
  decoder over-allocates on the way), containers within 48x (a Python ``{}`` in a list
  is 72 bytes for 3 bytes of JSON; the pure-Python twin's pre-check builds a tree of its
  own first, up to ~44x for a list of ``[]``). These are facts of the Python object model; a
  caller that must cap memory caps the payload length. Measured factors are in
  ``docs/hostile-input.md``.

Also: every truncation of every real frame in ``tests/data`` is a FrameError (sampled
for frames over 4 kB: the 10 kB and 2 MB results), the nesting depth around serde_json's limit
(rmcp accepts 127 nested levels, rejects 128), and that too deep is known at that
limit rather than after reading the whole input.
"""

from __future__ import annotations

import gc
import os
import random
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pytest
from helpers import outcome

from diverge_frames import EmptyFrameError, FrameBodyError, FrameError
from diverge_frames.types import ErrorData

DATA = Path(__file__).parent / "data"
MB = 1_000_000

# --------------------------------------------------------------------- helpers


def decoder(frames: ModuleType, channel: str) -> Callable[[Any], Any]:
    return frames.decode_notification if channel == "notifications" else frames.decode_read_resource


def per_byte_seconds(decode: Callable[[Any], Any], payload: bytes, runs: int = 3) -> float:
    """Best-of-``runs`` CPU time of this thread for one decode, per payload byte, the
    GC paused. CPU time, not wall time: other processes on the machine do not count."""
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(runs):
            start = time.thread_time()
            result = outcome(decode, payload)
            best = min(best, time.thread_time() - start)
            del result
    finally:
        if enabled:
            gc.enable()
    return best / len(payload)


def peak_per_byte(decode: Callable[[Any], Any], payload: bytes) -> float:
    """tracemalloc's peak during one decode (result included), per payload byte."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        result = outcome(decode, payload)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del result
    return peak / len(payload)


def _error(code: bytes, body: bytes) -> bytes:
    return b'\x01{"code":' + code + b',"message":' + body


def _repeat(unit: bytes, size: int) -> bytes:
    return unit * max(1, size // len(unit))


#: name -> (channel, payload of about n bytes, "value"/"error", memory bound per byte)
SHAPES: dict[str, tuple[str, Callable[[int], bytes], str, float]] = {
    "string": ("notifications", lambda n: _error(b"1", b'"' + b"a" * n + b'"}'), "value", 6),
    "string, unterminated": ("notifications", lambda n: _error(b"1", b'"' + b"a" * n), "error", 6),
    "string of escapes": (
        "notifications",
        lambda n: _error(b"1", b'"' + _repeat(b"\\n\\u00e9", n) + b'"}'),
        "value",
        6,
    ),
    "string of 4-byte characters": (
        "notifications",
        lambda n: _error(b"1", b'"' + _repeat("\U0001f600".encode(), n) + b'"}'),
        "value",
        6,
    ),
    "string, invalid UTF-8 at the end": (
        "notifications",
        lambda n: _error(b"1", b'"' + b"a" * n + b'\xff"}'),
        "error",
        6,
    ),
    "string, lone surrogate escape at the end": (
        "notifications",
        lambda n: _error(b"1", b'"' + b"a" * n + b'\\ud800"}'),
        "error",
        6,
    ),
    "string, UTF-8-encoded surrogate at the end": (
        "notifications",
        lambda n: _error(b"1", b'"' + b"a" * n + b'\xed\xa0\x80"}'),
        "error",
        6,
    ),
    "array of numbers": (
        "notifications",
        lambda n: _error(b"1", b'"m","data":[' + _repeat(b"1000,", n) + b"0]}"),
        "value",
        48,
    ),
    "array of numbers, truncated": (
        "notifications",
        lambda n: _error(b"1", b'"m","data":[' + _repeat(b"1,", n)),
        "error",
        48,
    ),
    "array of empty objects": (
        "notifications",
        lambda n: _error(b"1", b'"m","data":[' + _repeat(b"{},", n) + b"0]}"),
        "value",
        48,
    ),
    "array of empty arrays": (
        "notifications",
        lambda n: _error(b"1", b'"m","data":[' + _repeat(b"[],", n) + b"0]}"),
        "value",
        48,
    ),
    "array of empty arrays, truncated": (
        "notifications",
        lambda n: _error(b"1", b'"m","data":[' + _repeat(b"[],", n)),
        "error",
        48,
    ),
    "custom notification params": (
        "notifications",
        lambda n: b'\x00{"method":"x","params":{"a":[' + _repeat(b'{"k":1.5},', n) + b"0]}}",
        "value",
        48,
    ),
    "progress _meta": (
        "notifications",
        lambda n: (
            b'\x00{"method":"notifications/progress","params":{"progressToken":1,"progress":1,'
            b'"_meta":{"a":[' + _repeat(b'"s",', n) + b"0]}}}"
        ),
        "value",
        48,
    ),
    "contents": (
        "read_resource",
        lambda n: (
            b'\x00{"contents":[' + _repeat(b'{"uri":"","text":""},', n) + b'{"uri":"","blob":""}]}'
        ),
        "value",
        48,
    ),
    "contents of the wrong shape": (
        "read_resource",
        lambda n: b'\x00{"contents":[' + _repeat(b"1,", n) + b"1]}",
        "error",
        48,
    ),
    "nesting in params": (
        "notifications",
        lambda n: b'\x00{"method":"x","params":{"a":' + b"[" * n,
        "error",
        48,
    ),
    "nesting of objects in data": (
        "notifications",
        lambda n: _error(b"1", b'"m","data":' + _repeat(b'{"a":', n)),
        "error",
        48,
    ),
    "nesting in _meta": (
        "read_resource",
        lambda n: b'\x00{"contents":[],"_meta":{"a":' + b"[" * n + b"]" * n + b"}}",
        "error",
        48,
    ),
    "integer digits": (
        "notifications",
        lambda n: _error(b"1", b'"m","data":' + b"7" * n + b"}"),
        "error",
        48,
    ),
    "fraction digits": (
        "notifications",
        lambda n: _error(b"1", b'"m","data":0.' + b"7" * n + b"}"),
        "value",
        48,
    ),
    "exponent digits": (
        "notifications",
        lambda n: _error(b"1", b'"m","data":1e-' + b"7" * n + b"}"),
        "value",
        48,
    ),
    "code digits": ("notifications", lambda n: _error(b"1" * n, b'"m"}'), "error", 48),
}


# ------------------------------------------------------------------ size cases


@pytest.mark.parametrize("shape", SHAPES)
def test_outcome_and_memory(frames: ModuleType, shape: str) -> None:
    """About 64 kB of each shape: the expected outcome, memory within the bound."""
    channel, make, expected, bound = SHAPES[shape]
    decode = decoder(frames, channel)
    payload = make(64 * 1024)
    result = outcome(decode, payload)
    if expected == "error":
        assert isinstance(result, FrameBodyError), result
    else:
        assert not isinstance(result, FrameError), result
    assert peak_per_byte(decode, payload) < bound


def calibrated_size(
    decode: Callable[[Any], Any], make: Callable[[int], bytes], seconds: float
) -> int:
    """The smallest n (4 kB times a power of 4, at most 1 MiB) for which one decode of
    ``make(n)`` takes ``seconds`` or more."""
    n = 4096
    while n < 2**20:
        payload = make(n)
        if per_byte_seconds(decode, payload, runs=1) * len(payload) >= seconds:
            break
        n *= 4
    return n


_PLAIN_DECODER = msgspec.json.Decoder()


def plain_decode(payload: bytes) -> object:
    """The body parsed by msgspec alone, untyped: the same objects built, none of our
    work; an invalid or too deep body is the error msgspec raises."""
    try:
        return _PLAIN_DECODER.decode(memoryview(payload)[1:])
    except (msgspec.DecodeError, RecursionError) as error:
        return error


def linear_bound(plain_growth: float) -> float:
    """The largest per-byte growth from n to 8n that passes as linear: 3 times the plain
    decode's own growth on the same bodies, that growth clamped to [1, 2]."""
    return 3 * min(max(plain_growth, 1.0), 2.0)


def test_linear_bound() -> None:
    """Quadratic work (8x per byte at 8x the size) fails whatever the plain decode does;
    the memory hierarchy's step (up to ~3.2x measured) passes when the plain decode
    shows it too."""
    assert linear_bound(0.1) == linear_bound(1.0) == 3
    assert linear_bound(3.2) == linear_bound(8.0) == 6
    assert linear_bound(8.0) < 8
    assert linear_bound(3.2) > 3.2
    assert linear_bound(1.0) < 3.2


@pytest.mark.skipif(
    not os.environ.get("DIVERGE_FRAMES_TIMING"),
    reason="a timing ratio: .ci/run runs it on its own (DIVERGE_FRAMES_TIMING=1)",
)
@pytest.mark.parametrize("shape", SHAPES)
def test_time_is_linear(frames: ModuleType, shape: str) -> None:
    """Per-byte cost at 8 times the size that takes ~5 ms over the cost at that size is
    within ``linear_bound`` of the plain decode's growth (3x to 6x; quadratic work
    would give 8x)."""
    channel, make, _, _ = SHAPES[shape]
    decode = decoder(frames, channel)
    n = calibrated_size(decode, make, 0.005)
    small_payload, large_payload = make(n), make(8 * n)
    small = per_byte_seconds(decode, small_payload)
    large = per_byte_seconds(decode, large_payload)
    plain_small = per_byte_seconds(plain_decode, small_payload)
    plain_large = per_byte_seconds(plain_decode, large_payload)
    bound = linear_bound(plain_large / plain_small)
    assert large < bound * small, (n, large / small, plain_large / plain_small)


@pytest.mark.heavy
def test_hundred_megabyte_string(frames: ModuleType) -> None:
    """A 100 MB message decodes, with memory a small multiple of it (the string itself;
    the pure-Python pre-check copies the body once more); cut short, it is a
    FrameBodyError. (Time per byte: ``test_time_is_linear``.)"""
    payload = _error(b"1", b'"' + b"a" * (100 * MB) + b'"}')
    tracemalloc.start()
    try:
        value = frames.decode_notification(payload)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(value, ErrorData) and len(value.message) == 100 * MB
    del value
    assert peak / len(payload) < 2.5
    with pytest.raises(FrameBodyError):
        frames.decode_notification(memoryview(payload)[:-2])


@pytest.mark.heavy
def test_million_element_array(frames: ModuleType) -> None:
    """10^6 elements decode; 10^5 elements cut short are a FrameBodyError."""
    payload = _error(b"1", b'"m","data":[' + b"1," * (10**6 - 1) + b"1]}")
    value = frames.decode_notification(payload)
    assert isinstance(value, ErrorData) and len(value.data) == 10**6
    with pytest.raises(FrameBodyError):
        frames.decode_notification(_error(b"1", b'"m","data":[' + b"1," * 10**5))


@pytest.mark.parametrize(
    ("channel", "payload"),
    [
        ("notifications", b'\x00{"method":"x","params":{"a":' + b"[" * 10**6),
        ("notifications", _error(b"1", b'"m","data":' + b'{"a":' * 10**6)),
    ],
    ids=["custom params", "ErrorData.data"],
)
def test_million_levels_of_nesting(frames: ModuleType, channel: str, payload: bytes) -> None:
    with pytest.raises(FrameBodyError):
        decoder(frames, channel)(payload)


@pytest.mark.parametrize(
    ("channel", "make"),
    [
        ("notifications", lambda n: b'\x00{"method":"x","params":{"a":' + b"[" * n),
        ("notifications", lambda n: _error(b"1", b'"m","data":' + b"[" * n + b"]" * n + b"}")),
        ("read_resource", lambda n: b'\x00{"contents":[],"_meta":' + b'{"a":' * n),
    ],
    ids=["custom params, unclosed", "ErrorData.data, closed", "result _meta, unclosed"],
)
def test_nesting_error_stops_at_the_limit(
    frames: ModuleType, channel: str, make: Callable[[int], bytes]
) -> None:
    """Too deep is known at the 128th level, as serde_json (and msgspec at Python's
    recursion limit) stop there: a decode of 2x10^5 levels costs no more than five
    times one of 10^4 (reading it all would cost about 20 times)."""
    decode = decoder(frames, channel)
    small = per_byte_seconds(decode, make(10**4)) * len(make(10**4))
    large = per_byte_seconds(decode, make(2 * 10**5), runs=2) * len(make(2 * 10**5))
    assert large < 5 * small, (large, small)


@pytest.mark.parametrize("digits", [10**5])
def test_numbers_with_many_digits(frames: ModuleType, digits: int) -> None:
    """10^5 digits: an integer that long is out of range wherever it stands (i32, i64,
    u64 or a free-form value alike); a fraction or exponent that long is read as the
    nearest float (``0.0`` for ``1e-777...``), or is out of range."""
    d = b"7" * digits
    for payload in (
        _error(d, b'"m"}'),
        _error(b"1", b'"m","data":' + d + b"}"),
        _error(b"1", b'"m","data":-' + d + b"}"),
        _error(b"1", b'"m","data":1e' + d + b"}"),
        b'\x00{"method":"notifications/progress","params":{"progressToken":'
        + d
        + b',"progress":1}}',
        b'\x00{"method":"notifications/progress","params":{"progressToken":1,"progress":'
        + d
        + b"}}",
        b'\x00{"method":"x","params":{"n":' + d + b"}}",
    ):
        with pytest.raises(FrameBodyError):
            frames.decode_notification(payload)
    assert frames.decode_notification(
        _error(b"1", b'"m","data":0.' + d + b"}")
    ).data == pytest.approx(0.7777777777777778)
    assert frames.decode_notification(_error(b"1", b'"m","data":1e-' + d + b"}")).data == 0.0
    with pytest.raises(FrameBodyError):
        frames.decode_read_resource(b'\x00{"contents":[],"ttlMs":' + d + b"}")


@pytest.mark.parametrize(
    "text",
    [
        b"\xff",
        b"\xc0\xaf",
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
        b"a\xe2\x82",
        b"\\ud800",
        b"\\udc00",
        b"\\ud800\\u0041",
        b"\\ud800x",
    ],
)
def test_invalid_unicode(frames: ModuleType, text: bytes) -> None:
    """Invalid UTF-8 (bad byte, overlong, encoded surrogate, beyond U+10FFFF,
    truncated sequence) and lone surrogate escapes, in every string position."""
    for payload in (
        _error(b"1", b'"' + text + b'"}'),
        _error(b"1", b'"m","data":{"' + text + b'":1}}'),
        b'\x00{"method":"' + text + b'"}',
        b'\x00{"method":"x","params":{"k":"' + text + b'"}}',
        b'\x00{"contents":[{"uri":"' + text + b'","text":""}]}',
    ):
        for decode in (frames.decode_notification, frames.decode_read_resource):
            with pytest.raises(FrameBodyError):
                decode(payload)


# ------------------------------------------------------------------ truncations


def _corpus_frames() -> list[tuple[str, str, bytes]]:
    """(name, channel, payload) of every real frame in tests/data (errors on both
    channels)."""
    out = []
    for path in sorted((DATA / "corpus").glob("*/*.jsonl")):
        for number, line in enumerate(path.read_bytes().splitlines(), 1):
            if not line.strip():
                continue
            name = f"{path.parent.name}/{path.name}:{number}"
            if path.name == "notifications.jsonl":
                out.append((name, "notifications", b"\x00" + line))
            elif path.name == "read_resource_results.jsonl":
                out.append((name, "read_resource", b"\x00" + line))
            else:
                out += [
                    (name, "notifications", b"\x01" + line),
                    (name, "read_resource", b"\x01" + line),
                ]
    for path in sorted((DATA / "edge-cases").glob("*.json")):
        number = int(path.name[:2])
        body = path.read_bytes()
        if 13 <= number <= 16:
            out += [
                (path.name, "notifications", b"\x01" + body),
                (path.name, "read_resource", b"\x01" + body),
            ]
        else:
            out.append(
                (
                    path.name,
                    "read_resource" if number in (10, 12) else "notifications",
                    b"\x00" + body,
                )
            )
    return out


CORPUS = _corpus_frames()
#: Frames above this size are cut at sampled points only.
SAMPLE_ABOVE = 4096


def _cut_points(payload: bytes) -> list[int]:
    if len(payload) <= SAMPLE_ABOVE:
        return list(range(len(payload)))
    rng = random.Random(len(payload))
    return sorted(
        {*range(50), *range(len(payload) - 10, len(payload)), *rng.sample(range(len(payload)), 10)}
    )


def test_corpus_is_there() -> None:
    assert len(CORPUS) > 100 and max(len(p) for _, _, p in CORPUS) > 2 * MB


#: A frame above this size is cut in the heavy run only (its 70 cuts take seconds).
HEAVY_ABOVE = MB


@pytest.mark.parametrize(
    ("name", "channel", "payload"),
    [
        pytest.param(n, c, p, marks=[pytest.mark.heavy] if len(p) > HEAVY_ABOVE else [])
        for n, c, p in CORPUS
    ],
    ids=[f"{n}-{c}" for n, c, _ in CORPUS],
)
def test_every_truncation(frames: ModuleType, name: str, channel: str, payload: bytes) -> None:
    """Every proper prefix of a real frame is a FrameError (EmptyFrameError when
    empty, else FrameBodyError), unless all that was cut is whitespace."""
    decode = decoder(frames, channel)
    whole = outcome(decode, payload)
    for cut in _cut_points(payload):
        result = outcome(decode, payload[:cut])
        if cut == 0:
            assert isinstance(result, EmptyFrameError)
        elif not payload[cut:].strip() and not isinstance(whole, FrameError):
            assert result == whole
        else:
            assert isinstance(result, FrameBodyError), (cut, result)


# ------------------------------------------------------------------ depth


def _nested(levels: int) -> dict[str, tuple[str, bytes]]:
    """Bodies with exactly ``levels`` nested JSON levels in all, the outer object
    counted (serde_json's count), in each free-form position."""
    return {
        "ErrorData.data": (
            "notifications",
            _error(b"1", b'"m","data":' + b"[" * (levels - 1) + b"]" * (levels - 1) + b"}"),
        ),
        "custom params": (
            "notifications",
            b'\x00{"method":"x","params":{"a":' + b"[" * (levels - 2) + b"]" * (levels - 2) + b"}}",
        ),
        "logging data": (
            "notifications",
            b'\x00{"method":"notifications/message","params":{"level":"info","data":'
            + b"[" * (levels - 2)
            + b"]" * (levels - 2)
            + b"}}",
        ),
        "result _meta": (
            "read_resource",
            b'\x00{"contents":[],"_meta":{"a":' + b"[" * (levels - 2) + b"]" * (levels - 2) + b"}}",
        ),
    }


@pytest.mark.parametrize("levels", [1 + 2, 64, 127])
def test_depth_up_to_127_decodes(frames: ModuleType, levels: int) -> None:
    """rmcp (serde_json) reads 127 nested levels; so do we."""
    for where, (channel, payload) in _nested(levels).items():
        result = outcome(decoder(frames, channel), payload)
        assert not isinstance(result, FrameError), (where, result)


@pytest.mark.parametrize("levels", [128, 129, 500])
def test_depth_from_128(frames: ModuleType, levels: int) -> None:
    """rmcp rejects 128 nested levels and more ("recursion limit exceeded"); so do we.
    (Before the limit matched rmcp's it was CPython's recursion limit: about 990 levels
    from a shallow stack, fewer from a deep one.)"""
    for where, (channel, payload) in _nested(levels).items():
        result = outcome(decoder(frames, channel), payload)
        assert isinstance(result, FrameBodyError), (where, result)


def test_implementations_agree_near_the_recursion_limit() -> None:
    """Found by fuzzing: with the depth limit set by CPython's recursion limit, the
    pure-Python twin (two frames deeper when msgspec runs) gives up a level or two
    before the compiled one, so at ~990 levels one returns a value where the other
    raises. Both must give the same outcome at every depth; this passes once the
    depth limit is a fixed number (rmcp's 127)."""
    from diverge_frames import _frames_py

    try:
        from diverge_frames import _frames_c
    except ImportError:  # pragma: no cover - pure-Python install
        pytest.skip("compiled extension not built")
    differ = []
    for levels in range(700, 1001):
        payload = _error(b"1", b'"m","data":' + b"[" * levels + b"]" * levels + b"}")
        a = outcome(_frames_py.decode_notification, payload)
        b = outcome(_frames_c.decode_notification, payload)
        if type(a) is not type(b) or (isinstance(a, FrameError) and str(a) != str(b)):
            differ.append((levels, str(a)[:60], str(b)[:60]))
    assert not differ, differ[:3]


@pytest.mark.parametrize(
    "body",
    [b"1" + b"[" * 300, b"1.5 " + b"{" * 300, b"null" + b"[" * 300, b'"s"' + b"[{" * 200],
    ids=["int", "float", "null", "string"],
)
def test_scalar_then_brackets(frames: ModuleType, body: bytes) -> None:
    """Found by fuzzing (fuzz_notifications, pure-Python twin, 2026-11-29 20:37): a
    JSON scalar followed by 128 or more brackets made the pre-check that picks the
    rmcp-exact path raise TypeError instead of a FrameBodyError."""
    for tag in (b"\x00", b"\x01"):
        for decode in (frames.decode_notification, frames.decode_read_resource):
            with pytest.raises(FrameBodyError):
                decode(tag + body)
