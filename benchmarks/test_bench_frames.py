"""Decode and encode timings of the matrix (see ``conftest.py``), one benchmark per
(frame, operation, implementation), grouped by frame and operation so that
pytest-benchmark's table puts the implementations of one cell side by side.

Each benchmark also checks what it timed: our paths give the same value and bytes as
the pure-Python reference, and the others return what they should.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from diverge_frames import _bench, _frames_py


def _reference(case: _bench.Case, op: str) -> Any:
    """The pure-Python path's decoded value (decode) or bytes (encode) for ``case``."""
    suffix = "notification" if case.channel == "notifications" else "read_resource"
    decode: Callable[[Any], Any] = getattr(_frames_py, f"decode_{suffix}")
    encode: Callable[[Any], bytes] = getattr(_frames_py, f"encode_{suffix}")
    value = decode(case.payload)
    return value if op == "decode" else encode(value)


def test_frame(
    benchmark: Any, case: _bench.Case, op: str, impl: str, operation: tuple[Any, Any]
) -> None:
    function, argument = operation
    benchmark.group = f"{case.name} {op} ({case.size} B)"
    benchmark.extra_info.update(frame_bytes=case.size, kind=case.kind)
    result = benchmark(function, argument)
    if impl in ("compiled", "python"):
        assert result == _reference(case, op)
    elif impl == "msgspec":
        assert isinstance(result, bytes if op == "encode" else msgspec.Struct)
    elif impl == "mcp-types":
        if op == "encode":
            assert isinstance(result, str) and result.startswith("{")
        else:
            assert type(result).__module__.startswith("mcp")
    else:  # orjson
        assert isinstance(result, bytes if op == "encode" else dict)


@pytest.fixture(scope="module")
def memory() -> dict[str, Any]:
    """One tracemalloc run of each path on a 64 MiB blob frame."""
    return _bench.memory_check(64)


@pytest.mark.parametrize("path", ["compiled", "python"])
def test_blob_decode_allocates_about_the_blob(memory: dict[str, Any], path: str) -> None:
    """Decoding a 64 MiB blob frame allocates at most 1.1x the blob beyond the input
    (tracemalloc peak): the body is never copied, only the blob's str is built."""
    if path not in memory["paths"]:
        pytest.skip("compiled extension not built")
    assert memory["paths"][path]["ratio"] <= 1.1, memory["paths"][path]
