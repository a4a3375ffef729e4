"""Live differential of rmcp's model where msgspec cannot follow serde: every case of
``rmcp_model_cases`` (unit enums in every form at every position, tags, input requests
and their mutations) for both twins and every payload type, and the encoding of typed
input requests (rmcp reads our bytes as the same variant and writes them back unchanged).

Skipped unless the oracle is built (see ``test_oracle.py``). The counts per family are
printed (``pytest -s``).
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from request_values import INPUT_REQUESTS
from rmcp_diff import (
    NOTIFICATIONS,
    ORACLE,
    PAYLOAD_TYPES,
    Case,
    disagreement,
    oracle_available,
    ours,
    run_oracle,
    short,
)
from rmcp_model_cases import MODEL_CASES, family

from diverge_frames import _frames_py
from diverge_frames import types as t

try:
    from diverge_frames import _frames_c
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None

# The live oracle: heavy (.ci/run runs it in its own step, with more cases).
pytestmark = [
    pytest.mark.heavy,
    pytest.mark.skipif(
        not oracle_available(),
        reason=f"rmcp oracle not built ({ORACLE}); "
        "cargo build --release --manifest-path interop/rmcp-oracle/Cargo.toml",
    ),
]
TWINS = {"python": _frames_py, "cython": _frames_c}
#: How many typed notifications with input requests are encoded (default 500).
ENCODED = int(os.environ.get("DIVERGE_FRAMES_MODEL_ENCODED", "500"))


def test_model_cases() -> None:
    verdicts = run_oracle(MODEL_CASES)
    cases: Counter[str] = Counter()
    typed: Counter[str] = Counter()
    problems: list[str] = []
    for case, rmcp in zip(MODEL_CASES, verdicts, strict=True):
        cases[family(case.id)] += 1
        typed[family(case.id)] += rmcp.verdict == "ok" and rmcp.variant != "CustomNotification"
        for name, frames in TWINS.items():
            if frames is None:
                continue
            for kind in PAYLOAD_TYPES:
                problem = disagreement(ours(frames, case, kind), rmcp)
                if problem is not None:
                    problems.append(
                        f"{name}/{kind}: {case.id} {short(case.payload, 200)}: {problem}"
                    )
    print(
        "model cases per family (typed by rmcp / all): "
        + ", ".join(f"{f} {typed[f]}/{n}" for f, n in cases.items())
        + f"; {len(problems)} disagreements"
    )
    assert set(cases) == {"enum", "tag", "ir", "ir-mut"}
    assert not problems, f"{len(problems)} disagree:\n" + "\n".join(problems[:30])


def _notifications(count: int) -> list[t.TasksNotification]:
    drawn: list[t.TasksNotification] = []

    @seed(20260728)
    @settings(
        max_examples=count,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(INPUT_REQUESTS, st.sampled_from([None, {"k": 1}]))
    def collect(requests: dict[str, t.InputRequest], meta: dict[str, int] | None) -> None:
        drawn.append(
            t.TasksNotification(
                params=t.DetailedTaskNotificationParams(
                    meta=meta,
                    task_id="t",
                    status="input_required",
                    created_at="c",
                    last_updated_at="u",
                    input_requests=requests,
                )
            )
        )

    collect()
    return drawn


def test_typed_input_requests_encode_as_rmcp_writes() -> None:
    """Each typed value, encoded by each twin, is read by rmcp as a typed
    ``notifications/tasks`` and written back byte for byte."""
    values = _notifications(ENCODED)
    assert len(values) >= ENCODED * 0.9
    for name, frames in TWINS.items():
        if frames is None:
            continue
        cases = [
            Case(f"encoded/{i}", NOTIFICATIONS, frames.encode_notification(v))
            for i, v in enumerate(values)
        ]
        wrong = [
            f"{name}: {short(c.payload, 300)} -> {r.verdict} {r.variant} {short(r.reencoded, 300)}"
            for c, r in zip(cases, run_oracle(cases), strict=True)
            if (r.verdict, r.variant, r.reencoded) != ("ok", "TaskStatusNotification", c.payload)
        ]
        assert not wrong, f"{len(wrong)} of {len(cases)}:\n" + "\n".join(wrong[:10])
