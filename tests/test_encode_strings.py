"""Encode's long strings: the compiled twin writes a long text or blob of a
ReadResourceResult in C (``df_string_write``, in place of a mark in msgspec's output),
and the bytes must be the pure twin's (msgspec's) for every string: each escape class,
every length and place around the 16, 32 and 64-byte steps of the paths, 2-, 3- and
4-byte UTF-8, a lone surrogate refused as the general path refuses it; and the value
encoded is left as it was, whether encoded again or fresh from decode."""

from __future__ import annotations

import json
import sys
from typing import Any

import helpers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diverge_frames import _frames_py
from diverge_frames import types as t

#: The shortest text or blob the compiled twin writes itself (``_LONG_ENCODE``).
LONG = 4096
#: One of each class of character: plain ASCII, the short escapes, the other control
#: characters (``\u00XX``), what JSON leaves as it is (DEL, ``/``, U+2028), and UTF-8 of
#: 2, 3 and 4 bytes.
CLASSES = [
    "a",
    " ",
    '"',
    "\\",
    "\n",
    "\r",
    "\t",
    "\b",
    "\f",
    "\x00",
    "\x01",
    "\x0b",
    "\x1f",
    "\x7f",
    "/",
    "\u2028",
    "é",
    "\u00ff",
    "€",
    "\uffff",
    "😀",
    "\U0010ffff",
]
#: Places around the steps of the paths (16, 32, 64 bytes) and the tail.
NEAR_STEPS = sorted({k * step + d for step in (16, 32, 64) for k in (1, 2, 3) for d in (-1, 0, 1)})


def _result(*strings: str, blob: bool = False, meta: Any = None) -> t.ReadResourceResult:
    contents: list[t.ResourceContents] = [
        t.BlobResourceContents(uri=f"u{j}", blob=s, mime_type="a/b")
        if blob
        else t.TextResourceContents(uri=f"u{j}", text=s, meta=meta)
        for j, s in enumerate(strings)
    ]
    return t.ReadResourceResult(contents=contents)


def _same_bytes(frames: Any, value: t.ReadResourceResult, taken: bool = True) -> bytes:
    """The frame of ``value``, the same from both twins; ``taken``: the compiled twin's
    long-string path writes it (not the general path)."""
    encoded: bytes = frames.encode_read_resource(value)
    assert encoded == _frames_py.encode_read_resource(value)
    if frames is not _frames_py and taken:
        assert frames._long_encode(value) == encoded
    return encoded


@pytest.fixture(params=[3, 2, 1, 0], ids=["avx512", "avx2", "sse2", "swar"])
def path(request: pytest.FixtureRequest) -> Any:
    """Each path of the string loops the CPU has (a lower one stands in for a missing
    one), set for the test and set back after."""
    compiled = helpers.compiled()
    compiled._string_path(request.param)
    yield compiled._string_path()
    compiled._string_path(99)


@pytest.mark.parametrize("char", CLASSES)
@pytest.mark.parametrize("at", [0, *NEAR_STEPS, -1])
def test_each_class_at_each_step(frames: Any, path: int, char: str, at: int) -> None:
    text = "x" * (LONG + 130)
    at = len(text) if at == -1 else at
    text = text[:at] + char + char + text[at:]
    encoded = _same_bytes(frames, _result(text))
    assert json.loads(encoded[1:])["contents"][0]["text"] == text
    assert frames.decode_read_resource(encoded) == _result(text)


@pytest.mark.parametrize("extra", range(0, 130, 7))
@pytest.mark.parametrize("char", ["a", "é", "€", "😀", "\n", '"', "\x01", "\x01a\n"])
def test_each_length_of_tail(frames: Any, path: int, extra: int, char: str) -> None:
    """Every length of the bytes left after the last whole step, in each width; and
    strings whose escapes take up to 6 times their length (the output grown as it is
    written)."""
    text = char * (LONG + extra)
    _same_bytes(frames, _result(text))
    _same_bytes(frames, _result(text, blob=True))


