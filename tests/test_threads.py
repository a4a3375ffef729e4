"""Threads: decode and encode from 8 threads at once give a single thread's results.

Run on whatever interpreter runs the tests (the regular, GIL build here; the thread
switch interval is cut to 1 µs so that threads interleave inside the calls as much as
the GIL allows). On a free-threaded build the same test runs truly in parallel. The
compiled module declares itself free-threading compatible (``Py_MOD_GIL_NOT_USED``);
the last test checks that the C that Cython writes for it says so.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from diverge_frames import FrameError

DATA = Path(__file__).parent / "data"
SRC = Path(__file__).resolve().parent.parent / "src" / "diverge_frames"
THREADS = 8
ROUNDS = 20


def _payloads() -> list[tuple[str, bytes]]:
    """(channel, payload): the real frames under 64 kB, every edge case, and broken
    ones, so that errors are raised concurrently too."""
    out = []
    for path in sorted((DATA / "corpus").glob("*/*.jsonl")):
        for line in path.read_bytes().splitlines():
            if not line.strip() or len(line) > 64 * 1024:
                continue
            if path.name == "notifications.jsonl":
                out.append(("notifications", b"\x00" + line))
            elif path.name == "read_resource_results.jsonl":
                out.append(("read_resource", b"\x00" + line))
            else:
                out += [("notifications", b"\x01" + line), ("read_resource", b"\x01" + line)]
    for path in sorted((DATA / "edge-cases").glob("*.json")):
        for channel in ("notifications", "read_resource"):
            out += [(channel, b"\x00" + path.read_bytes()), (channel, b"\x01" + path.read_bytes())]
    broken = [(c, p[: len(p) // 2]) for c, p in out[::3]]
    return out + broken + [("notifications", b""), ("read_resource", b"\x07{}")]


PAYLOADS = _payloads()


def _run(frames: ModuleType, payloads: list[tuple[str, Any]]) -> list[tuple[str, Any, Any]]:
    """For each payload: ("value", value, re-encoded bytes) or ("error", class, message)."""
    out = []
    for channel, payload in payloads:
        decode = (
            frames.decode_notification
            if channel == "notifications"
            else frames.decode_read_resource
        )
        encode = (
            frames.encode_notification
            if channel == "notifications"
            else frames.encode_read_resource
        )
        try:
            value = decode(payload)
        except FrameError as exc:
            out.append(("error", type(exc), str(exc)))
        else:
            out.append(("value", value, encode(value)))
    return out


def _in_threads(work: Any) -> list[Any]:
    """Run ``work(index)`` in THREADS threads started together; return their results,
    re-raising the first exception any of them raised."""
    barrier = threading.Barrier(THREADS)
    results: list[Any] = [None] * THREADS
    errors: list[BaseException] = []

    def target(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=target, args=(i,)) for i in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    if errors:
        raise errors[0]
    return results


def test_eight_threads_match_one(frames: ModuleType) -> None:
    """Each thread runs every payload ROUNDS times, starting at a different place."""
    expected = _run(frames, PAYLOADS)
    n = len(PAYLOADS)

    def work(index: int) -> list[list[tuple[str, Any, Any]]]:
        shift = index * n // THREADS
        order = PAYLOADS[shift:] + PAYLOADS[:shift]
        return [_run(frames, order) for _ in range(ROUNDS)]

    for index, rounds in enumerate(_in_threads(work)):
        shift = index * n // THREADS
        for got in rounds:
            assert got[n - shift :] + got[: n - shift] == expected


def test_eight_threads_share_one_buffer(frames: ModuleType) -> None:
    """All threads decode memoryview slices of one shared bytearray at once; the
    buffer can be resized afterwards (every export was released)."""
    shared = bytearray()
    spans = []
    for channel, payload in PAYLOADS:
        spans.append((channel, len(shared), len(shared) + len(payload)))
        shared += payload
    view = memoryview(shared)
    sliced = [(channel, view[start:end]) for channel, start, end in spans]
    expected = _run(frames, [(c, bytes(v)) for c, v in sliced])
    for result in _in_threads(lambda index: [_run(frames, sliced) for _ in range(ROUNDS)]):
        assert all(got == expected for got in result)
    sliced.clear()
    view.release()
    shared.clear()
    assert shared == bytearray()


@pytest.mark.parametrize("module", ["_frames_c", "_channel_c"])
def test_compiled_module_declares_free_threading(module: str) -> None:
    """Each .pyx asks for ``freethreading_compatible``, and the C Cython writes for it
    declares ``Py_mod_gil = Py_MOD_GIL_NOT_USED`` (used on a free-threaded build)."""
    cython = shutil.which("cython", path=str(Path(sys.executable).parent)) or shutil.which("cython")
    if cython is None:
        pytest.skip("Cython not installed")
    pyx = SRC / f"{module}.pyx"
    assert "# cython: freethreading_compatible=True" in pyx.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        c_file = Path(tmp) / f"{module}.c"
        subprocess.run([cython, "-3", str(pyx), "-o", str(c_file)], check=True, capture_output=True)
        c = c_file.read_text(encoding="utf-8")
    assert "{Py_mod_gil, __Pyx_FREETHREADING_COMPATIBLE}" in c
    assert "PyUnstable_Module_SetGIL(__pyx_m, __Pyx_FREETHREADING_COMPATIBLE)" in c
    # unless the C compiler is told otherwise, the slot says "no GIL needed" (without
    # the directive this default is Py_MOD_GIL_USED)
    assert "#else\n#define __Pyx_FREETHREADING_COMPATIBLE Py_MOD_GIL_NOT_USED\n#endif" in c
