"""Long non-ASCII strings, UTF-8 to str and back: on the AVX-512 path the compiled twin
decodes a long string's UTF-8 with its own transcoder (``df_utf8_decode``); on every
other path CPython's decoder does. Whatever the text (each width of character, each str kind, UTF-8
broken in each way it breaks, anywhere around the 16-character steps and 64-byte
blocks), both twins on every path give the general path's value (the same str, of the
same kind) or its error, and encode the same bytes."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import helpers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diverge_frames import _frames_py
from diverge_frames import types as t

#: Characters by the str kind they call for: ASCII, Latin-1 (UCS-1), the BMP (UCS-2),
#: past it (UCS-4); surrogates left out (UTF-8 cannot hold them).
ALPHABETS = {
    "latin1": st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_characters='"\\'),
    "bmp": st.characters(
        min_codepoint=0x20,
        max_codepoint=0xFFFF,
        exclude_categories=("Cs",),
        exclude_characters='"\\',
    ),
    "astral": st.characters(
        min_codepoint=0x20, exclude_categories=("Cs",), exclude_characters='"\\'
    ),
}
#: UTF-8 broken: a stray continuation byte, a lead cut short (before ASCII and at the
#: end), overlong forms, surrogates, past U+10FFFF, the bytes 0xF5-0xFF.
BROKEN = [
    b"\x80", b"\xbf", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc0\x80", b"\xc1\xbf",
    b"\xe0\x80\x80", b"\xe0\x9f\xbf", b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf",
    b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
    b"\xf8\x88\x80\x80\x80", b"\xfe", b"\xff", b"\xc3\xa9\xa9",
]  # fmt: skip
#: Places around the kernel's steps: 16 characters, 64-byte blocks, 61 bytes (the last
#: lead a block takes whole).
PLACES = [0, 1, 15, 16, 17, 47, 48, 60, 61, 62, 63, 64, 65, 127, 128, 1023, 1024, -1]


@pytest.fixture(params=[3, 2], ids=["avx512", "avx2"])
def path(request: pytest.FixtureRequest) -> Any:
    """The path with the transcoder and one without (CPython's codec); others skip."""
    frames = helpers.compiled()
    if frames._string_path(request.param) != request.param:
        frames._string_path(99)
        pytest.skip("this CPU has no such path")
    yield request.param
    frames._string_path(99)


def _body(content: bytes, key: str = "text") -> bytes:
    return b'{"contents":[{"uri":"u","' + key.encode() + b'":"' + content + b'"}]}'


def _text(seed: int, size: int, top: int) -> str:
    """``size`` characters below ``top``, changing width every few characters."""
    rng = random.Random(seed)
    ranges = [(0x20, 0x7E), (0xA0, 0xFF), (0x100, 0x7FF), (0x800, 0xD7FF), (0xE000, 0xFFFF),
              (0x10000, 0x10FFFF)]  # fmt: skip
    ranges = [(a, min(b, top - 1)) for a, b in ranges if a < top]
    out = []
    while len(out) < size:
        a, b = rng.choice(ranges)
        out.extend(chr(rng.randint(a, b)) for _ in range(rng.randint(1, 6)))
    return "".join(c for c in out[:size] if c not in '"\\')


def _decoded_as_the_general_path(body: bytes) -> Any:
    frames = helpers.compiled()
    payload = b"\x00" + body
    general = helpers.outcome(_frames_py.decode_read_resource, payload)
    compiled = helpers.outcome(frames.decode_read_resource, payload)
    assert helpers.same(compiled, general)
    spliced = frames._long_strings(body, False)
    if spliced is not None:
        assert not isinstance(general, Exception)
        assert spliced == general
    return compiled


@pytest.mark.parametrize("top", [0x100, 0x800, 0x10000, 0x110000], ids=hex)
@pytest.mark.parametrize("size", [100, 300, 1000, 5000, 70_000])
def test_each_kind_reads_as_json_loads(path: int, top: int, size: int) -> None:
    text = _text(size + top, size, top)
    body = _body(text.encode())
    value = _decoded_as_the_general_path(body)
    got = value.contents[0].text
    assert got == json.loads(body)["contents"][0]["text"] == text
    assert sys.getsizeof(got) == sys.getsizeof(text)  # the same kind: the smallest


@pytest.mark.parametrize("where", PLACES)
@pytest.mark.parametrize("broken", BROKEN, ids=repr)
def test_broken_utf8_is_refused_as_the_general_path_refuses_it(
    path: int, where: int, broken: bytes
) -> None:
    content = _text(where, 1500, 0x110000).encode()
    at = len(content) if where == -1 else where
    # on a character's boundary, so that only ``broken`` breaks it
    while at < len(content) and content[at] & 0xC0 == 0x80:
        at += 1
    body = _body(content[:at] + broken + content[at:])
    outcome = _decoded_as_the_general_path(body)
    assert isinstance(outcome, Exception)


@settings(max_examples=120, deadline=None)
@given(
    alphabet=st.sampled_from(sorted(ALPHABETS)),
    data=st.data(),
    key=st.sampled_from(["text", "blob"]),
)
def test_generated_text_reads_and_writes_back(alphabet: str, data: Any, key: str) -> None:
    frames = helpers.compiled()
    text = data.draw(st.text(ALPHABETS[alphabet], min_size=300, max_size=6000))
    raw = text.encode()
    if data.draw(st.booleans()):  # broken somewhere
        at = data.draw(st.integers(min_value=0, max_value=len(raw)))
        raw = raw[:at] + data.draw(st.sampled_from(BROKEN)) + raw[at:]
    body = _body(raw, key)
    for path in (3, 2):
        if frames._string_path(path) != path:
            continue
        try:
            outcome = _decoded_as_the_general_path(body)
            if isinstance(outcome, Exception):
                continue
            assert getattr(outcome.contents[0], key) == json.loads(body)["contents"][0][key]
            # written back: the pure twin's bytes, fresh from decode and built anew
            expected = _frames_py.encode_read_resource(outcome)
            assert frames.encode_read_resource(outcome) == expected
            again = t.ReadResourceResult(contents=list(outcome.contents))
            assert frames.encode_read_resource(again) == expected
        finally:
            frames._string_path(99)
