"""A decode's result does not depend on how deep the caller's stack is, both twins.

Bodies nested up to 127 levels (serde_json's deepest, which rmcp accepts), and bodies
rmcp rejects, decoded from a shallow stack, from 900 frames deep and from a few frames
short of the recursion limit, as ``bytes``, ``bytearray`` and ``memoryview``: the same
value and bytes, or the same error and message. The recursion limit is left as it is.
"""

from __future__ import annotations

import base64
import subprocess
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from helpers import decoder, encoder, outcome, same


def _nested(depth: int, leaf: str = "0") -> str:
    return "[" * depth + leaf + "]" * depth


#: (name, channel, payload): 127 levels counting the top object (or more, rejected).
BODIES = [
    (
        "log message, data 127 levels",
        "notifications",
        b'\x00{"method":"notifications/message","params":{"level":"info","data":'
        + _nested(125).encode()
        + b"}}",
    ),
    (
        "custom, 127 levels",
        "notifications",
        b'\x00{"method":"x/y","params":{"a":' + _nested(125).encode() + b"}}",
    ),
    (
        "task with input requests, metadata 127 levels",
        "notifications",
        b'\x00{"method":"notifications/tasks","params":{"taskId":"t","status":"input_required",'
        b'"createdAt":"c","lastUpdatedAt":"u","ttlMs":null,"inputRequests":{"r":{"method":'
        b'"sampling/createMessage","params":{"messages":[],"maxTokens":1,"metadata":'
        + _nested(120).encode()
        + b"}}}}}",
    ),
    (
        "result, _meta 127 levels",
        "read-resource",
        b'\x00{"contents":[],"_meta":{"a":' + _nested(125).encode() + b"}}",
    ),
    (
        "error, data 127 levels",
        "notifications",
        b'\x01{"code":1,"message":"m","data":' + _nested(126).encode() + b"}",
    ),
    (
        "duplicate level, 127 levels",
        "notifications",
        b'\x00{"method":"notifications/message","params":{"level":"info","level":"info",'
        b'"data":' + _nested(125).encode() + b"}}",
    ),
    (
        "invalid UTF-8 at 127 levels",
        "notifications",
        b'\x00{"method":"notifications/message","params":{"level":"info","data":'
        + _nested(125, '"\xff"').encode("latin-1")
        + b"}}",
    ),
    (
        "error, code a string, 127 levels",
        "read-resource",
        b'\x01{"code":"x","message":"m","data":' + _nested(126).encode() + b"}",
    ),
    (
        "128 levels",
        "notifications",
        b'\x00{"method":"x/y","params":{"a":' + _nested(126).encode() + b"}}",
    ),
    ("3000 levels", "read-resource", b"\x00" + _nested(3000).encode()),
]
SOURCES: dict[str, Callable[[bytes], Any]] = {
    "bytes": bytes,
    "bytearray": bytearray,
    "memoryview": lambda p: memoryview(bytearray(b"pad" + p))[3:],
}


def _at_depth(frames_left: int, call: Callable[[], Any]) -> Any:
    """``call()`` from ``frames_left`` more Python frames down the stack."""
    if frames_left <= 0:
        return call()
    return _at_depth(frames_left - 1, call)


def _depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1  # type: ignore[assignment]
    return depth


def _result(frames: ModuleType, channel: str, got: Any) -> tuple[Any, bytes | None]:
    """A decode's outcome and, for a value, its bytes (encoded here, on a shallow stack)."""
    return got, None if isinstance(got, Exception) else encoder(frames, channel)(got)


@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize(("name", "channel", "payload"), BODIES, ids=[b[0] for b in BODIES])
def test_same_result_at_any_stack_depth(
    frames: ModuleType, name: str, channel: str, payload: bytes, source: str
) -> None:
    make = SOURCES[source]
    limit = sys.getrecursionlimit()
    decode = decoder(frames, channel)
    reference, reference_bytes = _result(frames, channel, outcome(decode, make(payload)))
    here = _depth()
    for depth in (900, limit - 15):
        deep = _at_depth(depth - here, lambda: outcome(decode, make(payload)))
        got, got_bytes = _result(frames, channel, deep)
        assert same(got, reference), (depth, got, reference)
        assert got_bytes == reference_bytes, depth
    assert sys.getrecursionlimit() == limit


