"""Sequence rules of NotificationChannel and OneShotChannel, over both hot paths and
both twins of the channel classes.

Payloads are real traffic from ``tests/data/corpus`` (server-everything over stdio).
Every test runs once per channel twin (``_channel_py``, ``_channel_c``): for its
duration, the module's ``NotificationChannel`` and ``OneShotChannel`` are that twin's.
The fast paths (``receive_value``, ``values``) are in ``test_channel_values.py``.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from types import ModuleType

import pytest

from diverge_frames import notifications, read_resource
from diverge_frames.channel import (
    Aborted,
    ChannelState,
    Error,
    Finished,
    Notification,
    NotificationChannel,
    NotServed,
    OneShotChannel,
    Result,
)
from diverge_frames.errors import (
    EmptyFrameError,
    FrameBodyError,
    FrameError,
    SequenceError,
    UnknownTagError,
)
from diverge_frames.types import ErrorData, ReadResourceResult

CORPUS = Path(__file__).parent / "data" / "corpus" / "server-everything"


def _lines(name: str) -> list[bytes]:
    return [line for line in (CORPUS / name).read_bytes().splitlines() if line.strip()]


NOTIFICATIONS = [b"\x00" + line for line in _lines("notifications.jsonl")]
RESULTS = [b"\x00" + line for line in _lines("read_resource_results.jsonl")]
ERRORS = [b"\x01" + line for line in _lines("errors.jsonl")]
BAD = [
    (b"", EmptyFrameError),
    (b"\x02{}", UnknownTagError),
    (b"\xff", UnknownTagError),
    (b"\x00not json", FrameBodyError),
    (b"\x01{}", FrameBodyError),
]


@pytest.fixture(autouse=True)
def _each_channel_twin(channels: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make this module's ``NotificationChannel`` and ``OneShotChannel`` the twin's."""
    monkeypatch.setitem(globals(), "NotificationChannel", channels.NotificationChannel)
    monkeypatch.setitem(globals(), "OneShotChannel", channels.OneShotChannel)


# -------------------------------------------------------------- notification channel


def test_notifications_then_finish(frames) -> None:
    ch = NotificationChannel(decode=frames.decode_notification)
    assert ch.state is ChannelState.OPEN
    for payload in NOTIFICATIONS:
        event = ch.receive(payload)
        assert event == Notification(frames.decode_notification(payload))
        assert ch.state is ChannelState.OPEN
    assert ch.finish() == Finished()
    assert ch.state is ChannelState.FINISHED
    assert ch.state.ended


def test_error_is_last_then_finish(frames) -> None:
    ch = NotificationChannel(decode=frames.decode_notification)
    ch.receive(NOTIFICATIONS[0])
    event = ch.receive(ERRORS[1])
    assert isinstance(event, Error)
    assert event.error == frames.decode_notification(ERRORS[1])
    assert isinstance(event.error, ErrorData)
    assert ch.state is ChannelState.ERRORED
    assert not ch.state.ended
    for payload in (NOTIFICATIONS[1], ERRORS[0], b"", b"\x07"):
        with pytest.raises(SequenceError):
            ch.receive(payload)
        assert ch.state is ChannelState.ERRORED
    assert ch.finish() == Finished()
    assert ch.state is ChannelState.FINISHED


def test_error_alone_is_served(frames) -> None:
    ch = NotificationChannel(decode=frames.decode_notification)
    assert isinstance(ch.receive(ERRORS[0]), Error)
    assert ch.finish() == Finished()


def test_finish_with_nothing_is_not_served(frames) -> None:
    ch = NotificationChannel(decode=frames.decode_notification)
    assert ch.finish() == NotServed()
    assert ch.state is ChannelState.NOT_SERVED
    assert ch.state.ended


@pytest.mark.parametrize("end", ["finish", "abort"])
def test_nothing_after_the_end(frames, end: str) -> None:
    ch = NotificationChannel(decode=frames.decode_notification)
    ch.receive(NOTIFICATIONS[0])
    getattr(ch, end)()
    state = ch.state
    for payload in (NOTIFICATIONS[0], ERRORS[0], b""):
        with pytest.raises(SequenceError):
            ch.receive(payload)
    with pytest.raises(SequenceError):
        ch.finish()
    with pytest.raises(SequenceError):
        ch.abort()
    assert ch.state is state


def test_abort_is_not_a_finish(frames) -> None:
    empty = NotificationChannel(decode=frames.decode_notification)
    assert empty.abort() == Aborted()
    assert empty.state is ChannelState.ABORTED
    errored = NotificationChannel(decode=frames.decode_notification)
    errored.receive(ERRORS[0])
    assert errored.abort() == Aborted()
    assert errored.state is ChannelState.ABORTED
    assert Aborted() != Finished() and Aborted() != NotServed()


@pytest.mark.parametrize(("payload", "error"), BAD)
def test_bad_payload_leaves_state_unchanged(frames, payload: bytes, error: type) -> None:
    ch = NotificationChannel(decode=frames.decode_notification)
    with pytest.raises(error):
        ch.receive(payload)
    assert ch.state is ChannelState.OPEN
    ch.receive(NOTIFICATIONS[0])
    with pytest.raises(error):
        ch.receive(payload)
    assert ch.state is ChannelState.OPEN
    assert ch.finish() == Finished()


