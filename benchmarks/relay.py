"""The relay loop: decode -> channel rules -> encode, over the real frames.

What a proxy does with each channel it relays: take each payload, apply the channel's
sequence rules (a notification channel: notifications, an error only last; a
read-resource channel: one response), and write the value out again. The channels are
:func:`benchmarks.cases.relay_channels` (every corpus frame under 1 MB); one operation
is one frame. Four loops, each returning the bytes it wrote and the channels served:

* ``channel``: ours, with :class:`diverge_frames.channel.NotificationChannel` /
  :class:`~diverge_frames.channel.OneShotChannel` (the default decode) and
  :func:`diverge_frames.notifications.encode` / ``read_resource.encode``;
* ``minimal``: the same decode and encode with a minimal state machine of the same
  rules written inline: what the channel layer costs is the difference;
* ``mcp-types``: the tag byte split off, mcp-types' pydantic models
  (:mod:`benchmarks.peers`), the same inline rules, ``model_dump_json`` and the tag;
* ``orjson``: untyped: ``orjson.loads`` to a dict, minimal checks (an object; a string
  ``method``, a ``contents`` list, or an integer ``code`` and a string ``message``),
  the same inline rules, ``orjson.dumps`` and the tag.

The inline rules raise ``ValueError`` where the channel classes raise
``SequenceError``; the corpus follows the rules, so neither is raised here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from diverge_frames import notifications, read_resource
from diverge_frames.channel import Error, Finished, NotificationChannel, OneShotChannel
from diverge_frames.types import ErrorData

from . import peers

__all__ = ["IMPLEMENTATIONS", "REFERENCE", "Channels", "loops"]

#: Columns of the relay table, the reference (ours, as users write it) first.
IMPLEMENTATIONS = ("channel", "minimal", "mcp-types", "orjson")
REFERENCE = "channel"

#: ``[(kind, payloads)]``: the channels to relay.
Channels = Sequence[tuple[str, Sequence[bytes]]]

_OPEN, _ANSWERED, _ERRORED = 0, 1, 2
_AFTER_THE_END = "a response after the error or after the one result of a read-resource channel"


def relay_channel(channels: Channels) -> tuple[int, int]:
    """Ours, with the channel classes: ``(bytes written, channels served)``."""
    written = served = 0
    for kind, payloads in channels:
        if kind == "notifications":
            channel: NotificationChannel | OneShotChannel = NotificationChannel()
            encode = notifications.encode
        else:
            channel = OneShotChannel()
            encode = read_resource.encode
        for payload in payloads:
            event = channel.receive(payload)
            written += len(encode(event.error if type(event) is Error else event.value))
        served += type(channel.finish()) is Finished
    return written, served


def relay_minimal(channels: Channels) -> tuple[int, int]:
    """Ours: the same decode and encode, the rules inline."""
    written = served = 0
    for kind, payloads in channels:
        one_shot = kind != "notifications"
        decode, encode = (
            (read_resource.decode, read_resource.encode)
            if one_shot
            else (notifications.decode, notifications.encode)
        )
        state = _OPEN
        received = 0
        for payload in payloads:
            if state:
                raise ValueError(_AFTER_THE_END)
            value = decode(payload)
            received += 1
            if type(value) is ErrorData:
                state = _ERRORED
            elif one_shot:
                state = _ANSWERED
            written += len(encode(value))
        served += received > 0
    return written, served


def _mcp_loop() -> Callable[[Channels], tuple[int, int]] | None:
    if peers.mcp_validators() is None:
        return None
    validator, dump = peers.mcp_validator, peers.mcp_dump
    validators = {
        (kind, tag): validator(kind, tag)
        for kind in ("notifications", "read-resource")
        for tag in (0, 1)
    }

    def relay_mcp_types(channels: Channels) -> tuple[int, int]:
        """mcp-types' models, the rules inline."""
        written = served = 0
        for kind, payloads in channels:
            one_shot = kind != "notifications"
            state = _OPEN
            received = 0
            for payload in payloads:
                if state:
                    raise ValueError(_AFTER_THE_END)
                if not payload or payload[0] > 1:
                    raise ValueError("an empty payload or an unknown tag")
                tag = payload[0]
                value = validators[(kind, tag)](payload[1:])
                received += 1
                if tag == 1:
                    state = _ERRORED
                elif one_shot:
                    state = _ANSWERED
                written += len(bytes((tag,)) + dump(value).encode())
            served += received > 0
        return written, served

    return relay_mcp_types


def _orjson_loop() -> Callable[[Channels], tuple[int, int]] | None:
    orjson = peers.orjson()
    if orjson is None:
        return None
    loads, dumps = orjson.loads, orjson.dumps

    def relay_orjson(channels: Channels) -> tuple[int, int]:
        """orjson to dicts, minimal checks, the rules inline."""
        written = served = 0
        for kind, payloads in channels:
            one_shot = kind != "notifications"
            state = _OPEN
            received = 0
            for payload in payloads:
                if state:
                    raise ValueError(_AFTER_THE_END)
                if not payload or payload[0] > 1:
                    raise ValueError("an empty payload or an unknown tag")
                tag = payload[0]
                value = loads(memoryview(payload)[1:])
                if type(value) is not dict:
                    raise ValueError("not a JSON object")
                if tag == 1:
                    if type(value.get("code")) is not int or type(value.get("message")) is not str:
                        raise ValueError("not an error")
                    state = _ERRORED
                elif one_shot:
                    if type(value.get("contents")) is not list:
                        raise ValueError("not a read-resource result")
                    state = _ANSWERED
                elif type(value.get("method")) is not str:
                    raise ValueError("not a notification")
                received += 1
                written += len(bytes((tag,)) + dumps(value))
            served += received > 0
        return written, served

    return relay_orjson


def loops() -> dict[str, Callable[[Channels], tuple[int, int]]]:
    """``{column: loop}`` of the implementations installed."""
    out: dict[str, Callable[[Channels], tuple[int, int]] | None] = {
        "channel": relay_channel,
        "minimal": relay_minimal,
        "mcp-types": _mcp_loop(),
        "orjson": _orjson_loop(),
    }
    return {name: loop for name, loop in out.items() if loop is not None}
