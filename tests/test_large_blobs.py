"""Long blobs take the compiled twin's fast paths (cut out of the JSON on decode, copied
in place of a mark on encode). Whatever a long string holds (an escape, a quote, a
control byte, non-ASCII, no closing quote), both twins must give the value, the error
and the bytes that the general path gives."""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import pytest

from diverge_frames import _frames_py
from diverge_frames import types as t
from diverge_frames.errors import FrameError

# Sizes around the fast paths' thresholds: 4 KiB strings, 64 KiB bodies and probes.
SIZES = [10, 4095, 4096, 5000, 65_536, 70_000, 200_000]
# Inside a JSON body: escapes, and bytes that may not (or may) stand there unescaped.
ODD_JSON = ["\\u0000", '\\"', "\\\\", "\\n", "\x7f", "é", "\u2028", "/", "\x1f", '"']
# Inside a str to encode: characters JSON escapes, and some it does not.
ODD_STR = ["\x00", '"', "\\", "\n", "\x7f", "é", "\u2028", "/", "\x1f"]


def _blob(rng: random.Random, size: int, odd: list[str] | None) -> str:
    s = base64.b64encode(rng.randbytes(size * 3 // 4 + 1)).decode()[:size]
    if odd:
        at = rng.randrange(len(s) + 1)
        s = s[:at] + rng.choice(odd) + s[at:]
    return s


def _bodies(seed: int, count: int) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        items = []
        for j in range(rng.randint(0, 3)):
            content = _blob(rng, rng.choice(SIZES), ODD_JSON if rng.random() < 0.3 else None)
            key = "text" if rng.random() < 0.3 else "blob"
            extra = rng.choice(["", ',"mimeType":"a/b"', ',"_meta":{"x":1}'])
            items.append(f'{{"uri":"u{j}","{key}":"{content}"{extra}}}')
        tail = rng.choice(["", ',"_meta":{"k":1}', ',"ttlMs":-3'])
        body = f'{{"contents":[{",".join(items)}]{tail}}}'.encode()
        if rng.random() < 0.15:
            body = body[: rng.randrange(len(body) + 1)]
        out.append(body)
    return out


BODIES = _bodies(seed=11, count=120)


def _outcome(decode: Any, payload: bytes) -> tuple[Any, ...]:
    try:
        return ("value", decode(payload))
    except FrameError as exc:
        return ("error", type(exc), str(exc))


@pytest.mark.parametrize("index", range(len(BODIES)))
def test_decode_agrees_with_the_general_path(frames: Any, index: int) -> None:
    payload = b"\x00" + BODIES[index]
    got = _outcome(frames.decode_read_resource, payload)
    assert got == _outcome(_frames_py.decode_read_resource, payload)
    try:
        plain = json.loads(BODIES[index])
    except ValueError:
        assert got[0] == "error"
        return
    if got[0] == "value":
        # the strings are JSON's, unescaped; encode writes them back as msgspec would
        assert [getattr(c, "blob", None) or c.text for c in got[1].contents] == [
            c.get("blob") or c.get("text") for c in plain["contents"]
        ]
        encoded = frames.encode_read_resource(got[1])
        assert encoded == _frames_py.encode_read_resource(got[1])
        assert frames.decode_read_resource(encoded) == got[1]


@pytest.mark.parametrize("seed", range(20))
def test_encode_agrees_with_the_general_path(frames: Any, seed: int) -> None:
    rng = random.Random(seed)
    contents: list[t.ResourceContents] = []
    for j in range(rng.randint(1, 4)):
        text = _blob(rng, rng.choice(SIZES), ODD_STR if rng.random() < 0.4 else None)
        if rng.random() < 0.3:
            contents.append(t.TextResourceContents(uri=f"u{j}", text=text))
        else:
            meta = rng.choice([None, {"x": 1e16, "y": "\x00"}, {"a": [1, 2]}])
            contents.append(t.BlobResourceContents(uri=f"u{j}", blob=text, meta=meta))
    value = t.ReadResourceResult(contents=contents, meta=rng.choice([None, {"k": 1e20}]))
    encoded = frames.encode_read_resource(value)
    assert encoded == _frames_py.encode_read_resource(value)
    assert encoded[0] == 0
    assert frames.decode_read_resource(encoded) == value


@pytest.mark.parametrize("size", [4096, 70_000])
@pytest.mark.parametrize("odd", ODD_STR)
@pytest.mark.parametrize("where", [0, 1, -1])
def test_each_odd_character_in_a_long_blob(frames: Any, size: int, odd: str, where: int) -> None:
    plain = "QUJD" * (size // 4)
    at = {0: 0, 1: size // 2, -1: size}[where]
    blob = plain[:at] + odd + plain[at:]
    value = t.ReadResourceResult(contents=[t.BlobResourceContents(uri="u", blob=blob)])
    encoded = frames.encode_read_resource(value)
    assert json.loads(encoded[1:])["contents"][0]["blob"] == blob
    assert encoded == _frames_py.encode_read_resource(value)
    assert frames.decode_read_resource(encoded) == value


@pytest.mark.parametrize("size", [4096, 70_000])
@pytest.mark.parametrize("odd", ODD_JSON)
@pytest.mark.parametrize("where", [0, 1, -1])
def test_each_odd_sequence_in_a_long_blob_body(
    frames: Any, size: int, odd: str, where: int
) -> None:
    plain = "QUJD" * (size // 4)
    at = {0: 0, 1: size // 2, -1: size}[where]
    body = f'{{"contents":[{{"uri":"u","blob":"{plain[:at]}{odd}{plain[at:]}"}}]}}'.encode()
    got = _outcome(frames.decode_read_resource, b"\x00" + body)
    assert got == _outcome(_frames_py.decode_read_resource, b"\x00" + body)
    try:
        expected = json.loads(body)["contents"][0]["blob"]
    except ValueError:
        assert got[0] == "error"
    else:
        assert got[0] == "value"
        assert got[1].contents[0].blob == expected


class _Contents(list):  # type: ignore[type-arg]
    pass


@pytest.mark.parametrize(
    "contents",
    [(), _Contents(), _Contents([t.BlobResourceContents(uri="u", blob="QUJD" * 2000)])],
    ids=["tuple", "list-subclass", "list-subclass-long-blob"],
)
def test_contents_not_a_list_encodes_as_msgspec_writes_it(frames: Any, contents: Any) -> None:
    """msgspec Structs do not check types when built: a tuple or a list subclass of
    contents is an array all the same, encoded by both twins as msgspec writes it (found
    by the attack helper: the compiled fast paths once raised TypeError here)."""
    value = t.ReadResourceResult(contents=contents)
    encoded = frames.encode_read_resource(value)
    assert encoded == _frames_py.encode_read_resource(value)
    expected = [{"uri": c.uri, "blob": c.blob} for c in contents]
    assert encoded[:1] == b"\x00"
    assert json.loads(encoded[1:]) == {"contents": expected}


def test_contents_none_is_refused(frames: Any) -> None:
    """rmcp requires ``contents``: ``None`` is a TypeError naming it, on both twins."""
    with pytest.raises(TypeError, match=r"^\$\.contents: expected a list of"):
        frames.encode_read_resource(t.ReadResourceResult(contents=None))  # type: ignore[arg-type]
