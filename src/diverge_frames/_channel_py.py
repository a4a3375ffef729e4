"""The channels' sequence rules in pure Python: the readable reference.

The twin of ``_channel_c.pyx`` (same classes, methods, events, states and errors; both
pass the same tests); :mod:`diverge_frames.channel` documents them and picks one.
"""

from __future__ import annotations

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

# An event is built the way its frozen dataclass ``__init__`` builds it (a bare
# instance, then its one field set through the slot), without the Python frame of
# that ``__init__``: the same object at half the cost.
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
        if self._state in ENDED:
            raise already_ended("finish", self._state)
        if self._received == 0:
            self._state = ChannelState.NOT_SERVED
            return NOT_SERVED
        self._state = ChannelState.FINISHED
        return FINISHED

    def abort(self) -> Aborted:
        """Record an abrupt end: the connection dropped or a frame was cut short.

        Allowed in any state that has not ended (including after the error, when only
        the finish was missing). Raises :class:`~diverge_frames.errors.SequenceError`
        when the channel already ended.
        """
        if self._state in ENDED:
            raise already_ended("abort", self._state)
        self._state = ChannelState.ABORTED
        return ABORTED

    def __repr__(self) -> str:
        return f"{type(self).__name__}(state={self._state.name}, received={self._received})"


class NotificationChannel(_Channel):
    """The notification channel (kind 4, ``/mcp/notifications/{channel}``).

    Zero or more notifications, an error only as the last response, then the finish.
    ``decode`` turns one payload into a notification or an ``ErrorData``; it defaults
    to :func:`diverge_frames.notifications.decode` (pass
    ``_frames_py.decode_notification`` to pin the pure-Python twin).
    ``max_payload_size``: payloads longer than this many bytes are refused with
    :class:`~diverge_frames.errors.PayloadTooLargeError` before they are read (none by
    default, as rmcp has none); see :func:`diverge_frames._events.limited`.
    """

    __slots__ = ()

    def __init__(
        self, decode: Callable[[Payload], Any] | None = None, *, max_payload_size: int | None = None
    ) -> None:
        self._decode = limited(
            _notifications.decode if decode is None else decode, max_payload_size
        )
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
        value = self.receive_value(payload)
        if self._state is _OPEN:
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
        if self._state is not _OPEN:
            raise refused("a notification channel response", self._state)
        value = self._decode(payload)
        self._received += 1
        if isinstance(value, ErrorData):
            self._state = ChannelState.ERRORED
        return value  # type: ignore[no-any-return]

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
    :class:`NotificationChannel`'s.
    """

    __slots__ = ()

    def __init__(
        self, decode: Callable[[Payload], Any] | None = None, *, max_payload_size: int | None = None
    ) -> None:
        self._decode = limited(
            _read_resource.decode if decode is None else decode, max_payload_size
        )
        self._state = ChannelState.OPEN
        self._received = 0

    def receive(self, payload: Payload) -> Result | Error:
        """Take the channel's one response payload.

        Returns :class:`Result` (tag 0; state ``ANSWERED``) or :class:`Error` (tag 1;
        state ``ERRORED``). Raises :class:`~diverge_frames.errors.SequenceError` for a
        second response or one after the end, or the payload's ``FrameError``; either
        way the state is unchanged.
        """
        value = self.receive_value(payload)
        if self._state is ChannelState.ANSWERED:
            event = _new(Result)
            _set_result(event, value)
            return event
        return _error(value)

    def receive_value(self, payload: Payload) -> ReadResourceResult | ErrorData:
        """:meth:`receive`, returning the decoded value rather than an event: the
        ``ReadResourceResult`` (state ``ANSWERED``) or the ``ErrorData`` (state
        ``ERRORED``). The same rules, state changes and errors."""
        if self._state is not _OPEN:
            raise refused("a read-resource channel response", self._state)
        value = self._decode(payload)
        self._received = 1
        if isinstance(value, ErrorData):
            self._state = ChannelState.ERRORED
        else:
            self._state = ChannelState.ANSWERED
        return value  # type: ignore[no-any-return]

    def values(self, payloads: Iterable[Payload]) -> Iterator[ReadResourceResult | ErrorData]:
        """:meth:`receive_value` over ``payloads``, one as each value is asked for:
        the one response's value, then ``SequenceError`` if another payload follows.
        The first payload that raises ends the iterator with that error."""
        return _values(self.receive_value, iter(payloads))
