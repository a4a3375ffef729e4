"""Rejected bodies whose fault comes after more openings than msgspec is asked of.

msgspec is asked for its words of a body only up to ``_stack.MSGSPEC_MESSAGE_OPENINGS``
of its ``[`` and ``{``; past them the words are serde_json's first reason. Each twin must
give the reference's words (``rmcp_read.read_exactly``) for every kind of fault there,
after siblings or nesting (past serde_json's 127 levels too), in every free-form
position: never msgspec's words of the whole body, nor a reason its reader guessed.
"""

from __future__ import annotations

from typing import Any

import helpers
import pytest

from diverge_frames._exact.rmcp_structs import EXPECT_ERROR, EXPECT_NOTIFICATION, EXPECT_RESULT
from diverge_frames._stack import MSGSPEC_MESSAGE_OPENINGS as OPENINGS

#: A fault as the value after the openings, or as the text that ends the body.
FAULTS = [
    b'"\x01"',
    b'"a\x1fb"',
    b'"\\q"',
    b'"\\ud800"',
    b'"\\udc00x"',
    b'"\xff"',
    b'"\xff\x01"',
    b'"\xe2\x82\\q"',
    b"tru",
    b"nul",
    b"-",
    b"01",
    b"1e999",
    b"18446744073709551616",
    b'"unterminated',
    b"[1,]",
    b'{"a" 1}',
    b"{1:1}",
    b"[1 2]",
    b"\xff",
]
#: What comes before the fault: many siblings, or nesting of some depth.
BEFORE = {
    "siblings": (b"[" + b"[]," * (OPENINGS + 10), b"]"),
    "130 deep": (b"[" * 130, b"]" * 130),
    "past the openings, deep": (b"[" * (OPENINGS + 10), b"]" * (OPENINGS + 10)),
    "objects": (b'{"k":' * (OPENINGS + 10), b"}" * (OPENINGS + 10)),
}
POSITIONS = [
    (0, b'{"method":"x","params":{"p":%s}}'),
    (0, b'{"method":"notifications/message","params":{"level":"info","data":%s}}'),
    (1, b'{"code":1,"message":"m","data":%s}'),
    (1, b'{"code":1,"message":"m","x":%s}'),
    (2, b'{"contents":[],"_meta":{"k":%s}}'),
]
_EXPECTED = {0: EXPECT_NOTIFICATION, 1: EXPECT_ERROR, 2: EXPECT_RESULT}


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("before", list(BEFORE))
@pytest.mark.parametrize(("tag", "template"), POSITIONS)
def test_a_fault_past_the_openings_is_worded_as_the_reference_words_it(
    frames: Any, tag: int, template: bytes, before: str, fault: bytes
) -> None:
    """Each twin gives the reference's value or error, word for word."""
    head, tail = BEFORE[before]
    body = template.replace(b"%s", head + fault + tail)
    helpers.check_as_reference(frames, 1 if tag == 1 else 0, _EXPECTED[tag], body)


#: A member msgspec or the pure twin's pre-check stops at, before the openings.
LEADS = [b"", b'"a":"\xff",', b'"a":1e400,', b'"a":"\\ud800",']
#: A typed member after the openings, and what is wrong with it (a type, or syntax).
AFTER = [
    (2, b'{%l"x":%b,"contents":1}'),
    (2, b'{%l"x":%b,"contents":"s"}'),
    (2, b'{%l"x":%b,"contents":[1]}'),
    (2, b'{%l"x":%b,"contents":[{"uri":"u","text":1}]}'),
    (2, b'{%l"x":%b,"contents":[1 2]}'),
    (2, b'{%l"x":%b,"contents":[1,]}'),
    (2, b'{%l"x":%b,"contents":{1:1}}'),
    (2, b'{%l"contents":[' + b'{"a":' * OPENINGS + b"1" + b"}" * OPENINGS + b",-]}"),
    (0, b'{"method":"x/y","params":{%l"b":%b,"_meta":"s"}}'),
    (0, b'{"method":"x/y","params":{"_meta":[],%l"b":%b}}'),
    (0, b'{"method":"notifications/message","params":{%l"level":"info","data":%b,"_meta":1}}'),
    (0, b'{"method":"notifications/progress","params":{"progressToken":1,"progress":%b}}'),
]


@pytest.mark.parametrize("siblings", [OPENINGS - 2, OPENINGS + 100])
@pytest.mark.parametrize("lead", LEADS)
@pytest.mark.parametrize(("tag", "template"), AFTER)
def test_a_typed_member_after_the_openings_is_worded_as_the_reference_words_it(
    frames: Any, tag: int, template: bytes, lead: bytes, siblings: int
) -> None:
    """A member of a type rmcp reads (``contents``, ``_meta``, a typed param) that fails
    after the openings, with what msgspec or the pure twin's pre-check stops at before
    them: each twin gives the reference's words (msgspec's own for a type, serde_json's
    reason for syntax), not a bare rejection nor words of a part it was not asked of."""
    openings = b"[" + b"[]," * siblings + b"1]"
    body = template.replace(b"%l", lead).replace(b"%b", openings)
    helpers.check_as_reference(frames, 1 if tag == 1 else 0, _EXPECTED[tag], body)
