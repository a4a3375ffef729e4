"""Results of text items only (or blob items only) that an item, or a member after
``contents``, fails.

The compiled twin decodes such a result straight to its public items first; when that
fails for a reason other than the member those items require (``text``, ``blob``), it
takes that error for the general decoder's, which checks the same but for that member,
and does not read the body again. Each twin must give the reference's outcome
(``rmcp_read.read_exactly``) wherever the fault is.
"""

from __future__ import annotations

from typing import Any

import helpers
import pytest

from diverge_frames._exact.rmcp_structs import EXPECT_RESULT

TEXT = b'{"uri":"u","text":"t"}'
BLOB = b'{"uri":"u","blob":"b","mimeType":"m"}'
#: An item that fails, in place of one plain item (``%s``: the item's usual member).
FAULTS = [
    b"{%s}",
    b'{"uri":1,%s}',
    b'{"uri":"u","mimeType":1,%s}',
    b'{"uri":"u","mimeType":null,%s}',
    b'{"uri":"u","_meta":1,%s}',
    b'{"uri":"u","_meta":{"k":[1,{}]},%s}',
    b'{"uri":"u",%s,"extra":[1,2]}',
    b'{"uri":"u"}',
    b'{"uri":"u","text":1}',
    b'{"uri":"u","blob":1}',
    b'{"uri":"u","text":null}',
    b'{"uri":"u","blob":[]}',
    b'{"uri":"u",%s,"text":"again"}',
    b'{"uri":"u","text":"t","blob":"b"}',
    b"[]",
    b"1",
    b'"item"',
    b'{"uri":"u",%s',
    b'{"uri":"u" %s}',
]
#: After the contents: the result's own members.
TAILS = [b"", b',"ttlMs":"x"', b',"ttlMs":1e3', b',"cacheScope":"bogus"', b',"_meta":1', b',"x":1']


@pytest.mark.parametrize("tail", TAILS)
@pytest.mark.parametrize("at", [0, 3, 9])
@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("item", [TEXT, BLOB], ids=["text", "blob"])
def test_a_failing_item_is_worded_as_the_reference_words_it(
    frames: Any, item: bytes, fault: bytes, at: int, tail: bytes
) -> None:
    member = b'"text":"t"' if item is TEXT else b'"blob":"b"'
    items = [item] * 10
    items[at] = fault.replace(b"%s", member) if b"%s" in fault else fault
    body = b'{"contents":[' + b",".join(items) + b"]" + tail + b"}"
    helpers.check_as_reference(frames, 0, EXPECT_RESULT, body)
