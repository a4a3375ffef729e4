"""pytest-benchmark suite of the speed matrix (issue 4).

The frames and the implementations compared are those of ``python -m diverge_frames
bench`` (:mod:`diverge_frames._bench`): eight frames, each decoded and encoded by
``compiled`` (``_frames_c``), ``python`` (``_frames_py``), ``msgspec`` (the floor: the
msgspec decoder/encoder our code uses, alone, on the body), ``mcp-types`` (PyPI ``mcp``'s
pydantic models) and ``orjson`` (plain dicts). ``mcp`` and ``orjson`` are optional:
their benchmarks skip without them.

Not collected by a plain ``pytest`` (``testpaths`` is ``tests``). Run::

    python -m pytest benchmarks --benchmark-group-by=group --benchmark-sort=name

pytest-benchmark times each benchmark on its own, one after the other; for ratios that
hold on a busy machine use the interleaved ``python -m diverge_frames bench`` or
``scripts/bench_guard.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from diverge_frames import _bench

CASES = _bench.cases()
MATRIX = {case.name: _bench.matrix(case) for case in CASES}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``case`` / ``op`` / ``impl`` over the whole matrix."""
    if {"case", "op", "impl"} <= set(metafunc.fixturenames):
        params = [
            pytest.param(case, op, impl, id=f"{case.name}-{op}-{impl}")
            for case in CASES
            for op in ("decode", "encode")
            for impl in _bench.IMPLEMENTATIONS
        ]
        metafunc.parametrize(("case", "op", "impl"), params)


@pytest.fixture
def operation(case: _bench.Case, op: str, impl: str) -> tuple[Any, Any]:
    """``(function, argument)`` of one cell; skips when the implementation is missing."""
    ops = MATRIX[case.name][op]
    if impl not in ops:
        pytest.skip(f"{impl} not available (mcp / orjson / compiled extension not installed)")
    return ops[impl]
