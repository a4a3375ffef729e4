"""The speed matrix behind ``python -m diverge_frames bench`` (and ``scripts/bench_guard.py``).

Eight frames (:func:`cases`), each decoded and encoded by five implementations:

* ``compiled``  -- ``diverge_frames._frames_c`` on the whole payload (tag byte + JSON);
* ``python``    -- ``diverge_frames._frames_py`` on the whole payload;
* ``msgspec``   -- the floor: the msgspec ``Decoder`` / ``Encoder`` our code uses
  internally, alone, on the body (no tag byte, no fallback, no conversion);
* ``mcp-types`` -- what a user would pick instead: the pydantic models of PyPI ``mcp``
  (``mcp.types``), ``validate_json`` / ``model_dump_json(by_alias=True,
  exclude_none=True)`` on the body;
* ``orjson``    -- ``orjson.loads`` / ``orjson.dumps`` to and from plain dicts, on the body.

The competitors get the body already split from its tag byte, which only flatters them.
``mcp`` (or just ``mcp-types``) and ``orjson`` are optional: a missing one leaves its
column empty.

Timing is one process, interleaved: every round times every (case, operation,
implementation) once, in a rotating order, with a loop count calibrated beforehand so
that one measurement lasts about ``target_s`` (``timeit``: the garbage collector is off
while it runs). Per-round ratios are taken between measurements of the same round, and
the medians over the rounds are reported, so load from other processes on the machine
moves both sides of a ratio alike. Times are nanoseconds per operation (median over
rounds).

For an unknown-method notification the floor decodes with ``CustomNotification``, the
shape such a body ends up as; for a result, with the private wire shape the hot path
decodes before it picks text or blob per item.

A separate check decodes a 64 MiB blob frame under ``tracemalloc`` and reports the peak
allocation beyond the input as a multiple of the blob's size.
"""

from __future__ import annotations

import argparse
import base64
import functools
import gc
import importlib
import importlib.metadata
import json
import os
import platform
import random
import statistics
import sys
import time
import timeit
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from . import _frames_py, _wire
from . import types as t
from ._wire import encoder as _encoder
from ._wire import notification_encoder as _notification_encoder

try:
    from . import _frames_c
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None  # type: ignore[assignment]

__all__ = ["HAS_COMPILED", "Case", "cases", "matrix", "run", "memory_check", "evaluate", "main"]

#: Whether the compiled extension (``_frames_c``) imported.
HAS_COMPILED = _frames_c is not None

#: Column order of the matrix.
IMPLEMENTATIONS = ("compiled", "python", "msgspec", "mcp-types", "orjson")
#: The floor every ratio is taken against.
FLOOR = "msgspec"
#: A frame at most this many bytes is "small" (the issue's "every small case").
SMALL_LIMIT = 1024
#: Frames at most this many bytes must be 1.5x faster compiled than pure Python.
TINY_LIMIT = 200


# ------------------------------------------------------------------------------ cases


@dataclass(frozen=True)
class Case:
    """One frame of the matrix.

    ``channel`` is ``"notifications"`` or ``"read-resource"``; ``kind`` is
    ``"notification"``, ``"result"`` or ``"error"``; ``body`` the JSON after the tag byte.
    """

    name: str
    channel: str
    kind: str
    tag: int
    body: bytes

    @property
    def payload(self) -> bytes:
        """The whole frame: tag byte + body."""
        return bytes((self.tag,)) + self.body

    @property
    def size(self) -> int:
        """Frame length in bytes."""
        return len(self.body) + 1