def _encoded(frames: Any, value: t.ReadResourceResult) -> bytes | tuple[type, str]:
    """The frame of ``value``, or the type and message of the error encode raised."""
    try:
        encoded: bytes = frames.encode_read_resource(value)
    except (TypeError, ValueError) as exc:
        return type(exc), str(exc)
    return encoded


_pieces = st.lists(st.sampled_from(CLASSES) | st.text(max_size=70), max_size=40).map("".join)


@pytest.mark.c_extension
@settings(max_examples=150, deadline=None)
@given(
    head=st.integers(min_value=LONG, max_value=LONG + 200),
    pieces=st.lists(st.tuples(st.integers(min_value=0, max_value=LONG + 200), _pieces), max_size=6),
    blob=st.booleans(),
)
def test_generated_strings_as_the_pure_twin_writes_them(
    head: int, pieces: list[tuple[int, str]], blob: bool
) -> None:
    compiled = helpers.compiled()
    text = "y" * head
    for at, piece in pieces:
        text = text[:at] + piece + text[at:]
    value = _result(text, "short", text[: LONG // 2] * 3, blob=blob)
    expected = _encoded(_frames_py, value)
    if not isinstance(expected, bytes):  # a lone surrogate from st.text
        assert _encoded(compiled, value) == expected
        return
    for path in (3, 2, 1, 0):
        compiled._string_path(path)
        try:
            assert compiled._long_encode(value) == expected
            assert compiled.encode_read_resource(value) == expected  # the UTF-8 kept
        finally:
            compiled._string_path(99)


@pytest.mark.parametrize("where", [0, 100, LONG])
@pytest.mark.parametrize("surrogate", [0xD800, 0xDBFF, 0xDC00, 0xDFFF])
def test_a_lone_surrogate_is_refused_as_today(frames: Any, where: int, surrogate: int) -> None:
    text = "z" * LONG
    odd = text[:where] + chr(surrogate) + text[where:]
    value = _result("ok" * LONG, odd)
    message = rf"^\$\.contents\[1\]\.text: surrogates not allowed \(a lone surrogate at {where}\)$"
    with pytest.raises(ValueError, match=message):
        frames.encode_read_resource(value)
    assert _encoded(frames, value) == _encoded(_frames_py, value)
    assert value.contents[1].text == odd


def test_a_surrogate_gone_on_a_second_look_is_named_as_a_change() -> None:
    """msgspec refused a str that the walk naming it then finds valid: the value changed
    while it was encoded (a thread replaced the str), and the error says so."""
    from diverge_frames._checks import unicode_error

    found = unicode_error(t.ErrorData(1, "m", data={"a": "\ud800"}))
    assert str(found) == "$.data.a: surrogates not allowed (a lone surrogate at 0)"
    gone = unicode_error(t.ErrorData(1, "m", data={"a": "fine"}))
    assert isinstance(gone, ValueError)
    assert str(gone).startswith("$: a str that is not valid UTF-8")
    assert "changed while it was encoded" in str(gone)


def test_the_value_is_left_as_it_was(frames: Any) -> None:
    """The marks are put back: every string in its place, the same object, after an
    encode that wrote and one that raised."""
    long_text, long_blob = "t\n" * LONG, "QUJD" * LONG
    text = t.TextResourceContents(uri="a", text=long_text)
    blob = t.BlobResourceContents(uri="b", blob=long_blob)
    value = t.ReadResourceResult(contents=[text, blob, text])  # one item twice
    references = sys.getrefcount(long_text), sys.getrefcount(long_blob)
    encoded = _same_bytes(frames, value)
    assert json.loads(encoded[1:])["contents"][2]["text"] == long_text
    assert text.text is long_text and blob.blob is long_blob
    bad = t.ReadResourceResult(contents=[text, blob], meta={"k": chr(0xD800)})
    with pytest.raises(ValueError, match="surrogates not allowed"):
        frames.encode_read_resource(bad)
    assert text.text is long_text and blob.blob is long_blob
    assert (sys.getrefcount(long_text), sys.getrefcount(long_blob)) == references


@pytest.mark.parametrize(
    "meta",
    [None, {"x": 1e16}, {"x": "\x00"}, {"x": [1.5, -2e-7], "y": {"z": "é"}}],
    ids=["none", "exponent", "nul", "nested"],
)
def test_around_other_members(frames: Any, meta: Any) -> None:
    text = 'é"\\\n' * LONG
    taken = meta is None or "x" not in meta or meta["x"] != 1e16  # an exponent: msgspec's
    _same_bytes(frames, _result(text, "short", text, meta=meta), taken)
    value = t.ReadResourceResult(contents=[t.TextResourceContents(uri="u", text=text)], meta=meta)
    _same_bytes(frames, value, taken)


@pytest.mark.parametrize("count", [1, 15, 16, 17, 40])
def test_many_long_strings(frames: Any, count: int) -> None:
    """Past the long strings the compiled twin writes itself, msgspec writes the rest."""
    strings = [f"{i}:" + "é\n" * LONG for i in range(count)]
    _same_bytes(frames, _result(*strings))


#: Output sizes around 64 KiB and 128 KiB (glibc's default mmap threshold) and past them.
OUTPUT_SIZES = [65_535, 65_536, 65_600, 131_000, 131_072, 131_200, 300_000, 1_100_000]


@pytest.mark.parametrize("size", OUTPUT_SIZES)
@pytest.mark.parametrize("char", ["a", "é", "😀", "\n", "\x01"])
@pytest.mark.parametrize("count", [1, 3])
def test_large_outputs(frames: Any, size: int, char: str, count: int) -> None:
    """Large results, made large by plain text, by UTF-8 and by escapes (six bytes a
    character): the pure twin's bytes, each string whole."""
    unit = len(json.dumps(char, ensure_ascii=False).encode()) - 2
    text = char * max(LONG, size // (unit * count)) + "end"
    encoded = _same_bytes(frames, _result(*([text] * count), "short"))
    assert len(encoded) > size - 1000
    assert frames.decode_read_resource(encoded).contents[count - 1].text == text


@pytest.mark.parametrize("char", ["a", "é", "€", "😀", "\n"])
def test_a_value_fresh_from_decode(twins: Any, char: str) -> None:
    """The relay's case: a value just decoded (no UTF-8 kept in its strings yet)."""
    python, compiled = twins
    text = (char + "abc") * LONG
    payload = python.encode_read_resource(_result(text, text[:100]))
    for decode in (python.decode_read_resource, compiled.decode_read_resource):
        assert compiled._long_encode(decode(payload)) == payload
        assert compiled.encode_read_resource(decode(payload)) == payload


@pytest.mark.parametrize("items", [1, 5, 300])
@pytest.mark.parametrize("long", [False, True])
def test_large_floats_signed_as_the_output_is_made(frames: Any, items: int, long: bool) -> None:
    """A float of 1e16 or more is written ``1e+16`` in whichever way the frame is made:
    copied out of the scratch buffer (a few small contents), signed in msgspec's own
    bytes (many contents), after a long string steps aside for them."""
    floats = [1e16, -2.5e300, 1e-7, 3.0, 1.7976931348623157e308, 5e-324, 12345678901234567.0]
    contents: list[t.ResourceContents] = [
        t.TextResourceContents(uri=f"u{j}", text="1e16" * (LONG if long else 1), meta={"f": floats})
        for j in range(items)
    ]
    value = t.ReadResourceResult(contents=contents, meta={"x": floats[::-1]})
    encoded = _same_bytes(frames, value, taken=False)
    assert encoded.count(b"e+") == 4 * items + 4  # 1e+16, -2.5e+300, 1.79...e+308, 1.23...e+16
    assert frames.decode_read_resource(encoded) == value
