"""The words of the sequence rules, shared by both channel twins.

The channel's state, the events, the ends returned as cached instances, and the
``SequenceError`` messages.

Its classes are public as :mod:`diverge_frames.channel`'s (``__module__`` says so, for
``help()``, documentation tools and pickles), and listed in that module's ``__all__``
alone; the rest (``ENDED``, the cached ends, the messages, ``limited``) is the twins'
and takes no list of its own. The twins are ``_channel_py`` (the readable reference)
and ``_channel_c`` (compiled), which :mod:`diverge_frames.channel` chooses between.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import PayloadTooLargeError, SequenceError
from .types import ErrorData, ReadResourceResult, ServerNotification

_T = TypeVar("_T")


def _public(cls: type[_T]) -> type[_T]:
    """Name :mod:`diverge_frames.channel` as the home of ``cls``.

    Done once it is built: the dataclass decorator reads the module it was written in."""
    cls.__module__ = "diverge_frames.channel"
    return cls


@_public
class ChannelState(enum.Enum):
    """Where a channel is in its sequence.

    ``OPEN``: responses may still arrive (none yet, or only notifications).
    ``ANSWERED``: a one-shot channel's result arrived; only the finish may follow.
    ``ERRORED``: the error arrived (the last response); only the finish may follow.
    ``FINISHED``: finished cleanly after at least one response.
    ``NOT_SERVED``: finished with no response before it: the ask was not served.
    ``ABORTED``: ended abruptly (:meth:`NotificationChannel.abort`).
    """

    # The compiled twin keeps the state as the member's index in this order (the three
    # ends last), and a test holds its constants to it.
    OPEN = "open"
    ANSWERED = "answered"
    ERRORED = "errored"
    FINISHED = "finished"
    NOT_SERVED = "not_served"
    ABORTED = "aborted"

    @property
    def ended(self) -> bool:
        """``True`` for ``FINISHED``, ``NOT_SERVED`` and ``ABORTED``.

        Nothing more may be fed to the channel, not even :meth:`~NotificationChannel.abort`."""
        return self in ENDED


#: The states after which nothing may be fed to a channel.
ENDED = frozenset({ChannelState.FINISHED, ChannelState.NOT_SERVED, ChannelState.ABORTED})


# ------------------------------------------------------------------------- events


@_public
@dataclass(frozen=True, slots=True)
class Notification:
    """One notification, as the server sent it (tag ``0`` on a notification channel)."""

    value: ServerNotification


@_public
@dataclass(frozen=True, slots=True)
class Result:
    """The read-resource result (tag ``0`` on a one-shot channel)."""

    value: ReadResourceResult


@_public
@dataclass(frozen=True, slots=True)
class Error:
    """The MCP server's error (tag ``1``): the last response on the channel.

    ``error`` is rmcp's ``ErrorData``; its JSON-RPC ``code`` is content (``-32601``,
    ``-32602``, ``-32002`` ...), passed through untouched.
    """

    error: ErrorData


@_public
@dataclass(frozen=True, slots=True)
class Finished:
    """The channel finished cleanly after at least one response."""


@_public
@dataclass(frozen=True, slots=True)
class NotServed:
    """The channel finished with no response before the finish: the ask was not served."""


@_public
@dataclass(frozen=True, slots=True)
class Aborted:
    """The channel ended abruptly (no clean finish)."""


#: What :meth:`NotificationChannel.receive` returns.
NotificationEvent = Notification | Error
#: What :meth:`OneShotChannel.receive` returns.
ReadResourceEvent = Result | Error
#: What ``finish()`` and ``abort()`` return.
EndEvent = Finished | NotServed | Aborted

#: The ends carry nothing and are frozen, so ``finish()`` and ``abort()`` return these
#: instances rather than build one each time (they compare equal to any other).
FINISHED = Finished()
NOT_SERVED = NotServed()
ABORTED = Aborted()


# ----------------------------------------------------------------------- messages


def refused(response: str, state: ChannelState) -> SequenceError:
    """The error for ``response`` arriving in ``state``, any state but ``OPEN``.

    ``response`` names it, e.g. ``"a notification channel response"``."""
    if state is ChannelState.ERRORED:
        why = "after the error, which is the last response"
    elif state is ChannelState.ANSWERED:
        why = "after the one response a read-resource channel carries"
    else:
        why = f"after the channel ended ({state.name})"
    return SequenceError(f"{response} {why}")


def already_ended(action: str, state: ChannelState) -> SequenceError:
    """The error for ``action`` (``"finish"`` or ``"abort"``) on a channel that ended.

    ``state`` is one of :data:`ENDED`."""
    return SequenceError(f"{action} on a channel that already ended ({state.name})")


def limited(decode: Callable[[Any], Any], max_payload_size: int | None) -> Callable[[Any], Any]:
    """``decode``, refusing a payload longer than ``max_payload_size`` bytes before it is read.

    The refusal is :class:`~diverge_frames.errors.PayloadTooLargeError`; ``decode`` itself
    when there is no limit. The channels' ``max_payload_size``."""
    if max_payload_size is None:
        return decode
    if type(max_payload_size) is not int or max_payload_size < 1:
        raise ValueError(
            f"max_payload_size must be a positive int or None, not {max_payload_size!r}"
        )
    limit = max_payload_size

    def decode_limited(payload: Any) -> Any:
        if type(payload) is bytes:
            size = len(payload)
        else:
            with memoryview(payload) as view:  # TypeError when not bytes-like, as decode
                size = view.nbytes
        if size > limit:
            raise PayloadTooLargeError(size, limit)
        return decode(payload)

    return decode_limited
