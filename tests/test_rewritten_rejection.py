"""Rejected bodies that a twin reads through a rewrite of them.

A repeated or escaped key, a ``-0`` or a skipped value sends a body to a copy rewritten
for msgspec (keys spelled with their index, numbers respelled, skipped values written
``null``). msgspec's words of such a copy are not those of the body: when rmcp rejects
the body, its words are msgspec's reading of the body itself (as the reference's), in
both twins. Here a member ``ErrorData`` or ``ReadResourceResult`` skips holds what msgspec
rejects and serde does not look at (a lone surrogate), beside each trigger of a rewrite,
and the body fails elsewhere too, or not (a result's item neither text nor blob
included: rmcp words that failure, not msgspec's of the surrogate it skipped); and a
``-0`` stands where a result's typed members are.
"""

from __future__ import annotations

from typing import Any

import helpers
import pytest

from diverge_frames._exact.rmcp_structs import EXPECT_ERROR, EXPECT_RESULT

#: A skipped member's value that msgspec rejects and serde's ignore_value takes.
SKIPPED = [b'"\\ud800"', b'"\\udfff"', b'"\\udc00x"', b'["\\ud800"]', b'{"k":"\\ud800"}']
#: What makes a twin read a rewrite: (key of the skipped member, more members).
TRIGGERS = {
    "plain": (b'"x"', b""),
    "escaped key": (b'"\\u000e"', b""),
    "repeated skipped key": (b'"x"', b',"x":1'),
    "invalid UTF-8": (b'"x"', b',"y":"\x80"'),
    "a -0": (b'"x"', b',"y":-0'),
}
#: The rest of the body: (channel tag, expected, members), one valid and some not.
RESTS = [
    (1, EXPECT_ERROR, b'"code":0,"message":"m"'),
    (1, EXPECT_ERROR, b'"code":0'),
    (1, EXPECT_ERROR, b'"code":2147483648,"message":"m"'),
    (1, EXPECT_ERROR, b'"code":0,"message":"m","code":1'),
    (0, EXPECT_RESULT, b'"contents":[]'),
    (0, EXPECT_RESULT, b'"contents":[{"uri":1,"text":"t"}]'),
    (0, EXPECT_RESULT, b'"ttlMs":"x","contents":[]'),
    (0, EXPECT_RESULT, b""),
    (0, EXPECT_RESULT, b'"contents":[{"uri":"c"}]'),
    (0, EXPECT_RESULT, b'"contents":[{"uri":"c","text":"t"},{"uri":"d","blob":1}]'),
    (0, EXPECT_RESULT, b'"contents":[{"uri":"c","text":"t","text":"u","blob":"b","blob":"c"}]'),
    (1, EXPECT_ERROR, b'"message":"m"'),
]
#: Results with a -0 where a typed member is, each cut short or not.
NEGATIVE_ZERO = [
    b'{"contents":-0',
    b'{"contents":-0}',
    b'{"contents":[-0]}',
    b'{"contents":[{"uri":-0}]}',
    b'{"contents":[{"_meta":-0',
    b'{"contents":[{"uri":"u","text":"t","_meta":-0}]',
    b'{"contents":[{"uri":"u","text":"t","_meta":-0}],"x":[',
    b'{"contents":[{"uri":"u","text":-0}]}',
    b'{"contents":[],"ttlMs":-0 x}',
]


@pytest.mark.parametrize("rest", RESTS)
@pytest.mark.parametrize("trigger", list(TRIGGERS))
@pytest.mark.parametrize("skipped", SKIPPED)
@pytest.mark.parametrize("first", [True, False], ids=["skipped first", "skipped last"])
def test_a_skipped_value_msgspec_rejects_beside_a_rewrite(
    frames: Any, first: bool, skipped: bytes, trigger: str, rest: tuple[int, int, bytes]
) -> None:
    tag, expected, members = rest
    key, more = TRIGGERS[trigger]
    member = key + b":" + skipped + more
    parts = [member, members] if first else [members, member]
    helpers.check_as_reference(
        frames, tag, expected, b"{" + b",".join(p for p in parts if p) + b"}"
    )


@pytest.mark.parametrize("body", NEGATIVE_ZERO)
def test_a_negative_zero_in_a_result_is_a_float(frames: Any, body: bytes) -> None:
    helpers.check_as_reference(frames, 0, EXPECT_RESULT, body)
