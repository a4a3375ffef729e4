"""pytest-benchmark suite of the matrix's cases and Python implementations.

The cases are those of ``python -m benchmarks.matrix`` (:mod:`benchmarks.cases`:
synthetic, real and long-text frames; not the fresh-payload ones, which need the
matrix's allocator setting), each decoded and encoded by the implementations of
:mod:`benchmarks.peers`: ``compiled`` (``_frames_c``), ``python`` (``_frames_py``),
``msgspec`` (the floor: a minimal msgspec Struct of each frame's shape), ``msgspec
(ours)`` (the msgspec decoder/encoder our code uses, alone, on the body),
``mcp-types`` (PyPI ``mcp``'s pydantic models) and ``orjson`` (plain dicts). ``mcp``
and ``orjson`` are optional: their benchmarks skip without them. rmcp and the relay
loop are in the matrix only.

Not collected by a plain ``pytest`` (``testpaths`` is ``tests``). Run from the
repository's root::

    python -m pytest benchmarks --benchmark-max-time=0.05 --benchmark-sort=name

pytest-benchmark times each benchmark on its own, one after the other, on the wall
clock; for ratios that hold on a busy machine use the interleaved matrix
(``python -m benchmarks.matrix``) or ``scripts/bench_guard.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks import cases, peers

CASES = tuple(c for c in cases.all_cases() if not c.fresh)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``case`` / ``op`` / ``impl`` over the whole matrix."""
    if {"case", "op", "impl"} <= set(metafunc.fixturenames):
        params = [
            pytest.param(case, op, impl, id=f"{case.name}-{op}-{impl}")
            for case in CASES
            for op in ("decode", "encode")
            for impl in peers.PEERS
            if op == "encode" or not case.built
        ]
        metafunc.parametrize(("case", "op", "impl"), params)


@pytest.fixture
def operation(case: cases.Case, op: str, impl: str) -> peers.Pairs:
    """The ``(function, argument)`` pairs of one cell; skips when the implementation
    is missing."""
    ops: dict[str, Any] = peers.ops(case)[op]
    if impl not in ops:
        pytest.skip(f"{impl} not available (mcp / orjson / compiled extension not installed)")
    pairs: peers.Pairs = ops[impl]
    return pairs
