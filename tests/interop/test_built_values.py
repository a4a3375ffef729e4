"""Values users build, against rmcp: what encode writes, rmcp reads as the same variant
and writes back as the same bytes (but for float digits serde_json reads as a
neighbouring double), or encode refused it with a TypeError/ValueError naming the
member. And every decoded corpus value is canonical as it is.

The oracle part is skipped unless the oracle is built (``DIVERGE_FRAMES_ORACLE``);
``DIVERGE_FRAMES_BUILT_CASES`` (default 3000) values are drawn, seed
``DIVERGE_FRAMES_ORACLE_SEED`` (default 1).
"""

from __future__ import annotations

import functools
import os
from typing import Any

import helpers
import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from rmcp_diff import (
    RMCP_VARIANT,
    Case,
    corpus_cases,
    disagreement,
    oracle_available,
    ours,
    run_oracle,
)
from value_strategies import encoded, same_but_float_digits, top_values

from diverge_frames import _checks
from diverge_frames import types as t
from diverge_frames.errors import FrameError

CASES = int(os.environ.get("DIVERGE_FRAMES_BUILT_CASES", "3000"))
SEED = int(os.environ.get("DIVERGE_FRAMES_ORACLE_SEED", "1"))


def test_every_decoded_corpus_value_passes_as_it_is(frames: Any) -> None:
    """A decoded value is canonical: the check returns it unchanged and the compiled
    walk passes it without calling the check."""
    seen = 0
    for case in corpus_cases():
        try:
            value = helpers.decoder(frames, case.channel)(case.payload)
        except FrameError:
            continue
        assert _checks.check(value) is value, case.id
        if helpers._frames_c is not None and not helpers.NO_EXTENSIONS:
            assert helpers._frames_c._fast_check(value), case.id
        seen += 1
    assert seen > 100


@functools.cache
def _drawn(count: int) -> list[tuple[Any, str]]:
    out: list[tuple[Any, str]] = []

    @seed(SEED)
    @settings(
        max_examples=count,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.booleans().flatmap(top_values))
    def collect(drawn: tuple[Any, str]) -> None:
        out.append(drawn)

    collect()
    return out


@pytest.mark.heavy
@pytest.mark.skipif(not oracle_available(), reason="rmcp oracle not built")
def test_built_values_round_trip_through_rmcp(frames: Any) -> None:
    written: list[tuple[Any, Case]] = []
    refused = 0
    for value, channel in _drawn(CASES):
        payload = encoded(helpers.encoder(frames, channel), value)
        if isinstance(payload, tuple):
            assert payload[1].startswith("$"), payload
            refused += 1
            continue
        written.append((value, Case(f"built/{len(written)}", channel, payload)))
    assert len(written) > CASES // 3 and refused > CASES // 20, (len(written), refused)
    problems = []
    floats = 0
    for (value, case), rmcp in zip(written, run_oracle([c for _, c in written]), strict=True):
        problem = None
        if rmcp.verdict != "ok":
            problem = f"rmcp {rmcp.verdict}: {rmcp.error}"
        elif type(value) is not t.CustomNotification and rmcp.variant != RMCP_VARIANT[type(value)]:
            problem = f"rmcp reads a {rmcp.variant}"
        elif rmcp.reencoded != case.payload:
            floats += 1
            if not same_but_float_digits(rmcp.reencoded or b"", case.payload):
                problem = f"rmcp writes back {rmcp.reencoded!r}"
        else:
            problem = disagreement(ours(frames, case), rmcp)  # our reading is rmcp's
        if problem is not None:
            problems.append(f"{value!r}: {case.payload!r}: {problem}")
    print(
        f"{len(written)} written and read back by rmcp ({floats} with other float digits),"
        f" {refused} refused"
    )
    assert not problems, f"{len(problems)} of {len(written)}:\n" + "\n".join(problems[:10])
