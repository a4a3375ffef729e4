"""The channels' fast paths, ``receive_value`` and ``values``, and what both channel
twins (``_channel_py``, ``_channel_c``) must share: the events they build, the ends
they return, their docstrings, and (hypothesis) the same outcome as ``receive`` for
any sequence of frames, valid or not, in any order.

Payloads are real traffic from ``tests/data/corpus`` (server-everything over stdio).
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import os
import pickle
import subprocess
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import helpers
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diverge_frames import _channel_py, _impl, channel, notifications, read_resource
from diverge_frames.channel import (
    Aborted,
    ChannelState,
    Error,
    Finished,
    Notification,
    NotServed,
    Result,
)
from diverge_frames.errors import FrameBodyError, FrameError, SequenceError
from diverge_frames.types import ErrorData, ReadResourceResult

CORPUS = Path(__file__).parent / "data" / "corpus" / "server-everything"


def _lines(name: str) -> list[bytes]:
    return [line for line in (CORPUS / name).read_bytes().splitlines() if line.strip()]


NOTIFICATIONS = [b"\x00" + line for line in _lines("notifications.jsonl")]
RESULTS = [b"\x00" + line for line in _lines("read_resource_results.jsonl")][:6]
ERRORS = [b"\x01" + line for line in _lines("errors.jsonl")]
BAD = b"\x00["
END = object()


def _decoded(payload: bytes, one_shot: bool = False) -> Any:
    return (read_resource.decode if one_shot else notifications.decode)(payload)


# ------------------------------------------------------------------- receive_value


def test_receive_value_notifications(channels: ModuleType) -> None:
    ch = channels.NotificationChannel()
    for payload in NOTIFICATIONS[:5]:
        assert ch.receive_value(payload) == _decoded(payload)
        assert ch.state is ChannelState.OPEN
    error = ch.receive_value(ERRORS[0])
    assert isinstance(error, ErrorData) and error == _decoded(ERRORS[0])
    assert ch.state is ChannelState.ERRORED
    for payload in (NOTIFICATIONS[0], ERRORS[1], b""):
        with pytest.raises(SequenceError, match="after the error"):
            ch.receive_value(payload)
        assert ch.state is ChannelState.ERRORED
    assert repr(ch) == "NotificationChannel(state=ERRORED, received=6)"
    assert ch.finish() == Finished()


def test_receive_value_one_shot(channels: ModuleType) -> None:
    one = channels.OneShotChannel()
    result = one.receive_value(RESULTS[0])
    assert isinstance(result, ReadResourceResult) and result == _decoded(RESULTS[0], True)
    assert one.state is ChannelState.ANSWERED
    with pytest.raises(SequenceError, match="one response"):
        one.receive_value(RESULTS[1])
    assert one.finish() == Finished()
    errored = channels.OneShotChannel()
    assert errored.receive_value(ERRORS[2]) == _decoded(ERRORS[2], True)
    assert errored.state is ChannelState.ERRORED
    with pytest.raises(SequenceError, match="after the error"):
        errored.receive_value(RESULTS[0])


@pytest.mark.parametrize("payload", [b"", b"\x02{}", BAD, b"\x01{}"])
def test_receive_value_bad_payload_leaves_state(channels: ModuleType, payload: bytes) -> None:
    for ch in (channels.NotificationChannel(), channels.OneShotChannel()):
        with pytest.raises(FrameError) as info:
            ch.receive_value(payload)
        assert not isinstance(info.value, SequenceError)
        assert ch.state is ChannelState.OPEN
        assert ch.finish() == NotServed()


def test_receive_value_with_a_twins_decoder(channels: ModuleType, frames: ModuleType) -> None:
    ch = channels.NotificationChannel(decode=frames.decode_notification)
    assert ch.receive_value(memoryview(NOTIFICATIONS[3])) == frames.decode_notification(
        NOTIFICATIONS[3]
    )
    one = channels.OneShotChannel(decode=frames.decode_read_resource)
    assert one.receive_value(bytearray(RESULTS[2])) == frames.decode_read_resource(RESULTS[2])


# -------------------------------------------------------------------------- values


def test_values_over_a_channel(channels: ModuleType) -> None:
    ch = channels.NotificationChannel()
    payloads = [*NOTIFICATIONS, ERRORS[0]]
    assert list(ch.values(payloads)) == [_decoded(p) for p in payloads]
    assert ch.state is ChannelState.ERRORED
    assert repr(ch) == f"NotificationChannel(state=ERRORED, received={len(payloads)})"
    assert ch.finish() == Finished()


def test_values_one_shot(channels: ModuleType) -> None:
    one = channels.OneShotChannel()
    assert list(one.values([RESULTS[1]])) == [_decoded(RESULTS[1], True)]
    assert one.state is ChannelState.ANSWERED
    two = channels.OneShotChannel()
    values = two.values([RESULTS[0], ERRORS[0]])
    assert next(values) == _decoded(RESULTS[0], True)
    with pytest.raises(SequenceError, match="one response"):
        next(values)
    assert two.state is ChannelState.ANSWERED


def test_values_takes_one_payload_per_value(channels: ModuleType) -> None:
    pulled = []

    def source() -> Iterator[bytes]:
        for payload in NOTIFICATIONS[:3]:
            pulled.append(payload)
            yield payload

    ch = channels.NotificationChannel()
    values = ch.values(source())
    assert pulled == [] and repr(ch) == "NotificationChannel(state=OPEN, received=0)"
    assert next(values) == _decoded(NOTIFICATIONS[0])
    assert len(pulled) == 1 and repr(ch) == "NotificationChannel(state=OPEN, received=1)"
    assert list(values) == [_decoded(p) for p in NOTIFICATIONS[1:3]]
    assert len(pulled) == 3
    assert next(values, END) is END


def test_values_after_the_error(channels: ModuleType) -> None:
    ch = channels.NotificationChannel()
    values = ch.values([NOTIFICATIONS[0], ERRORS[0], NOTIFICATIONS[1], NOTIFICATIONS[2]])
    assert next(values) == _decoded(NOTIFICATIONS[0])
    assert next(values) == _decoded(ERRORS[0])
    with pytest.raises(SequenceError, match="after the error"):
        next(values)
    assert next(values, END) is END  # exhausted by the error, as a generator is
    assert ch.state is ChannelState.ERRORED
    assert repr(ch) == "NotificationChannel(state=ERRORED, received=2)"


def test_values_bad_payload(channels: ModuleType) -> None:
    ch = channels.NotificationChannel()
    rest = iter([NOTIFICATIONS[0], BAD, NOTIFICATIONS[1]])
    values = ch.values(rest)
    assert next(values) == _decoded(NOTIFICATIONS[0])
    with pytest.raises(FrameBodyError):
        next(values)
    assert next(values, END) is END
    assert ch.state is ChannelState.OPEN
    # The channel carries on; so does the source, just after the bad payload.
    assert list(ch.values(rest)) == [_decoded(NOTIFICATIONS[1])]
    assert ch.finish() == Finished()


def test_values_source_fails(channels: ModuleType) -> None:
    def source() -> Iterator[bytes]:
        yield NOTIFICATIONS[0]
        raise ConnectionResetError("dropped")

    ch = channels.NotificationChannel()
    values = ch.values(source())
    assert next(values) == _decoded(NOTIFICATIONS[0])
    with pytest.raises(ConnectionResetError):
        next(values)
    assert next(values, END) is END
    assert ch.abort() == Aborted()


def test_values_empty_and_not_iterable(channels: ModuleType) -> None:
    ch = channels.NotificationChannel()
    assert list(ch.values([])) == []
    assert list(ch.values(iter(()))) == []
    with pytest.raises(TypeError, match="not iterable"):
        ch.values(3)  # at the call, before any value is asked for
    assert ch.finish() == NotServed()
    with pytest.raises(SequenceError):
        next(ch.values([NOTIFICATIONS[0]]))
    assert ch.state is ChannelState.NOT_SERVED


def test_values_is_not_reentered(channels: ModuleType) -> None:
    """A ``next()`` on a ``values()`` iterator while another is running (here from
    its own source) raises ``ValueError`` in both twins, as a generator's does; the
    running one goes on."""
    ch = channels.NotificationChannel()

    def source() -> Iterator[bytes]:
        with pytest.raises(ValueError, match="already executing"):
            next(values)
        yield NOTIFICATIONS[0]

    values = ch.values(source())
    assert next(values) == _decoded(NOTIFICATIONS[0])
    assert repr(ch) == "NotificationChannel(state=OPEN, received=1)"
    assert list(values) == []


def test_values_is_an_iterator(channels: ModuleType) -> None:
    values = channels.NotificationChannel().values(NOTIFICATIONS[:2])
    assert iter(values) is values
    assert [*values] == [_decoded(p) for p in NOTIFICATIONS[:2]]


def test_keyword_arguments(channels: ModuleType, frames: ModuleType) -> None:
    ch = channels.NotificationChannel(decode=frames.decode_notification)
    assert ch.receive(payload=NOTIFICATIONS[0]) == Notification(_decoded(NOTIFICATIONS[0]))
    assert ch.receive_value(payload=NOTIFICATIONS[1]) == _decoded(NOTIFICATIONS[1])
    assert list(ch.values(payloads=NOTIFICATIONS[2:4])) == [_decoded(p) for p in NOTIFICATIONS[2:4]]
    one = channels.OneShotChannel(decode=frames.decode_read_resource)
    assert one.receive(payload=RESULTS[0]) == Result(_decoded(RESULTS[0], True))


# ---------------------------------------------------------------- events and ends


def test_ends_are_shared_instances(channels: ModuleType) -> None:
    a, b = channels.NotificationChannel(), channels.OneShotChannel()
    assert a.finish() is b.finish()
    assert isinstance(channels.NotificationChannel().abort(), Aborted)
    assert channels.OneShotChannel().abort() is channels.NotificationChannel().abort()
    served = channels.NotificationChannel()
    served.receive(NOTIFICATIONS[0])
    assert served.finish() == Finished() and type(Finished()) is Finished


def test_events_the_channel_builds_are_ordinary(channels: ModuleType) -> None:
    value = _decoded(NOTIFICATIONS[0])
    event = channels.NotificationChannel().receive(NOTIFICATIONS[0])
    built = Notification(value)
    assert type(event) is Notification
    assert event == built and repr(event) == repr(built)
    assert [f.name for f in dataclasses.fields(event)] == ["value"]
    assert dataclasses.replace(event) == event
    assert pickle.loads(pickle.dumps(event)) == event
    assert copy.deepcopy(event) == event
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.value = None  # type: ignore[misc]
    match event:
        case Notification(value=got):
            assert got is event.value
        case _:
            pytest.fail("a Notification event did not match its class pattern")
    error = channels.OneShotChannel().receive(ERRORS[0])
    assert type(error) is Error and error == Error(_decoded(ERRORS[0])) and error.error.code
    result = channels.OneShotChannel().receive(RESULTS[0])
    assert type(result) is Result and result == Result(_decoded(RESULTS[0], True))
    assert not hasattr(result, "__dict__")


@pytest.mark.parametrize(
    "public", [ChannelState, Notification, Result, Error, Finished, NotServed, Aborted]
)
def test_the_words_live_in_diverge_frames_channel(public: type) -> None:
    assert public.__module__ == "diverge_frames.channel"
    assert getattr(channel, public.__name__) is public
    assert inspect.getdoc(public)


def test_states_pickle_as_themselves() -> None:
    for state in ChannelState:
        assert pickle.loads(pickle.dumps(state)) is state
    assert pickle.loads(pickle.dumps(Finished())) == Finished()


def test_a_channel_pickles_and_copies(channels: ModuleType) -> None:
    ch = channels.NotificationChannel()
    ch.receive(NOTIFICATIONS[0])
    for twin in (pickle.loads(pickle.dumps(ch)), copy.copy(ch)):
        assert type(twin) is type(ch) and repr(twin) == repr(ch)
        assert twin.receive_value(ERRORS[0]) == _decoded(ERRORS[0])
        assert twin.state is ChannelState.ERRORED and ch.state is ChannelState.OPEN
    with pytest.raises(TypeError):
        pickle.dumps(ch.values(NOTIFICATIONS[:1]))


def test_subclass_of_a_channel(channels: ModuleType) -> None:
    class Counting(channels.NotificationChannel):  # type: ignore[name-defined,misc]
        def __init__(self) -> None:
            super().__init__()
            self.seen = 0

        def receive(self, payload: Any) -> Any:
            self.seen += 1
            return super().receive(payload)

    ch = Counting()
    assert ch.receive(NOTIFICATIONS[0]) == Notification(_decoded(NOTIFICATIONS[0]))
    assert ch.seen == 1 and ch.state is ChannelState.OPEN
    assert repr(ch) == "Counting(state=OPEN, received=1)"
    twin = copy.copy(ch)
    assert type(twin) is Counting and twin.seen == 1 and repr(twin) == repr(ch)


def test_a_pickle_carries_no_notification(channels: ModuleType) -> None:
    """A channel's pickle holds its state, not the notifications it returned."""
    ch = channels.NotificationChannel()
    empty = len(pickle.dumps(ch))
    big = b'\x00{"method":"notifications/message","params":{"level":"info","data":"%s"}}'
    for _ in range(3):
        ch.receive(big % (b"x" * 100_000))
    assert len(pickle.dumps(ch)) < empty + 100


