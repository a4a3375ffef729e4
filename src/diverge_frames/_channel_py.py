"""The channels' sequence rules in pure Python: the readable reference.

The twin of ``_channel_c.pyx`` (same classes, methods, events, states and errors; both
pass the same tests); :mod:`diverge_frames.channel` documents them and picks one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from . import notifications as _notifications
from . import read_resource as _read_resource
from ._events import (
    ABORTED,
    ENDED,
    FINISHED,
    NOT_SERVED,
    Aborted,
    ChannelState,
    Error,
    Finished,
    Notification,
    NotServed,
    Result,
    already_ended,
    limited,
    refused,
)
from ._wire import Payload
from .types import ErrorData, ReadResourceResult, ServerNotification

__all__ = ["NotificationChannel", "OneShotChannel"]

_OPEN = ChannelState.OPEN
_ANSWERED = ChannelState.ANSWERED
_ERRORED = ChannelState.ERRORED

# An event is built the way its frozen dataclass ``__init__`` builds it (a bare
# instance, then its one field set through the slot), without the Python frame of
# that ``__init__``: the same object, built without running Python code.
_new = object.__new__
_set_value = Notification.__dict__["value"].__set__
_set_result = Result.__dict__["value"].__set__
_set_error = Error.__dict__["error"].__set__


def _error(error: Any) -> Error:  # an ErrorData
    event = _new(Error)
    _set_error(event, error)
    return event


def _values(receive_value: Callable[[Payload], Any], payloads: Iterator[Payload]) -> Iterator[Any]:
    """What ``values()`` returns: ``receive_value`` over each payload, as asked for."""
    for payload in payloads:
        yield receive_value(payload)


class _Channel:
    """State shared by both channel kinds.

    The state, the count of responses and the two ways to end.

    Each call's check of the state and its change of it run under ``_lock`` (the
    compiled twin's critical section), so that calls from several threads take effect
    one at a time; the decode runs outside it, so threads decode in parallel. The lock
    is taken with ``acquire`` and ``release``, which skip a ``with``'s two method calls.
    """

    __slots__ = ("_decode", "_lock", "_received", "_state")

    _decode: Callable[[Payload], Any]
    _lock: threading.Lock
    _state: ChannelState
    _received: int

    @property
    def state(self) -> ChannelState:
        """The channel's :class:`ChannelState`."""
        return self._state

    @property
    def received(self) -> int:
        """How many responses the channel has taken (an ``int``).

        Each payload ``receive``, ``receive_value`` or a step of ``values()`` decoded
        and accepted counts once: a notification, the error, the one-shot's response. A
        refused call (``SequenceError``) and a payload that does not decode do not.
        """
        return self._received

    def finish(self) -> Finished | NotServed:
        """Record the channel response finish (the connection closed cleanly).

        Returns :class:`NotServed` when no response preceded it, else
        :class:`Finished`. Raises :class:`~diverge_frames.errors.SequenceError` when
        the channel already ended (a finish twice, a finish after an abort).
        """
        lock = self._lock
        lock.acquire()
        try:
            state = self._state
            if state not in ENDED:
                if self._received == 0:
                    self._state = ChannelState.NOT_SERVED
                    return NOT_SERVED
                self._state = ChannelState.FINISHED
                return FINISHED
        finally:
            lock.release()
        raise already_ended("finish", state)

    def abort(self) -> Aborted:
        """Record an abrupt end: the connection dropped or a frame was cut short.

        Allowed in any state that has not ended (including after the error, when only
        the finish was missing). Raises :class:`~diverge_frames.errors.SequenceError`
        when the channel already ended.
        """
        lock = self._lock
        lock.acquire()
        try:
            state = self._state
            if state not in ENDED:
                self._state = ChannelState.ABORTED
                return ABORTED
        finally:
            lock.release()
        raise already_ended("abort", state)

    def __repr__(self) -> str:
        with self._lock:
            state, received = self._state, self._received
        return f"{type(self).__name__}(state={state.name}, received={received})"

    def __getstate__(self) -> dict[str, Any]:
        # A pickle or copy has the channel's state and a lock of its own.
        with self._lock:
            state = {"_decode": self._decode, "_state": self._state, "_received": self._received}
        return {**getattr(self, "__dict__", {}), **state}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._lock = threading.Lock()
        for name, value in state.items():
            setattr(self, name, value)


