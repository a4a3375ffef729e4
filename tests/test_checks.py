"""Checked encode: every value either is written as rmcp writes it, or is refused with
a TypeError/ValueError naming the member (both twins, the same answer).

Decoded corpus values and values built from drawn arguments against rmcp itself (the
live oracle): ``tests/interop/test_built_values.py``.
"""

from __future__ import annotations

import enum
import math
from typing import Any

import helpers
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec import UNSET
from value_strategies import (
    Code,
    Level,
    encoded,
    same_but_f32_nulls,
    same_but_float_digits,
    top_values,
)

from diverge_frames import _plans
from diverge_frames import types as t

P = t.ProgressNotificationParam


def progress(**kw: Any) -> t.ProgressNotification:
    return t.ProgressNotification(params=P(**{"progress": 1.0, "progress_token": 1, **kw}))


def log(**kw: Any) -> t.LoggingMessageNotification:
    params = t.LoggingMessageNotificationParam(**{"level": "info", "data": 1, **kw})
    return t.LoggingMessageNotification(params=params)


def task(**kw: Any) -> t.TasksNotification:
    params = t.DetailedTaskNotificationParams(
        **{"task_id": "t", "status": "working", "created_at": "c", "last_updated_at": "u", **kw}
    )
    return t.TasksNotification(params=params)


def result(**kw: Any) -> t.ReadResourceResult:
    return t.ReadResourceResult(**{"contents": [], **kw})


def _encode(frames: Any, value: Any) -> bytes:
    channel = "read-resource" if isinstance(value, t.ReadResourceResult) else "notifications"
    return helpers.encoder(frames, channel)(value)


# ------------------------------------------------------------------ refused values

REFUSED = [
    # (value, error type, message start)
    (progress(progress=math.nan), ValueError, "$.params.progress: nan"),
    (progress(total=math.inf), ValueError, "$.params.total: inf"),
    (progress(progress=True), TypeError, "$.params.progress: expected float, got bool"),
    (progress(progress="1"), TypeError, "$.params.progress: expected float, got str"),
    (progress(progress=10**400), ValueError, "$.params.progress: "),
    (progress(progress_token=2**63), ValueError, "$.params.progressToken: 9223372036854775808"),
    (progress(progress_token=1.5), TypeError, "$.params.progressToken: expected int or str"),
    (progress(progress_token=None), TypeError, "$.params.progressToken: expected int or str"),
    (log(level="loud"), ValueError, "$.params.level: 'loud' is not one of"),
    (log(level=Level.LOUD), ValueError, "$.params.level: 'loud' is not one of"),
    (log(level="INFO"), ValueError, "$.params.level: 'INFO'"),
    (log(data={1: 2}), TypeError, "$.params.data: a key of type int"),
    (log(data=2**64), ValueError, "$.params.data: 18446744073709551616 is out of the range"),
    (log(data=-(2**63) - 1), ValueError, "$.params.data: -9223372036854775809"),
    (log(data={"a": [math.nan]}), ValueError, "$.params.data.a[0]: nan"),
    (log(data={"a": {1, 2}}), TypeError, "$.params.data.a: set is not a JSON value"),
    (log(data=b"x"), TypeError, "$.params.data: bytes is not a JSON value"),
    (log(data=["ok", "\ud800"]), ValueError, "$.params.data[1]: surrogates not allowed"),
    (log(logger=5), TypeError, "$.params.logger: expected str, got int"),
    (log(meta=[]), TypeError, "$.params._meta: expected a dict with str keys, got list"),
    (log(meta={"a": math.inf}), ValueError, "$.params._meta.a: inf"),
    (
        t.CancelledNotification(params=t.CancelledNotificationParam(request_id=2**63)),
        ValueError,
        "$.params.requestId: 9223372036854775808 is out of range",
    ),
    (
        t.ResourceUpdatedNotification(params=t.ResourceUpdatedNotificationParam(uri=None)),  # type: ignore[arg-type]
        TypeError,
        "$.params.uri: expected str, got None",
    ),
    (
        t.SubscriptionsAcknowledgedNotification(
            params=t.SubscriptionsAcknowledgedNotificationParams(
                notifications=t.SubscriptionFilter(tools_list_changed=1)  # type: ignore[arg-type]
            )
        ),
        TypeError,
        "$.params.notifications.toolsListChanged: expected bool, got int",
    ),
    (task(ttl_ms=-5), ValueError, "$.params.ttlMs: -5 is out of range"),
    (task(status="bogus"), ValueError, "$.params.status: 'bogus' is not one of"),
    (t.ErrorData(2**40, "m"), ValueError, "$.code: 1099511627776 is out of range"),
    (t.ErrorData("x", 5), TypeError, "$.code: expected int, got str"),  # type: ignore[arg-type]
    (t.ErrorData(1, None), TypeError, "$.message: expected str, got None"),  # type: ignore[arg-type]
    (result(ttl_ms=-5), ValueError, "$.ttlMs: -5 is out of range (0 to"),
    (result(ttl_ms=2**63), ValueError, "$.ttlMs: 9223372036854775808"),
    (result(cache_scope="bogus"), ValueError, "$.cacheScope: 'bogus' is not one of"),
    (result(contents="abc"), TypeError, "$.contents: expected a list of"),
    (result(result_type=5), TypeError, "$.resultType: expected str, got int"),
    (
        result(contents=[t.TextResourceContents(uri="u", text=None)]),  # type: ignore[arg-type]
        TypeError,
        "$.contents[0].text: expected str, got None",
    ),
    (
        result(contents=[{"uri": "u", "text": "t"}]),
        TypeError,
        "$.contents[0]: expected TextResourceContents or BlobResourceContents, got dict",
    ),
    (t.CustomNotification(5, None), TypeError, "$.method: expected str, got int"),  # type: ignore[arg-type]
    (t.CustomNotification("x/y", []), TypeError, "$.params: expected a dict"),  # type: ignore[arg-type]
    (t.CustomNotification("x/y", {"_meta": 5}), TypeError, "$.params._meta: expected a dict"),
    (t.CustomNotification("x/y", {"a": math.nan}), ValueError, "$.params.a: nan"),
]


