"""Decode and encode timings of the matrix (see ``conftest.py``), one benchmark per
(case, operation, implementation), grouped by case and operation so that
pytest-benchmark's table puts the implementations of one cell side by side. A case of
several frames is timed as one pass over all of them.

Each benchmark also checks what it timed: our paths give the same values and bytes as
the pure-Python reference, and the others return what they should.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from benchmarks import cases, memory, minimal, peers


def _reference(case: cases.Case, op: str) -> list[Any]:
    """The pure-Python path's decoded values (decode) or bytes (encode) for ``case``."""
    module = peers.twin("python")
    suffix = "notification" if case.channel == "notifications" else "read_resource"
    values = [getattr(module, f"decode_{suffix}")(p) for p in case.payloads]
    if op == "decode":
        return values
    return [getattr(module, f"encode_{suffix}")(v) for v in values]


def _one_pass(pairs: peers.Pairs) -> list[Any]:
    return [function(argument) for function, argument in pairs]


def test_frame(
    benchmark: Any, case: cases.Case, op: str, impl: str, operation: peers.Pairs
) -> None:
    benchmark.group = f"{case.name} {op} ({len(case.payloads)} x {case.size} B)"
    benchmark.extra_info.update(frame_bytes=case.size, frames=len(case.payloads), kind=case.kind)
    if len(operation) == 1:
        [(function, argument)] = operation
        results = [benchmark(function, argument)]
    else:
        results = benchmark(_one_pass, operation)
    if impl in peers.OURS:
        assert results == _reference(case, op)
    elif impl in ("msgspec", "msgspec (ours)"):
        for result in results:
            assert isinstance(result, bytes if op == "encode" else msgspec.Struct)
    elif impl == "mcp-types":
        for result in results:
            if op == "encode":
                assert isinstance(result, str) and result.startswith("{")
            else:
                assert type(result).__module__.startswith("mcp")
    else:  # orjson
        for result in results:
            assert isinstance(result, bytes if op == "encode" else dict)


@pytest.fixture(scope="module")
def blob_memory() -> dict[str, Any]:
    """One tracemalloc run of each path on a 64 MiB blob frame."""
    return memory.memory_check(64)


@pytest.mark.parametrize("path", peers.OURS)
def test_blob_decode_allocates_about_the_blob(blob_memory: dict[str, Any], path: str) -> None:
    """Decoding a 64 MiB blob frame allocates at most 1.1x the blob beyond the input
    (tracemalloc peak): the body is never copied, only the blob's str is built."""
    if path not in blob_memory["paths"]:
        pytest.skip("compiled extension not built")
    assert blob_memory["paths"][path]["ratio"] <= 1.1, blob_memory["paths"][path]


def test_minimal_floor_writes_what_ours_writes() -> None:
    """The minimal Structs (the floor) read every frame of the matrix and write the body
    our encode writes, but for the order of a free-form member's keys (rmcp sorts a
    ``serde_json::Value`` map): the floor does the work ours does, no more, no less."""
    module = peers.twin("python")
    compared = 0
    for case in cases.all_cases():
        if case.fresh or case.built:
            continue
        suffix = "notification" if case.channel == "notifications" else "read_resource"
        decode, encode = getattr(module, f"decode_{suffix}"), getattr(module, f"encode_{suffix}")
        for payload in case.payloads:
            body = minimal.encode(minimal.decoder(case.channel, payload)(payload[1:]))
            ours = encode(decode(payload))[1:]
            assert body == ours or json.loads(body) == json.loads(ours), case.name
            compared += 1
    assert compared > 100
