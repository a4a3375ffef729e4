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
