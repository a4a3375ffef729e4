"""NotificationSubscription: when the proxy asks for notifications (protocol 2.3.0,
"When the proxy asks" / "A stream that ended"), checked against every ordering of a
bounded set of events.

The expectations are derived from the event history alone (what happened before),
never from the subscription's own state.
"""

from __future__ import annotations

import copy
import itertools
import pickle

import pytest

from diverge_frames.channel import (
    ChannelState,
    NotificationChannel,
    NotificationSubscription,
    SubscriptionState,
)
from diverge_frames.errors import SequenceError

NOTIFICATION = b'\x00{"method":"notifications/tools/list_changed"}'
ERROR = b'\x01{"code":-32603,"message":"upstream gone"}'

#: How a notification channel can end; each drives a real NotificationChannel.
ENDINGS = {
    "finish": (NOTIFICATION, NOTIFICATION),
    "not_served": (),
    "error": (NOTIFICATION, ERROR),
    "abort": (NOTIFICATION,),
}
EVENTS = ("exchange", "ask", "connect", *(f"end:{how}" for how in ENDINGS))


def _end_channel(how: str) -> ChannelState:
    """Run a notification channel to its end the way ``how`` says."""
    ch = NotificationChannel()
    for payload in ENDINGS[how]:
        ch.receive(payload)
    ch.abort() if how == "abort" else ch.finish()
    assert ch.state.ended
    return ch.state


def _run(events: tuple[str, ...]) -> None:
    sub = NotificationSubscription()
    exchanged = False  # an exchange of kinds 0-3 completed
    asks = 0  # successful asked()
    ends = 0  # successful stream_ended()
    ended_since_connect = False  # a channel ended and no connection opened since
    connected_since_end = False  # a connection opened after the last end, no ask since
    for i, event in enumerate(events):
        if event == "exchange":
            sub.exchange_done(i % 4)
            exchanged = True
        elif event == "connect":
            sub.connection_opened()
            if ended_since_connect:
                ended_since_connect, connected_since_end = False, True
        elif event == "ask":
            due = sub.should_ask()
            before = (sub.state, sub.asks)
            if due:
                sub.asked()
                asks += 1
                connected_since_end = False
            else:
                with pytest.raises(SequenceError):
                    sub.asked()
                assert (sub.state, sub.asks) == before
        else:
            before = (sub.state, sub.asks)
            if asks - ends == 1:
                _end_channel(event.split(":")[1])
                sub.stream_ended()
                ends += 1
                ended_since_connect, connected_since_end = True, False
            else:
                with pytest.raises(SequenceError):
                    sub.stream_ended()
                assert (sub.state, sub.asks) == before

        # Invariants, from the history alone.
        assert 0 <= asks - ends <= 1, "never two asks open"
        assert sub.asks == asks
        if not exchanged:
            assert not sub.should_ask(), "no ask before the first exchange of kinds 0-3"
        if asks - ends == 1:
            assert not sub.should_ask() and sub.state is SubscriptionState.OPEN
        if ended_since_connect:
            assert not sub.should_ask(), "the next ask waits for the next connection"
        if connected_since_end:
            assert sub.should_ask(), "an ask is due once a new connection opens"
        if exchanged and asks == 0:
            assert sub.should_ask(), "the first ask is due after the first exchange"


@pytest.mark.parametrize("length", range(1, 7))
def test_every_ordering(length: int) -> None:
    """Every sequence of ``length`` events over the 7-event alphabet (117,649 of six)."""
    count = 0
    for events in itertools.product(EVENTS, repeat=length):
        _run(events)
        count += 1
    assert count == len(EVENTS) ** length


def test_every_permutation_of_a_life() -> None:
    """Every order of one proxy life's events, each ending used once."""
    life = ("exchange", "ask", "end:error", "connect", "ask", "end:abort", "connect")
    for events in set(itertools.permutations(life)):
        _run(events)


def test_a_proxy_life() -> None:
    sub = NotificationSubscription()
    assert repr(sub) == "NotificationSubscription(state=BEFORE_FIRST_EXCHANGE, asks=0)"
    sub.connection_opened()
    assert not sub.should_ask()
    sub.exchange_done(2)
    assert sub.should_ask() and sub.state is SubscriptionState.DUE
    sub.asked()
    assert repr(sub) == "NotificationSubscription(state=OPEN, asks=1)"
    for how in ENDINGS:
        sub.exchange_done(0)
        sub.connection_opened()
        assert not sub.should_ask()
        _end_channel(how)
        sub.stream_ended()
        assert sub.state is SubscriptionState.AWAITING_CONNECTION
        sub.exchange_done(1)
        assert not sub.should_ask()
        sub.connection_opened()
        assert sub.should_ask()
        sub.asked()
    assert sub.asks == 1 + len(ENDINGS)


@pytest.mark.parametrize("kind", [4, 5, -1, True, 1.0, "0", None])
def test_exchange_kind_must_be_0_to_3(kind: object) -> None:
    sub = NotificationSubscription()
    with pytest.raises(ValueError, match="kind"):
        sub.exchange_done(kind)  # type: ignore[arg-type]
    assert sub.state is SubscriptionState.BEFORE_FIRST_EXCHANGE


def test_a_subscription_pickles_and_copies() -> None:
    """A pickle or copy carries the state and ``asks`` and goes on alone."""
    sub = NotificationSubscription()
    sub.exchange_done(0)
    sub.asked()
    for twin in (pickle.loads(pickle.dumps(sub)), copy.copy(sub), copy.deepcopy(sub)):
        assert repr(twin) == repr(sub) == "NotificationSubscription(state=OPEN, asks=1)"
        twin.stream_ended()
        assert twin.state is SubscriptionState.AWAITING_CONNECTION
        assert sub.state is SubscriptionState.OPEN