# ------------------------------------------------- events the channel gives out


class _Value:
    """A value to decode to that a weak reference can watch (a notification cannot)."""

    __slots__ = ("__weakref__", "payload")

    def __init__(self, payload: bytes) -> None:
        self.payload = payload

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Value) and other.payload == self.payload

    __hash__ = None  # type: ignore[assignment]


def _decode_value(payload: bytes) -> Any:
    return _decoded(payload) if payload[:1] == b"\x01" else _Value(bytes(payload))


@pytest.mark.parametrize("keep", range(2**7))
def test_events_kept_never_change(channels: ModuleType, keep: int) -> None:
    """Whatever a caller keeps, every event it holds still carries its own value
    after later receives (the compiled twin reuses an event only when nothing else
    holds it): every way to keep or drop each of 7 events, a loop variable holding
    the last one too."""
    ch = channels.NotificationChannel(decode=_decode_value)
    kept = []
    event = None
    for i, payload in enumerate(NOTIFICATIONS[:7]):
        event = ch.receive(payload)
        assert event == Notification(_Value(payload)) and type(event) is Notification
        if keep >> i & 1:
            kept.append((event, payload))
    for held, payload in kept:
        assert held.value == _Value(payload) and held == Notification(_Value(payload))
    assert event is not None and event.value == _Value(NOTIFICATIONS[6])