def test_deep_stack_in_a_thread(frames: ModuleType) -> None:
    """The same from a deep stack in a thread other than the main one."""
    _, channel, payload = BODIES[0]
    decode = decoder(frames, channel)
    got: list[Any] = []
    worker = threading.Thread(
        target=lambda: got.append(_at_depth(900, lambda: outcome(decode, payload)))
    )
    worker.start()
    worker.join()
    assert len(got) == 1 and same(got[0], outcome(decode, payload))


def test_a_recursion_limit_too_low_is_a_frame_error() -> None:
    """With the limit set below what 127 levels need, even on a fresh stack, the body is
    a FrameBodyError (both twins), never a RecursionError."""
    code = (
        "import sys\n"
        "from diverge_frames import _frames_py, FrameBodyError\n"
        "twins = [_frames_py]\n"
        "try:\n"
        "    from diverge_frames import _frames_c\n"
        "    twins.append(_frames_c)\n"
        "except ImportError:\n"
        "    pass\n"
        f"payload = {BODIES[0][2]!r}\n"
        "sys.setrecursionlimit(90)\n"
        "for frames in twins:\n"
        "    try:\n"
        "        frames.decode_notification(payload)\n"
        "    except FrameBodyError as exc:\n"
        "        print(frames.__name__, exc.reason)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    lines = done.stdout.splitlines()
    assert len(lines) >= 1 and all("recursion limit" in line for line in lines), done


#: Found by fuzz/random_inputs.py (seed 3825800239, input 28363): a read-resource body
#: rmcp rejects early (invalid UTF-8 in a key) that nests 992 levels further on.
FOUND_DEEP_REJECTED = base64.b64decode(
    "AHsiY29kZSI6IC0zMjA0MiwgIm3lc3NhZ2UiOiAiTUNQIGVycm9yIC0zMjA0MjogVGZpc2l6YXRpb24uIiwg"
    "ImRhjJgiOiB7ImVsaWNpdGF0aW9ucyI6IFt7Im1vZGUiOiAidXJsIiwgInVtZXNzcHJvW3JlIjpbIAogIFtb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbAHsibWV0aG9kIjoieC95Iiwi"
    "cGFyYW1zIjp7Il9tZXRhIjp7InoiOjF9LCJiIjpbMTUwLCJcdTIwMjhtbHFldGhvZG1tbW1tbW1tbW1tbW1t"
    "bW1tIl19fVtbW1tbW1tbW1tbW1tbW1tbW1tbW1tbAHsibWV0aG9kYXRhZCI6IiIsInBhcmFtcyI6W1tbW1tb"
    "W1tbW1tbW3siIjoNW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1t7W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbW1tbW1tb/FtbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tb"
    "W1tbW1tbW1tbW1tbW1tbAHsibWV0aG9kYXRhZCI6IiIsW1t7Inw2Mzg3MyJ9XX19"
)


def _deep_rejected() -> list[tuple[str, bytes]]:
    limit = sys.getrecursionlimit()
    cases = [("read_resource", FOUND_DEEP_REJECTED)]
    for depth in range(limit - 16, limit + 2):
        for channel in ("notifications", "read_resource"):
            cases.append((channel, b'\x00{"m\xe5ssage":' + b"[" * depth + b"x"))
    return cases


@pytest.mark.parametrize("twin", ["_frames_py", "_frames_c"])
def test_rejected_deep_body_same_message_every_call(twin: str) -> None:
    """A body rmcp rejects early whose later part nests about as deeply as msgspec's
    recursion budget reaches, then turns bad: every call and every buffer type give the
    same error and message, from a shallow stack (a new interpreter per twin: msgspec's
    message once won only after CPython had specialized a call, from the eighth call)."""
    if twin == "_frames_c":
        pytest.importorskip("diverge_frames._frames_c")
    code = (
        f"from diverge_frames import {twin} as frames\n"
        f"cases = {_deep_rejected()!r}\n"
        "for channel, payload in cases:\n"
        "    decode = getattr(frames, 'decode_' + channel.rstrip('s'))\n"
        "    seen = set()\n"
        "    for _ in range(12):\n"
        "        for make in (bytes, bytearray, memoryview):\n"
        "            try:\n"
        "                decode(make(payload))\n"
        "                seen.add('a value')\n"
        "            except Exception as exc:\n"
        "                seen.add(type(exc).__name__ + ': ' + str(exc))\n"
        "    if len(seen) != 1:\n"
        "        print(frames.__name__, channel, len(payload), sorted(seen))\n"
        "print('done')\n"
    )
    done = subprocess.run(
        [sys.executable, "-"], input=code, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["done"], done.stdout
