"""diverge_frames.aio under every event loop it is meant for: asyncio, trio, and anyio
on each of its backends. ``aio`` uses no event-loop API of its own (async iteration and
the source's ``aclose()`` only), so each way of running gives the same outcomes,
cancellation and timeouts included. (``tests/test_aio.py`` covers the rules in depth
under asyncio, over both hot paths.)"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import aclosing
from pathlib import Path
from typing import Any

import pytest

from diverge_frames import aio, notifications, read_resource
from diverge_frames.errors import FrameBodyError, SequenceError

anyio = pytest.importorskip("anyio")
trio = pytest.importorskip("trio")

CORPUS = Path(__file__).parent / "data" / "corpus" / "server-everything"


def _lines(name: str, tag: bytes) -> list[bytes]:
    return [tag + line for line in (CORPUS / name).read_bytes().splitlines() if line.strip()]


NOTIFICATIONS = _lines("notifications.jsonl", b"\x00")
RESULTS = _lines("read_resource_results.jsonl", b"\x00")
ERRORS = _lines("errors.jsonl", b"\x01")

#: How a coroutine function is run: each event loop and anyio backend.
RUNNERS: dict[str, Callable[[Callable[[], Any]], Any]] = {
    "asyncio": lambda main: asyncio.run(main()),
    "trio": trio.run,
    "anyio-asyncio": lambda main: anyio.run(main, backend="asyncio"),
    "anyio-trio": lambda main: anyio.run(main, backend="trio"),
}


@pytest.fixture(params=list(RUNNERS))
def run(request: pytest.FixtureRequest) -> Callable[[Callable[[], Any]], Any]:
    return RUNNERS[request.param]


class Source:
    """Payloads as an async generator that records its close; after them it ends (the
    finish), raises ``fail``, or sleeps forever (``hang``) until cancelled."""

    def __init__(self, payloads: list[bytes], *, fail: BaseException | None = None, hang=False):
        self.payloads = payloads
        self.fail = fail
        self.hang = hang
        self.closed = False

    async def __call__(self) -> Any:
        try:
            for payload in self.payloads:
                await anyio.sleep(0)  # a checkpoint, as a real read is
                yield payload
            if self.fail is not None:
                raise self.fail
            if self.hang:
                await anyio.sleep_forever()
        finally:
            self.closed = True


async def _collect(source: Source) -> list[Any]:
    out = []
    async with aclosing(aio.notifications(source())) as stream:
        async for value in stream:
            out.append(value)
    return out


def test_notifications_until_the_finish(run: Any) -> None:
    source = Source(NOTIFICATIONS)
    got = run(lambda: _collect(source))
    assert got == [notifications.decode(p) for p in NOTIFICATIONS]
    assert source.closed


def test_the_error_after_the_notifications(run: Any) -> None:
    source = Source([*NOTIFICATIONS[:2], ERRORS[0]])
    seen: list[Any] = []

    async def main() -> None:
        async with aclosing(aio.notifications(source())) as stream:
            async for value in stream:
                seen.append(value)

    with pytest.raises(aio.NotificationStreamError) as info:
        run(main)
    assert len(seen) == 2
    assert info.value.error == notifications.decode(ERRORS[0])
    assert source.closed


def test_not_served_sequence_and_bad_payloads(run: Any) -> None:
    with pytest.raises(aio.NotServedError):
        run(lambda: _collect(Source([])))
    with pytest.raises(SequenceError):
        run(lambda: _collect(Source([ERRORS[0], NOTIFICATIONS[0]])))
    bad = Source([NOTIFICATIONS[0], b"\x00not json"])
    with pytest.raises(FrameBodyError):
        run(lambda: _collect(bad))
    assert bad.closed


def test_an_abrupt_end_is_reraised(run: Any) -> None:
    source = Source(NOTIFICATIONS[:1], fail=ConnectionResetError("cut"))
    with pytest.raises(ConnectionResetError):
        run(lambda: _collect(source))
    assert source.closed


def test_break_closes_the_source(run: Any) -> None:
    source = Source(NOTIFICATIONS)

    async def main() -> Any:
        async with aclosing(aio.notifications(source())) as stream:
            first = await stream.__anext__()
        assert source.closed  # at once, not when the generator is collected
        return first

    assert run(main) == notifications.decode(NOTIFICATIONS[0])


def test_a_timeout_while_waiting_closes_the_source(run: Any) -> None:
    """anyio's cancel scopes (``move_on_after``) cancel on every backend; the stream
    stops at the wait for the next response and closes the source."""
    source = Source(NOTIFICATIONS[:1], hang=True)
    seen: list[Any] = []

    async def main() -> bool:
        with anyio.move_on_after(0.05) as scope:
            async with aclosing(aio.notifications(source())) as stream:
                async for value in stream:
                    seen.append(value)
        return bool(scope.cancelled_caught)

    assert run(main) is True
    assert len(seen) == 1
    assert source.closed


def test_read_resource(run: Any) -> None:
    assert run(lambda: aio.read_resource(Source(RESULTS[:1])())) == read_resource.decode(RESULTS[0])
    with pytest.raises(aio.ReadResourceError) as info:
        run(lambda: aio.read_resource(Source(ERRORS[:1])()))
    assert info.value.error == read_resource.decode(ERRORS[0])
    with pytest.raises(SequenceError):
        run(lambda: aio.read_resource(Source(RESULTS[:2])()))