@pytest.mark.parametrize("end", ["finish", "abort", "error"])
def test_values_are_let_go(channels: ModuleType, end: str) -> None:
    """A channel keeps at most the values of the two events it returned last, and
    none once no notification may follow (an error, a finish, an abort)."""
    ch = channels.NotificationChannel(decode=_decode_value)
    watched = []
    for payload in NOTIFICATIONS[:6]:
        event = ch.receive(payload)
        watched.append(weakref.ref(event.value))
        del event
    assert all(ref() is None for ref in watched[:-2])
    if end == "error":
        assert isinstance(ch.receive(ERRORS[0]), Error)
    else:
        getattr(ch, end)()
    assert all(ref() is None for ref in watched)


# ------------------------------------------------------------------------ the twins


def _public_members(cls: type) -> dict[str, Any]:
    return {
        name: getattr(cls, name)
        for name in dir(cls)
        if not name.startswith("_") or name in ("__init__", "__repr__")
    }


@pytest.mark.parametrize("name", ["NotificationChannel", "OneShotChannel"])
def test_twins_have_the_same_members_and_docstrings(
    channel_twins: tuple[ModuleType, ModuleType], name: str
) -> None:
    pure, compiled = (getattr(module, name) for module in channel_twins)
    assert inspect.getdoc(pure) == inspect.getdoc(compiled)
    members = _public_members(pure)
    assert members.keys() == _public_members(compiled).keys()
    for member in members.keys() - {"__init__", "__repr__"}:
        doc = inspect.getdoc(getattr(pure, member))
        assert doc, f"{name}.{member} has no docstring"
        assert doc == inspect.getdoc(getattr(compiled, member)), f"{name}.{member}"
    for method in (None, "receive", "receive_value", "values", "finish", "abort"):
        shapes = [
            [
                (p.name, p.kind, p.default)
                for p in inspect.signature(
                    cls if method is None else getattr(cls, method)
                ).parameters.values()
            ]
            for cls in (pure, compiled)
        ]
        assert shapes[0] == shapes[1], f"{name}.{method or '__init__'}"


