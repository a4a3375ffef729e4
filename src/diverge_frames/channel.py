"""Sequence rules of the MCP channels, sans-IO: explicit state, events out, no I/O.

A channel is what arrives on ``/mcp/notifications/{channel}`` (kind 4) or on a
read-resource channel: channel responses (payloads, see
:mod:`diverge_frames.notifications` / :mod:`diverge_frames.read_resource`), then the
channel response *finish* (the connection closed cleanly) — or an abrupt end.
The classes here say what each of those means, h11-style: feed them what arrived,
get back an event, and nothing is read or written on your behalf.

Diverge provider protocol 2.3.0 (``shared/mcp/notifications/response/frame.rs``,
``shared/mcp/read_resource/response/frame.rs`` and their "Response" pages)::

    notification channel      [0][notification]*  [1][error]?  finish
    read-resource channel     ([0][result] | [1][error])        finish

* :class:`NotificationChannel`: zero or more notifications, an error only as the last
  response, then the finish.
* :class:`OneShotChannel`: exactly one response, then the finish.
* On either, a finish that no response precedes states that the ask was *not served*
  (:class:`NotServed`), which is not the same as an empty success.
* :meth:`~NotificationChannel.abort` records an abrupt end (the connection dropped,
  a frame was cut short): :class:`Aborted`, distinct from a finish.

Whatever breaks the rules — a response after the error or after the finish, a second
response on a one-shot channel, a finish twice, anything after the end — raises
:class:`~diverge_frames.errors.SequenceError` (a ``FrameError``, so a ``ValueError``)
and leaves the channel's state unchanged. A payload that does not decode raises its own
``FrameError`` and also leaves the state unchanged, so a caller may log it and go on.

Example::

    ch = NotificationChannel()
    for payload in payloads:          # bytes, bytearray or memoryview
        event = ch.receive(payload)   # Notification(value) or Error(error)
    end = ch.finish()                 # Finished(), or NotServed() if payloads was empty
    ch.state                          # ChannelState.FINISHED or ChannelState.NOT_SERVED

For asyncio see :mod:`diverge_frames.aio`; for when the proxy asks for a notification
channel at all see :class:`NotificationSubscription`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import notifications as _notifications
from . import read_resource as _read_resource
from .errors import SequenceError
from .types import ErrorData, ReadResourceResult, ServerNotification

__all__ = [
    "ChannelState",
    "Notification",
    "Result",
    "Error",
    "Finished",
    "NotServed",
    "Aborted",
    "NotificationEvent",
    "ReadResourceEvent",
    "EndEvent",
    "NotificationChannel",
    "OneShotChannel",
    "SubscriptionState",
    "NotificationSubscription",
]

Payload = bytes | bytearray | memoryview


class ChannelState(enum.Enum):
    """Where a channel is in its sequence.

    ``OPEN``: responses may still arrive (none yet, or only notifications).
    ``ANSWERED``: a one-shot channel's result arrived; only the finish may follow.
    ``ERRORED``: the error arrived (the last response); only the finish may follow.
    ``FINISHED``: finished cleanly after at least one response.
    ``NOT_SERVED``: finished with no response before it: the ask was not served.
    ``ABORTED``: ended abruptly (:meth:`NotificationChannel.abort`).
    """

    OPEN = "open"
    ANSWERED = "answered"
    ERRORED = "errored"
    FINISHED = "finished"
    NOT_SERVED = "not_served"
    ABORTED = "aborted"

    @property
    def ended(self) -> bool:
        """``True`` for ``FINISHED``, ``NOT_SERVED`` and ``ABORTED``: nothing more may
        be fed to the channel, not even :meth:`~NotificationChannel.abort`."""
        return self in _ENDED


_ENDED = frozenset({ChannelState.FINISHED, ChannelState.NOT_SERVED, ChannelState.ABORTED})


# ------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Notification:
    """One notification, as the server sent it (tag ``0`` on a notification channel)."""

    value: ServerNotification


@dataclass(frozen=True, slots=True)
class Result:
    """The read-resource result (tag ``0`` on a one-shot channel)."""

    value: ReadResourceResult


@dataclass(frozen=True, slots=True)
class Error:
    """The MCP server's error (tag ``1``): the last response on the channel.

    ``error`` is rmcp's ``ErrorData``; its JSON-RPC ``code`` is content (``-32601``,
    ``-32602``, ``-32002`` ...), passed through untouched.
    """

    error: ErrorData


@dataclass(frozen=True, slots=True)
class Finished:
    """The channel finished cleanly after at least one response."""


@dataclass(frozen=True, slots=True)
class NotServed:
    """The channel finished with no response before the finish: the ask was not served."""


@dataclass(frozen=True, slots=True)
class Aborted:
    """The channel ended abruptly (no clean finish)."""


#: What :meth:`NotificationChannel.receive` returns.
NotificationEvent = Notification | Error
#: What :meth:`OneShotChannel.receive` returns.
ReadResourceEvent = Result | Error
#: What ``finish()`` and ``abort()`` return.
EndEvent = Finished | NotServed | Aborted


# ----------------------------------------------------------------------- channels


class _Channel:
    """State shared by both channel kinds: the state, the count of responses and the
    two ways to end."""

    __slots__ = ("_decode", "_received", "_state")

    _decode: Callable[[Payload], Any]
    _state: ChannelState
    _received: int

    @property
    def state(self) -> ChannelState:
        """The channel's :class:`ChannelState`."""
        return self._state

    def finish(self) -> Finished | NotServed:
        """Record the channel response finish (the connection closed cleanly).

        Returns :class:`NotServed` when no response preceded it, else
        :class:`Finished`. Raises :class:`~diverge_frames.errors.SequenceError` when
        the channel already ended (a finish twice, a finish after an abort).
        """
        if self._state in _ENDED:
            raise SequenceError(f"finish on a channel that already ended ({self._state.name})")
        if self._received == 0:
            self._state = ChannelState.NOT_SERVED
            return NotServed()
        self._state = ChannelState.FINISHED
        return Finished()

    def abort(self) -> Aborted:
        """Record an abrupt end: the connection dropped or a frame was cut short.

        Allowed in any state that has not ended (including after the error, when only
        the finish was missing). Raises :class:`~diverge_frames.errors.SequenceError`
        when the channel already ended.
        """
        if self._state in _ENDED:
            raise SequenceError(f"abort on a channel that already ended ({self._state.name})")
        self._state = ChannelState.ABORTED
        return Aborted()

    def _refuse(self, what: str) -> SequenceError:
        if self._state is ChannelState.ERRORED:
            why = "after the error, which is the last response"
        elif self._state is ChannelState.ANSWERED:
            why = "after the one response a read-resource channel carries"
        else:
            why = f"after the channel ended ({self._state.name})"
        return SequenceError(f"{what} {why}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(state={self._state.name}, received={self._received})"


class NotificationChannel(_Channel):
    """The notification channel (kind 4, ``/mcp/notifications/{channel}``).

    Zero or more notifications, an error only as the last response, then the finish.
    ``decode`` turns one payload into a notification or an ``ErrorData``; it defaults
    to :func:`diverge_frames.notifications.decode` (pass
    ``_frames_py.decode_notification`` to pin the pure-Python twin).
    """

    __slots__ = ()

    def __init__(self, decode: Callable[[Payload], Any] | None = None) -> None:
        self._decode = _notifications.decode if decode is None else decode
        self._state = ChannelState.OPEN
        self._received = 0

    def receive(self, payload: Payload) -> Notification | Error:
        """Take one channel response payload (``bytes``/``bytearray``/``memoryview``).

        Returns :class:`Notification` (tag 0) or :class:`Error` (tag 1, after which the
        state is ``ERRORED`` and only the finish may follow).

        Raises :class:`~diverge_frames.errors.SequenceError` when the channel is not
        ``OPEN`` (nothing is decoded then), or the payload's ``FrameError``
        (``EmptyFrameError``, ``UnknownTagError``, ``FrameBodyError``); either way the
        state is unchanged.
        """
        if self._state is not ChannelState.OPEN:
            raise self._refuse("a notification channel response")
        value = self._decode(payload)
        self._received += 1
        if isinstance(value, ErrorData):
            self._state = ChannelState.ERRORED
            return Error(value)
        return Notification(value)


class OneShotChannel(_Channel):
    """A read-resource channel: exactly one response, then the finish.

    ``decode`` turns one payload into a ``ReadResourceResult`` or an ``ErrorData``; it
    defaults to :func:`diverge_frames.read_resource.decode`.
    """

    __slots__ = ()

    def __init__(self, decode: Callable[[Payload], Any] | None = None) -> None:
        self._decode = _read_resource.decode if decode is None else decode
        self._state = ChannelState.OPEN
        self._received = 0

    def receive(self, payload: Payload) -> Result | Error:
        """Take the channel's one response payload.

        Returns :class:`Result` (tag 0; state ``ANSWERED``) or :class:`Error` (tag 1;
        state ``ERRORED``). Raises :class:`~diverge_frames.errors.SequenceError` for a
        second response or one after the end, or the payload's ``FrameError``; either
        way the state is unchanged.
        """
        if self._state is not ChannelState.OPEN:
            raise self._refuse("a read-resource channel response")
        value = self._decode(payload)
        self._received = 1
        if isinstance(value, ErrorData):
            self._state = ChannelState.ERRORED
            return Error(value)
        self._state = ChannelState.ANSWERED
        return Result(value)


# ------------------------------------------------------------------ subscription


class SubscriptionState(enum.Enum):
    """Where the proxy is in keeping its notification ask open.

    ``BEFORE_FIRST_EXCHANGE``: no exchange of kinds 0 to 3 has completed; no ask yet.
    ``DUE``: an ask is due now (send kind 4 on a ``/requests`` connection).
    ``OPEN``: exactly one ask is open; its notification channel is live.
    ``AWAITING_CONNECTION``: the last channel ended; the next ask goes on the next
    ``/requests`` connection, not the current one.
    """

    BEFORE_FIRST_EXCHANGE = "before_first_exchange"
    DUE = "due"
    OPEN = "open"
    AWAITING_CONNECTION = "awaiting_connection"


#: Kinds of the ``/requests`` exchanges after the first of which the proxy asks.
_FIRST_KINDS = range(4)
#: Kind of the notification ask itself.
NOTIFICATION_KIND = 4


class NotificationSubscription:
    """The proxy's side: when to send the notification ask (kind 4), sans-IO.

    Protocol 2.3.0, "When the proxy asks" and "A stream that ended":

    * the proxy asks after its first exchange of kinds 0 to 3 (:meth:`exchange_done`),
      and keeps exactly one ask open for the rest of its life;
    * when the notification channel ends — cleanly (finish or not served), by an error,
      or abruptly — the proxy asks again on the *next* ``/requests`` connection
      (:meth:`stream_ended`, then :meth:`connection_opened`);
    * the server does **not** replay what was said while no channel was open: a
      notification sent between a channel's end and the next ask is lost. ``asks``
      counts the asks made; every ask after the first follows such a gap.

    Drive it with what happened and ask :meth:`should_ask`::

        sub = NotificationSubscription()
        sub.exchange_done(kind)           # a kind 0-3 exchange completed
        if sub.should_ask():
            send_kind_4_ask()
            sub.asked()
        ...
        sub.stream_ended()                # the channel finished, errored or aborted
        sub.connection_opened()           # a new /requests connection: ask is due again

    A call the state forbids (:meth:`asked` when no ask is due, :meth:`stream_ended`
    with no ask open) raises :class:`~diverge_frames.errors.SequenceError` and leaves
    the state unchanged.
    """

    __slots__ = ("_asks", "_state")

    def __init__(self) -> None:
        self._state = SubscriptionState.BEFORE_FIRST_EXCHANGE
        self._asks = 0

    @property
    def state(self) -> SubscriptionState:
        """The :class:`SubscriptionState`."""
        return self._state

    @property
    def asks(self) -> int:
        """How many asks were made (``asked()`` calls) over the proxy's life."""
        return self._asks

    def should_ask(self) -> bool:
        """``True`` when the ask (kind 4, empty payload) is due now."""
        return self._state is SubscriptionState.DUE

    def exchange_done(self, kind: int) -> None:
        """Record a completed ``/requests`` exchange of ``kind`` (0 to 3).

        The first one makes the ask due. Raises ``ValueError`` for kind 4 (the ask
        itself: record it with :meth:`asked`) or any kind outside 0-4.
        """
        if type(kind) is int and kind == NOTIFICATION_KIND:
            raise ValueError("kind 4 is the notification ask: record it with asked()")
        if type(kind) is not int or kind not in _FIRST_KINDS:
            raise ValueError(f"exchange kind must be an int from 0 to 3, not {kind!r}")
        if self._state is SubscriptionState.BEFORE_FIRST_EXCHANGE:
            self._state = SubscriptionState.DUE

    def asked(self) -> None:
        """Record that the ask was sent; its channel is now the one open.

        Raises :class:`~diverge_frames.errors.SequenceError` unless
        :meth:`should_ask` is ``True`` (never two asks open, never one before the
        first exchange of kinds 0 to 3).
        """
        if self._state is not SubscriptionState.DUE:
            raise SequenceError(f"no notification ask is due ({self._state.name})")
        self._state = SubscriptionState.OPEN
        self._asks += 1

    def stream_ended(self) -> None:
        """Record that the open ask's channel ended, however it ended (finish, not
        served, error then finish, abort). The next ask is due on the next
        ``/requests`` connection. Raises :class:`~diverge_frames.errors.SequenceError`
        when no ask is open."""
        if self._state is not SubscriptionState.OPEN:
            raise SequenceError(f"no notification ask is open ({self._state.name})")
        self._state = SubscriptionState.AWAITING_CONNECTION

    def connection_opened(self) -> None:
        """Record that a new ``/requests`` connection opened. After an ended channel
        this makes the ask due; otherwise it changes nothing."""
        if self._state is SubscriptionState.AWAITING_CONNECTION:
            self._state = SubscriptionState.DUE

    def __repr__(self) -> str:
        return f"NotificationSubscription(state={self._state.name}, asks={self._asks})"
