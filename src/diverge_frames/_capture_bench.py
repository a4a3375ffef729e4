"""``python -m diverge_frames bench [CAPTURE]``: this install's speed on a capture.

How fast this install decodes and encodes the frames of a capture.

Every channel response of the capture (your own traffic; by default the sample shipped
in the package) is decoded and encoded by the hot path in use (``IMPLEMENTATION``:
compiled, or pure Python), grouped by kind of frame: the channel kind and the type the
frame decodes to (``notifications`` / ``ProgressNotification``, ``read-resource`` /
``ErrorData``, ...). Timing is interleaved: each round times the decode and the encode
of every group once, each measurement a loop over the group's frames calibrated to
last about 1 ms, on the thread's CPU time (``time.thread_time_ns``: time the machine
gives to other processes is not counted), with the garbage collector off. Figures are
medians over the rounds: nanoseconds per frame and MB/s (10^6 bytes of payload per
second) per kind, and for all frames.

No peer package is needed. The benchmark matrix against msgspec, mcp-types, orjson and
rmcp is in the source repository (``python -m benchmarks.matrix``).

A capture that cannot be read (a bad line, bad base64, a frame that does not decode)
stops the command before any timing: one line on stderr names the line and the
reason, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import functools
import gc
import itertools
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from . import __version__, _impl, capture
from ._cli_io import (
    SAMPLE,
    BadInput,
    Input,
    add_max_line_size,
    error,
    os_reason,
    stdout_to_devnull,
)
from .capture import CaptureError
from .errors import FrameError

__all__ = ["main"]

#: Rounds by default, and the CPU time one measurement lasts at least.
ROUNDS = 21
TARGET_NS = 1_000_000


class _BadCapture(Exception):
    """The capture cannot be benchmarked: one line, ``where: reason``."""


@dataclass
class _Group:
    """The frames of one kind, with their timings.

    Payloads, decoded values, and the samples (CPU ns per pass over the group) of decode and
    encode."""

    channel: str
    type: str
    payloads: list[bytes] = field(default_factory=list)
    values: list[Any] = field(default_factory=list)
    loops: dict[str, int] = field(default_factory=dict)
    samples: dict[str, list[float]] = field(default_factory=lambda: {"decode": [], "encode": []})

    @property
    def size(self) -> int:
        """Bytes of all the group's payloads."""
        return sum(map(len, self.payloads))


def _codec(frames: Any, kind: str) -> tuple[Callable[[Any], Any], Callable[[Any], bytes]]:
    if kind == "notifications":
        return frames.decode_notification, frames.encode_notification
    return frames.decode_read_resource, frames.encode_read_resource


def _read(lines: Iterable[bytes], name: str, frames: Any) -> list[_Group]:
    """The capture's responses grouped by (channel kind, decoded type).

    Groups come in order of first appearance. Raises :class:`_BadCapture`."""
    groups: dict[tuple[str, str], _Group] = {}
    records = capture.read_capture(lines)
    while True:
        try:
            item = next(records, None)
        except CaptureError as exc:
            raise _BadCapture(f"{name}:{exc.line}: {exc.reason}") from None
        if item is None:
            break
        number, record = item
        if record.payload is None:
            continue
        decode, _ = _codec(frames, record.kind)
        try:
            value = decode(record.payload)
        except FrameError as exc:
            raise _BadCapture(
                f"{name}:{number}: channel {json.dumps(record.channel)} ({record.kind}): "
                f"{type(exc).__name__}: {exc}"
            ) from None
        key = (record.kind, type(value).__name__)
        group = groups.get(key) or groups.setdefault(key, _Group(*key))
        group.payloads.append(record.payload)
        group.values.append(value)
    if not groups:
        raise _BadCapture(f"{name}: no channel response to time (only finish or abort records)")
    return list(groups.values())


def _time(function: Callable[[Any], Any], arguments: list[Any], loops: int) -> int:
    """Thread CPU ns of ``loops`` passes calling ``function`` on each argument."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.thread_time_ns()
        for _ in itertools.repeat(None, loops):
            for argument in arguments:
                function(argument)
        return time.thread_time_ns() - start
    finally:
        if enabled:
            gc.enable()


def _cells(groups: list[_Group], frames: Any) -> list[tuple[_Group, str, Callable[[int], int]]]:
    cells: list[tuple[_Group, str, Callable[[int], int]]] = []
    for g in groups:
        decode, encode = _codec(frames, g.channel)
        cells.append((g, "decode", functools.partial(_time, decode, g.payloads)))
        cells.append((g, "encode", functools.partial(_time, encode, g.values)))
    return cells


def run(groups: list[_Group], frames: Any, rounds: int) -> None:
    """Calibrate, then time ``rounds`` interleaved rounds; fills each group's samples."""
    cells = _cells(groups, frames)
    for group, op, measure in cells:
        measure(1)  # warm-up
        loops = 1
        while measure(loops) < TARGET_NS:
            loops *= 2
        group.loops[op] = loops
    for _ in range(rounds):
        for group, op, measure in cells:
            group.samples[op].append(measure(group.loops[op]) / group.loops[op])


