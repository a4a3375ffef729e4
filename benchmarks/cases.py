"""The frames of the benchmark matrix, built deterministically (and once).

A :class:`Case` is one or more channel payloads (tag byte + JSON) of one channel kind;
a case of several frames is timed as a loop over all of them and reported per frame.
Five sections:

* ``synthetic``: eight single frames, the small ones lines of
  ``tests/data/corpus/server-everything`` (and edge case
  ``04-unknown-notification-stderr``), plus a 1.4 MB blob result and a result of 100
  small texts (:func:`synthetic`);
* ``real``: the real traffic of ``tests/data/corpus/`` (``@modelcontextprotocol``'s
  ``server-everything`` and ``server-filesystem``), one case per kind of frame, every
  line of the corpus in it (:func:`real`);
* ``text``: a read-resource result holding one long text, plain ASCII (no JSON escape),
  escaped markdown (``\\n``, ``\\"``, ``\\\\`` and ``\\t``) or mixed UTF-8 (raw
  2-, 3- and 4-byte characters, no escape), of 1 KB to 10 MB of text, or one base64
  blob of the same sizes (:func:`text`);
* ``fresh``: the large frames and the 10 KB and 100 KB texts again, decoded from a new
  copy of the payload made just before each call (:attr:`Case.fresh`), so that the
  allocator's page faults are paid as a relay receiving new buffers pays them, and
  encoded from a value fresh from decode, as a relay forwards what it has just read
  (:func:`fresh`);
* ``built``: a ``ProgressNotification`` built by its constructors, as a server builds
  it, with ints and with floats in its ``f64`` members (:attr:`Case.built`,
  :func:`built`; encode only).

Every body is compact JSON with its members in order, as rmcp writes it.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "CORPUS",
    "LARGE_FRAME",
    "SMALL_LIMIT",
    "Case",
    "all_cases",
    "synthetic",
    "real",
    "text",
    "fresh",
    "built",
    "built_value",
    "long_string",
    "relay_channels",
    "TEXT_KINDS",
    "TEXT_SIZES",
]

#: Real MCP traffic, copied with its origin into the tests' data.
CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus"

#: A frame of at least this many bytes is "large": measured in fewer rounds (see
#: :func:`benchmarks.matrix.run`) and again with fresh payloads.
LARGE_FRAME = 1_000_000
#: A frame of at most this many bytes is "small" (the speed guard's frames).
SMALL_LIMIT = 1024

#: Sizes of the long texts, in bytes of UTF-8 text (the frame is a little longer).
TEXT_SIZES = {"1KB": 1_000, "10KB": 10_000, "100KB": 100_000, "1MB": 1_000_000, "10MB": 10_000_000}
#: The kinds of long string: three of text, and a base64 blob.
TEXT_KINDS = ("ascii", "markdown", "utf8", "blob")


@dataclass(frozen=True)
class Case:
    """One case of the matrix.

    ``section``: ``"synthetic"``, ``"real"``, ``"text"`` or ``"fresh"``; ``channel``:
    ``"notifications"`` or ``"read-resource"``; ``kind``: ``"notification"``,
    ``"result"``, ``"error"`` (or ``"mixed"`` for a real case of several kinds);
    ``payloads``: the frames (tag byte + body). ``fresh``: each decode gets a new copy
    of its payload, made just before the call and timed with it. ``built``: ``"ints"``
    or ``"floats"`` for a value built by the constructors (:func:`built_value`), which
    is encoded (never decoded); its payload is the frame that value encodes to.
    """

    name: str
    section: str
    channel: str
    kind: str
    payloads: tuple[bytes, ...]
    fresh: bool = False
    built: str = ""

    @property
    def bodies(self) -> tuple[bytes, ...]:
        """The JSON after each tag byte: what the other libraries are given."""
        return tuple(p[1:] for p in self.payloads)

    @property
    def size(self) -> int:
        """Bytes per frame (the mean, for a case of several frames)."""
        return round(sum(map(len, self.payloads)) / len(self.payloads))

    @property
    def total_bytes(self) -> int:
        """Bytes of all the case's frames."""
        return sum(map(len, self.payloads))

    @property
    def large(self) -> bool:
        """At least :data:`LARGE_FRAME` bytes per frame."""
        return self.size >= LARGE_FRAME


