"""rmcp judges serde_json's reasons: the faults past msgspec's openings.

Where msgspec is not asked for its words (a fault after more openings than
``_stack.MSGSPEC_MESSAGE_OPENINGS``), a rejection's words are serde_json's first reason
(``_exact.serde_json.REASONS``). Each case of ``tests/test_rejection_past_openings.py``
goes to rmcp: both twins must give its verdict and, where they word it with a reason,
the reason of rmcp's error (its message without the line and column, by the table
below). Skipped unless the oracle is built (``tests/interop/test_oracle.py`` says how).
"""

from __future__ import annotations

import re
from types import ModuleType

import pytest
from rmcp_diff import Case, disagreement, oracle_available, ours, run_oracle
from test_rejection_past_openings import BEFORE, FAULTS, POSITIONS

from diverge_frames._exact import serde_json as sj

#: serde_json's error messages (serde_json 1.0's ErrorCode, as rmcp words a body's
#: error) and the reason each is.
RMCP_REASONS = {
    "expected value": sj.EXPECTED_VALUE,
    "expected ident": sj.EXPECTED_VALUE,
    "EOF while parsing a value": sj.EXPECTED_VALUE,
    "trailing comma": sj.EXPECTED_VALUE,  # a value is expected after the comma
    "trailing characters": sj.TRAILING,
    "expected `,` or `]`": sj.EXPECTED_COMMA,
    "expected `,` or `}`": sj.EXPECTED_COMMA,
    "EOF while parsing a list": sj.EXPECTED_COMMA,
    "EOF while parsing an object": sj.EXPECTED_COMMA,
    "key must be a string": sj.KEY,
    "expected `:`": sj.COLON,
    "invalid number": sj.NUMBER,
    "control character (\\u0000-\\u001F) found while parsing a string": sj.STRING,
    "invalid escape": sj.STRING,
    "EOF while parsing a string": sj.STRING,
    "invalid unicode code point": sj.UNICODE,
    "lone leading surrogate in hex escape": sj.SURROGATE,
    "unexpected end of hex escape": sj.SURROGATE,
    "number out of range": sj.RANGE,
    "recursion limit exceeded": sj.DEPTH,
}
_WHERE = re.compile(r" at line \d+ column \d+$")


def _cases() -> list[Case]:
    cases = []
    for tag, template in POSITIONS:
        for before, (head, tail) in BEFORE.items():
            for fault in FAULTS:
                payload = bytes((1 if tag == 1 else 0,)) + template.replace(
                    b"%s", head + fault + tail
                )
                channel = "read-resource" if tag == 2 else "notifications"
                cases.append(Case(f"{template[:24]!r}/{before}/{fault!r}", channel, payload))
    return cases


@pytest.mark.heavy
@pytest.mark.skipif(not oracle_available(), reason="rmcp oracle not built")
def test_reasons_past_the_openings_are_rmcps(twins: tuple[ModuleType, ModuleType]) -> None:
    cases = _cases()
    problems, worded = [], 0
    for case, rmcp in zip(cases, run_oracle(cases), strict=True):
        for frames in twins:
            mine = ours(frames, case)
            why = disagreement(mine, rmcp)
            if why is None and mine.error is not None and rmcp.error is not None:
                reason = mine.error.split(": ", 1)[-1].removesuffix(" at $")
                if reason in sj.REASONS:
                    worded += 1
                    theirs = RMCP_REASONS.get(_WHERE.sub("", rmcp.error), rmcp.error)
                    if theirs != reason:
                        why = f"reason {reason!r}, rmcp {rmcp.error!r}"
            if why is not None:
                problems.append(f"{frames.__name__} {case.id}: {why}")
    assert not problems, f"{len(problems)} of {2 * len(cases)}: {problems[:5]}"
    assert worded > len(cases)  # most are worded by a reason, in both twins


#: msgspec's words for a fault of syntax (not of types), which it meets in a value that
#: serde_json skips unread (a lone surrogate escape) as much as in one it reads.
_MSGSPEC_SYNTAX = ("JSON is malformed", "Input data was truncated")


def _skipped_cases() -> list[Case]:
    from test_rewritten_rejection import RESTS, SKIPPED, TRIGGERS

    cases = []
    for tag, _, members in RESTS:
        for skipped in SKIPPED:
            for trigger, (key, more) in TRIGGERS.items():
                member = key + b":" + skipped + more
                for parts in ([member, members], [members, member]):
                    body = b"{" + b",".join(p for p in parts if p) + b"}"
                    channel = "read-resource" if tag == 0 else "notifications"
                    cases.append(Case(f"{trigger}/{body!r}", channel, bytes((tag,)) + body))
    return cases


@pytest.mark.heavy
@pytest.mark.skipif(not oracle_available(), reason="rmcp oracle not built")
def test_a_type_fault_beside_a_skipped_surrogate_is_rmcps(
    twins: tuple[ModuleType, ModuleType],
) -> None:
    """A body serde_json reads whole that rmcp rejects for its types (a missing or
    repeated member, an item neither text nor blob), beside a lone surrogate in a value
    serde_json skips unread: both twins give rmcp's verdict, and word it by the fault
    rmcp meets, never by msgspec's syntax error of the surrogate."""
    cases = _skipped_cases()
    problems, typed = [], 0
    for case, rmcp in zip(cases, run_oracle(cases), strict=True):
        syntax = rmcp.error is not None and _WHERE.sub("", rmcp.error) in RMCP_REASONS
        typed += rmcp.error is not None and not syntax
        for frames in twins:
            mine = ours(frames, case)
            why = disagreement(mine, rmcp)
            misworded = mine.error is not None and any(w in mine.error for w in _MSGSPEC_SYNTAX)
            if why is None and rmcp.error is not None and not syntax and misworded:
                why = f"worded {mine.error!r}, rmcp {rmcp.error!r}"
            if why is not None:
                problems.append(f"{frames.__name__} {case.id}: {why}")
    assert not problems, f"{len(problems)} of {2 * len(cases)}: {problems[:5]}"
    assert typed > len(cases) // 2  # most are rejected for their types by rmcp