def _figures(ns_per_pass: float, frames: int, size: int) -> dict[str, float]:
    return {"ns_per_frame": ns_per_pass / frames, "mb_per_s": size / ns_per_pass * 1e3}


def result(groups: list[_Group], name: str, rounds: int) -> dict[str, Any]:
    """The JSON-able result of the timings.

    Per kind and in total, ``decode`` / ``encode`` each with ``ns_per_frame`` and
    ``mb_per_s`` (medians over rounds)."""
    kinds = []
    total = {"decode": 0.0, "encode": 0.0}
    for g in groups:
        row: dict[str, Any] = {
            "channel": g.channel,
            "type": g.type,
            "frames": len(g.payloads),
            "bytes": g.size,
        }
        for op in ("decode", "encode"):
            ns = statistics.median(g.samples[op])
            total[op] += ns
            row[op] = _figures(ns, len(g.payloads), g.size)
        kinds.append(row)
    frames = sum(len(g.payloads) for g in groups)
    size = sum(g.size for g in groups)
    return {
        "diverge_frames": __version__,
        "implementation": _impl.IMPLEMENTATION,
        "capture": name,
        "clock": "thread CPU time",
        "rounds": rounds,
        "frames": frames,
        "bytes": size,
        "kinds": kinds,
        "total": {op: _figures(ns, frames, size) for op, ns in total.items()},
    }


def _table(res: dict[str, Any]) -> str:
    title = (
        f"diverge-frames {res['diverge_frames']} ({res['implementation']}): {res['capture']}, "
        f"{res['frames']} frames, {res['bytes']:,} bytes; medians of {res['rounds']} "
        f"interleaved rounds, {res['clock']}"
    )
    head = (
        "| channel | type | frames | bytes/frame | decode ns/frame | decode MB/s "
        "| encode ns/frame | encode MB/s |"
    )
    lines = [title, "", head, "|---|---|---:|---:|---:|---:|---:|---:|"]
    everything = {"channel": "all", "type": "", "frames": res["frames"], "bytes": res["bytes"]}
    rows = [*res["kinds"], {**everything, **res["total"]}]
    for r in rows:
        d, e = r["decode"], r["encode"]
        lines.append(
            f"| {r['channel']} | {r['type']} | {r['frames']} | {r['bytes'] / r['frames']:,.0f} "
            f"| {d['ns_per_frame']:,.0f} | {d['mb_per_s']:,.1f} "
            f"| {e['ns_per_frame']:,.0f} | {e['mb_per_s']:,.1f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None, frames: Any = None) -> int:
    """Run ``bench`` with ``argv``; return the exit status.

    0, 1 for a bad capture or an output that cannot be written, 2 for a usage error;
    ``BrokenPipeError`` when stdout's reader went away, which ``python -m diverge_frames``
    ends quietly with 141. ``frames``: the hot-path module (default: the one in use)."""
    parser = argparse.ArgumentParser(
        prog="python -m diverge_frames bench",
        description="Time decode and encode of every frame of a capture by this install "
        f"({_impl.IMPLEMENTATION}), per kind of frame: ns per frame and MB/s (medians of "
        "interleaved rounds, thread CPU time).",
    )
    parser.add_argument(
        "capture",
        nargs="?",
        metavar="CAPTURE",
        help=f"capture file (- for stdin; default: the {SAMPLE} shipped in the package)",
    )
    add_max_line_size(parser)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--rounds", type=int, default=ROUNDS, help=f"interleaved rounds (default {ROUNDS})"
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, usage errors
        return exc.code if isinstance(exc.code, int) else 2
    if args.rounds < 1:
        print(f"{parser.prog}: error: --rounds must be at least 1", file=sys.stderr)
        return 2
    frames = _impl.frames if frames is None else frames
    try:
        source = Input(args.capture, "sample", args.max_line_size)
        try:
            groups = _read(source.lines(), source.name, frames)
        finally:
            source.close()
    except (BadInput, _BadCapture) as exc:
        return error(str(exc))
    run(groups, frames, args.rounds)
    res = result(groups, source.name, args.rounds)
    text = json.dumps(res, indent=1) if args.json else _table(res)
    if sys.stdout is None:  # started with stdout closed (`>&-`)
        return error("cannot write to stdout: it is closed")
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        raise  # the reader went away: ``__main__.main`` ends quietly (141)
    except OSError as exc:
        stdout_to_devnull()
        return error(f"cannot write to stdout: {os_reason(exc)}")
    return 0
