"""diverge_frames.aio over both hot paths and both channel twins, run with plain
``asyncio.run``: every test runs once per twin of the channel classes, which ``aio``
uses for its duration."""

from __future__ import annotations

import asyncio
from contextlib import aclosing
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from diverge_frames import aio
from diverge_frames.errors import FrameBodyError, SequenceError, UnknownTagError
from diverge_frames.types import ReadResourceResult

CORPUS = Path(__file__).parent / "data" / "corpus" / "server-everything"


def _lines(name: str) -> list[bytes]:
    return [line for line in (CORPUS / name).read_bytes().splitlines() if line.strip()]


NOTIFICATIONS = [b"\x00" + line for line in _lines("notifications.jsonl")]
RESULTS = [b"\x00" + line for line in _lines("read_resource_results.jsonl")]
ERRORS = [b"\x01" + line for line in _lines("errors.jsonl")]


@pytest.fixture(autouse=True)
def _each_channel_twin(channels: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the channel classes ``aio`` uses the twin's."""
    monkeypatch.setattr(aio, "NotificationChannel", channels.NotificationChannel)
    monkeypatch.setattr(aio, "OneShotChannel", channels.OneShotChannel)


class Source:
    """An async generator of payloads that records whether it was closed.

    After the payloads it ends cleanly (the finish), raises ``fail``, or waits forever
    (``hang=True``) so that a consumer can be cancelled while it waits.
    """

    def __init__(
        self, payloads: list[Any], *, fail: BaseException | None = None, hang: bool = False
    ):
        self.payloads = payloads
        self.fail = fail
        self.hang = hang
        self.sent = 0
        self.closed = False
        self.waiting = asyncio.Event()

    async def __call__(self):
        try:
            for payload in self.payloads:
                self.sent += 1
                yield payload
            if self.fail is not None:
                raise self.fail
            if self.hang:
                self.waiting.set()
                await asyncio.Event().wait()
        finally:
            self.closed = True


async def _collect(source: Source, frames) -> list[Any]:
    """Collect the values; however that ends, the source is closed by then (not later
    by asyncio.run's own clean-up of generators)."""
    out = []
    try:
        async with aclosing(
            aio.notifications(source(), decode=frames.decode_notification)
        ) as stream:
            async for value in stream:
                out.append(value)
    finally:
        assert source.closed
    return out


# --------------------------------------------------------------------- notifications


def test_notifications_in_order_until_finish(frames) -> None:
    source = Source(NOTIFICATIONS)
    got = asyncio.run(_collect(source, frames))
    assert got == [frames.decode_notification(p) for p in NOTIFICATIONS]
    assert source.closed


def test_bytes_like_payloads(frames) -> None:
    payloads = [bytearray(NOTIFICATIONS[0]), memoryview(NOTIFICATIONS[1]), NOTIFICATIONS[2]]
    got = asyncio.run(_collect(Source(payloads), frames))
    assert got == [frames.decode_notification(p) for p in NOTIFICATIONS[:3]]


def test_error_raises_after_the_notifications(frames) -> None:
    source = Source([*NOTIFICATIONS[:3], ERRORS[0]])
    got: list[Any] = []

    async def main() -> None:
        async for value in aio.notifications(source(), decode=frames.decode_notification):
            got.append(value)

    with pytest.raises(aio.NotificationStreamError) as info:
        asyncio.run(main())
    assert info.value.error == frames.decode_notification(ERRORS[0])
    assert str(info.value.error.code) in str(info.value)
    assert got == [frames.decode_notification(p) for p in NOTIFICATIONS[:3]]
    assert source.closed


def test_error_alone_is_served(frames) -> None:
    with pytest.raises(aio.NotificationStreamError):
        asyncio.run(_collect(Source([ERRORS[1]]), frames))


def test_finish_with_nothing_is_not_served(frames) -> None:
    source = Source([])
    with pytest.raises(aio.NotServedError) as info:
        asyncio.run(_collect(source, frames))
    assert info.value.kind == "notifications"
    assert source.closed


def test_response_after_error_is_a_sequence_error(frames) -> None:
    source = Source([NOTIFICATIONS[0], ERRORS[0], NOTIFICATIONS[1], NOTIFICATIONS[2]])
    with pytest.raises(SequenceError):
        asyncio.run(_collect(source, frames))
    assert source.closed and source.sent == 3


def test_bad_payload_raises_and_closes(frames) -> None:
    source = Source([NOTIFICATIONS[0], b"\x05{}", NOTIFICATIONS[1]])
    with pytest.raises(UnknownTagError):
        asyncio.run(_collect(source, frames))
    assert source.closed and source.sent == 2


def test_abrupt_end_is_reraised(frames) -> None:
    cut = asyncio.IncompleteReadError(b"\x00{", 10)
    source = Source(NOTIFICATIONS[:2], fail=cut)
    with pytest.raises(asyncio.IncompleteReadError) as info:
        asyncio.run(_collect(source, frames))
    assert info.value is cut
    assert source.closed


def test_break_closes_the_source(frames) -> None:
    source = Source(NOTIFICATIONS, hang=True)

    async def main() -> Any:
        async with aclosing(
            aio.notifications(source(), decode=frames.decode_notification)
        ) as stream:
            got = []
            async for value in stream:
                got.append(value)
                break
        assert source.closed  # before asyncio.run's own clean-up of generators
        return got[0]

    assert asyncio.run(main()) == frames.decode_notification(NOTIFICATIONS[0])
    assert source.sent == 1


def test_cancel_while_waiting_closes_the_source(frames) -> None:
    source = Source(NOTIFICATIONS[:2], hang=True)
    got: list[Any] = []

    async def consume() -> None:
        async with aclosing(
            aio.notifications(source(), decode=frames.decode_notification)
        ) as stream:
            async for value in stream:
                got.append(value)

    async def main() -> None:
        task = asyncio.create_task(consume())
        await source.waiting.wait()
        assert not source.closed
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert source.closed

    asyncio.run(main())
    assert got == [frames.decode_notification(p) for p in NOTIFICATIONS[:2]]


def test_cancel_in_the_loop_body_closes_the_source(frames) -> None:
    source = Source(NOTIFICATIONS, hang=True)
    in_body = asyncio.Event()

    async def consume() -> None:
        async with aclosing(
            aio.notifications(source(), decode=frames.decode_notification)
        ) as stream:
            async for _ in stream:
                in_body.set()
                await asyncio.Event().wait()

    async def main() -> None:
        task = asyncio.create_task(consume())
        await in_body.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert source.closed  # before asyncio.run's own clean-up of generators

    asyncio.run(main())
    assert source.sent == 1


def test_wait_for_timeout_closes_the_source(frames) -> None:
    source = Source([], hang=True)

    async def main() -> None:
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(_collect(source, frames), timeout=0.05)
        assert source.closed

    asyncio.run(main())


def test_plain_async_iterable_source(frames) -> None:
    """A source with no ``aclose`` (an async iterable that is not a generator)."""

    class Payloads:
        def __init__(self, items: list[bytes]) -> None:
            self.items = iter(items)

        def __aiter__(self) -> Payloads:
            return self

        async def __anext__(self) -> bytes:
            try:
                return next(self.items)
            except StopIteration:
                raise StopAsyncIteration from None

    async def main() -> list[Any]:
        return [
            v
            async for v in aio.notifications(
                Payloads(NOTIFICATIONS[:4]), decode=frames.decode_notification
            )
        ]

    assert asyncio.run(main()) == [frames.decode_notification(p) for p in NOTIFICATIONS[:4]]


def test_default_decoder() -> None:
    async def main() -> list[Any]:
        return [v async for v in aio.notifications(Source(NOTIFICATIONS[:2])())]

    from diverge_frames import notifications

    assert asyncio.run(main()) == [notifications.decode(p) for p in NOTIFICATIONS[:2]]


# --------------------------------------------------------------------- read resource


def _read(source: Source, frames) -> ReadResourceResult:
    async def main() -> ReadResourceResult:
        try:
            return await aio.read_resource(source(), decode=frames.decode_read_resource)
        finally:
            assert source.closed  # by read_resource, not by asyncio.run's clean-up

    return asyncio.run(main())


@pytest.mark.parametrize("payload", RESULTS, ids=range(len(RESULTS)))
def test_read_resource_result(frames, payload: bytes) -> None:
    source = Source([payload])
    result = _read(source, frames)
    assert isinstance(result, ReadResourceResult)
    assert result == frames.decode_read_resource(payload)
    assert source.closed


def test_read_resource_error(frames) -> None:
    source = Source([ERRORS[1]])
    with pytest.raises(aio.ReadResourceError) as info:
        _read(source, frames)
    assert info.value.error == frames.decode_read_resource(ERRORS[1])
    assert source.closed


def test_read_resource_not_served(frames) -> None:
    with pytest.raises(aio.NotServedError) as info:
        _read(Source([]), frames)
    assert info.value.kind == "read-resource"


@pytest.mark.parametrize("second", [RESULTS[1], ERRORS[0]])
def test_read_resource_second_response(frames, second: bytes) -> None:
    source = Source([RESULTS[0], second])
    with pytest.raises(SequenceError):
        _read(source, frames)
    assert source.closed


def test_read_resource_bad_payload(frames) -> None:
    source = Source([NOTIFICATIONS[0]])
    with pytest.raises(FrameBodyError):
        _read(source, frames)
    assert source.closed


def test_read_resource_abrupt(frames) -> None:
    source = Source([RESULTS[0]], fail=ConnectionResetError("dropped"))
    with pytest.raises(ConnectionResetError):
        _read(source, frames)
    assert source.closed


def test_read_resource_cancelled(frames) -> None:
    source = Source([RESULTS[0]], hang=True)

    async def main() -> None:
        task = asyncio.create_task(aio.read_resource(source(), decode=frames.decode_read_resource))
        await source.waiting.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert source.closed


def test_max_payload_size() -> None:
    """``max_payload_size`` reaches the channel: a longer payload raises
    PayloadTooLargeError (and closes the source); no limit by default."""
    from diverge_frames import PayloadTooLargeError

    longest = max(len(p) for p in NOTIFICATIONS)

    async def collect(limit: int | None, source: Source) -> list[Any]:
        out = []
        async with aclosing(aio.notifications(source(), max_payload_size=limit)) as stream:
            async for value in stream:
                out.append(value)
        return out

    assert len(asyncio.run(collect(longest, Source(NOTIFICATIONS)))) == len(NOTIFICATIONS)
    source = Source(NOTIFICATIONS)
    with pytest.raises(PayloadTooLargeError):
        asyncio.run(collect(longest - 1, source))
    assert source.closed
    result = RESULTS[0]
    with pytest.raises(PayloadTooLargeError):
        asyncio.run(aio.read_resource(Source([result])(), max_payload_size=len(result) - 1))
    assert isinstance(
        asyncio.run(aio.read_resource(Source([result])(), max_payload_size=len(result))),
        ReadResourceResult,
    )


@pytest.mark.parametrize("source", [[b"\x00{}"], iter([b"\x00{}"]), b"\x00{}", None])
def test_a_source_that_is_no_async_iterable_is_a_clear_type_error(source: Any) -> None:
    async def main() -> None:
        with pytest.raises(TypeError, match=r"^the payloads must be an async iterable") as r:
            await aio.read_resource(source)
        assert type(source).__name__ in str(r.value)
        with pytest.raises(TypeError, match=r"^the payloads must be an async iterable"):
            async for _ in aio.notifications(source):
                pass

    asyncio.run(main())


def test_the_ask_errors_share_a_base_class() -> None:
    assert "AskError" in aio.__all__
    for cls in (aio.NotServedError, aio.NotificationStreamError, aio.ReadResourceError):
        assert issubclass(cls, aio.AskError) and not issubclass(cls, ValueError)

    async def ends(payloads: list[bytes]) -> None:
        async def source() -> Any:
            for payload in payloads:
                yield payload

        await aio.read_resource(source())

    for payloads in ([], [b'\x01{"code":-32002,"message":"nope"}']):
        with pytest.raises(aio.AskError):
            asyncio.run(ends(payloads))
