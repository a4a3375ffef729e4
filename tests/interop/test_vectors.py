"""Both implementations against rmcp 3.1.4's golden vectors (no Rust toolchain needed).

Each line of ``tests/vectors/*.jsonl`` is a payload and what rmcp made of it (written by
``scripts/gen_vectors.py`` from the oracle). For every line, ``decode`` must give the same
verdict, the same variant (our ``TasksNotification`` is rmcp's ``TaskStatusNotification``;
the spec notifications rmcp leaves custom count as ``CustomNotification`` when we type
them) and ``encode(decode(payload))`` rmcp's bytes exactly.

Also, oracle-free, that the hot path's pre-check is sound: whenever the quick msgspec
reading is taken, it gives what the rmcp-exact reading gives.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import helpers
import pytest
from hypothesis import HealthCheck, given, settings
from rmcp_cases import HOSTILE, cases
from rmcp_diff import (
    NOTIFICATIONS,
    READ_RESOURCE,
    VECTORS,
    Case,
    Outcome,
    corpus_cases,
    disagreement,
    ours,
    read_vectors,
    short,
)
from rmcp_model_cases import MODEL_VECTOR_CASES

from diverge_frames._exact import rmcp_read
from diverge_frames._exact.rmcp_structs import EXPECTED
from diverge_frames.errors import FrameBodyError

#: ``mutations.jsonl`` is checked in test_mutations.py, beside its known disagreements.
FILES = sorted(p for p in VECTORS.glob("*.jsonl") if p.name != "mutations.jsonl")


def report(frames: ModuleType, pairs: list[tuple[Case, Outcome]]) -> list[str]:
    """One line per case where ``frames`` and rmcp disagree."""
    lines = []
    for case, rmcp in pairs:
        problem = disagreement(ours(frames, case), rmcp)
        if problem is not None:
            lines.append(f"{case.id} [{case.channel}] {short(case.payload, 160)}: {problem}")
    return lines


def test_vector_files_present() -> None:
    names = {path.name for path in VECTORS.glob("*.jsonl")}
    assert names == {
        "corpus.jsonl",
        "hostile.jsonl",
        "generated.jsonl",
        "model.jsonl",
        "mutations.jsonl",
    }, names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_vectors(frames: ModuleType, path: Path) -> None:
    pairs = list(read_vectors(path))
    assert pairs, f"{path.name} is empty"
    problems = report(frames, pairs)
    assert not problems, f"{len(problems)} of {len(pairs)} disagree:\n" + "\n".join(problems[:30])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("kernel", [2, 1], ids=["avx2", "sse2"])
def test_vectors_on_each_kernel(path: Path, kernel: int) -> None:
    """The compiled twin agrees with rmcp on every vector with its C kernels (the
    glance's blocks, the string loops) on AVX2's path and on SSE2's, where the CPU has
    them (a path it lacks stands in as the best it has)."""
    compiled = helpers.compiled()
    compiled._string_path(kernel)
    try:
        pairs = list(read_vectors(path))
        problems = report(compiled, pairs)
    finally:
        compiled._string_path(99)
    assert not problems, f"{len(problems)} of {len(pairs)} disagree:\n" + "\n".join(problems[:30])


def test_vectors_cover_the_data() -> None:
    """The corpus vectors are the corpus as it is now, and the hostile ones the list in
    rmcp_cases.py: a case added there without regenerating the vectors fails here."""
    corpus = {(c.channel, c.payload) for c, _ in read_vectors(VECTORS / "corpus.jsonl")}
    assert corpus == {(c.channel, c.payload) for c in corpus_cases()}
    hostile = {(c.channel, c.payload) for c, _ in read_vectors(VECTORS / "hostile.jsonl")}
    assert hostile == {(c.channel, c.payload) for c in HOSTILE}
    model = [(c.id, c.channel, c.payload) for c, _ in read_vectors(VECTORS / "model.jsonl")]
    assert model == [(c.id, c.channel, c.payload) for c in MODEL_VECTOR_CASES]


def test_vectors_cover_every_variant() -> None:
    """Between them the vectors hold every rmcp variant, accepted, and every verdict."""
    seen = {(r.verdict, r.variant) for path in FILES for _, r in read_vectors(path)}
    variants = {v for verdict, v in seen if verdict == "ok"}
    assert variants >= {
        "CancelledNotification",
        "ProgressNotification",
        "LoggingMessageNotification",
        "ResourceUpdatedNotification",
        "ResourceListChangedNotification",
        "ToolListChangedNotification",
        "PromptListChangedNotification",
        "SubscriptionsAcknowledgedNotification",
        "TaskStatusNotification",
        "CustomNotification",
        "ReadResourceResult",
        "ErrorData",
    }, variants
    assert {verdict for verdict, _ in seen} == {"ok", "empty", "unknown_tag", "body"}


# ------------------------------------------------------- the pre-check is sound


def exact(case: Case) -> object:
    """What the rmcp-exact path makes of a case (value or FrameBodyError)."""
    tag, body = case.payload[0], case.payload[1:]
    expected = (
        "ErrorData"
        if tag == 1
        else "ServerNotification"
        if case.channel == NOTIFICATIONS
        else "ReadResourceResult"
    )
    try:
        return rmcp_read.read_exactly(body, tag, EXPECTED.index(expected))
    except FrameBodyError as exc:
        return exc


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=cases())
def test_quick_path_agrees_with_exact_path(frames: ModuleType, case: Case) -> None:
    """Whatever path a twin takes, it ends where the rmcp-exact path ends."""
    if len(case.payload) == 0 or case.payload[0] > 1:
        return
    decode = (
        frames.decode_notification if case.channel == NOTIFICATIONS else frames.decode_read_resource
    )
    encode = (
        frames.encode_notification if case.channel == NOTIFICATIONS else frames.encode_read_resource
    )
    reference = exact(case)
    try:
        value = decode(case.payload)
    except FrameBodyError:
        assert isinstance(reference, FrameBodyError), (case.payload, reference)
        return
    assert not isinstance(reference, FrameBodyError), (case.payload, value, reference)
    assert encode(value) == encode(reference), case.payload


# A string's content at every offset against the 16-byte steps of the compiled scan, with
# what it must notice in it: an escape (the string goes on; runs of backslashes across
# a step too), a byte >= 0x80 (valid UTF-8 or not), a stray quote (the string ends
# early). Placed in a typed member, in a member
# msgspec skips (its UTF-8 unchecked by msgspec), in a key, and before a repeated key
# (one spelled with an escape too).
SPECIALS = [
    b'\\"',
    b"\\\\",
    b'\\\\\\"',
    b"\\\\" * 9,
    b"\\\\" * 8 + b'\\"',
    b"\\u00e9",
    b"\\ud800",
    b"\xc3\xa9",
    b"\xe2\x82\xac",
    b"\xf0\x9f\x98\x80",
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xc0\xaf",
    b"\\\xc3\xa9",
    b'"',
]
TEMPLATES = [
    (NOTIFICATIONS, b'{"method":"notifications/message","params":{"level":"info","data":"%s"}}'),
    (
        NOTIFICATIONS,
        b'{"method":"notifications/message","params":{"level":"info","data":0,"x":"%s"}}',
    ),
    (
        NOTIFICATIONS,
        b'{"method":"notifications/message","params":{"level":"info","data":{"%s":1}}}',
    ),
    (
        NOTIFICATIONS,
        b'{"method":"notifications/message","params":{"data":"%s","level":"info","level":"debug"}}',
    ),
    (
        NOTIFICATIONS,
        b'{"method":"notifications/message","params":{"data":"%s","level":"info","lev\\u0065l":"debug"}}',
    ),
    (
        READ_RESOURCE,
        b'{"contents":[{"uri":"a","text":"%s","x":"%s"}],"_meta":{"%s":0,"k":1,"k":2}}',
    ),
    (READ_RESOURCE, b'{"contents":[{"uri":"a","text":"t","x":"%s"}],"x":["%s"]}'),
    (READ_RESOURCE, b'\x01{"code":1,"message":"m","x":"%s","data":{"%s":0,"k":1,"k":2}}'),
]


def string_scan_cases() -> list[Case]:
    out = []
    for channel, template in TEMPLATES:
        for special in SPECIALS:
            for before in range(34):
                for after in (0, 7, 19):
                    s = b"a" * before + special + b"b" * after
                    body = template % ((s,) * template.count(b"%s"))
                    payload = body if body.startswith(b"\x01") else b"\x00" + body
                    out.append(Case(f"scan-{before}-{after}", channel, payload))
    return out


def test_string_scan_agrees_with_exact_path(frames: ModuleType) -> None:
    """Every string-scan case, decoded and re-encoded, as the rmcp-exact path does."""
    problems = []
    for case in string_scan_cases():
        decode, encode = (
            (frames.decode_notification, frames.encode_notification)
            if case.channel == NOTIFICATIONS
            else (frames.decode_read_resource, frames.encode_read_resource)
        )
        reference = exact(case)
        try:
            value = decode(case.payload)
        except FrameBodyError:
            if not isinstance(reference, FrameBodyError):
                problems.append(f"{case.payload!r}: an error, exact path {reference!r}")
            continue
        if isinstance(reference, FrameBodyError):
            problems.append(f"{case.payload!r}: {value!r}, exact path {reference}")
        elif type(value) is not type(reference) or encode(value) != encode(reference):
            problems.append(f"{case.payload!r}: {value!r}, exact path {reference!r}")
    assert len(string_scan_cases()) == 8 * 17 * 34 * 3
    assert not problems, f"{len(problems)} disagree:\n" + "\n".join(problems[:20])
