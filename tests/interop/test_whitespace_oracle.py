"""rmcp judges JSON whitespace between tokens: the cases of ``tests/test_whitespace.py``.

Each frame of that file written by each writer (indentation, Python's separators, CRLF),
generated whitespace at every token boundary, and each byte JSON does not allow there
(\\f, \\v, NBSP, U+2028, a BOM, ...) at each boundary of the small frames: both twins give
rmcp's verdict and, for a frame it takes, its bytes. Skipped unless the oracle is built
(``tests/interop/test_oracle.py`` says how; ``DIVERGE_FRAMES_ORACLE`` points at it).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from types import ModuleType

import pytest
from rmcp_diff import Case, disagreement, oracle_available, ours, run_oracle
from test_whitespace import (
    LONG,
    NOT_WHITESPACE,
    SMALL,
    WHITESPACE,
    WRITERS,
    compact,
    spaced,
    tokens,
)


def whitespace_cases(seed: int = 5) -> Iterator[Case]:
    """The frames with whitespace (and with the bytes that are not) as oracle cases."""
    rng = random.Random(seed)
    for frame, (channel, value) in LONG.items():
        for writer, write in WRITERS.items():
            yield Case(f"whitespace/{frame}/{writer}", channel, b"\x00" + write(value))
    for index, (channel, tag, body) in enumerate(SMALL):
        count = len(tokens(body)) + 1
        for round_ in range(20):
            gaps = ["".join(rng.choices(WHITESPACE, k=rng.randint(0, 3))) for _ in range(count)]
            yield Case(
                f"whitespace/small {index}/{round_}", channel, bytes((tag,)) + spaced(body, gaps)
            )
        for odd in NOT_WHITESPACE:
            for at in range(count):
                gaps = [""] * count
                gaps[at] = " " + odd.decode("utf-8")
                payload = bytes((tag,)) + spaced(body, gaps)
                yield Case(f"not whitespace/small {index}/{odd!r}/{at}", channel, payload)
    value = json.loads(compact(LONG["text result"][1]))
    yield Case("whitespace/leading and trailing", "read-resource",
               b"\x00 \r\n\t" + compact(value) + b"\n\n")  # fmt: skip


@pytest.mark.skipif(not oracle_available(), reason="rmcp oracle not built")
def test_whitespace_against_rmcp(twins: tuple[ModuleType, ModuleType]) -> None:
    cases = list(whitespace_cases())
    problems = []
    for case, rmcp in zip(cases, run_oracle(cases), strict=True):
        for frames in twins:
            why = disagreement(ours(frames, case), rmcp)
            if why is not None:
                problems.append(f"{frames.__name__} {case.id}: {why}")
    assert not problems, f"{len(problems)} of {2 * len(cases)}: {problems[:5]}"
    assert {rmcp.verdict for rmcp in run_oracle(cases[:3])} == {"ok"}
