"""rmcp's item rule for a result's ``contents``: the compiled twin's C copy, pinned.

rmcp's ``ResourceContents`` is untagged: a repeated ``text`` fails the text variant, a
repeated ``blob`` the blob one, a repeated shared member (``uri``, ``mimeType``,
``_meta``) or both repeated fail every variant (``_exact.rmcp_read``'s ``_contents_item``).
The compiled twin applies that rule in C (``_rmcp_items.h``) to a copy of the body that
msgspec then reads, without the exact reading's tree; these tests hold its decisions to
the pure twin's and to the reference reading's, on a table of cases and on generated
bodies, and pin which bodies take it.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import helpers
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diverge_frames import FrameBodyError
from diverge_frames import types as t
from diverge_frames._exact.rmcp_read import read_exactly
from diverge_frames._exact.rmcp_result import NEITHER_TEXT_NOR_BLOB, NO_VARIANT
from diverge_frames._exact.rmcp_structs import EXPECT_RESULT

_Text = t.TextResourceContents
_Blob = t.BlobResourceContents


def _result(*items: str, tail: str = "") -> bytes:
    return b"\x00" + ('{"contents":[' + ",".join(items) + "]" + tail + "}").encode()


#: (body, what rmcp makes of it: the items' classes, or the rejection's message part).
CASES: list[tuple[bytes, Any]] = [
    (_result('{"uri":"u","text":"t","text":"t","blob":"b"}'), [_Blob]),
    (_result('{"uri":"u","blob":"b","text":"t","blob":"b"}'), [_Text]),
    (_result('{"uri":"u","t\\u0065xt":"t","text":"t","blob":"b"}'), [_Blob]),
    (_result('{"uri":"u","text":"t","\\u0074ext":"t","bl\\u006fb":"b"}'), [_Blob]),
    (_result('{"uri":"u","text":"t"}', '{"uri":"v","text":1,"text":"t","blob":"b"}'), [_Text, _Blob]),
    # an escaped key is the member it spells, repeated or not
    (_result('{"uri":"u","t\\u0065xt":"","blob":"v"}'), [_Text]),
    (_result('{"uri":"u","mimeType":null,"t\\u0065xt":"","blob":"v"}'), [_Text]),
    (_result('{"uri":"u","text":"t","bl\\u006fb":"b"}'), [_Text]),
    (_result('{"uri":"u","text":"t","text":"t"}'), NEITHER_TEXT_NOR_BLOB),
    (_result('{"uri":"u","blob":"b","blob":"c","text":1}'), NEITHER_TEXT_NOR_BLOB),
    (_result('{"uri":"u","uri":"v","text":"t"}'), NO_VARIANT),
    (_result('{"uri":"u","mimeType":"m","text":"t","mimeType":"m"}'), NO_VARIANT),
    (_result('{"uri":"u","_meta":{},"blob":"b","_meta":{}}'), NO_VARIANT),
    (_result('{"uri":"u","text":"t","blob":"b","text":"t","blob":"b"}'), NO_VARIANT),
    # msgspec's message first when msgspec rejects the body too, wherever
    (_result('{"uri":"u","uri":"v","text":"t"}', '{"text":"t"}'), "missing required"),
    (_result('{"text":"t"}', '{"uri":"u","text":"t","text":"t","blob":"b"}'), "missing required"),
    (_result('{"uri":"u","text":"t","text":"t","blob":"b"}', "[1]"), "Expected `object`"),
    # other rules of the exact reading with it: numbers spelled anew, ttlMs, cacheScope
    (_result('{"uri":"u","text":"t","text":"t","blob":"b","_meta":{"n":-0}}'), [_Blob]),
    (_result('{"uri":"u","text":"t","text":"t","blob":"b"}', tail=',"ttlMs":-5'), [_Blob]),
    (_result('{"uri":"u","text":"t","text":"t","blob":"b"}', tail=',"cacheScope":"private"'), [_Blob]),
    (_result('{"uri":"u","text":"t","text":"t","blob":"b"}', tail=',"cacheScope":{"private":null}'), [_Blob]),
    (_result('{"uri":"u","uri":"v","text":"t"}', tail=',"cacheScope":{"private":null}'), "$.cacheScope"),
    (_result('{"uri":"u","text":"t","text":"t","blob":"b"}', tail=',"zz":[1,{"text":2}]'), [_Blob]),
]  # fmt: skip


@pytest.mark.parametrize(("body", "expected"), CASES)
def test_each_rule_of_the_items(frames: ModuleType, body: bytes, expected: Any) -> None:
    """Each decision of the rule, as rmcp makes it, in both twins."""
    outcome = helpers.outcome(frames.decode_read_resource, body)
    if isinstance(expected, str):
        assert isinstance(outcome, FrameBodyError), outcome
        assert expected in str(outcome), outcome
    else:
        assert isinstance(outcome, t.ReadResourceResult), outcome
        assert [type(item) for item in outcome.contents] == expected


@pytest.mark.parametrize(("body", "expected"), CASES)
def test_the_twins_and_the_reference_agree_on_each(body: bytes, expected: Any) -> None:
    """The same value or the same message from both twins and the reference reading."""
    py, c = helpers.both()
    outcomes = [helpers.outcome(f.decode_read_resource, body) for f in (py, c)]
    outcomes.append(helpers.outcome(lambda b: read_exactly(b[1:], 0, EXPECT_RESULT), body))
    assert helpers.same(outcomes[0], outcomes[1]), outcomes
    assert helpers.same(outcomes[0], outcomes[2]), outcomes


#: The bodies only the item rule applies to: the compiled twin reads them without the
#: exact reading (no tree); those of another rule too (a unit enum's map form) with it.
ITEM_RULE_ONLY = [body for body, _ in CASES if b'cacheScope":{' not in body]
OTHER_RULES = [body for body, _ in CASES if b'cacheScope":{' in body]


@pytest.mark.c_extension
@pytest.mark.parametrize("body", ITEM_RULE_ONLY)
def test_the_item_rule_alone_takes_no_tree(monkeypatch: pytest.MonkeyPatch, body: bytes) -> None:
    compiled = helpers.compiled()
    expected = helpers.outcome(compiled.decode_read_resource, body)

    def no_tree(*args: Any) -> Any:
        raise AssertionError("the exact reading was asked")

    monkeypatch.setattr(compiled, "decode_exact", no_tree)
    assert helpers.same(helpers.outcome(compiled.decode_read_resource, body), expected)


@pytest.mark.c_extension
@pytest.mark.parametrize("body", OTHER_RULES)
def test_another_rule_goes_to_the_exact_reading(
    monkeypatch: pytest.MonkeyPatch, body: bytes
) -> None:
    compiled = helpers.compiled()
    asked = []
    decode_exact = compiled.decode_exact

    def counted(*args: Any) -> Any:
        asked.append(args)
        return decode_exact(*args)

    monkeypatch.setattr(compiled, "decode_exact", counted)
    helpers.outcome(compiled.decode_read_resource, body)
    assert len(asked) == 1


# ------------------------------------------------------------------ generated bodies

_KEYS = ["uri", "mimeType", "text", "blob", "_meta", "t\\u0065xt", "\\u0062lob", "x"]
_VALUES = st.sampled_from(['"u"', '"t"', '""', "1", "-0", "null", "{}", '{"a":1}', "[]", "true"])
_ITEM = st.one_of(
    st.lists(st.tuples(st.sampled_from(_KEYS), _VALUES), max_size=7).map(
        lambda pairs: "{" + ",".join(f'"{k}":{v}' for k, v in pairs) + "}"
    ),
    st.sampled_from(["[]", '["u",null,"t"]', "1", "null"]),
)
_TAIL = st.lists(
    st.sampled_from(
        [
            '"ttlMs":-5',
            '"ttlMs":3',
            '"cacheScope":"private"',
            '"cacheScope":{"public":null}',
            '"resultType":"r"',
            '"zz":{"text":[1]}',
            '"_meta":{"k":-0}',
        ]
    ),
    max_size=2,
    unique=True,
)


def _body(items: list[str], tail: list[str]) -> bytes:
    members = ['"contents":[' + ",".join(items) + "]", *tail]
    return b"\x00{" + ",".join(members).encode() + b"}"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(_ITEM, max_size=5), tail=_TAIL)
def test_generated_results_agree(items: list[str], tail: list[str]) -> None:
    """Generated results (repeated members, failing items, text or blob): the reference's outcome.

    Both twins give the reference reading's value or message.
    """
    py, c = helpers.both()
    body = _body(items, tail)
    json.loads(body[1:])  # (every generated body is JSON)
    reference = helpers.outcome(lambda b: read_exactly(b[1:], 0, EXPECT_RESULT), body)
    for frames in (py, c):
        outcome = helpers.outcome(frames.decode_read_resource, body)
        assert helpers.same(outcome, reference), (body, outcome, reference)


#: Results whose "text" and "blob" keys (what picks the compiled twin's straight decoder
#: of all-text or all-blob contents) are at other depths than the items': in an item's
#: ``_meta``, in the result's, as a top-level member rmcp skips, inside a string; beside
#: items of the other kind, with whitespace, and past the first 64-byte block.
KEYS_ELSEWHERE = [
    _result('{"uri":"u","text":"t","_meta":{"blob":"x"}}'),
    _result('{"uri":"u","blob":"AA==","_meta":{"text":{"text":1}}}'),
    _result('{"uri":"u","text":"t"}', tail=',"_meta":{"blob":1}'),
    _result('{"uri":"u","blob":"AA=="}', tail=',"_meta":{"text":"t"}'),
    b'\x00{"blob":"x","contents":[{"uri":"u","text":"t"}]}',
    b'\x00{"text":"x","contents":[{"uri":"u","blob":"AA=="}]}',
    _result('{"uri":"u","blob":"AA=="}', '{"uri":"v","text":"t"}'),
    _result('{"uri":"u","text":"\\"blob\\":1"}'),
    _result('{"uri":"u", "text" : "t"}', '{ "uri":"v",  "blob":"AA=="}'),
    _result('{"uri":"' + "u" * 70 + '","text":"t"}', '{"uri":"v","blob":"AA=="}'),
    _result('{"uri":"' + "u" * 70 + '","text":"t","_meta":{"blob":[{"blob":1}]}}'),
    _result('{"uri":"u","text":"t","text":"t"}', '{"uri":"v","blob":"AA=="}'),
]


@pytest.mark.parametrize("body", KEYS_ELSEWHERE)
def test_text_and_blob_keys_elsewhere_are_read_as_the_reference_reads_them(body: bytes) -> None:
    py, c = helpers.both()
    reference = helpers.outcome(lambda b: read_exactly(b[1:], 0, EXPECT_RESULT), body)
    for frames in (py, c):
        outcome = helpers.outcome(frames.decode_read_resource, body)
        assert helpers.same(outcome, reference), (body, outcome, reference)
