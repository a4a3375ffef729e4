"""One message per rejection: every rejecting case gives the same words in both twins.

Every case of the corpus (``tests/data``), the golden vectors (``tests/vectors``), the
hostile list, the repeated-key cases and 2,000 generated cases (the oracle run's seed;
the live differential, ``test_oracle.py``, holds the same for the oracle run's count of
them): each one that either twin rejects is decoded by both, and ``str(exc)``
compared, all of them. A payload that is not bytes-like too.
"""

from __future__ import annotations

from types import ModuleType

import pytest
from rmcp_cases import HOSTILE, LONG_BLOBS
from rmcp_diff import VECTORS, Case, corpus_cases, ours, read_vectors
from rmcp_repeated import repeated_cases
from test_oracle import SEED, generate

#: Generated cases here: hypothesis takes about 2.6 ms to draw one, so the oracle run's
#: count (20,000 in CI) is worded alike in its own test, from the cases it draws.
QUICK_CASES = 2000


def _fixed() -> list[Case]:
    batch = [*corpus_cases(), *HOSTILE, *LONG_BLOBS, *repeated_cases()]
    for path in sorted(VECTORS.glob("*.jsonl")):
        batch += [case for case, _ in read_vectors(path)]
    return batch


def test_every_rejection_worded_alike(twins: tuple[ModuleType, ModuleType]) -> None:
    _worded_alike(twins, _fixed() + generate(QUICK_CASES, SEED), 4000)


def _worded_alike(twins: tuple[ModuleType, ModuleType], batch: list[Case], least: int) -> None:
    """Assert that both twins word alike each case of ``batch`` that either rejects.

    At least ``least`` of the cases must be rejected, or the batch is not what it was.
    """
    rejecting = 0
    differ = []
    for case in batch:
        py, c = (ours(frames, case) for frames in twins)
        if "body" in (py.verdict, c.verdict):
            rejecting += 1
            if (py.verdict, py.error) != (c.verdict, c.error):
                differ.append(f"{case.id} {case.payload[:120]!r}: {py.error!r} / {c.error!r}")
    assert rejecting > least  # the corpus and the generated cases hold that many
    assert not differ, f"{len(differ)} of {rejecting} differ, e.g. " + "\n".join(differ[:5])


@pytest.mark.parametrize("payload", ["\x00{}", 0, None, [0], object()])
def test_not_bytes_like_worded_alike(twins: tuple[ModuleType, ModuleType], payload: object) -> None:
    messages = []
    for frames in twins:
        for decode in (frames.decode_notification, frames.decode_read_resource):
            with pytest.raises(TypeError) as info:
                decode(payload)
            messages.append(str(info.value))
    assert messages == [f"a bytes-like object is required, not '{type(payload).__name__}'"] * 4


#: Numbers serde_json reads otherwise than msgspec (``-0`` and integers beyond 64 bits
#: as floats), a plain one among them.
_NUMBERS = [b"-0", b"1" + b"0" * 39, b"-1" + b"0" * 25, b"18446744073709551616", b"1e5", b"7"]
#: Where a number meets a typed member, with a syntax error after it.
_BROKEN = [
    ("notifications", b'\x01{"code":%s,"message":"m",}'),
    ("notifications", b'\x01{"code":%s,"message":"m"'),
    ("notifications", b'\x01{"message":"m","code":%s,"data":[1,]}'),
    ("read-resource", b'\x00{"contents":[],"ttlMs":%s,}'),
    ("read-resource", b'\x01{"code":%s,"message":"m","data":tru}'),
    (
        "notifications",
        b'\x00{"method":"notifications/progress","params":{"progressToken":%s,"progress":1,]}',
    ),
]


@pytest.mark.parametrize("number", _NUMBERS)
@pytest.mark.parametrize(("channel", "shape"), _BROKEN)
def test_a_number_before_a_syntax_error_is_worded_alike(
    twins: tuple[ModuleType, ModuleType], channel: str, shape: bytes, number: bytes
) -> None:
    """serde_json meets the number's type before the syntax error after it: both twins
    word what msgspec says of the number as serde_json reads it."""
    case = Case("broken", channel, shape % number)
    py, c = (ours(frames, case) for frames in twins)
    assert py.verdict == c.verdict == "body"
    assert py.error == c.error