class NotificationChannel(_Channel):
    """The notification channel (kind 4, ``/mcp/notifications/{channel}``).

    Zero or more notifications, an error only as the last response, then the finish.
    ``decode`` turns one payload into a notification or an ``ErrorData``; it defaults
    to :func:`diverge_frames.notifications.decode` (pass
    ``_frames_py.decode_notification`` to pin the pure-Python twin).
    ``max_payload_size``: payloads longer than this many bytes are refused with
    :class:`~diverge_frames.errors.PayloadTooLargeError` before they are read (none by
    default, as rmcp has none); see :func:`diverge_frames._events.limited`.

    One channel may be fed from several threads: each call takes effect at once, as
    if the calls ran one after another (the decodes themselves run in parallel), so
    the rules hold whatever the order; a ``values()`` iterator is for one thread at
    a time, as a generator is.
    """

    __slots__ = ()

    def __init__(
        self, decode: Callable[[Payload], Any] | None = None, *, max_payload_size: int | None = None
    ) -> None:
        self._decode = limited(
            _notifications.decode if decode is None else decode, max_payload_size
        )
        self._lock = threading.Lock()
        self._state = _OPEN
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
        value = self.receive_value(payload)
        # Still OPEN: what this call took was no error (one would have ended OPEN for
        # good); otherwise the value says, as another thread may have changed the state.
        if self._state is _OPEN or not isinstance(value, ErrorData):
            event = _new(Notification)
            _set_value(event, value)
            return event
        return _error(value)

    def receive_value(self, payload: Payload) -> ServerNotification | ErrorData:
        """:meth:`receive`, returning the decoded value rather than an event.

        The same rules, state changes and errors; returns the notification (the
        ``value`` of the :class:`Notification` event) or the ``ErrorData`` (the
        ``error`` of the :class:`Error` event, after which the state is ``ERRORED``).
        """
        state = self._state
        if state is _OPEN:
            value = self._decode(payload)
            errored = isinstance(value, ErrorData)
            lock = self._lock
            lock.acquire()
            try:  # the state again: another thread may have changed it
                state = self._state
                if state is _OPEN:
                    self._received += 1
                    if errored:
                        self._state = _ERRORED
                    return value  # type: ignore[no-any-return]
            finally:
                lock.release()
        raise refused("a notification channel response", state)

    def values(self, payloads: Iterable[Payload]) -> Iterator[ServerNotification | ErrorData]:
        """:meth:`receive_value` over ``payloads``, one as each value is asked for.

        Yields each payload's value in order (the ``ErrorData``, if one comes, last:
        a payload after it raises ``SequenceError``). The first payload that raises
        ends the iterator with that error, the state unchanged by that payload (the
        payloads before it were received); ``finish()`` stays the caller's.
        ``iter(payloads)`` is taken at once (``TypeError`` when not iterable).
        """
        return _values(self.receive_value, iter(payloads))


class OneShotChannel(_Channel):
    """A read-resource channel: exactly one response, then the finish.

    ``decode`` turns one payload into a ``ReadResourceResult`` or an ``ErrorData``; it
    defaults to :func:`diverge_frames.read_resource.decode`. ``max_payload_size``: as
    :class:`NotificationChannel`'s. Threads: as :class:`NotificationChannel`, so of
    responses fed at once from several threads exactly one is taken.
    """

    __slots__ = ()

    def __init__(
        self, decode: Callable[[Payload], Any] | None = None, *, max_payload_size: int | None = None
    ) -> None:
        self._decode = limited(
            _read_resource.decode if decode is None else decode, max_payload_size
        )
        self._lock = threading.Lock()
        self._state = _OPEN
        self._received = 0

    def receive(self, payload: Payload) -> Result | Error:
        """Take the channel's one response payload.

        Returns :class:`Result` (tag 0; state ``ANSWERED``) or :class:`Error` (tag 1;
        state ``ERRORED``). Raises :class:`~diverge_frames.errors.SequenceError` for a
        second response or one after the end, or the payload's ``FrameError``; either
        way the state is unchanged.
        """
        value = self.receive_value(payload)
        state = self._state  # what this call set, unless the channel has ended since
        if state is _ANSWERED or (state is not _ERRORED and not isinstance(value, ErrorData)):
            event = _new(Result)
            _set_result(event, value)
            return event
        return _error(value)

    def receive_value(self, payload: Payload) -> ReadResourceResult | ErrorData:
        """:meth:`receive`, returning the decoded value rather than an event.

        The value is the ``ReadResourceResult`` (state ``ANSWERED``) or the ``ErrorData`` (state
        ``ERRORED``). The same rules, state changes and errors."""
        state = self._state
        if state is _OPEN:
            value = self._decode(payload)
            answer = _ERRORED if isinstance(value, ErrorData) else _ANSWERED
            lock = self._lock
            lock.acquire()
            try:  # the state again: another thread may have changed it
                state = self._state
                if state is _OPEN:
                    self._received = 1
                    self._state = answer
                    return value  # type: ignore[no-any-return]
            finally:
                lock.release()
        raise refused("a read-resource channel response", state)

    def values(self, payloads: Iterable[Payload]) -> Iterator[ReadResourceResult | ErrorData]:
        """:meth:`receive_value` over ``payloads``, one as each value is asked for.

        Yields the one response's value, then raises ``SequenceError`` if another payload
        follows. The first payload that raises ends the iterator with that error."""
        return _values(self.receive_value, iter(payloads))