def _compact(value: Any) -> bytes:
    """JSON as rmcp writes it on the wire: compact, member order kept."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def _blob_body(n_bytes: int, seed: int = 4) -> bytes:
    """A read-resource result holding one base64 blob of ``n_bytes`` pseudo-random bytes."""
    data = random.Random(seed).randbytes(n_bytes)
    head = b'{"contents":[{"uri":"file:///data/sample.bin","mimeType":"application/octet-stream","blob":"'
    return head + base64.b64encode(data) + b'"}]}'


@functools.cache
def cases() -> tuple[Case, ...]:
    """The eight frames of the issue, built deterministically (and once).

    The small bodies are lines of ``tests/data/corpus/server-everything`` (real traffic
    from ``@modelcontextprotocol/server-everything``) and edge case
    ``04-unknown-notification-stderr``, rewritten compact as rmcp sends them. The blob
    is 1,050,000 seeded random bytes as base64 (a 1.4 MB frame); the 100-contents result
    lists 100 small text files.
    """
    log = {
        "method": "notifications/message",
        "params": {
            "level": "info",
            "logger": "everything-server",
            "data": "Roots updated: 2 root(s) received from client",
        },
    }
    progress = {
        "method": "notifications/progress",
        "params": {"progress": 1, "total": 4, "progressToken": "tok-ü-1"},
    }
    list_changed = {"method": "notifications/tools/list_changed"}
    unknown = {"method": "notifications/stderr", "params": {"content": "warn: cache miss\n"}}
    text = {
        "contents": [
            {
                "uri": "demo://resource/dynamic/text/1",
                "mimeType": "text/plain",
                "text": "Resource 1: This is a plaintext resource created at 6:10:35 PM",
            }
        ]
    }
    many = {
        "contents": [
            {
                "uri": f"file:///project/src/module_{i:03d}.py",
                "mimeType": "text/x-python",
                "text": f'"""Module {i}."""\n\nVALUE = {i}\n',
            }
            for i in range(100)
        ]
    }
    error = {
        "code": -32042,
        "message": "MCP error -32042: This request requires browser-based authorization.",
        "data": {
            "elicitations": [
                {
                    "mode": "url",
                    "url": "https://modelcontextprotocol.io",
                    "message": "Open this link to satisfy the prerequisite, then retry the request.",
                    "elicitationId": "f218f3fc-38e0-4d1b-a8d3-0ebcbc863875",
                }
            ]
        },
    }
    return (
        Case("log", "notifications", "notification", 0, _compact(log)),
        Case("progress", "notifications", "notification", 0, _compact(progress)),
        Case("list_changed", "notifications", "notification", 0, _compact(list_changed)),
        Case("unknown_method", "notifications", "notification", 0, _compact(unknown)),
        Case("text_result", "read-resource", "result", 0, _compact(text)),
        Case("blob_1.4MB", "read-resource", "result", 0, _blob_body(1_050_000)),
        Case("100_contents", "read-resource", "result", 0, _compact(many)),
        Case("error_nested", "notifications", "error", 1, _compact(error)),
    )


# ------------------------------------------------------------------ implementations

#: (function, argument) timed as ``function(argument)``.
Op = tuple[Callable[[Any], Any], Any]


def _ours(module: Any, case: Case) -> tuple[Op, Op]:
    if case.channel == "notifications":
        decode, encode = module.decode_notification, module.encode_notification
    else:
        decode, encode = module.decode_read_resource, module.encode_read_resource
    payload = case.payload
    return (decode, payload), (encode, decode(payload))


def _floor(case: Case) -> tuple[Op, Op]:
    """msgspec alone: the decoder our hot path tries first, on the body; the encoder
    our hot path uses, on our decoded value, without the tag byte."""
    if case.kind == "error":
        decoder: Any = msgspec.json.Decoder(t.ErrorData)
    elif case.kind == "result":
        decoder = msgspec.json.Decoder(_wire.ReadResourceResultWire)
    else:
        try:
            msgspec.json.Decoder(t.TypedNotification).decode(case.body)
        except msgspec.ValidationError:  # unknown method: the type it ends up as
            decoder = msgspec.json.Decoder(t.CustomNotification)
        else:
            decoder = msgspec.json.Decoder(t.TypedNotification)
    value = (
        _frames_py.decode_notification(case.payload)
        if case.channel == "notifications"
        else (_frames_py.decode_read_resource(case.payload))
    )
    enc = _notification_encoder if case.kind == "notification" else _encoder
    return (decoder.decode, case.body), (enc.encode, value)


def _mcp_types(case: Case) -> tuple[Op, Op] | None:
    """PyPI ``mcp``'s pydantic models (``mcp.types``, which re-exports the ``mcp-types``
    package: either one will do); ``None`` when neither is installed."""
    try:
        import pydantic
    except ImportError:
        return None
    m: Any = None
    for name in ("mcp.types", "mcp_types"):
        try:
            m = importlib.import_module(name)
            break
        except ImportError:
            continue
    if m is None:
        return None
    if case.kind == "error":
        validate: Callable[[Any], Any] = m.ErrorData.model_validate_json
    elif case.kind == "result":
        validate = m.ReadResourceResult.model_validate_json
    else:
        adapter = pydantic.TypeAdapter(m.ServerNotification)
        generic = m.Notification[dict[str, Any] | None, str]
        typed, fallback = adapter.validate_json, generic.model_validate_json
        error = pydantic.ValidationError

        def validate(body: bytes) -> Any:
            """A typed notification, or the generic one for an unknown method."""
            try:
                return typed(body)
            except error:
                return fallback(body)

    model = validate(case.body)

    def dump(value: Any) -> str:
        out: str = value.model_dump_json(by_alias=True, exclude_none=True)
        return out

    return (validate, case.body), (dump, model)


def _orjson(case: Case) -> tuple[Op, Op] | None:
    try:
        import orjson
    except ImportError:
        return None
    return (orjson.loads, case.body), (orjson.dumps, orjson.loads(case.body))


def matrix(case: Case) -> dict[str, dict[str, Op]]:
    """``{"decode"|"encode": {implementation: (function, argument)}}`` for one case."""
    pairs: dict[str, tuple[Op, Op] | None] = {
        "compiled": _ours(_frames_c, case) if _frames_c is not None else None,
        "python": _ours(_frames_py, case),
        "msgspec": _floor(case),
        "mcp-types": _mcp_types(case),
        "orjson": _orjson(case),
    }
    out: dict[str, dict[str, Op]] = {"decode": {}, "encode": {}}
    for impl, pair in pairs.items():
        if pair is not None:
            out["decode"][impl], out["encode"][impl] = pair
    return out


# -------------------------------------------------------------------------- timing


@dataclass
class _Cell:
    """One (case, operation, implementation): its timer, loop count and samples."""

    case: Case
    op: str
    impl: str
    timer: timeit.Timer
    number: int = 1
    samples: list[float] = field(default_factory=list)  # ns per op, one per round


def _calibrate(timer: timeit.Timer, target_s: float) -> int:
    """Smallest loop count (1, 2, 5, 10, 20, 50, ...) whose run lasts ``target_s``
    (``timeit.Timer.autorange`` with a shorter target), after one warm-up call."""
    timer.timeit(1)  # warm-up: a first call pays for cold caches and fresh memory
    number = 1
    while True:
        for factor in (1, 2, 5):
            if timer.timeit(number * factor) >= target_s:
                return number * factor
        number *= 10


def run(
    quick: bool = False,
    rounds: int | None = None,
    target_s: float | None = None,
    only: set[str] | None = None,
    max_frame: int | None = None,
) -> dict[str, Any]:
    """Time the matrix; return the results as a JSON-able dict.

    ``quick``: 25 rounds of ~1 ms measurements instead of 61 of ~2 ms. Many short
    measurements make the medians robust on a busy machine: a measurement that a
    context switch lands in is an outlier, not a shift.
    ``only``: restrict to these implementations (the floor is always kept).
    ``max_frame``: restrict to frames of at most this many bytes.

    Each row: ``ns`` (median ns per op), ``to_floor`` (impl / msgspec-alone) and
    ``over_compiled`` (impl / compiled: how many times faster compiled is), both the
    median over rounds of the ratio within a round; ``samples`` (ns per op per round).
    """
    rounds = rounds or (25 if quick else 61)
    target_s = target_s or (0.001 if quick else 0.002)
    started = time.perf_counter()
    load_before = _loadavg()
    cells: list[_Cell] = []
    for case in cases():
        if max_frame is not None and case.size > max_frame:
            continue
        for op, impls in matrix(case).items():
            for impl, (fn, arg) in impls.items():
                if only is not None and impl not in only and impl != FLOOR:
                    continue
                timer = timeit.Timer("f(x)", globals={"f": fn, "x": arg})
                cells.append(_Cell(case, op, impl, timer))
    for cell in cells:
        cell.number = _calibrate(cell.timer, target_s)
    groups: dict[tuple[str, str], list[_Cell]] = {}
    for cell in cells:
        groups.setdefault((cell.case.name, cell.op), []).append(cell)
    for r in range(rounds):
        for group in groups.values():
            # rotate so that no implementation always runs first in its group
            k = r % len(group)
            for cell in group[k:] + group[:k]:
                cell.samples.append(cell.timer.timeit(cell.number) / cell.number * 1e9)
    result = _summarise(cells, rounds, target_s, quick, time.perf_counter() - started)
    result["machine"]["loadavg_before"] = load_before
    return result


def _loadavg() -> list[float] | None:
    """1, 5 and 15 minute load averages (None where the OS has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def _median_ratio(a: _Cell, b: _Cell) -> float:
    """Median over rounds of a's time / b's time in the same round."""
    return statistics.median(x / y for x, y in zip(a.samples, b.samples, strict=True))


def _summarise(
    cells: list[_Cell], rounds: int, target_s: float, quick: bool, elapsed: float
) -> dict[str, Any]:
    by_key = {(c.case.name, c.op, c.impl): c for c in cells}
    rows = []
    for case in cases():
        for op in ("decode", "encode"):
            present = {
                impl: by_key[(case.name, op, impl)]
                for impl in IMPLEMENTATIONS
                if (case.name, op, impl) in by_key
            }
            if not present:
                continue
            compiled = present.get("compiled")
            rows.append(
                {
                    "case": case.name,
                    "kind": case.kind,
                    "op": op,
                    "frame_bytes": case.size,
                    "ns": {impl: statistics.median(c.samples) for impl, c in present.items()},
                    "to_floor": {
                        impl: _median_ratio(c, present[FLOOR]) for impl, c in present.items()
                    },
                    "over_compiled": (
                        {impl: _median_ratio(c, compiled) for impl, c in present.items()}
                        if compiled is not None
                        else {}
                    ),
                    "loops": {impl: c.number for impl, c in present.items()},
                    "samples": {
                        impl: [round(x, 1) for x in c.samples] for impl, c in present.items()
                    },
                }
            )
    unknown_vs_known = None
    if ("unknown_method", "decode", "compiled") in by_key and (
        "log",
        "decode",
        "compiled",
    ) in by_key:
        unknown_vs_known = _median_ratio(
            by_key[("unknown_method", "decode", "compiled")], by_key[("log", "decode", "compiled")]
        )
    return {
        "machine": machine(),
        "config": {
            "rounds": rounds,
            "target_s_per_measurement": target_s,
            "quick": quick,
            "floor": FLOOR,
            "small_limit_bytes": SMALL_LIMIT,
            "tiny_limit_bytes": TINY_LIMIT,
            "elapsed_s": round(elapsed, 2),
        },
        "rows": rows,
        "unknown_vs_known": unknown_vs_known,
    }


def machine() -> dict[str, Any]:
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
    for name in ("orjson", "pydantic", "mcp", "Cython"):
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    from . import IMPLEMENTATION, __version__

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


# ------------------------------------------------------------------------ memory


def memory_check(blob_mib: int = 64) -> dict[str, Any]:
    """Decode a read-resource frame holding a ``blob_mib`` MiB base64 blob under
    ``tracemalloc``; report each path's peak allocation beyond the input, in bytes and
    as a multiple of the blob's length (the decoded ``str`` alone is 1.0x)."""
    blob_len = blob_mib * 1024 * 1024
    payload = (
        b'\x00{"contents":[{"uri":"file:///big.bin","mimeType":"application/octet-stream",'
        b'"blob":"' + b"QUJD" * (blob_len // 4) + b'"}]}'
    )
    paths: dict[str, Callable[[Any], Any]] = {"python": _frames_py.decode_read_resource}
    if _frames_c is not None:
        paths["compiled"] = _frames_c.decode_read_resource
    body = memoryview(payload)[1:]
    paths["msgspec"] = lambda _: msgspec.json.Decoder(_wire.ReadResourceResultWire).decode(body)
    out: dict[str, Any] = {"blob_bytes": blob_len, "frame_bytes": len(payload), "paths": {}}
    for name, decode in paths.items():
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            value = decode(payload)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert len(value.contents[0].blob) == blob_len
        del value
        extra = peak - before
        out["paths"][name] = {"peak_extra_bytes": extra, "ratio": extra / blob_len}
    body.release()
    return out


# ------------------------------------------------------------------------ targets


def evaluate(result: dict[str, Any], memory: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The issue's targets, each ``{"target", "measured", "limit", "met", "worst_case",
    "detail"}``: ``measured`` is the worst case's median ratio, ``detail`` every case's.

    "x faster than" ratios are the other implementation's time over compiled's (bigger
    is better); the others compiled's time over the other's (smaller is better).
    """
    rows = result["rows"]
    targets: list[dict[str, Any]] = []

    def add(name: str, values: dict[str, float | None], limit: float, at_most: bool) -> None:
        known = {k: v for k, v in values.items() if v is not None}
        if not known:
            targets.append(
                {
                    "target": name,
                    "measured": None,
                    "limit": limit,
                    "met": None,
                    "worst_case": None,
                    "detail": {},
                }
            )
            return
        worst_case = (max if at_most else min)(known, key=known.__getitem__)
        worst = known[worst_case]
        targets.append(
            {
                "target": name,
                "measured": worst,
                "limit": limit,
                "met": worst <= limit if at_most else worst >= limit,
                "worst_case": worst_case,
                "detail": {k: round(v, 3) for k, v in known.items()},
            }
        )

    def to_floor(r: dict[str, Any]) -> float | None:
        value: float | None = r["to_floor"].get("compiled")
        return value

    def faster(r: dict[str, Any], than: str) -> float | None:
        value: float | None = r["over_compiled"].get(than)
        return value

    decode = [r for r in rows if r["op"] == "decode"]
    encode = [r for r in rows if r["op"] == "encode"]
    small = [r for r in decode if r["frame_bytes"] <= SMALL_LIMIT]
    add(
        f"decode: compiled <= 1.15x msgspec-alone, every small case (<= {SMALL_LIMIT} B)",
        {r["case"]: to_floor(r) for r in small},
        1.15,
        True,
    )
    add(
        f"decode: compiled >= 1.5x faster than pure Python, frames <= {TINY_LIMIT} B",
        {r["case"]: faster(r, "python") for r in decode if r["frame_bytes"] <= TINY_LIMIT},
        1.5,
        False,
    )
    add(
        "decode: compiled >= 20x faster than mcp-types, small notifications",
        {r["case"]: faster(r, "mcp-types") for r in small if r["kind"] == "notification"},
        20,
        False,
    )
    add(
        "decode: compiled >= 4x faster than mcp-types, small results",
        {r["case"]: faster(r, "mcp-types") for r in small if r["kind"] == "result"},
        4,
        False,
    )
    add(
        "decode: compiled >= 2.5x faster than mcp-types, errors",
        {r["case"]: faster(r, "mcp-types") for r in decode if r["kind"] == "error"},
        2.5,
        False,
    )
    add(
        "decode: compiled >= 1.5x faster than mcp-types, 1.4 MB blob result",
        {r["case"]: faster(r, "mcp-types") for r in decode if r["case"] == "blob_1.4MB"},
        1.5,
        False,
    )
    add(
        "decode: unknown-method notification <= 2.5x a known one (log), compiled",
        {"unknown_method/log": result.get("unknown_vs_known")},
        2.5,
        True,
    )
    add(
        "encode: compiled <= 1.2x msgspec-alone, every case",
        {r["case"]: to_floor(r) for r in encode},
        1.2,
        True,
    )
    add(
        "encode: compiled >= 5x faster than mcp-types model_dump_json, every case",
        {r["case"]: faster(r, "mcp-types") for r in encode},
        5,
        False,
    )
    if memory is not None:
        add(
            f"memory: decoding a {memory['blob_bytes'] >> 20} MiB blob frame allocates"
            " <= 1.1x the blob beyond the input",
            {name: p["ratio"] for name, p in memory["paths"].items() if name != FLOOR},
            1.1,
            True,
        )
    return targets


# ------------------------------------------------------------------------- output


def _fmt_ns(ns: float | None) -> str:
    if ns is None:
        return "-"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e4:
        return f"{ns / 1e3:.1f} us"
    return f"{ns:.0f} ns"


def _fmt_x(ratio: float | None, digits: int = 2) -> str:
    return "-" if ratio is None else f"{ratio:.{digits}f}x"


def table(result: dict[str, Any]) -> str:
    """The matrix as a Markdown table: time per op of each implementation (median),
    then compiled's time over msgspec-alone's, and how many times faster compiled is
    than pure Python and than mcp-types (medians of per-round ratios)."""
    head = [
        "case",
        "op",
        "frame B",
        *IMPLEMENTATIONS,
        "compiled / msgspec",
        "python / compiled",
        "mcp-types / compiled",
    ]
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]
    for r in result["rows"]:
        cells = [r["case"], r["op"], str(r["frame_bytes"])]
        cells += [_fmt_ns(r["ns"].get(impl)) for impl in IMPLEMENTATIONS]
        cells.append(_fmt_x(r["to_floor"].get("compiled")))
        cells.append(_fmt_x(r["over_compiled"].get("python")))
        cells.append(_fmt_x(r["over_compiled"].get("mcp-types"), 1))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def target_lines(targets: list[dict[str, Any]]) -> str:
    """One line per target: MET / MISSED, the worst case's ratio and the limit."""
    out = []
    for tg in targets:
        if tg["measured"] is None:
            out.append(f"- [n/a]    {tg['target']}: not measured")
            continue
        mark = "MET" if tg["met"] else "MISSED"
        out.append(
            f"- [{mark:6}] {tg['target']}: worst {tg['measured']:.3g}"
            f" ({tg['worst_case']}), limit {tg['limit']:g}"
        )
    return "\n".join(out)


def memory_lines(memory: dict[str, Any]) -> str:
    mib = memory["blob_bytes"] >> 20
    return "\n".join(
        f"- {mib} MiB blob frame, {name}: peak {p['peak_extra_bytes'] / 2**20:.1f} MiB beyond"
        f" the input = {p['ratio']:.3f}x the blob"
        for name, p in memory["paths"].items()
    )


def report(quick: bool = False, memory: bool = True) -> dict[str, Any]:
    """Run the matrix and the memory check; add the targets (see :func:`evaluate`)."""
    result = run(quick=quick)
    result["memory"] = memory_check() if memory else None
    result["targets"] = evaluate(result, result["memory"])
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
    """``python -m diverge_frames bench [--json] [--quick] [--no-memory] [--save DIR]``.

    Prints the machine, the matrix (ns per op; ratios to msgspec-alone, to pure Python
    and to mcp-types), the memory check and each target MET or MISSED with its measured
    ratio. ``--json`` prints the whole result as JSON instead. Returns 0: targets are
    reported here, enforced by ``scripts/bench_guard.py``.
    """
    parser = argparse.ArgumentParser(
        prog="python -m diverge_frames bench",
        description="Time decode and encode of eight frames: compiled, pure Python, "
        "msgspec alone (the floor), mcp-types (pydantic) and orjson.",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quick", action="store_true", help="25 rounds of 1 ms, not 61 of 2 ms")
    parser.add_argument(
        "--no-memory", action="store_true", help="skip the 64 MiB tracemalloc check"
    )
    parser.add_argument(
        "--save", metavar="DIR", help="also write the JSON to DIR/<UTC time>-bench.json"
    )
    args = parser.parse_args(argv)
    result = report(quick=args.quick, memory=not args.no_memory)
    if args.save:
        path = save(result, args.save, "bench")
        print(f"saved {path}", file=sys.stderr)
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    m, c = result["machine"], result["config"]
    print(
        f"diverge-frames {m['diverge_frames']} ({m['default_path']}): {m['cpu']}, "
        f"nproc {m['nproc']}, Python {m['python']}, msgspec {m['versions']['msgspec']}, "
        f"mcp {m['versions']['mcp']}, pydantic {m['versions']['pydantic']}, "
        f"orjson {m['versions']['orjson']}"
    )
    print(
        f"{c['rounds']} interleaved rounds in one process, {c['elapsed_s']} s; times are "
        "medians, ratios medians of per-round ratios\n"
    )
    print(table(result))
    if result["memory"]:
        print()
        print(memory_lines(result["memory"]))
    print("\nTargets:")
    print(target_lines(result["targets"]))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
