"""Decode of the real small frames, method by method, against the floor.

``python -m benchmarks.methods [--rounds N] [--json]``: every frame of the corpus's
notifications and errors (:func:`benchmarks.cases.real`'s ``real_notifications`` and
``real_errors``), grouped by its ``method`` (an error by its JSON-RPC ``code``), decoded
by the compiled twin and by the minimal msgspec Struct of its shape
(:mod:`benchmarks.minimal`, the matrix's ``msgspec`` column, given the body), the two
of a group back to back in each round, on thread CPU time (:mod:`benchmarks.timing`).
Prints, per group, its frames, their mean size, the median time per frame of each and
the median over rounds of compiled / minimal within a round: which frames of the real
traffic cost most over the floor, where the matrix gives one figure for them all.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from . import cases, minimal, peers
from .timing import CLOCK, Group, PythonCell, median, median_ratio, run_rounds

__all__ = ["groups", "run", "main"]

#: The matrix's cases whose frames are grouped here.
CASES = ("real_notifications", "real_errors")


def _key(payload: bytes) -> str:
    """The group of the frame ``payload``: its method, or ``error <code>``."""
    body = json.loads(payload[1:])
    method = body.get("method")
    return str(method) if method is not None else f"error {body.get('code')}"


def groups() -> dict[str, tuple[str, tuple[bytes, ...]]]:
    """Each group's channel and frames, in the order their first frame comes."""
    out: dict[str, tuple[str, list[bytes]]] = {}
    for case in cases.real():
        if case.name in CASES:
            for payload in case.payloads:
                out.setdefault(_key(payload), (case.channel, []))[1].append(payload)
    return {key: (channel, tuple(frames)) for key, (channel, frames) in out.items()}


def run(rounds: int = 21, target_ns: int = 500_000) -> list[dict[str, Any]]:
    """One row per group of :func:`groups`: ``rounds`` interleaved rounds of the
    compiled decode and the minimal Struct's, each measurement about ``target_ns`` of
    thread CPU time. ImportError when the compiled twin is not built."""
    twin = peers.twin("compiled")
    if twin is None:
        raise ImportError("the compiled twin is not built")
    measured = []
    for key, (channel, frames) in groups().items():
        decode: Callable[[Any], Any] = (
            twin.decode_notification if channel == "notifications" else twin.decode_read_resource
        )
        compiled = PythonCell(key, "decode", "compiled", pairs=[(decode, p) for p in frames])
        floor = PythonCell(
            key,
            "decode",
            "msgspec",
            pairs=[(minimal.decoder(channel, p), p[1:]) for p in frames],
        )
        for cell in (compiled, floor):
            cell.calibrate(target_ns)
        measured.append((key, frames, Group(key, "decode", [compiled, floor])))
    run_rounds([group for _, _, group in measured], rounds, 1)
    return [
        {
            "group": key,
            "frames": len(frames),
            "mean_bytes": sum(map(len, frames)) / len(frames),
            "ns": {cell.impl: median(cell.cpu) for cell in group.cells},
            "compiled_over_minimal": median_ratio(*group.cells),
        }
        for key, frames, group in measured
    ]


def text(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table, dearest over the floor first."""
    lines = [
        f"decode of the real small frames by method, medians on {CLOCK}",
        "",
        "| method | frames | mean B | compiled | minimal Struct | compiled / minimal |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in sorted(rows, key=lambda r: -r["compiled_over_minimal"]):
        lines.append(
            f"| {row['group']} | {row['frames']} | {row['mean_bytes']:.0f} "
            f"| {row['ns']['compiled']:.0f} ns | {row['ns']['msgspec']:.0f} ns "
            f"| {row['compiled_over_minimal']:.2f}x |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.methods [--rounds N] [--json]``; returns 0."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.methods",
        description="Time the compiled decode of the corpus's notifications and errors, "
        "grouped by method, against a minimal msgspec Struct of each frame's shape.",
    )
    parser.add_argument("--rounds", type=int, default=21, help="interleaved rounds (21)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    rows = run(args.rounds)
    print(json.dumps(rows, indent=1) if args.json else text(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
