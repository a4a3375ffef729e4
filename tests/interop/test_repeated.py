"""Repeated keys never hide a bad value: both twins read a repeated key's first value.

The cases of ``rmcp_repeated``: ``"k":BAD,"k":GOOD`` at every free-form and typed
position. Without the oracle, each twin's verdict is the rule serde follows
(:func:`rmcp_repeated.rmcp_accepts`) and the twins' messages are equal; with it
(``tests/interop/test_oracle.py`` says how to build it), rmcp judges every case.
"""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from rmcp_diff import Case, Outcome, disagreement, oracle_available, ours, run_oracle
from rmcp_repeated import repeated_case, repeated_cases, rmcp_accepts

CASES = list(repeated_cases())


def _outcomes(twins: tuple[ModuleType, ModuleType], case: Case) -> list[Outcome]:
    return [ours(frames, case) for frames in twins]


def _expected(case: Case) -> bool:
    _, position, bad, _ = case.id.split("/")
    return rmcp_accepts(position, bad)


def test_every_case_follows_serde(twins: tuple[ModuleType, ModuleType]) -> None:
    """Every combination: the verdict serde's rule gives, the same message in both twins."""
    wrong = []
    for case in CASES:
        py, c = _outcomes(twins, case)
        verdict = "ok" if _expected(case) else "body"
        if py.verdict != verdict or c.verdict != verdict or py.error != c.error:
            wrong.append((case.id, py.verdict, c.verdict, py.error, c.error))
    assert not wrong, f"{len(wrong)} of {len(CASES)}, e.g. {wrong[:3]}"


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(repeated_case())
def test_repeated_key_property(
    twins: tuple[ModuleType, ModuleType], drawn: tuple[Case, bool]
) -> None:
    """A drawn case (its bad value maybe wrapped in arrays and objects): serde's verdict."""
    case, accepted = drawn
    py, c = _outcomes(twins, case)
    assert py.key() == c.key()
    assert py.error == c.error
    assert py.verdict == ("ok" if accepted else "body"), (case.payload, py.error)


@pytest.mark.skipif(not oracle_available(), reason="rmcp oracle not built")
def test_every_case_against_rmcp(twins: tuple[ModuleType, ModuleType]) -> None:
    """rmcp's verdict and re-encoding on every case, from both twins; the rule agrees."""
    problems = []
    for case, rmcp in zip(CASES, run_oracle(CASES), strict=True):
        if (rmcp.verdict == "ok") != _expected(case):
            problems.append(f"{case.id}: rmcp says {rmcp.verdict}, the rule otherwise")
        for frames in twins:
            problem = disagreement(ours(frames, case), rmcp)
            if problem is not None:
                problems.append(f"{frames.__name__}: {case.id}: {problem}")
    assert not problems, f"{len(problems)} problems, e.g. {problems[:5]}"
