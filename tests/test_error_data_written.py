"""ErrorData written in one walk: the compiled twin writes an ErrorData in C as it checks
it (``_write_error.h``), ``data``'s objects sorted as serde_json's Map sorts them, and
gives the general path (check, msgspec) whatever it declines. Both twins write the
same bytes and refuse the same values; a value with no float is also held to Python's
``json.dumps`` with sorted keys, which writes what serde_json writes for it.
"""

from __future__ import annotations

import json
from typing import Any

import helpers
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from value_strategies import encoded, json_values

from diverge_frames import types as t
from diverge_frames._exact.serde_json import MAX_DEPTH

CHANNELS = ("notifications", "read-resource")

#: The C writer's limits (``_write_error.h``, ``_encode.pxi``): past them it declines.
OBJECT = 32
MEMBERS = 128
ROOM = 4096 - 1


def expected(code: int, message: str, data: Any) -> bytes:
    """What rmcp writes for an ErrorData whose ``data`` holds no float: its three members
    in declaration order, ``data``'s objects sorted by key (serde_json's BTreeMap: by
    code point, as UTF-8's bytes sort) and left out when None."""

    def dumps(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    body = f'{{"code":{code},"message":{dumps(message)}'
    if data is not None:
        body += f',"data":{dumps(data)}'
    return b"\x01" + (body + "}").encode()


def written(twins: Any, channel: str, value: Any) -> Any:
    """What both twins give ``value`` (the same bytes or the same refusal)."""
    outcomes = [encoded(helpers.encoder(frames, channel), value) for frames in twins]
    assert outcomes[0] == outcomes[1], outcomes
    return outcomes[0]


def _no_float(v: Any) -> bool:
    if isinstance(v, float):
        return False
    if isinstance(v, dict):
        return all(_no_float(x) for x in v.values())
    if isinstance(v, list):
        return all(_no_float(x) for x in v)
    return True


_codes = st.integers(-(2**31), 2**31 - 1) | st.sampled_from(
    [-32603, -32002, 0, 2**31, -(2**31) - 1]
)
_messages = st.text(max_size=12) | st.sampled_from(["", "\ud800", 'a"\\\x00\x7f\x1f', "é😀"])


@given(_codes, _messages, st.none() | json_values(good=True, depth=4))
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
def test_a_json_value_is_written_as_rmcp_writes_it(code: int, message: str, data: Any) -> None:
    twins = helpers.both()
    for channel in CHANNELS:
        out = written(twins, channel, t.ErrorData(code, message, data))
        if isinstance(out, tuple):  # a code past i32 or a lone surrogate in the message
            assert out[1].startswith("$"), out
        elif _no_float(data):
            assert out == expected(code, message, data)


@given(_codes, _messages, json_values(good=False, depth=4))
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_value_is_written_or_refused_alike(code: int, message: str, data: Any) -> None:
    twins = helpers.both()
    for channel in CHANNELS:
        written(twins, channel, t.ErrorData(code, message, data))


KEYS = ["z", "é", "a", "", "\U0001f600", "\uffff", "A", "aa", "a\x00", "ab", "\x7f", "\u0100"]


def test_keys_are_sorted_by_code_point(twins: Any) -> None:
    data = {k: i for i, k in enumerate(KEYS)}
    nested = {"outer": [data, {"b": {"y": 1, "x": data}}], "a": data}
    for value in (data, nested):
        out = written(twins, "notifications", t.ErrorData(-32603, "m", value))
        assert out == expected(-32603, "m", value)
    order = list(json.loads(out[1:])["data"]["a"])
    assert order == sorted(KEYS)


@pytest.mark.parametrize(
    "data",
    [
        {},
        [],
        {"a": {}, "b": []},
        [None, True, False, 0, -1, "", [[]], {"": {}}],
        {"big": 2**63 - 1, "small": -(2**63)},
        {"escapes": '"\\\b\f\n\r\t\x00\x01\x1f\x7f', 'k"\\\n': "é😀\u2028"},
        "x" * 200,
    ],
)
def test_written_as_rmcp_writes_it(twins: Any, data: Any) -> None:
    for channel in CHANNELS:
        assert written(twins, channel, t.ErrorData(1, "m", data)) == expected(1, "m", data)


@pytest.mark.parametrize(
    "data",
    [
        {"wide": 2**63},
        {"wide": -(2**63) - 1},
        [2**64],
        {"f": 1.5, "e": 1e16, "z": -0.0},
        {1: "a"},
        {"a": {"b": (1, 2)}},
        {"\ud800": 1},
        ["\udfff"],
        {"a": {2, 3}},
    ],
)
def test_what_the_writer_declines_is_the_general_paths(twins: Any, data: Any) -> None:
    """A float, an int past i64, a non-str key, a tuple, a set, a lone surrogate: the
    same bytes or the same refusal from both twins."""
    for channel in CHANNELS:
        written(twins, channel, t.ErrorData(-32000, "m", data))


@pytest.mark.parametrize("code", [2**31 - 1, -(2**31), 2**31, -(2**31) - 1, 2**63, True])
def test_a_code_is_an_i32(twins: Any, code: int) -> None:
    out = written(twins, "notifications", t.ErrorData(code, "m", None))
    if type(code) is int and -(2**31) <= code < 2**31:
        assert out == expected(code, "m", None)
    else:
        assert isinstance(out, tuple) and out[1].startswith("$.code"), out


def test_subclasses_are_the_general_paths(twins: Any) -> None:
    class D(dict):  # type: ignore[type-arg]
        pass

    class S(str):
        pass

    for data in (D(b=1, a=2), {S("b"): 1, "a": 2}, [S("x")]):
        written(twins, "notifications", t.ErrorData(1, "m", data))
    written(twins, "notifications", t.ErrorData(1, S("m"), None))


def nested(levels: int) -> Any:
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


@pytest.mark.parametrize("levels", [MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1])
def test_nesting_at_serde_jsons_limit(twins: Any, levels: int) -> None:
    """The frame is 1 (the ErrorData) + data's levels: the deepest serde_json reads is
    written, one more refused, by both twins."""
    out = written(twins, "notifications", t.ErrorData(1, "m", nested(levels)))
    if levels + 1 <= MAX_DEPTH:
        assert out == expected(1, "m", nested(levels))
    else:
        assert isinstance(out, tuple) and "nested" in out[1], out


def open_at_once(n: int) -> dict[str, Any]:
    """Objects nested in one another, each of at most ``OBJECT`` members (its last, "~",
    the next object), ``n`` members in all: all of them open at once as it is written."""
    sizes = [OBJECT] * (n // OBJECT) + ([n % OBJECT] if n % OBJECT else [])
    inner: Any = 0
    for size in reversed(sizes):
        level: dict[str, Any] = {f"k{j:02d}"[::-1]: j for j in range(size - 1)}
        level["~"] = inner
        inner = level
    assert isinstance(inner, dict)
    return inner


@pytest.mark.parametrize("n", [OBJECT - 1, OBJECT, OBJECT + 1, MEMBERS - 1, MEMBERS, MEMBERS + 1])
def test_many_members(twins: Any, n: int) -> None:
    """Up to the members the C writer sorts in one object and holds at once, and past
    them (the general path), in one object and in objects nested in one another."""
    flat = {f"k{i:04d}"[::-1]: i for i in range(n)}
    for data in (flat, open_at_once(n)):
        assert written(twins, "notifications", t.ErrorData(1, "m", data)) == expected(1, "m", data)


@pytest.mark.parametrize("length", [1, 30, 31, 1000, 100_000])
@pytest.mark.parametrize("unit", ["a", "\u0100", "\U0001f600"])
def test_long_keys_sharing_a_prefix(twins: Any, length: int, unit: str) -> None:
    """Keys that differ only at their end, in reverse order: sorted alike whether they
    fit the C writer's room or not (then declined before their UTF-8 is made)."""
    data = {unit * length + f"{200 - j:03d}": j for j in range(OBJECT)}
    assert written(twins, "notifications", t.ErrorData(1, "m", data)) == expected(1, "m", data)


@pytest.mark.parametrize("extra", range(-3, 4))
@pytest.mark.parametrize("unit", ["x", "\x00", "é", "😀"])
def test_output_around_the_writers_room(twins: Any, extra: int, unit: str) -> None:
    """Outputs that end just inside, at and just past the C writer's room (the general
    path writes the longer ones), in the message and in data."""
    fixed = len(expected(1, "", None)) - 1  # the members around an empty message
    size = len(json.dumps(unit, ensure_ascii=False).encode()) - 2
    n = (ROOM - fixed) // size + extra
    message = unit * n
    assert written(twins, "notifications", t.ErrorData(1, message, None)) == expected(
        1, message, None
    )
    data = {"text": unit * (n - 12)}
    assert written(twins, "notifications", t.ErrorData(1, "", data)) == expected(1, "", data)
