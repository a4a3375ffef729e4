"""rmcp itself in the matrix: build ``benchmarks/rmcp-bench`` and time it in the same run.

``rmcp-bench`` (Rust: rmcp 3.1.4 and serde_json 1.0.154, the oracle's pins) decodes and
encodes the same frames as the Python side, as the rmcp oracle does: the tag byte
split off, then ``serde_json::from_slice`` into ``ServerNotification`` /
``ReadResourceResult`` / ``ErrorData`` (column ``rmcp``), or a notification straight
into its concrete variant (column ``rmcp variant``: what rmcp would cost without its
untagged union's tries); encode writes the value as ``serde_json::to_vec`` does (a
``Vec`` of 128 bytes' capacity, then ``to_writer``), the tag byte pushed into that
``Vec`` first. A fresh case's encode is the same (a Rust value keeps nothing from an
earlier encode) under the fresh cases' allocator setting. It times itself on thread
CPU time (``clock_gettime(CLOCK_THREAD_CPUTIME_ID)``).

It runs as a second process driven over a pipe: it calibrates its loop counts once,
then measures one cell per request. The matrix sends the request in the cell's turn
within the Python round (:class:`RmcpCell`), so rmcp is measured in the same time
window as the Python implementations it is compared with, while this process waits.

:func:`build` runs ``cargo build --release`` in ``benchmarks/rmcp-bench``, whose
``.cargo/config.toml`` puts it in the oracle's target directory
(``interop/rmcp-oracle/target``): rmcp and serde_json are compiled once for both.
Without cargo the rmcp columns are left out, with one line saying so.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from .cases import Case
from .timing import Cell

__all__ = ["CRATE", "RMCP_OPS", "BuildError", "build", "RmcpBench", "RmcpCell"]

#: The Rust crate.
CRATE = Path(__file__).resolve().parent / "rmcp-bench"
#: The columns rmcp fills, by the matrix operation they are in: ``{op: {column: rmcp op}}``.
RMCP_OPS = {
    "decode": {"rmcp": "decode", "rmcp variant": "decode_variant"},
    "encode": {"rmcp": "encode"},
}


class BuildError(RuntimeError):
    """``cargo build`` of ``rmcp-bench`` failed (the message ends with cargo's output)."""


def build(log: IO[str] | None = sys.stderr) -> Path | None:
    """Build ``rmcp-bench`` (release); return the binary, or ``None`` without cargo.

    Prints one line to ``log`` (unless ``None``): the build's time, or that cargo is
    missing. Raises
    :class:`BuildError` when cargo is there and the build fails.
    """
    cargo = shutil.which("cargo")
    if cargo is None:
        if log is not None:
            print("rmcp: cargo not found, the rmcp columns are left out", file=log)
        return None
    started = time.monotonic()
    proc = subprocess.run(
        [cargo, "build", "--release", "--quiet", "--message-format=json"],
        cwd=CRATE,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise BuildError(f"cargo build in {CRATE} failed:\n{proc.stderr.strip()}")
    binary = None
    for line in proc.stdout.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message.get("executable"):
            binary = Path(message["executable"])
    if binary is None:
        raise BuildError(f"cargo build in {CRATE} named no executable")
    if log is not None:
        print(f"rmcp: {binary} built in {time.monotonic() - started:.1f} s", file=log)
    return binary


class RmcpBench:
    """A running ``rmcp-bench`` holding ``cases`` (calibrated to ``target_ns``).

    ``cells``: ``{(case name, rmcp op): loop count}`` of what it can measure.
    :meth:`close` it when done.
    """

    def __init__(self, binary: Path, cases: Sequence[Case], target_ns: int) -> None:
        payloads: dict[bytes, int] = {}
        spec: dict[str, Any] = {"target_ns": target_ns, "payloads": [], "cases": []}
        for case in cases:
            frames = []
            for p in case.payloads:
                if p not in payloads:
                    payloads[p] = len(payloads)
                    spec["payloads"].append(base64.b64encode(p).decode())
                frames.append(payloads[p])
            spec["cases"].append(
                {"name": case.name, "channel": case.channel, "frames": frames, "fresh": case.fresh}
            )
        self.index = {case.name: i for i, case in enumerate(cases)}
        fd, self._spec = tempfile.mkstemp(prefix="rmcp-bench-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(spec, f)
        self._proc = subprocess.Popen(
            [str(binary), self._spec],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        ready = self._read()
        self.versions = {"rmcp": ready["rmcp"], "serde_json": ready["serde_json"]}
        self.clock = ready["clock"]
        self.cells = {(c["case"], c["op"]): c["loops"] for c in ready["cells"]}

    def _read(self) -> Any:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            status = self._proc.wait()
            raise RuntimeError(f"rmcp-bench stopped (exit status {status}); see its stderr above")
        return json.loads(line)

    def measure(self, case: str, op: str) -> tuple[float, float, float]:
        """One measurement of ``op`` on ``case``: ``(cpu_ns, wall_ns, faults)`` per
        operation."""
        assert self._proc.stdin is not None
        self._proc.stdin.write(f"{self.index[case]} {op}\n")
        self._proc.stdin.flush()
        sample = self._read()
        return sample["cpu_ns"], sample["wall_ns"], sample["faults"]

    def close(self) -> None:
        """Stop the process and remove its input file."""
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        os.unlink(self._spec)


@dataclass(eq=False)
class RmcpCell(Cell):
    """A cell measured by ``rmcp-bench`` (which calibrated its loop count itself)."""

    bench: RmcpBench | None = None
    rmcp_op: str = ""

    def calibrate(self, target_ns: int) -> None:
        assert self.bench is not None
        self.loops = self.bench.cells[(self.case, self.rmcp_op)]

    def measure(self) -> tuple[float, float, float]:
        assert self.bench is not None
        return self.bench.measure(self.case, self.rmcp_op)
