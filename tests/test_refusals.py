"""``convert``, ``from_mcp`` and ``encode`` agree on every value they refuse.

A value encode writes (drawn from the plans, ``value_strategies.structs``) gets one
member, list item or free-form value replaced by a poison: something with no JSON that
rmcp reads back as it (NaN, infinities, bytes, a set, an object, a key that is no str,
nesting past serde_json's 127 levels, a cycle, a lone surrogate) or an integer beyond
64 bits. The same value in each form (the struct for ``encode``; its plain Python for
``convert``, to its own class and to the union a frame carries; the SDK's model for
``from_mcp``) is refused by all with the same message, or, where encode takes it (a
wide integer in an ``f64`` member; a payload member a task's status drops), taken by
all. Both twins.
"""

from __future__ import annotations

import math
from typing import Any
from unittest import mock

import helpers
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec import UNSET
from value_strategies import TOP_CLASSES, encoded, structs

import diverge_frames
from diverge_frames import _convert, _plans
from diverge_frames import types as t


def _available() -> tuple[Any, ...]:
    if helpers.NO_EXTENSIONS or (helpers._frames_c is None and not helpers.REQUIRE_EXTENSIONS):
        return (helpers._frames_py,)
    return helpers.both()


def _deep(levels: int) -> Any:
    value: Any = []
    for _ in range(levels):
        value = [value]
    return value


def _cycle() -> Any:
    looped: dict[str, Any] = {}
    looped["again"] = looped
    return looped


#: Poisons with no JSON rmcp reads back as them, each made anew per use.
NO_JSON = (
    lambda: math.nan,
    lambda: math.inf,
    lambda: -math.inf,
    lambda: b"x",
    lambda: {1, 2},
    lambda: object(),
    lambda: {1: None},
    lambda: [0.5, {"a": math.nan}],
    lambda: _deep(130),
    _cycle,
    lambda: "a\ud800",
)
#: Integers beyond 64 bits: refused where encode refuses them (free-form members and
#: typed integers), taken in f64 members.
WIDE = (lambda: 2**64, lambda: -(2**63) - 1, lambda: 10**30)

Step = tuple[str, Any]  # ("attr", field) | ("item", index) | ("key", key)


def _takes_struct(alternatives: Any) -> bool:
    return any(
        kind == _plans.KIND_STRUCT
        or (kind in (_plans.KIND_LIST, _plans.KIND_MAP) and _takes_struct(arg))
        or (kind == _plans.KIND_MODEL and _takes_struct(arg[0]))
        for kind, arg in alternatives
    )


def _slots(value: Any, path: tuple[Step, ...] = (), structs: bool = False) -> list[Any]:
    """Every place in ``value`` a poison can go, each with whether a struct goes there
    (where a dict is the struct's plain form, not the same value): each member of each
    struct, each list item, each value of a dict and a new key in it."""
    found: list[Any] = []
    if type(value) in _plans.PLANS:
        for field in _plans.PLANS[type(value)].fields:
            here = (*path, ("attr", field))
            takes = _takes_struct(field.alternatives)
            found.append((here, takes))
            found.extend(_slots(getattr(value, field.name), here, takes))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            here = (*path, ("item", index))
            found.append((here, structs))
            found.extend(_slots(item, here))
    elif isinstance(value, dict):
        found.append(((*path, ("key", "poisoned")), structs))
        for key, item in value.items():
            here = (*path, ("key", key))
            found.append((here, structs))
            found.extend(_slots(item, here))
    return found


def _wire(path: tuple[Step, ...]) -> tuple[Any, ...]:
    return tuple(arg.wire if kind == "attr" else arg for kind, arg in path)


def _put(value: Any, path: tuple[Any, ...], poison: Any, attr: Any) -> None:
    """Set the place ``path`` (wire names, indices, keys) in ``value`` to ``poison``;
    ``attr(obj, wire)`` names the attribute of a wire name in a model."""
    for step in path[:-1]:
        value = (
            getattr(value, attr(value, step))
            if isinstance(step, str) and not isinstance(value, (dict, list))
            else value[step]
        )
    last = path[-1]
    if isinstance(value, (dict, list)):
        value[last] = poison
    else:
        setattr(value, attr(value, last), poison)


def _ours(value: Any, wire: str) -> str:
    return next(f.name for f in _plans.PLANS[type(value)].fields if f.wire == wire)


def _sdk(model: Any, wire: str) -> str:
    return next(
        name
        for name, field in type(model).model_fields.items()
        if field.alias == wire or name == wire
    )


def _plain(value: Any) -> Any:
    """``value`` as plain Python, as a user holds it: each struct a dict of the
    members encode writes (by wire name; a typed notification's method first), every
    other value the same object (so a poison reaches ``convert`` as it is)."""
    cls = type(value)
    if cls in _plans.PLANS:
        out: dict[str, Any] = {}
        config = cls.__struct_config__
        if config.tag_field is not None:  # a notification's or a request's method
            out[config.tag_field] = config.tag
        defaults = {f.name: f.default for f in msgspec.structs.fields(cls)}
        for field in _plans.PLANS[cls].fields:
            item = getattr(value, field.name)
            if item is UNSET or (item is None and defaults[field.name] is None):
                continue
            out[field.wire] = _plain(item)
        return out
    if isinstance(value, list) and any(type(i) in _plans.PLANS for i in value):
        return [_plain(item) for item in value]
    if isinstance(value, dict) and any(type(i) in _plans.PLANS for i in value.values()):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _refusal(call: Any, *args: Any) -> str | None:
    try:
        call(*args)
    except msgspec.ValidationError as exc:
        return str(exc)
    return None


