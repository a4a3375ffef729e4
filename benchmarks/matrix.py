"""The benchmark matrix: ``python -m benchmarks.matrix`` (from the repository's root).

Decode and encode of every case of :mod:`benchmarks.cases` (synthetic frames, the real
corpus, long texts and blobs, fresh payloads, built values) by every implementation of
:mod:`benchmarks.peers` (ours compiled and pure Python, a minimal msgspec Struct,
msgspec with our types, mcp-types, orjson) and by rmcp itself (:mod:`benchmarks.rmcp`,
when cargo is there), plus the relay loops of :mod:`benchmarks.relay` on three sets of
frames (:data:`RELAY_SETS`), all interleaved in one run on thread CPU time
(:mod:`benchmarks.timing`). Prints one table per section (:mod:`benchmarks.report`):
time per operation of each implementation (the median over rounds), compiled's time
over the minimal Struct's and over msgspec with our types', and each other
implementation's time over compiled's (medians of per-round ratios; above 1: compiled
is faster). ``--json`` prints everything, per-round samples and wall times included.

``scripts/bench_guard.py`` (the CI speed guard) and the pytest-benchmark suite in this
directory run the same cases and implementations.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import sys
import time
from collections.abc import Iterable, Sequence
from typing import IO, Any

import msgspec

from . import cases as _cases
from . import peers, relay, rmcp
from .cases import SMALL_LIMIT, Case
from .memory import memory_check
from .peers import FLOOR, OURS_FLOOR, REFERENCE
from .report import SECTIONS, text_report
from .timing import (
    CLOCK,
    Cell,
    Group,
    PythonCell,
    median,
    median_ratio,
    run_rounds,
    steady_allocator,
)

__all__ = [
    "SECTIONS",
    "FLOOR",
    "REFERENCE",
    "SMALL_LIMIT",
    "RELAY_SETS",
    "select",
    "run",
    "report",
    "save",
    "main",
]

#: (rounds, target ns per measurement, heavy stride) by run length.
_RUNS = {"default": (41, 1_000_000, 4), "quick": (15, 500_000, 5), "smoke": (1, 1, 1)}


def select(
    sections: Iterable[str] = SECTIONS,
    max_frame: int | None = None,
    names: Iterable[str] | None = None,
) -> list[Case]:
    """The cases of ``sections`` (``relay`` has none), of at most ``max_frame`` bytes,
    and of ``names`` only when given."""
    wanted = set(sections)
    named = None if names is None else set(names)
    return [
        c
        for c in _cases.all_cases()
        if c.section in wanted
        and (max_frame is None or c.size <= max_frame)
        and (named is None or c.name in named)
    ]


def _check_twins(case: Case) -> None:
    """Both twins decode the case's frames to equal values and encode those to equal
    bytes: what is timed does the same work on both."""
    compiled, python = peers.twin("compiled"), peers.twin("python")
    if compiled is None:
        return
    suffix = "notification" if case.channel == "notifications" else "read_resource"
    if case.built:
        value = _cases.built_value(case.built)
        if {getattr(m, f"encode_{suffix}")(value) for m in (compiled, python)} != {
            case.payloads[0]
        }:
            raise AssertionError(f"{case.name}: a twin encodes the built value otherwise")
        return
    for payload in case.payloads:
        values = [getattr(m, f"decode_{suffix}")(payload) for m in (compiled, python)]
        encoded = [
            getattr(m, f"encode_{suffix}")(v)
            for m, v in zip((compiled, python), values, strict=True)
        ]
        if values[0] != values[1] or encoded[0] != encoded[1]:
            raise AssertionError(f"{case.name}: the compiled and pure-Python twins disagree")


def _groups(
    cases: Sequence[Case], only: set[str] | None, bench: rmcp.RmcpBench | None
) -> list[Group]:
    groups = []
    columns = (*peers.PEERS, *peers.BASELINES)
    kept = (FLOOR, OURS_FLOOR, REFERENCE)
    wanted = [i for i in columns if only is None or i in only or i in kept]
    for case in cases:
        for op, impls in peers.ops(case, wanted).items():
            cells: list[Cell] = [
                PythonCell(case.name, op, impl, pairs=pairs, fresh=case.fresh)
                for impl, pairs in impls.items()
            ]
            if bench is not None:
                for column, rmcp_op in rmcp.RMCP_OPS[op].items():
                    if (case.name, rmcp_op) in bench.cells:
                        cells.append(
                            rmcp.RmcpCell(case.name, op, column, bench=bench, rmcp_op=rmcp_op)
                        )
            groups.append(Group(case.name, op, cells, heavy=case.large))
    return groups


def _relay_1mb() -> list[tuple[str, tuple[bytes, ...]]]:
    """One read-resource channel per 1 MB long string of the text section (three texts
    and a blob): what a relay forwarding file contents does."""
    return [("read-resource", c.payloads) for c in _cases.text() if c.name.endswith("_1MB")]


#: The relay loop's sets of frames: ``{case: (what it is, its channels)}``.
RELAY_SETS = {
    "relay_real": ("every real frame under 1 MB", _cases.relay_channels),
    "relay_small": (
        "the real notification stream, small frames",
        lambda: _cases.relay_channels()[:1],
    ),
    "relay_1MB": ("1 MB text and blob results", _relay_1mb),
}


def _relay_groups() -> list[tuple[Group, dict[str, Any]]]:
    """The relay loops, one group per set of :data:`RELAY_SETS`, each with what it
    relays per pass (frames and bytes)."""
    out = []
    for case, (title, make) in RELAY_SETS.items():
        channels = make()
        frames = sum(len(payloads) for _, payloads in channels)
        results = {name: loop(channels) for name, loop in relay.loops().items()}
        if len({r[1] for r in results.values()}) != 1:
            raise AssertionError(f"{case}: the relay loops disagree on the channels served")
        cells: list[Cell] = [
            PythonCell(case, "relay", name, pairs=[(loop, channels)], per_pass=frames)
            for name, loop in relay.loops().items()
        ]
        size = sum(len(p) for _, payloads in channels for p in payloads)
        heavy = size / frames >= _cases.LARGE_FRAME
        info = {"title": title, "frames": frames, "bytes": size}
        out.append((Group(case, "relay", cells, heavy=heavy), info))
    return out


def run(
    length: str = "default",
    rounds: int | None = None,
    sections: Iterable[str] = SECTIONS,
    only: set[str] | None = None,
    max_frame: int | None = None,
    with_rmcp: bool = True,
    log: IO[str] | None = sys.stderr,
    names: Iterable[str] | None = None,
    heavy_stride: int | None = None,
) -> dict[str, Any]:
    """Time the matrix; return the results as a JSON-able dict.

    ``length``: ``"default"`` (41 rounds of ~1 ms measurements; frames of 1 MB or more
    every 4th round), ``"quick"`` (15 rounds of ~0.5 ms, large frames every 5th) or
    ``"smoke"`` (one round of one call each: checks that everything runs; the times
    mean nothing). ``rounds`` overrides the count. ``sections``: which of
    :data:`SECTIONS`. ``only``: restrict to these implementations (msgspec and
    compiled are always kept). ``max_frame``: frames of at most this many bytes.
    ``with_rmcp``: build and run ``rmcp-bench`` when cargo is there. ``log``: where
    progress lines go (``None``: nowhere). ``names``: these cases only.
    ``heavy_stride``: overrides the length's (1: large frames in every round).

    Each row: ``ns`` / ``wall_ns`` (median thread CPU / wall ns per operation),
    ``to_floor`` (impl / msgspec, the minimal Struct), ``to_ours_floor`` (impl / msgspec
    with our types) and ``over_reference`` (impl / compiled, or impl / channel for the
    relay), all medians over rounds of the ratio within a round;
    ``samples`` / ``wall_samples`` (ns per operation, per round).
    """
    default_rounds, target_ns, default_stride = _RUNS[length]
    rounds = rounds or default_rounds
    heavy_stride = heavy_stride or default_stride
    sections = tuple(sections)
    started = time.perf_counter()
    load_before = _loadavg()
    allocator = "glibc, set by the run" if steady_allocator() else "as it is"
    chosen = select(sections, max_frame, names)
    for case in chosen:
        _check_twins(case)
    rmcp_info: dict[str, Any] = {"binary": None}
    bench = None
    if with_rmcp and chosen:
        t0 = time.monotonic()
        binary = rmcp.build(log)
        rmcp_info["build_s"] = round(time.monotonic() - t0, 1)
        if binary is not None:
            rmcp_info["binary"] = str(binary)
            bench = rmcp.RmcpBench(binary, chosen, target_ns)
            rmcp_info.update(bench.versions, clock=bench.clock)
    try:
        groups = _groups(chosen, only, bench)
        relay_info: dict[str, dict[str, Any]] = {}
        if "relay" in sections:
            for group, info in _relay_groups():
                groups.append(group)
                relay_info[group.case] = info
        for group in groups:
            for cell in group.cells:
                cell.calibrate(target_ns)
        _progress(
            log,
            f"calibrated {sum(len(g.cells) for g in groups)} cells in "
            f"{time.perf_counter() - started:.1f} s; {rounds} rounds",
        )

        def progress(r: int) -> None:
            if (r + 1) % 10 == 0 or r + 1 == rounds:
                _progress(log, f"round {r + 1}/{rounds}, {time.perf_counter() - started:.1f} s")

        run_rounds(groups, rounds, heavy_stride, progress)
    finally:
        if bench is not None:
            bench.close()
    by_name = {c.name: c for c in chosen}
    rows = [_row(g, by_name.get(g.case), relay_info) for g in groups]
    machine = _machine()
    machine["loadavg_before"] = load_before
    return {
        "machine": machine,
        "config": {
            "length": length,
            "rounds": rounds,
            "heavy_stride": heavy_stride,
            "target_ns_per_measurement": target_ns,
            "clock": CLOCK,
            "allocator": allocator,
            "floor": FLOOR,
            "ours_floor": OURS_FLOOR,
            "reference": REFERENCE,
            "small_limit_bytes": SMALL_LIMIT,
            "sections": list(sections),
            "elapsed_s": round(time.perf_counter() - started, 2),
        },
        "rmcp": rmcp_info,
        "rows": rows,
    }


def _progress(log: IO[str] | None, line: str) -> None:
    if log is not None:
        print(f"matrix: {line}", file=log, flush=True)


def _row(group: Group, case: Case | None, relay_info: dict[str, dict[str, Any]]) -> dict[str, Any]:
    cells = {c.impl: c for c in group.cells}
    if case is None:  # the relay
        info = relay_info[group.case]
        reference = relay.REFERENCE
        meta = {
            "section": "relay",
            "kind": "mixed",
            "channel": "both",
            "title": info["title"],
            "frames": info["frames"],
            "frame_bytes": round(info["bytes"] / info["frames"]),
            "total_bytes": info["bytes"],
        }
    else:
        reference = REFERENCE
        meta = {
            "section": case.section,
            "kind": case.kind,
            "channel": case.channel,
            "frames": len(case.payloads),
            "frame_bytes": case.size,
            "total_bytes": case.total_bytes,
        }
    ref, floor, ours = cells.get(reference), cells.get(FLOOR), cells.get(OURS_FLOOR)
    return {
        "case": group.case,
        "op": group.op,
        **meta,
        "reference": reference,
        "ns": {i: median(c.cpu) for i, c in cells.items()},
        "wall_ns": {i: median(c.wall) for i, c in cells.items()},
        "faults": {i: median(c.faults) for i, c in cells.items()},
        "to_floor": {i: median_ratio(c, floor) for i, c in cells.items()} if floor else {},
        "to_ours_floor": {i: median_ratio(c, ours) for i, c in cells.items()} if ours else {},
        "over_reference": {i: median_ratio(c, ref) for i, c in cells.items()} if ref else {},
        "loops": {i: c.loops for i, c in cells.items()},
        "rounds": len(next(iter(cells.values())).cpu),
        "samples": {i: [round(x, 1) for x in c.cpu] for i, c in cells.items()},
        "wall_samples": {i: [round(x, 1) for x in c.wall] for i, c in cells.items()},
    }


def _loadavg() -> list[float] | None:
    """1, 5 and 15 minute load averages (None where the OS has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def _machine() -> dict[str, Any]:
    """nproc, CPU model (``/proc/cpuinfo``), Python, platform, library versions."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    versions: dict[str, str | None] = {"msgspec": msgspec.__version__}
    for name in ("orjson", "pydantic", "mcp", "mcp-types", "Cython"):
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    from diverge_frames import IMPLEMENTATION, __version__

    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "diverge_frames": __version__,
        "default_path": IMPLEMENTATION,
        "versions": versions,
        "loadavg_after": _loadavg(),
    }


def report(length: str = "default", memory: bool = True, **options: Any) -> dict[str, Any]:
    """:func:`run` and, with ``memory``, the 64 MiB blob memory check."""
    result = run(length, **options)
    result["memory"] = memory_check() if memory else None
    return result


def save(result: dict[str, Any], directory: str, label: str) -> str:
    """Write ``result`` as ``<directory>/<UTC time>-<label>.json``; return the path."""
    os.makedirs(directory, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    path = os.path.join(directory, f"{stamp}-{label}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    return path


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.matrix [--quick | --smoke] [--json] [--sections ...]
    [--no-rmcp] [--no-memory] [--save DIR]``; returns 0."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.matrix",
        description="Time decode and encode of synthetic, real and long-text frames, built "
        "values and the relay loop: diverge-frames compiled and pure Python, a minimal "
        "msgspec Struct (the floor), msgspec with our types, mcp-types (pydantic), orjson "
        "and rmcp (Rust), interleaved on thread CPU time.",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    length = parser.add_mutually_exclusive_group()
    length.add_argument("--quick", action="store_true", help="15 rounds of 0.5 ms, not 41 of 1 ms")
    length.add_argument(
        "--smoke",
        action="store_true",
        help="one round of one call each: checks that everything runs (times mean nothing)",
    )
    parser.add_argument("--rounds", type=int, help="the number of rounds")
    parser.add_argument(
        "--sections",
        default=",".join(SECTIONS),
        help=f"comma-separated, of {','.join(SECTIONS)} (default: all)",
    )
    parser.add_argument("--no-rmcp", action="store_true", help="do not build or run rmcp-bench")
    parser.add_argument("--no-memory", action="store_true", help="skip the 64 MiB memory check")
    parser.add_argument(
        "--save", metavar="DIR", help="also write the JSON to DIR/<UTC time>-matrix.json"
    )
    args = parser.parse_args(argv)
    sections = [s for s in args.sections.split(",") if s]
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section(s) {', '.join(sorted(unknown))}")
    result = report(
        "smoke" if args.smoke else "quick" if args.quick else "default",
        memory=not args.no_memory,
        rounds=args.rounds,
        sections=sections,
        with_rmcp=not args.no_rmcp,
    )
    if args.save:
        print(f"saved {save(result, args.save, 'matrix')}", file=sys.stderr)
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(text_report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
