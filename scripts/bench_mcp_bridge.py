#!/usr/bin/env python3
"""The cost of crossing to the MCP Python SDK's models (``diverge_frames.mcp``), for
docs/mcp-bridge.md: per small frame of the benchmark matrix, nanoseconds (thread CPU
time, median over interleaved rounds) of

* ``decode`` and ``encode`` (ours, the implementation in use);
* ``to_mcp(value)`` and ``from_mcp(model)``;
* the SDK alone: ``Model.model_validate_json(body)`` (with ``"jsonrpc":"2.0"`` added for
  a ``JSONRPCNotification``) and
  ``model.model_dump_json(by_alias=True, exclude_unset=True)``;

and the ratio of a decode + ``to_mcp`` to the SDK's own ``model_validate_json``.

Usage: ``python scripts/bench_mcp_bridge.py [--rounds N]`` (needs ``.[mcp]``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import diverge_frames
from diverge_frames import mcp, notifications, read_resource

# The benchmark matrix's frames are in the repository (benchmarks/), not in the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.cases import SMALL_LIMIT, synthetic


def _time(fn: Callable[[Any], Any], arg: Any, number: int) -> float:
    start = time.thread_time_ns()
    for _ in range(number):
        fn(arg)
    return (time.thread_time_ns() - start) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    rows = []
    for case in synthetic():
        if case.size > SMALL_LIMIT:
            continue
        (payload,) = case.payloads
        channel = notifications if case.channel == "notifications" else read_resource
        value = channel.decode(payload)
        model = mcp.to_mcp(value)
        sdk_cls = type(model)
        # a JSONRPCNotification (a custom notification) needs its "jsonrpc" member
        body = payload[1:]
        if "jsonrpc" in sdk_cls.model_fields:
            body = b'{"jsonrpc":"2.0",' + body[1:]
        ops: dict[str, tuple[Callable[[Any], Any], Any]] = {
            "decode": (channel.decode, payload),
            "to_mcp": (mcp.to_mcp, value),
            "from_mcp": (mcp.from_mcp, model),
            "encode": (channel.encode, value),
            "sdk validate_json": (sdk_cls.model_validate_json, body),
            "sdk dump_json": (
                lambda m: m.model_dump_json(by_alias=True, exclude_unset=True),
                model,
            ),
        }
        number = 2000
        samples: dict[str, list[float]] = {name: [] for name in ops}
        for _ in range(args.rounds):
            for name, (fn, arg) in ops.items():
                samples[name].append(_time(fn, arg, number))
        rows.append((case.name, {k: statistics.median(v) for k, v in samples.items()}))
    names = list(rows[0][1])
    print(
        f"diverge-frames {diverge_frames.__version__} ({diverge_frames.IMPLEMENTATION}),"
        f" {args.rounds} rounds, ns per call (thread CPU time, median)"
    )
    print("| frame | " + " | ".join(names) + " | decode+to_mcp / sdk validate_json |")
    print("|---" * (len(names) + 2) + "|")
    for name, medians in rows:
        ratio = (medians["decode"] + medians["to_mcp"]) / medians["sdk validate_json"]
        cells = " | ".join(f"{medians[n]:,.0f}" for n in names)
        print(f"| {name} | {cells} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
