"""Async on top of :mod:`diverge_frames.channel`: channels as async iterators.

Under asyncio, trio, or anyio on either of its backends (nothing here uses an event
loop's API: only async iteration and the source's ``aclose()``).

A *source* is any async iterable of channel response payloads (``bytes``,
``bytearray`` or ``memoryview``), one item per channel response. Its clean end
(``StopAsyncIteration``) is the channel response finish; an exception it raises
(a dropped connection, ``asyncio.IncompleteReadError`` ...) is an abrupt end and is
re-raised as it is. The idiom::

    from contextlib import aclosing
    from diverge_frames import aio

    async with aclosing(aio.notifications(source)) as stream:
        try:
            async for notification in stream:      # ServerNotification values
                handle(notification)
        except aio.NotificationStreamError as exc:  # the stream ended with an error
            log(exc.error.code, exc.error.message)
        except aio.NotServedError:                  # finish with no message at all
            ...
    # the ask ended however it ended: ask again on the next /requests connection

    result = await aio.read_resource(source)       # ReadResourceResult
    # raises aio.ReadResourceError (.error: ErrorData) or aio.NotServedError

Both wait for the finish after the last response, so that a response the rules
forbid (one after the error, a second read-resource result) raises
:class:`~diverge_frames.errors.SequenceError` instead of passing unseen; the protocol
has the server close the connection as soon as it has no more to send. Bound a peer
that does not with the event loop's timeout (``asyncio.timeout``,
``trio.move_on_after``, ``anyio.fail_after``): cancellation stops the wait for the next
response and closes the source.

Both take each payload with the channel's ``receive_value`` (no event is built).

``max_payload_size`` has no default (no limit), as rmcp's transports have none (its
line codec's ``max_length`` is ``usize::MAX`` unless set); a default would refuse frames
rmcp reads. A relay reading a peer it does not trust sets one (docs/channels.md, "Async").

Both close the source (its ``aclose()``, when it has one) whenever they stop: at the
finish, on an error, on a decode error, or when the consumer is cancelled or stops
iterating. Use ``contextlib.aclosing`` around :func:`notifications` so an early
``break`` closes the source at once rather than when the generator is collected.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Callable
from typing import Any

from ._names import public_dir
from .channel import NotificationChannel, NotServed, OneShotChannel
from .types import ErrorData, ReadResourceResult, ServerNotification

__all__ = [
    "AskError",
    "NotServedError",
    "NotificationStreamError",
    "ReadResourceError",
    "notifications",
    "read_resource",
]

Payload = bytes | bytearray | memoryview


__dir__: Callable[[], list[str]] = public_dir(__all__)


class AskError(Exception):
    """Base class of how an ask can end without what was asked for.

    Not served (:class:`NotServedError`), or answered with the MCP server's error
    (:class:`NotificationStreamError`, :class:`ReadResourceError`, each with ``.error``). A
    bad payload is a :class:`~diverge_frames.errors.FrameError` instead, and what the source
    raises is re-raised as it is."""


class NotServedError(AskError):
    """The ask was not served: the channel finished with no channel response before it.

    The proxy (or client) did not serve the ask. Per protocol 2.3.0 this is the only meaning
    of an empty, cleanly closed channel, so it is raised rather than reported as an empty
    stream. ``kind`` is ``"notifications"`` or ``"read-resource"``."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        super().__init__(f"the {kind} ask was not served (finish with no response)")


class NotificationStreamError(AskError):
    """The notification stream ended with an error (tag 1, then the finish).

    ``error`` is the MCP server's :class:`~diverge_frames.types.ErrorData`, code
    untouched. Every notification before it was already yielded.
    """

    def __init__(self, error: ErrorData) -> None:
        self.error = error
        super().__init__(f"notification stream ended with error {error.code}: {error.message}")


class ReadResourceError(AskError):
    """The read-resource channel answered with an error (tag 1).

    ``error`` is the MCP server's :class:`~diverge_frames.types.ErrorData`: ``-32002``
    resource not found, ``-32602`` invalid params, ... passed through untouched.
    """

    def __init__(self, error: ErrorData) -> None:
        self.error = error
        super().__init__(f"read-resource failed with error {error.code}: {error.message}")


def _iterate(payloads: Any) -> Any:
    """``payloads.__aiter__()``, or a ``TypeError`` when it is no async iterable.

    The ``TypeError`` names what was given (a list, a plain iterator, a coroutine)."""
    aiter = getattr(type(payloads), "__aiter__", None)
    if aiter is None:
        raise TypeError(
            "the payloads must be an async iterable (async for), not "
            f"{type(payloads).__name__} (wrap a list in an async generator: "
            "`async def source(): for p in payloads: yield p`)"
        )
    return aiter(payloads)


async def _aclose(source: Any) -> None:
    aclose = getattr(source, "aclose", None)
    if aclose is not None:
        await aclose()


async def notifications(
    payloads: AsyncIterable[Payload],
    *,
    decode: Callable[[Payload], Any] | None = None,
    max_payload_size: int | None = None,
) -> AsyncIterator[ServerNotification]:
    """Yield each notification of a notification channel, in order.

    ``payloads``: the channel responses; its end is the channel finish. ``decode``
    and ``max_payload_size`` (a payload longer is refused with
    :class:`~diverge_frames.errors.PayloadTooLargeError` before it is read; no limit
    by default) are passed to :class:`~diverge_frames.channel.NotificationChannel`.

    Ends when the channel finishes after at least one notification. Raises
    :class:`NotificationStreamError` when the last response was an error (after the
    finish), :class:`NotServedError` for a finish with nothing before it,
    :class:`~diverge_frames.errors.SequenceError` for a response after the error, a
    payload's ``FrameError`` when one does not decode, and whatever the source raises
    (an abrupt end). The source is closed in every case.
    """
    channel = NotificationChannel(decode, max_payload_size=max_payload_size)
    receive_value = channel.receive_value
    source = _iterate(payloads)
    error: ErrorData | None = None
    try:
        async for payload in source:
            value = receive_value(payload)
            if isinstance(value, ErrorData):
                error = value
            else:
                yield value
    finally:
        await _aclose(source)
    if isinstance(channel.finish(), NotServed):
        raise NotServedError("notifications")
    if error is not None:
        raise NotificationStreamError(error)


async def read_resource(
    payloads: AsyncIterable[Payload],
    *,
    decode: Callable[[Payload], Any] | None = None,
    max_payload_size: int | None = None,
) -> ReadResourceResult:
    """Await a read-resource channel's one response and its finish.

    ``decode`` and ``max_payload_size`` are passed to
    :class:`~diverge_frames.channel.OneShotChannel`.

    Returns the :class:`~diverge_frames.types.ReadResourceResult`. Raises
    :class:`ReadResourceError` (``.error``) for an error response,
    :class:`NotServedError` for a finish with nothing before it,
    :class:`~diverge_frames.errors.SequenceError` for a second response, a payload's
    ``FrameError``, and whatever the source raises. The source is closed in every case.
    """
    channel = OneShotChannel(decode, max_payload_size=max_payload_size)
    source = _iterate(payloads)
    value = None
    try:
        async for payload in source:
            value = channel.receive_value(payload)
    finally:
        await _aclose(source)
    if isinstance(channel.finish(), NotServed):
        raise NotServedError("read-resource")
    if isinstance(value, ErrorData):
        raise ReadResourceError(value)
    return value  # type: ignore[return-value]