@pytest.mark.parametrize(("value", "error", "start"), REFUSED)
def test_refused_with_the_member_path(frames: Any, value: Any, error: type, start: str) -> None:
    with pytest.raises(error) as info:
        _encode(frames, value)
    assert str(info.value).startswith(start), str(info.value)


def test_too_deep_a_free_form_value_is_refused(frames: Any) -> None:
    """serde_json reads at most MAX_DEPTH levels: the frame is 2 (top, params) + data's."""
    from diverge_frames._exact.serde_json import MAX_DEPTH

    def nested(levels: int) -> Any:
        value: Any = []
        for _ in range(levels - 1):
            value = [value]
        return value

    fits = _encode(frames, log(data=nested(MAX_DEPTH - 2)))
    assert fits.count(b"[") == MAX_DEPTH - 2
    with pytest.raises(ValueError, match=r"^\$\.params\.data(\[0\])*: nested 128 levels deep"):
        _encode(frames, log(data=nested(MAX_DEPTH - 1)))


def test_a_task_without_the_payload_its_status_requires(frames: Any) -> None:
    value = task()
    value.params.status = "input_required"
    with pytest.raises(ValueError, match=r"^\$\.params\.inputRequests: missing"):
        _encode(frames, value)


def test_a_member_never_set_is_missing(frames: Any) -> None:
    value = t.ErrorData(1, "m")
    del value.message
    with pytest.raises(ValueError, match=r"^\$\.message: missing"):
        _encode(frames, value)


# ------------------------------------------------------------------ canonical values