@st.composite
def poisoned(draw: st.DrawFn) -> tuple[Any, str, bytes, Any, tuple[Any, ...], bool]:
    """``(value, channel, what encode wrote before the poison, the SDK's model or None,
    the poisoned place, whether the poison has no JSON)``."""
    cls, channel = draw(st.sampled_from(TOP_CLASSES))
    value = draw(structs(cls, good=True))
    try:
        before = helpers.encoder(helpers._frames_py, channel)(value)
    except (TypeError, ValueError):
        from hypothesis import reject

        reject()
    model = None
    try:
        from diverge_frames.mcp import to_mcp

        model = to_mcp(value)
    except ImportError:
        pass
    except Exception:  # noqa: BLE001 - the SDK refuses what rmcp writes: no model
        model = None
    slot, takes_struct = draw(st.sampled_from(_slots(value)))
    path = _wire(slot)
    no_json = draw(st.booleans())
    poisons = NO_JSON if no_json else WIDE
    if takes_struct:  # a dict or a list there is a struct's plain form, not the same value
        poisons = tuple(make for make in poisons if not isinstance(make(), (dict, list)))
    make = draw(st.sampled_from(poisons))
    _put(value, path, make(), _ours)
    if model is not None:
        try:
            _put(model, path, make(), _sdk)
        except (StopIteration, AttributeError, KeyError, IndexError, TypeError):
            model = None  # the SDK holds it elsewhere (a JSONRPCNotification's params)
    return value, channel, before, model, path, no_json


@given(poisoned())
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
def test_convert_from_mcp_and_encode_refuse_alike(drawn: Any) -> None:
    value, channel, before, model, path, no_json = drawn
    plain = _plain(value)
    targets = [type(value)]
    if channel == "notifications" and type(value) is not t.ErrorData:
        targets.append(t.ServerNotification)
    for frames in _available():
        written = encoded(helpers.encoder(frames, channel), value)
        with mock.patch.object(_convert, "_frames", frames):
            refused = [_refusal(diverge_frames.convert, plain, target) for target in targets]
            if model is not None:
                from diverge_frames.mcp import from_mcp

                refused.append(_refusal(from_mcp, model))
        if not isinstance(written, tuple):
            if no_json:
                # a member encode drops (a payload the status does not name): the
                # plain value still has no JSON, and convert may say so
                assert written == before, (path, written)
            else:  # a wide integer where rmcp reads a float: taken by all
                assert refused == [None] * len(refused), (path, refused)
            continue
        message = written[1]
        assert all(r is not None for r in refused), (path, message, refused)
        if not no_json and "serde_json holds exactly" not in message:
            continue  # a wide integer where a typed member reads none: as decode words it
        assert refused[0] == message, (path, message, refused)
        assert all(r == message for r in refused[1:] if r is not None), (path, refused)


@pytest.mark.parametrize(
    ("obj", "target", "message"),
    [
        (
            {
                "method": "notifications/progress",
                "params": {"progressToken": 1, "progress": math.nan},
            },
            t.ServerNotification,
            "$.params.progress: nan: rmcp's f64 has no such number",
        ),
        (
            {"level": "info", "data": [math.inf]},
            t.LoggingMessageNotificationParam,
            "$.data[0]: inf: JSON has no such number",
        ),
        ({"method": "x", "params": {"a": 2**64}}, t.ServerNotification, None),
        ({"uri": "u", "blob": b"AA"}, t.ResourceContents, "$.blob: expected str, got bytes"),
        (
            {"code": 1, "message": "m", "data": {1: None}},
            t.ErrorData,
            "$.data: a key of type int (keys must be str)",
        ),
        ({"method": "x", "params": {"a": "\ud800"}}, t.CustomNotification, None),
    ],
)
def test_convert_words_a_refusal_as_encode(obj: Any, target: Any, message: str | None) -> None:
    with pytest.raises(msgspec.ValidationError) as caught:
        diverge_frames.convert(obj, target)
    if message is not None:
        assert str(caught.value) == message
    else:
        assert str(caught.value).startswith("$.params.a: ")


def test_a_wide_integer_in_an_f64_member_is_taken() -> None:
    got = diverge_frames.convert(
        {"progress": 2**70, "progressToken": 1}, t.ProgressNotificationParam
    )
    assert got.progress == float(2**70)


def test_a_cycle_and_deep_nesting_are_refused_not_recursion() -> None:
    for poison in (_cycle(), _deep(10**5)):
        obj = {"method": "x", "params": {"p": poison}}
        with pytest.raises(msgspec.ValidationError, match=r"nested 128 levels deep"):
            diverge_frames.convert(obj, t.ServerNotification)


@pytest.mark.parametrize(
    "value",
    [
        math.nan,
        [1, {"a": math.inf}],
        b"x",
        {1: 2},
        [2**64],
        [-(2**63) - 1],
        _deep(127),
        _cycle(),
        object(),
    ],
)
def test_plain_json_answers_false_for_what_check_plain_may_refuse(value: Any) -> None:
    from diverge_frames._checks_plain import plain_json

    assert not plain_json({"method": "x", "params": {"p": value}})


def test_plain_json_answers_true_for_plain_json() -> None:
    from diverge_frames._checks_plain import plain_json

    value = {"a": [1, 2.5, "s", None, True, (3,)], "b": {"c": 2**64 - 1, "d": -(2**63)}}
    assert plain_json({"method": "x", "params": value})
    assert plain_json({"method": "x", "params": {"p": _deep(124)}})  # 127 levels in all
    assert not plain_json({"method": "x", "params": {"p": _deep(125)}})
