"""Long non-ASCII strings, UTF-8 to str and back: on the AVX-512 and AVX2 paths the
compiled twin decodes a long string's UTF-8 with its own transcoder (``df_utf8_decode``),
and on the AVX-512 path makes a long str's UTF-8 with its own encoder
(``df_ucs_encode``), kept in the str as CPython keeps it; elsewhere CPython's codec
does it. Whatever the text (each width of character, each str kind, UTF-8 broken in
each way it breaks, anywhere around the 8- and 16-character steps and 32- and 64-byte
blocks), both twins on every path give the general path's value (the same str, of the
same kind) or its error, and encode the same bytes."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import helpers
import msgspec
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
#: end), overlong forms, surrogates, past U+10FFFF, the bytes 0xF5-0xFF (alone, and
#: 0xF8-0xFF as the lead of four bytes whose low three bits would make a valid code
#: point).
BROKEN = [
    b"\x80", b"\xbf", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc0\x80", b"\xc1\xbf",
    b"\xe0\x80\x80", b"\xe0\x9f\xbf", b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf",
    b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
    b"\xf8\x88\x80\x80\x80", b"\xfe", b"\xff", b"\xc3\xa9\xa9",
    b"\xf8\x90\x80\x80", b"\xfb\x9f\x98\x80", b"\xfc\x90\x80\x80", b"\xff\x8f\xbf\xbf",
]  # fmt: skip
#: Places around the kernels' steps: 8 and 16 characters, 32- and 64-byte blocks, 29
#: and 61 bytes (the last lead a block takes whole).
PLACES = [0, 1, 7, 8, 9, 15, 16, 17, 28, 29, 30, 31, 32, 33, 47, 48, 60, 61, 62, 63, 64,
          65, 127, 128, 1023, 1024, -1]  # fmt: skip


@pytest.fixture(params=[3, 2, 1], ids=["avx512", "avx2", "sse2"])
def path(request: pytest.FixtureRequest) -> Any:
    """The paths with a transcoder (AVX-512, AVX2) and one without (SSE2: CPython's
    codec); those the CPU does not have skip."""
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
    for path in (3, 2, 1):
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


def _fresh(text: str) -> str:
    """A new str equal to ``text``, holding no UTF-8 yet."""
    return "".join(list(text))


@pytest.mark.parametrize("top", [0x100, 0x800, 0x10000, 0x110000], ids=hex)
@pytest.mark.parametrize("size", [2000, 5000, 70_000])
@pytest.mark.parametrize("key", ["text", "blob"])
def test_a_long_str_is_written_and_keeps_its_utf8_as_cpython_keeps_it(
    path: int, top: int, size: int, key: str
) -> None:
    """A long non-ASCII str written for the first time: the pure twin's bytes, and the
    str is left as msgspec's encode (CPython's ``PyUnicode_AsUTF8AndSize``) leaves it,
    its UTF-8 kept in it (``sys.getsizeof`` counts it); written again, the same bytes."""
    frames = helpers.compiled()
    text = _fresh(_text(size * 7 + top, size, top))
    if top == 0x100 and max(text) < "\x80":
        text += "é"
    item = t.TextResourceContents if key == "text" else t.BlobResourceContents
    value = t.ReadResourceResult(contents=[item(uri="file:///a", **{key: text})])
    expected = _frames_py.encode_read_resource(
        t.ReadResourceResult(contents=[item(uri="file:///a", **{key: _fresh(text)})])
    )
    kept_by_cpython = _fresh(text)
    bare = sys.getsizeof(kept_by_cpython)
    msgspec.json.encode(kept_by_cpython)
    assert sys.getsizeof(kept_by_cpython) == bare + len(text.encode()) + 1
    assert sys.getsizeof(text) == bare
    assert frames.encode_read_resource(value) == expected
    assert sys.getsizeof(text) == sys.getsizeof(kept_by_cpython)
    assert frames.encode_read_resource(value) == expected
    assert msgspec.json.encode(text) == msgspec.json.encode(kept_by_cpython)


@pytest.mark.parametrize("where", [0, 15, 16, 17, 1000, -1])
def test_a_lone_surrogate_is_refused_as_the_pure_twin_refuses_it(path: int, where: int) -> None:
    frames = helpers.compiled()
    text = list(_fresh(_text(where, 3000, 0x10000)))
    text.insert(len(text) if where == -1 else where, "\udc80")
    value = t.ReadResourceResult(contents=[t.TextResourceContents(uri="u", text="".join(text))])
    with pytest.raises(ValueError, match="surrogates not allowed") as pure:
        _frames_py.encode_read_resource(value)
    for _ in range(2):  # nothing kept: refused again, the same way
        with pytest.raises(ValueError, match="surrogates not allowed") as compiled:
            frames.encode_read_resource(value)
        assert type(compiled.value) is type(pure.value)
        assert str(compiled.value) == str(pure.value)


#: Run under CPython's debug allocator: a UTF-8 kept in a str by the compiled twin is
#: freed by CPython when the str goes, with the allocator it was made with, or the
#: process stops with "bad ID". Each str kind, each path the CPU has.
_DEBUG_ALLOCATOR_SCRIPT = """
import gc
from diverge_frames import _frames_c as frames, types as t
for path in (3, 2, 1, 0):
    if frames._string_path(path) != path:
        continue
    for text in ("é" * 5000, "ü€" * 3000, "a😀" * 4000, "x" * 70000 + "€", "ÿ" * 64):
        for _ in range(3):
            s = "".join(list(text))
            value = t.ReadResourceResult(contents=[t.TextResourceContents(uri="u", text=s)])
            out = frames.encode_read_resource(value)
            assert s.encode() in out and frames.encode_read_resource(value) == out
            del value, s
            gc.collect()
frames._string_path(99)
print("ok")
"""


def test_the_kept_utf8_is_freed_by_cpython_with_its_own_allocator() -> None:
    helpers.compiled()
    proc = subprocess.run(
        [sys.executable, "-c", _DEBUG_ALLOCATOR_SCRIPT],
        env={**os.environ, "PYTHONMALLOC": "debug"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok"