CANONICAL = [
    # (value, the bytes rmcp writes for it)
    (
        progress(progress=1, total=4),
        b'\x00{"method":"notifications/progress","params":{"progress":1.0,"progressToken":1,"total":4.0}}',
    ),
    (
        progress(progress=2**64),
        b'\x00{"method":"notifications/progress","params":{"progress":1.8446744073709552e+19,"progressToken":1}}',
    ),
    (
        log(data=None),
        b'\x00{"method":"notifications/message","params":{"data":null,"level":"info"}}',
    ),
    (
        log(data=(1, 2)),
        b'\x00{"method":"notifications/message","params":{"data":[1,2],"level":"info"}}',
    ),
    (
        log(level=Level.INFO),
        b'\x00{"method":"notifications/message","params":{"data":1,"level":"info"}}',
    ),
    (t.ErrorData(Code.NOT_FOUND, "m"), b'\x01{"code":-32002,"message":"m"}'),
    (
        t.CustomNotification("x/y", {"a": 1, "_meta": None}),
        b'\x00{"method":"x/y","params":{"a":1}}',
    ),
]


@pytest.mark.parametrize(("value", "expected"), CANONICAL)
def test_written_as_rmcp_writes_it(frames: Any, value: Any, expected: bytes) -> None:
    assert _encode(frames, value) == expected


def test_changed_values_are_written_in_their_canonical_form(frames: Any) -> None:
    """What a constructor makes canonical is made so again when a value was changed
    after it was built; the value itself is left as it is."""
    cancelled = t.CancelledNotification()
    cancelled.params = None
    assert _encode(frames, cancelled) == b'\x00{"method":"notifications/cancelled","params":{}}'
    assert cancelled.params is None
    listed = t.ToolListChangedNotification()
    listed.params = t.NotificationParams()
    assert _encode(frames, listed) == b'\x00{"method":"notifications/tools/list_changed"}'
    done = task(status="completed", result={"a": 1})
    done.params.status = "working"
    assert b'"result"' not in _encode(frames, done)
    assert done.params.result == {"a": 1}
    unlimited = task()
    unlimited.params.ttl_ms = UNSET
    assert _encode(frames, unlimited).endswith(b'"ttlMs":null}}')
    status = t.TaskStatusNotification(
        params=t.TaskStatusNotificationParams(
            created_at="c", last_updated_at="u", status="working", task_id="t", ttl=None
        )
    )
    status.params.meta = None
    assert b"_meta" not in _encode(frames, status)
    floats = progress(progress=1)
    _encode(frames, floats)
    assert type(floats.params.progress) is int


# ------------------------------------------------------------------ ints in f64 members


class Steps(enum.IntEnum):
    TWO = 2


#: Every form of an int: small, negative, zero, the edges of the ints a float holds
#: exactly (2^53), past them (rounded), past i64 and u64, the last finite f64's, an
#: IntEnum member (its value), and past the f64 range (refused).
INTS = [1, -1, 0, 7, -12345, 2**31, 2**53, -(2**53), 2**53 + 1, -(2**53) - 1, 10**16]
INTS += [2**63, -(2**63) - 1, 2**64, 10**20, int(1.7976931348623157e308), Steps.TWO, 10**309]


def _progress_with(member: str, x: Any) -> t.ProgressNotification:
    """A progress notification with ``x`` in the f64 member ``member`` (the other a float)."""
    return progress(**{"progress": 2.5, "total": 3.5, member: x})


def test_every_f64_member_is_covered() -> None:
    """The f64 members of the types (where rmcp writes an int the value holds as a float)
    are the two the tests below cover."""
    f64_members = {
        (plan.cls, field.name)
        for plan in _plans.PLANS.values()
        for field in plan.fields
        if any(kind == _plans.KIND_F64 for kind, _ in field.alternatives)
    }
    assert f64_members == {(P, "progress"), (P, "total")}