def compact(value: Any) -> bytes:
    """JSON as rmcp writes it on the wire: compact, member order kept, raw UTF-8."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def _frame(tag: int, value: Any) -> bytes:
    return bytes((tag,)) + compact(value)


def _blob_payload(n_bytes: int, seed: int = 4, uri: str = "file:///data/sample.bin") -> bytes:
    """A read-resource result holding one base64 blob of ``n_bytes`` pseudo-random bytes."""
    data = random.Random(seed).randbytes(n_bytes)
    head = b'\x00{"contents":[{"uri":"%s","mimeType":"application/octet-stream","blob":"' % (
        uri.encode()
    )
    return head + base64.b64encode(data) + b'"}]}'


# ------------------------------------------------------------------------ synthetic


@functools.cache
def synthetic() -> tuple[Case, ...]:
    """The eight single frames: a log, a progress, a list-changed and an unknown-method
    notification, a short text result, a 1.4 MB blob result (1,050,000 seeded random
    bytes as base64), a result of 100 small texts, and an error with nested data."""
    log = {
        "method": "notifications/message",
        "params": {
            "level": "info",
            "logger": "everything-server",
            "data": "Roots updated: 2 root(s) received from client",
        },
    }
    progress = {
        "method": "notifications/progress",
        "params": {"progress": 1, "total": 4, "progressToken": "tok-ü-1"},
    }
    list_changed = {"method": "notifications/tools/list_changed"}
    unknown = {"method": "notifications/stderr", "params": {"content": "warn: cache miss\n"}}
    text_result = {
        "contents": [
            {
                "uri": "demo://resource/dynamic/text/1",
                "mimeType": "text/plain",
                "text": "Resource 1: This is a plaintext resource created at 6:10:35 PM",
            }
        ]
    }
    many = {
        "contents": [
            {
                "uri": f"file:///project/src/module_{i:03d}.py",
                "mimeType": "text/x-python",
                "text": f'"""Module {i}."""\n\nVALUE = {i}\n',
            }
            for i in range(100)
        ]
    }
    error = {
        "code": -32042,
        "message": "MCP error -32042: This request requires browser-based authorization.",
        "data": {
            "elicitations": [
                {
                    "mode": "url",
                    "url": "https://modelcontextprotocol.io",
                    "message": "Open this link to satisfy the prerequisite, then retry the request.",
                    "elicitationId": "f218f3fc-38e0-4d1b-a8d3-0ebcbc863875",
                }
            ]
        },
    }

    def one(name: str, channel: str, kind: str, payload: bytes) -> Case:
        return Case(name, "synthetic", channel, kind, (payload,))

    return (
        one("log", "notifications", "notification", _frame(0, log)),
        one("progress", "notifications", "notification", _frame(0, progress)),
        one("list_changed", "notifications", "notification", _frame(0, list_changed)),
        one("unknown_method", "notifications", "notification", _frame(0, unknown)),
        one("text_result", "read-resource", "result", _frame(0, text_result)),
        one("blob_1.4MB", "read-resource", "result", _blob_payload(1_050_000)),
        one("100_contents", "read-resource", "result", _frame(0, many)),
        one("error_nested", "notifications", "error", _frame(1, error)),
    )


# ----------------------------------------------------------------------------- real


def _corpus_lines(*names: str) -> list[Any]:
    """The JSON values of the corpus files ``names`` (``server/file.jsonl``), in order."""
    values = []
    for name in names:
        with open(CORPUS / name, encoding="utf-8") as f:
            values += [json.loads(line) for line in f if line.strip()]
    return values


@functools.cache
def real() -> tuple[Case, ...]:
    """The corpus, one case per kind of frame: every notification (tag 0), every
    read-resource result under 1 MB (tag 0), the 2 MB blob result on its own, and every
    error of both servers (tag 1, on the notification channel)."""
    notifications = tuple(
        _frame(0, v) for v in _corpus_lines("server-everything/notifications.jsonl")
    )
    results = [_frame(0, v) for v in _corpus_lines("server-everything/read_resource_results.jsonl")]
    errors = tuple(
        _frame(1, v)
        for v in _corpus_lines("server-everything/errors.jsonl", "server-filesystem/errors.jsonl")
    )
    small = tuple(p for p in results if len(p) < LARGE_FRAME)
    [blob] = [p for p in results if len(p) >= LARGE_FRAME]
    return (
        Case("real_notifications", "real", "notifications", "notification", notifications),
        Case("real_results", "real", "read-resource", "result", small),
        Case("real_blob_2MB", "real", "read-resource", "result", (blob,)),
        Case("real_errors", "real", "notifications", "error", errors),
    )


def relay_channels() -> list[tuple[str, tuple[bytes, ...]]]:
    """The real frames as channels, for the relay loop: one notification channel
    carrying every corpus notification then the first error, and one read-resource
    channel per result under 1 MB and per other error. ``[(kind, payloads)]``."""
    by_name = {c.name: c for c in real()}
    notifications = by_name["real_notifications"].payloads
    results = by_name["real_results"].payloads
    first_error, *errors = by_name["real_errors"].payloads
    channels = [("notifications", (*notifications, first_error))]
    channels += [("read-resource", (p,)) for p in results]
    channels += [("read-resource", (p,)) for p in errors]
    return channels


# ----------------------------------------------------------------------------- text

_WORDS = (
    "the",
    "of",
    "and",
    "to",
    "in",
    "is",
    "that",
    "for",
    "it",
    "as",
    "with",
    "was",
    "on",
    "be",
    "by",
    "this",
    "are",
    "from",
    "at",
    "or",
    "an",
    "have",
    "not",
    "they",
    "which",
    "one",
    "you",
    "were",
    "all",
    "we",
    "can",
    "her",
    "has",
    "there",
    "been",
    "if",
    "more",
    "when",
    "will",
    "would",
    "who",
    "so",
    "no",
    "resource",
    "server",
    "client",
    "request",
    "result",
    "channel",
    "frame",
    "payload",
    "buffer",
    "stream",
    "value",
    "encode",
    "decode",
    "protocol",
    "message",
    "notification",
    "progress",
    "schema",
    "field",
    "member",
    "string",
    "number",
    "object",
    "array",
    "token",
    "session",
    "transport",
    "capability",
    "version",
    "provider",
    "proxy",
)
_PUNCTUATION = (",", ".", ";", ":", "!", "?", " -", "(", ")")
_NON_ASCII = (
    "héllo",
    "naïve",
    "façade",
    "Größe",
    "Привет",
    "мир",
    "καλημέρα",
    "日本語の文章",
    "中文字符",
    "한국어",
    "😀",
    "🚀✨",
    "€100",
    "\u2018quoted\u2019",
)


def _ascii(rng: random.Random, n: int) -> str:
    """Words, spaces and punctuation: printable ASCII with nothing JSON escapes."""
    out: list[str] = []
    size = 0
    while size < n:
        word = rng.choice(_WORDS)
        if rng.random() < 0.1:
            word += rng.choice(_PUNCTUATION)
        out.append(word)
        size += len(word) + 1
    return " ".join(out)[:n]


def _markdown(rng: random.Random, n: int) -> str:
    """Markdown as a docs page has it: headings, lists, quotes, code with backslashes
    and tabs; every line ends in a newline (``\\n`` in JSON)."""
    out: list[str] = []
    size = 0
    while size < n:
        roll = rng.random()
        words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 14)))
        if roll < 0.1:
            line = f"## {words.title()}\n\n"
        elif roll < 0.35:
            line = f"- **{words.split()[0]}**: {words} (`{rng.choice(_WORDS)}`)\n"
        elif roll < 0.5:
            line = f'\tpath = "C:\\data\\{rng.choice(_WORDS)}.json"  # "{words}"\n'
        elif roll < 0.6:
            line = f'> "{words}," they said.\n'
        else:
            line = f"{words.capitalize()}.\n"
        out.append(line)
        size += len(line)
    return "".join(out)[:n]


def _utf8(rng: random.Random, n: int) -> str:
    """ASCII words with about one word in three in other scripts (2- to 4-byte UTF-8),
    separated by spaces: raw UTF-8, nothing JSON escapes. ``n`` is in bytes."""
    out: list[str] = []
    size = 0
    while size < n:
        word = rng.choice(_NON_ASCII) if rng.random() < 0.33 else rng.choice(_WORDS)
        out.append(word)
        size += len(word.encode()) + 1
    return " ".join(out).encode()[:n].decode("utf-8", "ignore")


_TEXT = {"ascii": _ascii, "markdown": _markdown, "utf8": _utf8}
_MIME = {"ascii": "text/plain", "markdown": "text/markdown", "utf8": "text/plain"}


@functools.cache
def _text_block(kind: str) -> str:
    """1 MB of ``kind`` text (seeded); longer texts repeat it."""
    return _TEXT[kind](random.Random(f"text-{kind}"), 1_000_000)


def _long_text(kind: str, n: int) -> str:
    """``n`` bytes of ``kind`` text (UTF-8): the block repeated, then cut (at a
    character's end)."""
    block = _text_block(kind)
    raw = block.encode()
    whole, rest = divmod(n, len(raw))
    return block * whole + raw[:rest].decode("utf-8", "ignore")


@functools.cache
def text() -> tuple[Case, ...]:
    """A result with one long string of each kind and size, e.g. ``text_markdown_10KB``:
    a text, or (kind ``blob``) a base64 blob of that many characters."""
    out = []
    for kind in TEXT_KINDS:
        for label, n in TEXT_SIZES.items():
            if kind == "blob":
                uri = f"file:///data/blob-{label}.bin"
                payload = _blob_payload(n * 3 // 4, seed=n, uri=uri)
            else:
                item = {
                    "uri": f"file:///docs/page-{label}.{'md' if kind == 'markdown' else 'txt'}",
                    "mimeType": _MIME[kind],
                    "text": _long_text(kind, n),
                }
                payload = _frame(0, {"contents": [item]})
            out.append(Case(f"text_{kind}_{label}", "text", "read-resource", "result", (payload,)))
    return tuple(out)


def long_string(case: Case) -> bytes:
    """The raw JSON of a text case's one long string, between its quotes (escapes as
    they are): what CPython's UTF-8 decoder is given beside the codecs."""
    [payload] = case.payloads
    key = b'"blob":"' if case.name.startswith("text_blob_") else b'"text":"'
    start = payload.index(key) + len(key)
    return payload[start : payload.rindex(b'"}]}')]


# ---------------------------------------------------------------------------- fresh

#: The sizes of the text section that the fresh section has too (besides the large).
FRESH_SIZES = ("10KB", "100KB")


@functools.cache
def fresh() -> tuple[Case, ...]:
    """The large frames again (blob results, 1 MB and 10 MB texts and blobs) and the
    10 KB and 100 KB texts and blobs, with :attr:`Case.fresh` set: decoded from a new
    payload at each call, encoded from a value just decoded."""
    large = [
        c
        for c in (*synthetic(), *real(), *text())
        if c.large or c.name.endswith(tuple(f"_{size}" for size in FRESH_SIZES))
    ]
    return tuple(
        dataclasses.replace(c, name=f"{c.name}_fresh", section="fresh", fresh=True) for c in large
    )


# ---------------------------------------------------------------------------- built


def built_value(how: str) -> Any:
    """The README's ``ProgressNotification(params=ProgressNotificationParam(progress=1,
    total=4, ...))``, built with ints (``how="ints"``) or floats (``"floats"``) in its
    ``f64`` members."""
    from diverge_frames import types as t

    progress, total = (1, 4) if how == "ints" else (1.0, 4.0)
    params = t.ProgressNotificationParam(progress=progress, total=total, progress_token="t")
    return t.ProgressNotification(params=params)


#: The frame both built values encode to (``1.0``, as rmcp writes an ``f64``).
BUILT_FRAME = b'\x00{"method":"notifications/progress","params":{"progress":1.0,"progressToken":"t","total":4.0}}'


@functools.cache
def built() -> tuple[Case, ...]:
    """The built ``ProgressNotification``, with ints and with floats (encode only)."""
    return tuple(
        Case(
            f"built_progress_{how}",
            "built",
            "notifications",
            "notification",
            (BUILT_FRAME,),
            built=how,
        )
        for how in ("ints", "floats")
    )


def all_cases() -> tuple[Case, ...]:
    """Every case, in the order of the output: synthetic, real, text, fresh, built."""
    return (*synthetic(), *real(), *text(), *fresh(), *built())
