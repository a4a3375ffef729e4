"""One large read-resource frame through ``aio.read_resource``: how long it blocks the loop.

A frame of a :mod:`benchmarks.worst_case` shape and its plain body of the same size, each
read once by :func:`diverge_frames.aio.read_resource` in a process of its own (so that its
resident-set peak is its own), beside a task that ticks every millisecond. Printed for
each: the outcome, the thread CPU time of the read, the event loop's longest block (the
longest gap between two ticks) and the resident-set peak over the process's at the start
(the payload, read from a file, counted). Then the trigger's block and peak over the plain
body's. Run from the repository's root::

    python -m benchmarks.aio_frame --shape "result item of a repeated text" --size 1e8
    DIVERGE_FRAMES_NO_EXTENSIONS=1 python -m benchmarks.aio_frame --shape ...  # the pure twin
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time


def _peak_kib() -> int:
    """The process's resident-set peak, KiB: VmHWM where Linux has it (ru_maxrss keeps
    the parent's across the exec that started this process)."""
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _read_once(path: str) -> str:
    """Read the payload in ``path`` through aio.read_resource; one line of figures."""
    from diverge_frames import aio

    base = _peak_kib()
    with open(path, "rb") as f:
        payload = f.read()

    async def source():  # type: ignore[no-untyped-def]
        yield payload

    async def main() -> tuple[str, float, float]:
        longest = 0.0

        async def ticker() -> None:
            nonlocal longest
            last = time.perf_counter()
            while True:
                await asyncio.sleep(0.001)
                now = time.perf_counter()
                longest, last = max(longest, now - last), now

        task = asyncio.create_task(ticker())
        await asyncio.sleep(0.01)
        start = time.thread_time()
        try:
            value = await aio.read_resource(source())
            outcome = f"{len(value.contents)} items"
        except Exception as exc:  # noqa: BLE001 - a rejection is an outcome here
            outcome = type(exc).__name__
        cpu = time.thread_time() - start
        await asyncio.sleep(0.01)
        task.cancel()
        return outcome, cpu, longest

    outcome, cpu, longest = asyncio.run(main())
    peak_mib = (_peak_kib() - base) / 1024
    return f"{outcome}\t{cpu:.3f}\t{longest:.3f}\t{peak_mib:.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", required=True, help="a benchmarks.worst_case shape's name")
    parser.add_argument("--size", type=float, default=1e8, help="bytes (default 1e8)")
    parser.add_argument("--read", help=argparse.SUPPRESS)  # the child: one payload's file
    args = parser.parse_args(argv)
    if args.read:
        print(_read_once(args.read))
        return 0
    from benchmarks import worst_case

    shape = next((s for s in worst_case.SHAPES if s.name == args.shape), None)
    if shape is None or shape.make(16)[0] != "read-resource":
        parser.error(f"no read-resource shape named {args.shape!r}")
    impl = "python" if os.environ.get("DIVERGE_FRAMES_NO_EXTENSIONS") else "compiled"
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        _, trigger, plain = shape.make(int(args.size))
        for which, payload in (("plain", plain), ("trigger", trigger)):
            path = os.path.join(tmp, which)
            with open(path, "wb") as f:
                f.write(payload)
            rows[which] = (len(payload), path)
        del trigger, plain, payload
        print(f"# {impl}, {args.shape}; thread CPU s, longest loop block s, RSS peak MiB")
        figures = {}
        for which, (size, path) in rows.items():
            out = subprocess.run(
                [sys.executable, "-m", "benchmarks.aio_frame", "--shape", args.shape,
                 "--read", path], capture_output=True, text=True, check=True,
            ).stdout.split("\t")  # fmt: skip
            figures[which] = (float(out[2]), float(out[3]))
            print(f"{which:8} {size / 1e6:7.1f} MB  {out[0]:>16}  cpu {out[1]:>7}  "
                  f"block {out[2]:>7}  peak {out[3].strip():>6}")  # fmt: skip
    block = figures["trigger"][0] / figures["plain"][0]
    peak = figures["trigger"][1] / figures["plain"][1]
    print(f"trigger / plain: loop block {block:.2f}x, RSS peak {peak:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
