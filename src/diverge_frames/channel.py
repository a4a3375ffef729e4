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

Where the values matter more than the events (a relay), ``receive_value`` applies the
same rules and returns the decoded value itself (the notification or result, or the
``ErrorData`` that an :class:`Error` would carry), and ``values`` does that over an
iterable of payloads; neither builds an event::

    ch = NotificationChannel()
    for value in ch.values(payloads):   # each notification in order, an ErrorData last
        relay(value)
    ch.finish()

The classes are compiled when the extension is built (``_channel_c``) and pure Python
otherwise (``_channel_py``), the same rules, events and errors either way, and the same
under threads: one channel may be fed from several, each call taking effect at once
(docs/channels.md, "Threads").

For asyncio see :mod:`diverge_frames.aio`; for when the proxy asks for a notification
channel at all see :class:`NotificationSubscription`.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._events import (
    Aborted,
    ChannelState,
    EndEvent,
    Error,
    Finished,
    Notification,
    NotificationEvent,
    NotServed,
    ReadResourceEvent,
    Result,
)
from ._impl import NO_EXTENSIONS
from ._names import public_dir
from ._wire import Payload  # noqa: F401 - re-exported: importers name it from here
from .errors import SequenceError
from .types import (  # noqa: F401 - the events' annotations name them, here their home
    ErrorData,
    ReadResourceResult,
    ServerNotification,
)

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

__dir__: Callable[[], list[str]] = public_dir(__all__)

# The channel classes are one twin's: the compiled one (_channel_c) when it imports,
# unless the pure-Python path is forced (_impl.NO_EXTENSIONS); type checkers read the
# pure one (_channel_py), the reference.
if TYPE_CHECKING or NO_EXTENSIONS:
    from . import _channel_py as _twin
else:  # pragma: no cover - which branch runs depends on the build
    try:
        from . import _channel_c as _twin
    except ImportError:  # no compiler at install time
        from . import _channel_py as _twin

NotificationChannel = _twin.NotificationChannel
OneShotChannel = _twin.OneShotChannel
#: ``"cython"`` when the channel classes are the compiled twin's, else ``"python"``.
_IMPLEMENTATION = "python" if _twin.__name__.endswith("_py") else "cython"


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
    the state unchanged. Calls from several threads take effect one at a time, so
    of two threads that both saw :meth:`should_ask` true, one ``asked()`` is taken
    and the other raises.
    """

    __slots__ = ("_asks", "_lock", "_state")

    def __init__(self) -> None:
        self._lock = threading.Lock()  # each call's check and change of the state
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
        with self._lock:
            if self._state is SubscriptionState.BEFORE_FIRST_EXCHANGE:
                self._state = SubscriptionState.DUE

    def asked(self) -> None:
        """Record that the ask was sent; its channel is now the one open.

        Raises :class:`~diverge_frames.errors.SequenceError` unless
        :meth:`should_ask` is ``True`` (never two asks open, never one before the
        first exchange of kinds 0 to 3).
        """
        with self._lock:
            state = self._state
            if state is SubscriptionState.DUE:
                self._state = SubscriptionState.OPEN
                self._asks += 1
                return
        raise SequenceError(f"no notification ask is due ({state.name})")

    def stream_ended(self) -> None:
        """Record that the open ask's channel ended, however it ended.

        Finish, not served, error then finish, abort: the next ask is due on the next
        ``/requests`` connection. Raises :class:`~diverge_frames.errors.SequenceError` when no ask
        is open."""
        with self._lock:
            state = self._state
            if state is SubscriptionState.OPEN:
                self._state = SubscriptionState.AWAITING_CONNECTION
                return
        raise SequenceError(f"no notification ask is open ({state.name})")

    def connection_opened(self) -> None:
        """Record that a new ``/requests`` connection opened.

        After an ended channel this makes the ask due; otherwise it changes nothing."""
        with self._lock:
            if self._state is SubscriptionState.AWAITING_CONNECTION:
                self._state = SubscriptionState.DUE

    def __repr__(self) -> str:
        with self._lock:
            state, asks = self._state, self._asks
        return f"NotificationSubscription(state={state.name}, asks={asks})"

    def __getstate__(self) -> dict[str, Any]:
        # A pickle or copy has the subscription's state and a lock of its own.
        with self._lock:
            return {"_state": self._state, "_asks": self._asks}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._lock = threading.Lock()
        self._state, self._asks = state["_state"], state["_asks"]
