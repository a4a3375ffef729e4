"""Threads: decode and encode from 8 threads at once give a single thread's results,
and one channel or subscription fed by 8 threads at once keeps its rules.

Each channel test starts 8 threads on a new channel, round after round
(``DIVERGE_FRAMES_THREAD_ROUNDS``, 40 by default), and checks what the channels
promise (docs/channels.md, "Threads"): each call takes effect at once, as if the calls
ran one after another, so at most one error or one-shot response and one end are
taken, nothing after them, and ``received`` counts what was taken.

Run on whatever interpreter runs the tests (the regular, GIL build here; the thread
switch interval is cut to 1 µs so that threads interleave inside the calls as much as
the GIL allows). On a free-threaded build the same test runs truly in parallel. The
compiled module declares itself free-threading compatible (``Py_MOD_GIL_NOT_USED``);
the last test checks that the C that Cython writes for it says so.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from diverge_frames import FrameError
from diverge_frames.channel import (
    Aborted,
    ChannelState,
    Error,
    Finished,
    Notification,
    NotificationSubscription,
    NotServed,
    Result,
    SubscriptionState,
)
from diverge_frames.errors import SequenceError
from diverge_frames.types import ErrorData

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


# ----------------------------------------------------------- one channel, 8 threads

#: Rounds of each channel stress test: each starts 8 threads on one new channel
#: (DIVERGE_FRAMES_THREAD_ROUNDS=N for a longer run; the default keeps each test to
#: well under a second on a loaded 2-core machine).
STRESS_ROUNDS = int(os.environ.get("DIVERGE_FRAMES_THREAD_ROUNDS", "40"))
CORPUS = DATA / "corpus" / "server-everything"
NOTIFICATIONS = [
    b"\x00" + line for line in (CORPUS / "notifications.jsonl").read_bytes().splitlines()
][:12]
RESULTS = [
    b"\x00" + line for line in (CORPUS / "read_resource_results.jsonl").read_bytes().splitlines()
][:4]
ERRORS = [b"\x01" + line for line in (CORPUS / "errors.jsonl").read_bytes().splitlines()][:4]
#: The state after each end.
ENDS = {
    Finished: ChannelState.FINISHED,
    NotServed: ChannelState.NOT_SERVED,
    Aborted: ChannelState.ABORTED,
}
#: How each thread takes its payloads, by index: every way the channels have.
WAYS = ("receive", "receive_value", "values")


def _take(channel: Any, way: str, payloads: list[bytes], log: list[tuple[str, Any]]) -> None:
    """Feed ``payloads`` one at a time the ``way`` given; log ``("accepted", value)``,
    ``("event", event)`` or ``("refused", message)`` for each (and ``("end", ...)``
    for ``b"finish"`` / ``b"abort"`` in ``payloads``)."""
    for payload in payloads:
        try:
            if payload in (b"finish", b"abort"):
                log.append(("end", getattr(channel, payload.decode())()))
            elif way == "receive":
                log.append(("event", channel.receive(payload)))
            elif way == "receive_value":
                log.append(("accepted", channel.receive_value(payload)))
            else:
                log.append(("accepted", next(channel.values([payload]))))
        except SequenceError as exc:
            log.append(("refused", str(exc)))


def _stress(
    make: Any, plans: list[list[bytes]], decode: Any
) -> list[tuple[Any, list[list[tuple[str, Any]]]]]:
    """STRESS_ROUNDS rounds: a channel from ``make()``, and thread ``i`` feeding it
    ``plans[i]`` (the way ``WAYS[i % 3]``), all 8 started together; each round's
    channel and the threads' logs, once every value a thread was given (bare or in
    its event, kept in the log) is checked to be ``decode`` of the payload that
    thread fed, so that no event another thread received changed it."""
    expected = {p: decode(p) for plan in plans for p in plan if p not in (b"finish", b"abort")}
    out = []
    for _ in range(STRESS_ROUNDS):
        channel = make()
        logs: list[list[tuple[str, Any]]] = [[] for _ in plans]
        _in_threads(lambda i: _take(channel, WAYS[i % len(WAYS)], plans[i], logs[i]))  # noqa: B023
        for plan, log in zip(plans, logs, strict=True):
            for payload, entry in zip(plan, log, strict=True):
                if entry[0] in ("event", "accepted"):
                    assert _unwrapped(entry)[1] == expected[payload]
        out.append((channel, logs))
    return out


def _unwrapped(entry: tuple[str, Any]) -> tuple[str, Any]:
    """``("value", v)`` or ``("error", e)`` for an accepted response (an event checked
    against its value's kind), else the entry."""
    kind, got = entry
    if kind == "event":
        if isinstance(got, Error):
            assert isinstance(got.error, ErrorData)
            return "error", got.error
        assert isinstance(got, (Notification, Result)), got
        assert not isinstance(got.value, ErrorData), "a value event carries an ErrorData"
        return "value", got.value
    if kind == "accepted":
        return ("error" if isinstance(got, ErrorData) else "value"), got
    return entry


def _count(logs: list[list[tuple[str, Any]]], kind: str) -> int:
    return sum(_unwrapped(e)[0] == kind for log in logs for e in log)


def _received(channel: Any) -> int:
    match = re.fullmatch(r"\w+\(state=\w+, received=(\d+)\)", repr(channel))
    assert match, repr(channel)
    return int(match.group(1))


def _monotonic(log: list[tuple[str, Any]]) -> None:
    """Within one thread: once refused, never accepted again (a state that is not
    ``OPEN`` never becomes ``OPEN``), and nothing accepted after an error."""
    kinds = [_unwrapped(e)[0] for e in log if e[0] != "end"]
    for earlier, later in itertools.combinations(kinds, 2):
        assert not (earlier in ("refused", "error") and later in ("value", "error")), kinds


def test_one_notification_channel_takes_one_error(channels: ModuleType, frames: ModuleType) -> None:
    """8 threads feed one channel notifications, then an error, then a notification:
    exactly one error is taken, every response after it is refused, and ``received``
    counts what was taken."""
    plans = [
        [*NOTIFICATIONS[i : i + 3], ERRORS[i % len(ERRORS)], NOTIFICATIONS[i]]
        for i in range(THREADS)
    ]
    for channel, logs in _stress(
        lambda: channels.NotificationChannel(decode=frames.decode_notification),
        plans,
        frames.decode_notification,
    ):
        assert _count(logs, "error") == 1
        assert _received(channel) == _count(logs, "value") + 1
        assert channel.state is ChannelState.ERRORED
        for log in logs:
            _monotonic(log)
            for kind, message in log:
                if kind == "refused":
                    assert message.endswith("after the error, which is the last response")
        assert type(channel.finish()) is Finished


def test_one_notification_channel_ends_once(channels: ModuleType, frames: ModuleType) -> None:
    """6 threads feed notifications while 2 end the channel (finish, abort) midway:
    exactly one end is taken, nothing after it, and a finish with nothing taken
    before it is ``NotServed``."""
    plans = [NOTIFICATIONS[i : i + 6] for i in range(THREADS - 2)]
    plans += [[*NOTIFICATIONS[:1], b"finish", *NOTIFICATIONS[1:2]], [b"abort", *NOTIFICATIONS[:1]]]
    for channel, logs in _stress(
        lambda: channels.NotificationChannel(decode=frames.decode_notification),
        plans,
        frames.decode_notification,
    ):
        ends = [got for log in logs for kind, got in log if kind == "end"]
        assert len(ends) == 1, ends
        taken = _count(logs, "value")
        assert _received(channel) == taken
        expected = Aborted if type(ends[0]) is Aborted else (Finished if taken else NotServed)
        assert type(ends[0]) is expected
        assert channel.state is ENDS[expected]
        refused_ends = [
            m
            for log in logs
            for kind, m in log
            if kind == "refused" and "channel that already ended" in m
        ]
        assert len(refused_ends) == 1
        for log in logs:
            _monotonic(log)


def test_one_shot_channel_takes_one_response(channels: ModuleType, frames: ModuleType) -> None:
    """8 threads each feed one read-resource channel a result or an error, then a
    result: exactly one response is taken, and the state says which."""
    plans = [[(RESULTS + ERRORS)[i % 8], RESULTS[0]] for i in range(THREADS)]
    for channel, logs in _stress(
        lambda: channels.OneShotChannel(decode=frames.decode_read_resource),
        plans,
        frames.decode_read_resource,
    ):
        values, errors = _count(logs, "value"), _count(logs, "error")
        assert values + errors == 1 == _received(channel)
        assert channel.state is (ChannelState.ANSWERED if values else ChannelState.ERRORED)
        for log in logs:
            _monotonic(log)


def test_one_subscription_keeps_one_ask_open() -> None:
    """8 threads record the ask, the stream's end, a new connection and the ask again
    on one subscription: ``asks`` counts the ``asked()`` taken, and every
    ``stream_ended()`` taken closed one of them (never two asks open)."""
    for _ in range(STRESS_ROUNDS):
        sub = NotificationSubscription()
        sub.exchange_done(0)
        outcomes: list[list[str]] = [[] for _ in range(THREADS)]

        def work(index: int, sub: Any = sub, outcomes: list[list[str]] = outcomes) -> None:
            for call in ("asked", "stream_ended", "connection_opened", "asked"):
                try:
                    getattr(sub, call)()
                    outcomes[index].append(call)
                except SequenceError:
                    outcomes[index].append("refused")

        _in_threads(work)
        done = [call for calls in outcomes for call in calls]
        assert sub.asks == done.count("asked") >= 1
        assert done.count("stream_ended") == sub.asks - (sub.state is SubscriptionState.OPEN)


# ------------------------------------------------------- a value changed meanwhile


@pytest.mark.skipif(
    bool(sysconfig.get_config_var("Py_GIL_DISABLED")),
    reason="free-threaded: C code (msgspec's encoder, the compiled check) walks a dict "
    "another thread changes with no lock, which no encode promises to survive",
)
def test_encoding_a_value_another_thread_changes(frames: ModuleType) -> None:
    """While a thread keeps changing a custom notification's params, each encode
    writes a valid payload of some state of them or raises ``ValueError`` saying the
    value changed; never the walk's ``RuntimeError``."""
    params: dict[str, Any] = {f"k{i}": i for i in range(40)}
    value = frames.decode_notification(b'\x00{"method":"x/custom","params":{}}')
    value = type(value)(method="x/custom", params=params)
    stop = threading.Event()

    def change() -> None:
        i = 0
        while not stop.is_set():
            params[f"n{i % 5}"] = i
            params.pop(f"n{(i + 2) % 5}", None)
            i += 1

    changer = threading.Thread(target=change)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    changer.start()
    outcomes: list[Any] = []
    try:
        for _ in range(STRESS_ROUNDS * 50):
            try:
                outcomes.append(frames.encode_notification(value))
            except ValueError as exc:
                outcomes.append(exc)
    finally:
        stop.set()
        changer.join()
        sys.setswitchinterval(interval)
    for got in outcomes:
        if isinstance(got, bytes):
            assert frames.decode_notification(got).method == "x/custom"
        else:
            assert re.fullmatch(
                r"\$: the value changed while it was encoded \(.+ during iteration\): "
                r"encode a value that no other thread changes meanwhile",
                str(got),
            ), got


def test_a_change_during_the_walk_is_a_value_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the walk raises for a dict or set changed under it becomes the check's
    ``ValueError``; a ``RecursionError`` (also a ``RuntimeError``) is not reworded."""
    from diverge_frames import _checks

    value = ErrorData(-32603, "m", {"a": [1]})

    def changed(*args: Any) -> Any:
        raise RuntimeError("dictionary changed size during iteration")

    monkeypatch.setattr(_checks, "_struct", changed)
    with pytest.raises(ValueError, match=r"^\$: the value changed while it was encoded"):
        _checks.check(value)

    def deep(*args: Any) -> Any:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(_checks, "_struct", deep)
    with pytest.raises(RecursionError):
        _checks.check(value)