def test_only_bad_payloads_then_finish_is_not_served(frames) -> None:
    ch = NotificationChannel(decode=frames.decode_notification)
    for payload, error in BAD:
        with pytest.raises(error):
            ch.receive(payload)
    assert ch.finish() == NotServed()


@pytest.mark.parametrize("kind", [bytes, bytearray, memoryview])
def test_bytes_like_payloads(frames, kind: type) -> None:
    ch = NotificationChannel(decode=frames.decode_notification)
    for payload in NOTIFICATIONS[:5]:
        assert ch.receive(kind(payload)) == Notification(frames.decode_notification(payload))
    sliced = memoryview(b"xx" + ERRORS[0] + b"yy")[2:-2]
    assert ch.receive(sliced) == Error(frames.decode_notification(ERRORS[0]))


def test_default_decoder() -> None:
    ch = NotificationChannel()
    assert ch.receive(NOTIFICATIONS[0]) == Notification(notifications.decode(NOTIFICATIONS[0]))
    one = OneShotChannel()
    assert one.receive(RESULTS[0]) == Result(read_resource.decode(RESULTS[0]))


def test_events_are_frozen(frames) -> None:
    event = NotificationChannel(decode=frames.decode_notification).receive(NOTIFICATIONS[0])
    with pytest.raises(AttributeError):
        event.value = None  # type: ignore[misc]
    assert not hasattr(event, "__dict__")


@pytest.mark.parametrize("method", ["receive", "receive_value", "values"])
def test_received_counts_taken_responses(frames, method: str) -> None:
    """``received``: each response taken once; a bad payload, a refused call and the
    end add nothing; read-only."""

    def take(channel, payload: bytes) -> None:
        if method == "values":
            next(channel.values([payload]))
        else:
            getattr(channel, method)(payload)

    ch = NotificationChannel(decode=frames.decode_notification)
    assert ch.received == 0
    for count, payload in enumerate(NOTIFICATIONS[:3], 1):
        take(ch, payload)
        assert ch.received == count
    for payload, error in BAD:
        with pytest.raises(error):
            take(ch, payload)
    assert ch.received == 3
    take(ch, ERRORS[0])
    assert ch.received == 4
    with pytest.raises(SequenceError):
        take(ch, NOTIFICATIONS[0])
    ch.finish()
    assert ch.received == 4
    assert repr(ch) == "NotificationChannel(state=FINISHED, received=4)"
    with pytest.raises(AttributeError):
        ch.received = 0  # type: ignore[misc]

    one = OneShotChannel(decode=frames.decode_read_resource)
    assert one.received == 0
    with pytest.raises(FrameBodyError):
        take(one, b"\x00{}")
    assert one.received == 0
    take(one, RESULTS[0])
    assert one.received == 1
    with pytest.raises(SequenceError):
        take(one, RESULTS[0])
    assert one.received == 1
    assert one.finish() == Finished()
    assert one.received == 1
    empty = OneShotChannel(decode=frames.decode_read_resource)
    assert empty.finish() == NotServed()
    assert empty.received == 0


def test_repr(frames) -> None:
    ch = NotificationChannel(decode=frames.decode_notification)
    ch.receive(NOTIFICATIONS[0])
    ch.receive(NOTIFICATIONS[1])
    assert repr(ch) == "NotificationChannel(state=OPEN, received=2)"
    one = OneShotChannel(decode=frames.decode_read_resource)
    one.receive(ERRORS[0])
    assert repr(one) == "OneShotChannel(state=ERRORED, received=1)"
    assert repr(Finished()) == "Finished()"
    assert repr(Error(ErrorData(-32601, "Method not found"))).startswith("Error(error=ErrorData(")


# ------------------------------------------------------------------ one-shot channel


@pytest.mark.parametrize("payload", RESULTS, ids=range(len(RESULTS)))
def test_one_result_then_finish(frames, payload: bytes) -> None:
    one = OneShotChannel(decode=frames.decode_read_resource)
    event = one.receive(payload)
    assert event == Result(frames.decode_read_resource(payload))
    assert isinstance(event.value, ReadResourceResult)
    assert one.state is ChannelState.ANSWERED
    with pytest.raises(SequenceError):
        one.receive(payload)
    with pytest.raises(SequenceError):
        one.receive(ERRORS[0])
    assert one.state is ChannelState.ANSWERED
    assert one.finish() == Finished()
    assert one.state is ChannelState.FINISHED


def test_one_error_then_finish(frames) -> None:
    one = OneShotChannel(decode=frames.decode_read_resource)
    assert one.receive(ERRORS[2]) == Error(frames.decode_read_resource(ERRORS[2]))
    assert one.state is ChannelState.ERRORED
    with pytest.raises(SequenceError):
        one.receive(RESULTS[0])
    assert one.finish() == Finished()