@pytest.mark.parametrize("member", ["progress", "total"])
@pytest.mark.parametrize("x", INTS, ids=repr)
def test_an_int_in_an_f64_member_is_written_as_its_float(frames: Any, member: str, x: Any) -> None:
    """Written as the value built with ``float(x)`` is (``1`` -> ``1.0``), or refused
    with the member's path when no f64 holds it; the value itself is left as it is."""
    value = _progress_with(member, x)
    try:
        as_float = float(x)
    except OverflowError:
        with pytest.raises(ValueError, match=rf"^\$\.params\.{member}: {x} is out of the f64"):
            _encode(frames, value)
        return
    assert _encode(frames, value) == _encode(frames, _progress_with(member, as_float))
    assert getattr(value.params, member) is x


@pytest.mark.parametrize("x", [True, False])
def test_a_bool_in_an_f64_member_is_refused(frames: Any, x: bool) -> None:
    for member in ("progress", "total"):
        with pytest.raises(TypeError, match=rf"^\$\.params\.{member}: expected float, got bool"):
            _encode(frames, _progress_with(member, x))


def test_ints_in_both_f64_members_and_in_free_form_ones(frames: Any) -> None:
    """Only the f64 members' ints become floats: an int under a key of the same name in
    ``_meta`` stays an int."""
    value = progress(progress=3, total=-4, meta={"progress": 5, "a": [{"total": 6}]})
    assert _encode(frames, value) == (
        b'\x00{"method":"notifications/progress","params":{"_meta":{"a":[{"total":6}],'
        b'"progress":5},"progress":3.0,"progressToken":1,"total":-4.0}}'
    )


@pytest.mark.c_extension
def test_the_c_walk_passes_ints_a_float_holds_exactly() -> None:
    """Within 2^53 the compiled walk passes an int in an f64 member itself (no Python
    check, no copy); past it, or an int subclass, is left to the Python check."""
    fast = helpers.compiled()._fast_check
    for x in (1, 0, -(2**53), 2**53):
        assert fast(progress(progress=x, total=x)), x
    for x in (2**53 + 1, -(2**53) - 1, 2**64, Steps.TWO, True):
        assert not fast(progress(progress=x)), x


@pytest.mark.c_extension
def test_the_c_walk_uses_the_plans_constants() -> None:
    constants = helpers.compiled().CHECK_CONSTANTS
    assert constants == {name: getattr(_plans, name) for name in constants}
    assert set(constants) == {n for n in _plans.__all__ if n.startswith(("KIND_", "FLAG_"))}


def _available() -> tuple[Any, ...]:
    """Both twins, or the pure one alone where the compiled one is not in use."""
    if helpers.NO_EXTENSIONS or (helpers._frames_c is None and not helpers.REQUIRE_EXTENSIONS):
        return (helpers._frames_py,)
    return helpers.both()


@given(top_values(good=False))
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
def test_built_values_are_written_back_or_refused(drawn: tuple[Any, str]) -> None:
    """Any value built from drawn arguments: both twins refuse it alike (a TypeError or
    ValueError whose message starts with the member's path) or write the same bytes,
    which decode to a value of the same class (a custom notification excepted: rmcp may
    read one as typed) that is written back as the same bytes (but for a float that
    serde_json reads as a neighbouring double: ``same_but_float_digits``; and an ``f32``
    past its range, written ``null`` as rmcp writes the infinity it holds, which reads
    back as absent: ``same_but_f32_nulls``)."""
    value, channel = drawn
    twins = _available()
    outcomes = [encoded(helpers.encoder(frames, channel), value) for frames in twins]
    assert all(o == outcomes[0] for o in outcomes), outcomes
    written = outcomes[0]
    if isinstance(written, tuple):
        assert written[1].startswith("$"), written
        return
    for frames in twins:
        back = helpers.decoder(frames, channel)(written)
        if type(value) is not t.CustomNotification:
            assert type(back) is type(value)
        again = helpers.encoder(frames, channel)(back)
        assert (
            again == written
            or same_but_float_digits(again, written)
            or same_but_f32_nulls(again, written)
        ), (again, written)


