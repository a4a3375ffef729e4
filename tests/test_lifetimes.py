"""Lifetimes and leaks, both implementations.

* A value decoded from a ``bytearray`` (or a memoryview of one) shares no memory with
  it: overwriting or resizing the buffer afterwards changes nothing in the value.
* A decode, whether it returns or raises, leaves no export of the buffer behind (the
  ``bytearray`` can be resized at once), even while the error is kept.
* Decoding and encoding every frame kind many times leaks neither objects
  (``sys.getallocatedblocks``, which counts every live Python allocator block, in a
  release build too), nor references to the payload (``sys.getrefcount``), nor memory
  (the process's resident size): measured between a warm-up and the end, with a wide
  margin. ``DIVERGE_FRAMES_SOAK=1`` runs 10^6 decodes and encodes of each kind
  instead of the default 4 000 (10^5 decodes in all).
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers import outcome

from diverge_frames import FrameError

DATA = Path(__file__).parent / "data"
SOAK = bool(os.environ.get("DIVERGE_FRAMES_SOAK"))
#: Decodes of each kind: 4 000 (10^5 decodes in all) by default, 10^6 in a soak run.
ROUNDS = 10**6 if SOAK else 4_000

NOTIFICATIONS = {
    "cancelled": b'\x00{"method":"notifications/cancelled","params":{"requestId":"r-1","reason":"user"}}',
    "progress": b'\x00{"method":"notifications/progress","params":{"_meta":{"k":[1]},"progressToken":7,"progress":2,"total":10.5,"message":"m"}}',
    "message": b'\x00{"method":"notifications/message","params":{"level":"info","logger":"l","data":{"a":[1,2.5,null,"x\\u2028"]}}}',
    "resources/updated": b'\x00{"method":"notifications/resources/updated","params":{"uri":"file:///a"}}',
    "resources/list_changed": b'\x00{"method":"notifications/resources/list_changed","params":{"_meta":{"x":1}}}',
    "tools/list_changed": b'\x00{"method":"notifications/tools/list_changed"}',
    "prompts/list_changed": b'\x00{"method":"notifications/prompts/list_changed","params":{}}',
    "subscriptions/acknowledged": b'\x00{"method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["a","b"]}}}',
    "tasks": b'\x00{"method":"notifications/tasks","params":{"taskId":"t","status":"failed","createdAt":"a","lastUpdatedAt":"b","ttlMs":5,"error":{"code":1}}}',
    "tasks/status": b'\x00{"method":"notifications/tasks/status","params":{"taskId":"t","status":"working","createdAt":"a","lastUpdatedAt":"b","ttl":null,"pollInterval":10}}',
    "elicitation/complete": b'\x00{"method":"notifications/elicitation/complete","params":{"elicitationId":"e"}}',
    "custom": b'\x00{"method":"x/y","params":{"_meta":{"z":null},"b":[true,{"c":-0.0}]}}',
    "known method, params not fitting": b'\x00{"method":"notifications/progress","params":{"progress":"no"}}',
    "error": b'\x01{"code":-32602,"message":"bad\\nthing","data":{"x":[1,"y"]}}',
    "EmptyFrameError": b"",
    "UnknownTagError": b"\x09{}",
    "FrameBodyError, syntax": b'\x00{"method":"x",',
    "FrameBodyError, custom _meta": b'\x00{"method":"x","params":{"_meta":1}}',
    "FrameBodyError, error shape": b'\x01{"code":"1","message":"m"}',
    "FrameBodyError, nesting": b'\x00{"method":"x","params":{"a":' + b"[" * 5000,
}
READ_RESOURCE = {
    "text": b'\x00{"contents":[{"uri":"a","mimeType":"text/plain","text":"hello","_meta":{"k":1}}]}',
    "blob": b'\x00{"resultType":"complete","ttlMs":-4,"cacheScope":"private","contents":[{"uri":"b","blob":"AAE="}]}',
    "error": b'\x01{"code":-32002,"message":"not found"}',
    "FrameBodyError, no text or blob": b'\x00{"contents":[{"uri":"a"}]}',
    "FrameBodyError, syntax": b'\x00{"contents":[',
}
KINDS = [("notifications", k, p) for k, p in NOTIFICATIONS.items()] + [
    ("read_resource", k, p) for k, p in READ_RESOURCE.items()
]


def codec(frames: ModuleType, channel: str) -> tuple[Callable[[Any], Any], Callable[[Any], bytes]]:
    if channel == "notifications":
        return frames.decode_notification, frames.encode_notification
    return frames.decode_read_resource, frames.encode_read_resource


def _corpus() -> list[tuple[str, bytes]]:
    out = [(c, p) for c, _, p in KINDS]
    for path in sorted((DATA / "corpus").glob("*/*.jsonl")):
        channel = "read_resource" if path.name == "read_resource_results.jsonl" else "notifications"
        tag = b"\x01" if path.name == "errors.jsonl" else b"\x00"
        out += [(channel, tag + line) for line in path.read_bytes().splitlines() if line.strip()]
    return out


CORPUS = _corpus()


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_kinds_cover_every_outcome(frames: ModuleType) -> None:
    """The kinds below decode to every value type and raise every error kind."""
    assert {type(outcome(codec(frames, c)[0], p)).__name__ for c, _, p in KINDS} >= {
        "ProgressNotification",
        "CustomNotification",
        "ErrorData",
        "ReadResourceResult",
        "EmptyFrameError",
        "UnknownTagError",
        "FrameBodyError",
    }


# ------------------------------------------------------------------ buffers


@pytest.mark.parametrize("how", ["bytearray", "memoryview", "memoryview slice"])
def test_value_survives_buffer_mutation(frames: ModuleType, how: str) -> None:
    """Decode from the buffer, overwrite it in place (the view still open), then
    resize it: the value and its encoding are those of a decode from a ``bytes`` copy."""
    for channel, payload in CORPUS:
        decode, encode = codec(frames, channel)
        reference = outcome(decode, bytes(payload))
        if how == "bytearray":
            buffer = bytearray(payload)
            source: Any = buffer
        elif how == "memoryview":
            buffer = bytearray(payload)
            source = memoryview(buffer)
        else:
            buffer = bytearray(b"junk" + payload + b"tail")
            source = memoryview(buffer)[4:-4]
        got = outcome(decode, source)
        buffer[:] = b"\xff" * len(buffer)
        if isinstance(source, memoryview):
            source.release()
        buffer += b"more" * 1000
        del buffer[: len(buffer) // 2]
        if isinstance(reference, FrameError):
            assert type(got) is type(reference) and str(got) == str(reference)
        else:
            assert got == reference
            assert encode(got) == encode(reference)


@pytest.mark.parametrize(
    ("channel", "kind", "payload"), KINDS, ids=[f"{c}-{k}" for c, k, _ in KINDS]
)
@pytest.mark.parametrize("source", ["bytearray", "memoryview", "memoryview slice"])
def test_no_export_left_behind(
    frames: ModuleType, channel: str, kind: str, payload: bytes, source: str
) -> None:
    """After a decode that returns or raises, once the caller drops its view the
    bytearray can be resized at once, even while the error is still held: nothing the
    decode left behind (a traceback, a frame in a reference cycle) pins the buffer.
    The cyclic GC is paused so that it cannot hide such a reference."""
    decode, _ = codec(frames, channel)
    buffer = bytearray(b"pad" + payload)
    enabled = gc.isenabled()
    gc.disable()
    try:
        if source == "bytearray":
            del buffer[:3]
            view: Any = buffer
        elif source == "memoryview":
            del buffer[:3]
            view = memoryview(buffer)
        else:
            view = memoryview(buffer)[3:]
        try:
            kept = decode(view)
        except FrameError as exc:  # kept with its traceback (which holds this frame)
            kept = exc
        del view
        buffer.clear()  # BufferError if an export were left
        buffer += b"x"
    finally:
        if enabled:
            gc.enable()
    assert kept is not None


# ------------------------------------------------------------------ leaks


#: Kinds decoded in one round of SLOW_EVERY only: a nesting error unwinds ~1000 levels
#: of recursion (about 1 ms).
SLOW = {"FrameBodyError, nesting"}
SLOW_EVERY = 50


def _churn(frames: ModuleType, rounds: int) -> None:
    """``rounds`` decodes (and, for values, encodes) of every kind (of the SLOW ones,
    ``rounds // SLOW_EVERY``)."""
    jobs = [(*codec(frames, c), p) for c, k, p in KINDS if k not in SLOW]
    slow = [(*codec(frames, c), p) for c, k, p in KINDS if k in SLOW]
    for index in range(rounds):
        for decode, encode, payload in jobs if index % SLOW_EVERY else jobs + slow:
            with contextlib.suppress(FrameError):
                encode(decode(payload))


def test_no_leaks(frames: ModuleType) -> None:
    """Allocated blocks and resident memory do not grow with the number of decodes,
    and no payload gains a reference. A leak of one object per decode would add
    ``ROUNDS`` blocks per kind; the margin allows 1/20 of that for the whole run."""
    payloads = [p for _, _, p in KINDS if p]  # b"" is a shared singleton
    # warm-up: caches, interned strings, freelists (the pure twin's settle after about
    # 4,000 rounds of every kind)
    _churn(frames, max(ROUNDS, 1000))
    gc.collect()
    payload_refs = [sys.getrefcount(p) for p in payloads]
    # The counts are the process's: another thread left by an earlier test may allocate
    # during a window. So a window whose blocks grew past the margin is followed by a
    # second one, and the lesser growth is held to it: a leak grows every window.
    windows = []
    for _ in range(2):
        blocks, rss = sys.getallocatedblocks(), _rss_bytes()
        _churn(frames, ROUNDS)
        gc.collect()
        windows.append((sys.getallocatedblocks() - blocks, _rss_bytes() - rss))
        if windows[-1][0] < ROUNDS // 20:
            break
    grown_blocks, grown_rss = min(windows)
    assert grown_blocks < ROUNDS // 20, (windows, threading.enumerate())
    assert grown_rss < 32 * 2**20, grown_rss
    assert [sys.getrefcount(p) for p in payloads] == payload_refs
    if SOAK or os.environ.get("DIVERGE_FRAMES_SHOW_GROWTH"):
        print(
            f"\n{frames.__name__}: {ROUNDS} x {len(KINDS)} kinds: blocks {grown_blocks:+d}, RSS {grown_rss:+d} B"
        )


# ------------------------------------------------------------------ decodes within decodes


class _Decodes:
    """Garbage in a cycle whose finalizer decodes every kind again and checks it: with
    the collector run at every allocation, decodes start inside decodes (the compiled
    twin copies a small body into one reused buffer, and must not hand it out twice)."""

    def __init__(self, frames: ModuleType, expected: list[Any], failures: list[str]) -> None:
        self.frames, self.expected, self.failures = frames, expected, failures
        self.cycle = self

    def __del__(self) -> None:
        for (channel, payload), want in zip(CORPUS, self.expected, strict=True):
            got = outcome(codec(self.frames, channel)[0], payload)
            if type(got) is not type(want) or (not isinstance(got, FrameError) and got != want):
                self.failures.append(f"{channel} {payload[:60]!r}: {got!r}")


def test_decodes_within_decodes(frames: ModuleType) -> None:
    expected = [outcome(codec(frames, channel)[0], payload) for channel, payload in CORPUS]
    failures: list[str] = []
    kept = []
    threshold = gc.get_threshold()
    try:
        for _ in range(3):
            for (channel, payload), want in zip(CORPUS, expected, strict=True):
                _Decodes(frames, expected, failures)
                gc.set_threshold(1)
                got = outcome(codec(frames, channel)[0], payload)
                gc.set_threshold(*threshold)
                if isinstance(got, FrameError):
                    kept.append(got)  # an error kept (with its traceback) while decoding on
                elif got != want:
                    failures.append(f"{channel} {payload[:60]!r}: {got!r}")
    finally:
        gc.set_threshold(*threshold)
        gc.collect()
    assert not failures, failures[:3]
    assert kept