def test_one_shot_not_served_and_abort(frames) -> None:
    one = OneShotChannel(decode=frames.decode_read_resource)
    assert one.finish() == NotServed()
    with pytest.raises(SequenceError):
        one.finish()
    assert one.state is ChannelState.NOT_SERVED
    cut = OneShotChannel(decode=frames.decode_read_resource)
    cut.receive(RESULTS[0])
    assert cut.abort() == Aborted()
    with pytest.raises(SequenceError):
        cut.finish()
    assert cut.state is ChannelState.ABORTED


@pytest.mark.parametrize(("payload", "error"), BAD)
def test_one_shot_bad_payload(frames, payload: bytes, error: type) -> None:
    one = OneShotChannel(decode=frames.decode_read_resource)
    with pytest.raises(error):
        one.receive(payload)
    assert one.state is ChannelState.OPEN
    assert isinstance(one.receive(RESULTS[1]), Result)


def test_notification_is_not_a_read_resource_result(frames) -> None:
    one = OneShotChannel(decode=frames.decode_read_resource)
    with pytest.raises(FrameBodyError):
        one.receive(NOTIFICATIONS[0])
    assert one.state is ChannelState.OPEN


# --------------------------------------------------- every sequence of up to 5 steps

#: Steps fed to a channel: a good response of each tag, an undecodable payload, and
#: the two ends. Every sequence of up to five of them is run.
STEPS = ("response", "error", "bad", "finish", "abort")


def _check_sequence(channel, steps, response: bytes) -> None:
    """Feed ``steps``; each must succeed or fail exactly as the rules say."""
    responses = 0  # accepted responses so far
    errored = answered = ended = False
    one_shot = isinstance(channel, OneShotChannel)
    for step in steps:
        before = channel.state
        if step in ("response", "error", "bad"):
            payload = {"response": response, "error": ERRORS[0], "bad": b"\x00["}[step]
            forbidden = ended or errored or answered
            if forbidden:
                with pytest.raises(SequenceError):
                    channel.receive(payload)
            elif step == "bad":
                with pytest.raises(FrameBodyError):
                    channel.receive(payload)
            else:
                event = channel.receive(payload)
                responses += 1
                errored = step == "error"
                answered = one_shot and step == "response"
                assert isinstance(
                    event, Error if errored else (Result if one_shot else Notification)
                )
            if forbidden or step == "bad":
                assert channel.state is before
        else:
            if ended:
                with pytest.raises(SequenceError):
                    getattr(channel, step)()
                assert channel.state is before
                continue
            event = getattr(channel, step)()
            ended = True
            if step == "abort":
                assert event == Aborted() and channel.state is ChannelState.ABORTED
            elif responses == 0:
                assert event == NotServed() and channel.state is ChannelState.NOT_SERVED
            else:
                assert event == Finished() and channel.state is ChannelState.FINISHED
        assert channel.state.ended == ended


@pytest.mark.parametrize("length", range(1, 6))
def test_every_sequence(frames, length: int) -> None:
    for steps in itertools.product(STEPS, repeat=length):
        _check_sequence(
            NotificationChannel(decode=frames.decode_notification), steps, NOTIFICATIONS[0]
        )
        _check_sequence(OneShotChannel(decode=frames.decode_read_resource), steps, RESULTS[0])


def test_sequence_error_is_a_frame_error() -> None:
    ch = NotificationChannel()
    ch.finish()
    with pytest.raises(FrameError):
        ch.finish()
    with pytest.raises(ValueError, match="after") as info:
        ch.receive(NOTIFICATIONS[0])
    assert isinstance(info.value, SequenceError)


# ------------------------------------------------------------------ max_payload_size


@pytest.mark.parametrize("channel_class", ["NotificationChannel", "OneShotChannel"])
@pytest.mark.parametrize("make", [bytes, bytearray, memoryview])
def test_max_payload_size(channel_class: str, make: type) -> None:
    """A payload longer than ``max_payload_size`` is refused before it is read
    (PayloadTooLargeError, a FrameError; the state unchanged, the buffer not kept
    exported); one of the limit's length is read; no limit by default."""
    from diverge_frames import PayloadTooLargeError

    body = b'\x01{"code":1,"message":"' + b"m" * 100 + b'"}'  # an ErrorData: either channel
    cls = globals()[channel_class]  # the twin's (_each_channel_twin)
    limited = cls(max_payload_size=len(body) - 1)
    buffer = bytearray(body)
    payload = make(buffer) if make is not bytes else body
    with pytest.raises(PayloadTooLargeError) as info:
        limited.receive(payload)
    assert isinstance(info.value, FrameError)
    assert (info.value.size, info.value.limit) == (len(body), len(body) - 1)
    assert limited.state is ChannelState.OPEN
    if make is memoryview:
        payload.release()
    buffer.clear()  # no export left behind
    assert isinstance(cls(max_payload_size=len(body)).receive_value(body), ErrorData)
    assert isinstance(cls().receive_value(body), ErrorData)
    for bad in (0, -1, 1.5, "10"):
        with pytest.raises(ValueError, match="max_payload_size must be a positive int"):
            cls(max_payload_size=bad)