def test_an_f32_past_its_range_is_written_null_and_read_back_absent() -> None:
    """The one case ``same_but_f32_nulls`` excuses, pinned (hypothesis drew it once)."""
    preferences = t.ModelPreferences(intelligence_priority=1e39, speed_priority=0.5)
    value = t.TasksNotification(
        params=t.DetailedTaskNotificationParams(
            created_at="",
            last_updated_at="",
            status="input_required",
            task_id="",
            input_requests={
                "a": t.CreateMessageRequest(
                    params=t.CreateMessageRequestParams(
                        max_tokens=0, messages=[], model_preferences=preferences
                    )
                )
            },
        )
    )
    for frames in _available():
        written = _encode(frames, value)
        assert b'"intelligencePriority":null' in written
        again = _encode(frames, helpers.decoder(frames, "notifications")(written))
        assert b"intelligencePriority" not in again and again != written
        assert same_but_f32_nulls(again, written)
        assert not same_but_f32_nulls(again.replace(b'"speedPriority":0.5', b""), written)


# ------------------------------------------------------------------ exponents

#: Floats at and around the bounds of msgspec's exponent form (it writes one from 1e16
#: up and below 1e-5), the compiled walk's own bounds (1e-4, 1e15), and the extremes.
EXPONENT_FLOATS = [0.0, -0.0, 1e-5, 9.99e-6, 1e-6, 1e-4, 9.999e-5, 1e15, 9.999e14, 1e16]
EXPONENT_FLOATS += [9999999999999998.0, -1e16, 2.5e-7, 5e-324, 1.7976931348623157e308, 1.5]


def _with_float_everywhere(x: float) -> list[Any]:
    """A value of each top-level class with ``x`` in each member a float can be in: the
    f64 members, a free-form ``data``/``params``/``result``, and every ``_meta``."""
    nested = {"a": [x, {"b": x}]}
    return [
        progress(progress=x),
        progress(total=x),
        progress(meta=nested),
        log(data=x),
        log(data=nested),
        t.ErrorData(code=1, message="m", data=nested),
        t.CustomNotification(method="x/y", params={"k": x}),
        t.CustomNotification(method="x/y", params={"_meta": {"k": x}, "z": 1}),
        t.CancelledNotification(params=t.CancelledNotificationParam(meta=nested)),
        task(status="completed", result=nested),
        result(meta=nested),
        result(contents=[t.TextResourceContents(uri="u", text="t", meta={"k": x})]),
        result(contents=[t.BlobResourceContents(uri="u", blob="AA==", meta={"k": x})]),
    ]


@pytest.mark.parametrize("x", EXPONENT_FLOATS, ids=repr)
def test_a_float_is_written_as_rmcp_writes_it_wherever_it_is(x: float) -> None:
    """The compiled encode, which looks for msgspec's exponents only when its walk met a
    float outside [1e-4, 1e15), writes what the pure twin (which always looks) writes:
    ``1e+16`` for msgspec's ``1e16``, wherever the float is."""
    pure, compiled = helpers.both()
    for value in _with_float_everywhere(x):
        expected = _encode(pure, value)
        assert _encode(compiled, value) == expected, value
        assert b"e16" not in expected and (abs(x) < 1e16 or b"e+" in expected)


@given(st.floats(allow_nan=False, allow_infinity=False))
@settings(max_examples=500, deadline=None)
def test_any_float_is_written_alike_by_both_twins(x: float) -> None:
    pure, compiled = helpers.both()
    for value in (progress(progress=x), t.ErrorData(code=1, message="m", data=[x])):
        assert _encode(compiled, value) == _encode(pure, value)


@given(st.floats(min_value=1e-4, max_value=1e15, exclude_max=True))
@settings(max_examples=500, deadline=None)
def test_msgspec_writes_no_exponent_within_the_walks_bounds(x: float) -> None:
    """What the compiled walk's bounds rely on: msgspec writes a float of magnitude in
    [1e-4, 1e15) without an exponent."""
    assert b"e" not in msgspec.json.encode(x) and b"e" not in msgspec.json.encode(-x)