@pytest.mark.c_extension
def test_compiled_state_indexes_follow_channel_state() -> None:
    compiled = helpers.compiled_channels()
    assert {state.name: i for i, state in enumerate(ChannelState)} == compiled.STATE_INDEXES


def test_the_selected_twin() -> None:
    selected = channel.NotificationChannel, channel.OneShotChannel
    if helpers._channel_c is None or _impl.NO_EXTENSIONS:
        assert selected == (_channel_py.NotificationChannel, _channel_py.OneShotChannel)
        assert channel._IMPLEMENTATION == "python"
    else:
        compiled = helpers._channel_c
        assert selected == (compiled.NotificationChannel, compiled.OneShotChannel)
        assert channel._IMPLEMENTATION == "cython"


def test_no_extensions_selects_the_pure_twin() -> None:
    code = (
        "from diverge_frames import channel, _channel_py\n"
        "assert channel.NotificationChannel is _channel_py.NotificationChannel\n"
        "assert channel.OneShotChannel is _channel_py.OneShotChannel\n"
        "print(channel._IMPLEMENTATION)\n"
    )
    env = {**os.environ, "DIVERGE_FRAMES_NO_EXTENSIONS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "python"


# --------------------------------------------- every path, any sequence (hypothesis)

#: What a step may feed a channel: real frames of each kind, and payloads that do not
#: decode (empty, an unknown tag, a body that is not JSON, an error that is not one).
POOL = [
    *NOTIFICATIONS[:3],
    *RESULTS[:2],
    *ERRORS[:2],
    b"",
    b"\x02{}",
    BAD,
    b'\x01{"code":1}',
]
STEP = st.one_of(
    st.integers(0, len(POOL) - 1).map(lambda i: ("receive", i)),
    st.sampled_from([("finish", None), ("abort", None)]),
)
SEQUENCE = st.lists(STEP, max_size=14)
KIND = st.sampled_from(["NotificationChannel", "OneShotChannel"])
SETTINGS = settings(
    max_examples=int(os.environ.get("DIVERGE_FRAMES_HYPOTHESIS_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def _raised(exc: BaseException) -> tuple[Any, ...]:
    assert isinstance(exc, FrameError), exc  # nothing but a FrameError escapes
    return ("raised", type(exc).__name__, str(exc))


def _event(event: Any) -> tuple[Any, ...]:
    return ("event", type(event).__name__, dataclasses.astuple(event))


def _as_event(value: Any, one_shot: bool) -> tuple[Any, ...]:
    """The outcome ``receive`` gives, from the value ``receive_value`` gave."""
    if isinstance(value, ErrorData):
        return _event(Error(value))
    return _event(Result(value) if one_shot else Notification(value))


def _end(ch: Any, step: str) -> tuple[Any, ...]:
    try:
        return _event(getattr(ch, step)())
    except SequenceError as exc:
        return _raised(exc)


def _trace_events(ch: Any, steps: list[tuple[str, Any]]) -> list[tuple[Any, ...]]:
    out = []
    for step, index in steps:
        if step == "receive":
            try:
                got = _event(ch.receive(POOL[index]))
            except FrameError as exc:
                got = _raised(exc)
        else:
            got = _end(ch, step)
        out.append((got, ch.state, repr(ch)))
    return out


def _trace_receive_value(ch: Any, steps: list[tuple[str, Any]]) -> list[tuple[Any, ...]]:
    one_shot = type(ch).__name__ == "OneShotChannel"
    out = []
    for step, index in steps:
        if step == "receive":
            try:
                got = _as_event(ch.receive_value(POOL[index]), one_shot)
            except FrameError as exc:
                got = _raised(exc)
        else:
            got = _end(ch, step)
        out.append((got, ch.state, repr(ch)))
    return out


def _trace_values(ch: Any, steps: list[tuple[str, Any]]) -> list[tuple[Any, ...]]:
    """Each run of receive steps through one ``values()``; after a payload raises, the
    iterator must be exhausted, and a new one takes the rest of the run."""
    one_shot = type(ch).__name__ == "OneShotChannel"
    out: list[tuple[Any, ...]] = []
    i = 0
    while i < len(steps):
        if steps[i][0] != "receive":
            out.append((_end(ch, steps[i][0]), ch.state, repr(ch)))
            i += 1
            continue
        j = i
        while j < len(steps) and steps[j][0] == "receive":
            j += 1
        source = iter([POOL[index] for _, index in steps[i:j]])
        values = ch.values(source)
        for _ in range(j - i):
            try:
                got = _as_event(next(values), one_shot)
            except FrameError as exc:
                got = _raised(exc)
                assert next(values, END) is END
                values = ch.values(source)
            out.append((got, ch.state, repr(ch)))
        assert next(values, END) is END
        i = j
    return out


@SETTINGS
@given(kind=KIND, steps=SEQUENCE)
def test_every_path_gives_the_same_outcomes(
    channels: ModuleType, kind: str, steps: list[tuple[str, Any]]
) -> None:
    """receive, receive_value and values: the same events (as values), errors (class
    and message), states and counts after each step."""
    cls = getattr(channels, kind)
    events = _trace_events(cls(), steps)
    assert _trace_receive_value(cls(), steps) == events
    assert _trace_values(cls(), steps) == events


@SETTINGS
@given(kind=KIND, steps=SEQUENCE)
def test_both_twins_give_the_same_outcomes(
    channel_twins: tuple[ModuleType, ModuleType], kind: str, steps: list[tuple[str, Any]]
) -> None:
    pure, compiled = (getattr(module, kind) for module in channel_twins)
    assert _trace_events(compiled(), steps) == _trace_events(pure(), steps)
    assert _trace_values(compiled(), steps) == _trace_values(pure(), steps)
