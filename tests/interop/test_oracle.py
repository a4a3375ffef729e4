"""Live differential test against rmcp 3.1.4, through the Rust oracle.

Skipped unless the oracle is built::

    cargo build --release --manifest-path interop/rmcp-oracle/Cargo.toml
    DIVERGE_FRAMES_ORACLE_CASES=20000 python -m pytest tests/interop/test_oracle.py

``DIVERGE_FRAMES_ORACLE`` points at another oracle binary; ``DIVERGE_FRAMES_ORACLE_CASES``
(default 2000) is how many cases hypothesis generates, ``DIVERGE_FRAMES_ORACLE_SEED``
(default 1) its seed. The generated cases, the corpus and the hostile list go to the
oracle in one batch; then each is decoded (from ``bytes``, ``bytearray`` and
``memoryview``) and re-encoded by both implementations and compared with rmcp: same verdict, same variant, byte-identical re-encoding; and a case the
two reject is worded alike by both (as ``test_messages.py`` holds for its batch). Every
disagreement is written to ``rmcp-disagreements.jsonl`` in pytest's temporary directory
(a golden-vector file: ``read_vectors`` reads it back) and the first ones are shown.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from rmcp_cases import HOSTILE, LONG_BLOBS, cases
from rmcp_diff import (
    ORACLE,
    PAYLOAD_TYPES,
    VECTORS,
    Case,
    Outcome,
    corpus_cases,
    disagreement,
    oracle_available,
    ours,
    read_vectors,
    run_oracle,
    short,
    write_vectors,
)

from diverge_frames import _frames_py

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

CASES = int(os.environ.get("DIVERGE_FRAMES_ORACLE_CASES", "2000"))
SEED = int(os.environ.get("DIVERGE_FRAMES_ORACLE_SEED", "1"))


def generate(count: int, seed_value: int) -> list[Case]:
    """``count`` cases from the hypothesis strategy, in one run (no shrinking)."""
    drawn: list[Case] = []

    @seed(seed_value)
    @settings(
        max_examples=count,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(cases())
    def collect(case: Case) -> None:
        drawn.append(Case(f"generated/{len(drawn)}", case.channel, case.payload))

    collect()
    return drawn


def test_live_differential(tmp_path: Path) -> None:
    start = time.perf_counter()
    generated = generate(CASES, SEED)
    assert len(generated) >= CASES * 0.99, f"hypothesis gave {len(generated)} of {CASES} cases"
    batch = list(corpus_cases()) + HOSTILE + LONG_BLOBS + generated
    generated_at = time.perf_counter()
    verdicts = run_oracle(batch)
    oracle_at = time.perf_counter()
    twins = {"python": _frames_py, "cython": _frames_c}
    problems: dict[str, list[tuple[Case, Outcome, str]]] = {name: [] for name in twins}
    words: dict[str, list[str | None]] = {}  # each case's rejection, from bytes
    for name, frames in twins.items():
        if frames is None:
            continue
        said = words.setdefault(name, [])
        for case, rmcp in zip(batch, verdicts, strict=True):
            for kind in PAYLOAD_TYPES:  # bytes, bytearray, memoryview
                outcome = ours(frames, case, kind)
                if kind == "bytes":
                    said.append(outcome.error if outcome.verdict == "body" else None)
                problem = disagreement(outcome, rmcp)
                if problem is not None:
                    problems[name].append((case, rmcp, f"{kind}: {problem}"))
    if len(words) == 2:  # one message per rejection (test_messages.py), for these cases too
        for case, rmcp, py, c in zip(batch, verdicts, *words.values(), strict=True):
            if py != c:
                problems["python"].append((case, rmcp, f"worded {py!r}, compiled {c!r}"))
    done = time.perf_counter()
    summary = (
        f"{len(batch)} cases ({len(generated)} generated, seed {SEED}) x "
        f"{sum(f is not None for f in twins.values())} implementations x "
        f"{len(PAYLOAD_TYPES)} payload types: "
        + ", ".join(f"{name} {len(found)} disagreements" for name, found in problems.items())
        + f"; generate {generated_at - start:.1f}s, oracle {oracle_at - generated_at:.1f}s,"
        f" compare {done - oracle_at:.1f}s"
    )
    print(summary)
    failing = {case.id: (case, rmcp) for found in problems.values() for case, rmcp, _ in found}
    if failing:
        out = tmp_path / "rmcp-disagreements.jsonl"
        write_vectors(out, failing.values())
        lines = [
            f"{name}: {case.id} [{case.channel}] {short(case.payload, 200)}: {problem}"
            for name, found in problems.items()
            for case, _, problem in found[:15]
        ]
        pytest.fail(summary + f"\nall of them, as vectors: {out}\n" + "\n".join(lines))


def test_vectors_match_the_oracle() -> None:
    """The committed vectors are what this oracle says now (else: scripts/gen_vectors.py)."""
    stale = []
    for path in sorted(VECTORS.glob("*.jsonl")):
        pairs = list(read_vectors(path))
        for (case, recorded), live in zip(pairs, run_oracle([c for c, _ in pairs]), strict=True):
            if recorded.key() != live.key():
                stale.append(f"{path.name}: {case.id}")
    assert not stale, f"{len(stale)} stale vectors, e.g. {stale[:5]}"


def test_numbers_against_rmcp() -> None:
    """Generated numbers (``tests/number_tokens.py``: every shape serde_json's parser
    tells apart), 200 to a body in ``ErrorData.data`` and as a progress notification's
    ``progress`` and ``total``: rmcp's verdict and re-encoding, byte for byte, from both
    implementations. ``DIVERGE_FRAMES_NUMBERS`` (default 20,000 here) sets how many."""
    import random

    from number_tokens import NUMBER, tokens

    count = int(os.environ.get("DIVERGE_FRAMES_NUMBERS", "20000"))
    toks = [t for t in tokens(random.Random(11), count) if NUMBER.match(t)]
    batch = []
    for start in range(0, len(toks), 200):
        chunk = ",".join(toks[start : start + 200]).encode()
        batch.append(
            Case(f"numbers/{start}", "notifications", b'\x01{"code":1,"message":"m","data":['
                 + chunk + b"]}")
        )  # fmt: skip
    for i, token in enumerate(toks[:2000]):
        params = b'{"progressToken":1,"progress":%s,"total":%s}' % (token.encode(), token.encode())
        batch.append(
            Case(f"progress/{i}", "notifications",
                 b'\x00{"method":"notifications/progress","params":' + params + b"}")
        )  # fmt: skip
    verdicts = run_oracle(batch)
    wrong = [
        (name, case.id, problem)
        for name, frames in (("python", _frames_py), ("cython", _frames_c))
        if frames is not None
        for case, rmcp in zip(batch, verdicts, strict=True)
        if (problem := disagreement(ours(frames, case), rmcp)) is not None
    ]
    assert not wrong, wrong[:10]
