"""Worst cases: each body a peer can send to slow a decode down, beside a plain body of
the same shape and size, both implementations, decode and encode.

For every *shape* (a trigger of the rmcp-exact reading: a number msgspec reads otherwise
than serde_json, a repeated or escaped key, many members, invalid UTF-8, 128 levels, a
body that is rejected or fails validation; or whitespace between the tokens, beside the
same value compact) a trigger body and its plain twin are built at each size (10 kB to
10 MB by default) and timed in turns, on the thread's CPU time
(``time.thread_time``: other processes on the machine do not count), the GC paused.
Reported per size and implementation: the MB/s of each, their ratio (trigger / plain,
the figure that matters: 1/4 or more, 1/2 for whitespace), and the peak memory of one decode
(``tracemalloc``, the result included, as a multiple of the body's length) with its
ratio (2 or less). A *rejected* shape is a body rmcp rejects, beside a valid body of the
same size: the speed ratio is then the time to decode over the time to reject, and the
memory ratio the peak while rejecting over the valid decode's.

Run from a checkout (the package installed, the compiled module built)::

    python benchmarks/worst_case.py                  # every shape, 10 kB .. 10 MB
    python benchmarks/worst_case.py --quick          # 10 kB and 1 MB
    python benchmarks/worst_case.py --sizes 1e6 --impl compiled --shape "-0"
    python benchmarks/worst_case.py --markdown > run.md   # every cell, as a table
    python benchmarks/worst_case.py --summarize run.md    # one row a shape: the table
                                                          # of docs/hostile-input.md

Exit status 0; the last lines list each cell below the targets.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from diverge_frames import FrameError, _frames_py

try:
    from diverge_frames import _frames_c
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None

TWINS = {"compiled": _frames_c, "python": _frames_py}
SPEED_TARGET = 0.25  # trigger throughput / plain throughput, at least
MEMORY_TARGET = 2.0  # trigger peak / plain peak, at most
WHITESPACE_TARGET = 0.5  # a body with whitespace / the same value compact, at least


@dataclass(frozen=True)
class Shape:
    """A trigger and its plain twin: ``make(n)`` -> (channel, trigger payload, plain
    payload) of about ``n`` bytes each. ``op``: "decode", "reject" (the trigger is
    rejected) or "encode" (both are decoded once, the values encoded)."""

    name: str
    make: Callable[[int], tuple[str, bytes, bytes]]
    op: str = "decode"
    #: The trigger is the plain body's value written with whitespace: both MB/s count
    #: the plain body's bytes (the ratio is that of their times), the target 1/2.
    whitespace: bool = False


def _array(unit: Callable[[int], bytes], n: int, head: bytes, tail: bytes) -> bytes:
    """``head`` + ``unit(0),unit(1),...`` (about n bytes) + ``tail``."""
    parts, size, i = [], 0, 0
    while size < n:
        part = unit(i)
        parts.append(part)
        size += len(part) + 1
        i += 1
    return head + b",".join(parts) + tail


def _data(n: int, unit: Callable[[int], bytes]) -> bytes:
    """An ErrorData frame whose ``data`` is an array of ``unit``s."""
    return _array(unit, n, b'\x01{"code":-32603,"message":"m","data":[', b"]}")


def _long_keys(n: int, reverse: bool) -> bytes:
    """An ErrorData frame whose ``data`` is one object of 128 keys of two-byte characters,
    about n bytes, that differ only in their last three: in reverse order (each key sorts
    before every one written before it) or in order."""
    prefix = "\u0100" * max(1, n // 256)
    keys = [f"{prefix}{i:03d}" for i in range(128)]
    data = dict.fromkeys(reversed(keys) if reverse else keys, 0)
    body = {"code": -32603, "message": "m", "data": data}
    return b"\x01" + json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def _numbers(trigger: Callable[[int], bytes], plain: Callable[[int], bytes]) -> Any:
    return lambda n: ("notifications", _data(n, trigger), _data(n, plain))


_rng = random.Random(13)
_HARD = [f"{_rng.random() * 9 + 1:.16f}e{_rng.randint(-300, 300)}".encode() for _ in range(4096)]
_SOFT = [f"{_rng.random() * 9e5 + 1e5:.10f}".encode() for _ in range(4096)]
_LONG_INT = [str(_rng.randint(10**23, 10**24 - 1)).encode() for _ in range(4096)]
_SOFT_INT = [str(_rng.randint(10**15, 10**16 - 1)).encode() + b".0000000" for _ in range(4096)]


def _log(n: int, members: int, repeated: bool) -> bytes:
    """A logging notification: ``members`` fields in params (a repeated ``level`` when
    ``repeated``), then ``data`` of about n bytes."""
    extra = b"".join(b'"f%d":%d,' % (i, i) for i in range(members))
    level = b'"level":"info",' * (2 if repeated else 1)
    return _array(
        lambda i: b'"line %d"' % i,
        n,
        b'\x00{"method":"notifications/message","params":{' + extra + level + b'"data":[',
        b"]}}",
    )


def _custom(n: int, key: Callable[[int], bytes]) -> bytes:
    return _array(lambda i: key(i) + b':{"a":%d}' % i, n, b'\x00{"method":"x/y","params":{', b"}}")


def _contents(n: int, unit: Callable[[int], bytes], tail: bytes = b"") -> bytes:
    """A ReadResourceResult frame whose ``contents`` are ``unit``s, then ``tail``'s items."""
    return _array(unit, n, b'\x00{"contents":[', tail + b"]}")


def _blobs(n: int) -> bytes:
    """The plain result beside the item shapes: every item a blob."""
    return _contents(n, lambda i: b'{"uri":"u%d","blob":"b","mimeType":"m"}' % i)


def _nested(n: int, tail: bytes) -> bytes:
    return _array(lambda i: b"[[[%d]]]" % i, n, b'\x01{"code":1,"message":"m","data":[', tail)


def _log_last(n: int, member: bytes) -> bytes:
    """A logging notification: ``data`` of about n bytes, then ``member`` last in params."""
    return _array(
        lambda i: b'"line %d"' % i,
        n,
        b'\x00{"method":"notifications/message","params":{"data":[',
        b"]," + member + b"}}",
    )


def _progress(n: int, progress: bytes) -> bytes:
    """A progress notification: a message of about n bytes, then ``progress``."""
    return (
        b'\x00{"method":"notifications/progress","params":{"progressToken":1,"message":"'
        + b"m" * n
        + b'","progress":'
        + progress
        + b"}}"
    )


def _written(channel: str, tag: bytes, value: Any, **dumps: Any) -> tuple[str, bytes, bytes]:
    """``value`` written by ``json.dumps(value, **dumps)`` (whitespace between its
    tokens), beside the same value compact."""
    return (
        channel,
        tag + json.dumps(value, **dumps).encode(),
        tag + json.dumps(value, separators=(",", ":")).encode(),
    )


def _text_result(n: int) -> Any:
    text = "lorem ipsum: dolor sit amet\n" * (n // 29 + 1)
    return {"contents": [{"uri": "file:///a.md", "mimeType": "text/markdown", "text": text}]}


def _blob_result(n: int) -> Any:
    blob = "QUJD" * (n // 4 + 1)
    return {"contents": [{"uri": "file:///a.bin", "mimeType": "image/png", "blob": blob}]}


def _log_message(n: int, data: Any) -> Any:
    return {"method": "notifications/message",
            "params": {"level": "info", "logger": "app", "data": data}}  # fmt: skip


SHAPES = [
    Shape("exponent 1e-07 (Python's json)", _numbers(lambda i: b"1e-07", lambda i: b"0.125")),
    Shape("17 digits 0.30000000000000004", _numbers(
        lambda i: b"0.30000000000000004", lambda i: b"0.300000000000000")),
    Shape("19-digit integer (ns timestamp)", _numbers(
        lambda i: b"1733011200%09d" % i, lambda i: b"17330112%09d.0" % i)),
    Shape("-0", _numbers(lambda i: b"-0", lambda i: b"-0.0")),
    Shape("float serde rounds otherwise (1.x e+-300)", _numbers(
        lambda i: _HARD[i % 4096], lambda i: _SOFT[i % 4096].ljust(len(_HARD[i % 4096]), b"1"))),
    Shape("integer beyond u64", _numbers(
        lambda i: _LONG_INT[i % 4096], lambda i: _SOFT_INT[i % 4096])),
    Shape("log record of 17 fields", lambda n: ("notifications", _log(n, 15, False),
                                                _log(n, 0, False))),
    Shape("object of many members", lambda n: (
        "notifications", _custom(n, lambda i: b'"k%d"' % i),
        _array(lambda i: b'{"k":{"a":%d}}' % i, n, b'\x00{"method":"x/y","params":{"a":[',
               b"]}}"))),
    Shape("escaped keys", lambda n: (
        "notifications", _custom(n, lambda i: b'"\\u006b%d"' % i), _custom(n, lambda i: b'"k%d"' % i))),
    Shape("repeated keys in custom params", lambda n: (
        "notifications", _custom(n, lambda i: b'"k%d"' % (i % 7)), _custom(n, lambda i: b'"k%d"' % i))),
    Shape("repeated member of a typed method", lambda n: (
        "notifications", _log(n, 0, True), _log(n, 0, False))),
    Shape("string of escapes and a -0", lambda n: (
        "notifications",
        b'\x01{"code":1,"message":"' + b"\\n\\u00e9" * (n // 8) + b'","data":-0}',
        b'\x01{"code":1,"message":"' + b"\\n\\u00e9" * (n // 8) + b'","data":-1}')),
    Shape("empty objects and a -0", lambda n: (
        "notifications", _array(lambda i: b"{}", n, b'\x01{"code":1,"message":"m","data":[-0,', b"]}"),
        _array(lambda i: b"{}", n, b'\x01{"code":1,"message":"m","data":[-1,', b"]}"))),
    Shape("nested arrays and a -0", lambda n: (
        "notifications", _nested(n, b',-0]}'), _nested(n, b',-1]}'))),
    Shape("a -0 and its text in strings", lambda n: (
        "notifications",
        _array(lambda i: b'{"-0":"a,-0"}', n, b'\x01{"code":1,"message":"-0","data":[-0,', b"]}"),
        _array(lambda i: b'{"-1":"a,-1"}', n, b'\x01{"code":1,"message":"-1","data":[-1,', b"]}"))),
    Shape("a -0 in custom params", lambda n: (
        "notifications", _custom(n, lambda i: b'"k%d"' % i)[:-2] + b',"z":-0}}',
        _custom(n, lambda i: b'"k%d"' % i)[:-2] + b',"z":-1}}')),
    Shape("a -0 among a log's strings", lambda n: (
        "notifications", _log(n, 0, False)[:-3] + b",-0]}}", _log(n, 0, False)[:-3] + b",-1]}}")),
    Shape("a -0 as a typed member (progress)", lambda n: (
        "notifications", _progress(n, b"-0"), _progress(n, b"1"))),
    Shape("result item of a repeated text", lambda n: (
        "read-resource",
        _array(lambda i: b'{"uri":"u%d","text":"t","text":"t","blob":"b"}' % i, n, b'\x00{"contents":[', b"]}"),
        _array(lambda i: b'{"uri":"u%d","blob":"b","mimeType":"m"}' % i, n, b'\x00{"contents":[', b"]}"))),
    Shape("result item of a repeated blob", lambda n: (
        "read-resource", _contents(n, lambda i: b'{"uri":"u%d","blob":"b","text":"t","blob":"b"}' % i),
        _blobs(n))),
    Shape("result items of text and blob", lambda n: (
        "read-resource", _contents(n, lambda i: b'{"uri":"u%d","text":"t","blob":"b"}' % i),
        _blobs(n))),
    Shape("result items text and blob in turn", lambda n: (
        "read-resource",
        _contents(n, lambda i: (b'{"uri":"u%d","text":"t"}' if i % 2 else b'{"uri":"u%d","blob":"b"}') % i),
        _blobs(n))),
    Shape("result item of an escaped repeated text", lambda n: (
        "read-resource",
        _contents(n, lambda i: b'{"uri":"u%d","t\\u0065xt":"t","text":"t","blob":"b"}' % i),
        _blobs(n))),
    Shape("result item of a repeated uri", lambda n: (
        "read-resource", _contents(n, lambda i: b'{"uri":"u%d","uri":"v","blob":"b"}' % i),
        _blobs(n)), "reject"),
    Shape("result item of a repeated _meta", lambda n: (
        "read-resource", _contents(n, lambda i: b'{"uri":"u%d","_meta":{},"blob":"b","_meta":{}}' % i),
        _blobs(n)), "reject"),
    Shape("result item of a repeated text and blob", lambda n: (
        "read-resource",
        _contents(n, lambda i: b'{"uri":"u%d","text":"t","blob":"b","text":"t","blob":"b"}' % i),
        _blobs(n)), "reject"),
    Shape("result items of a repeated text, the last neither", lambda n: (
        "read-resource",
        _contents(n, lambda i: b'{"uri":"u%d","text":"t","text":"t","blob":"b"}' % i, b',{"uri":"u","text":1}'),
        _blobs(n)), "reject"),
    Shape("result items of a repeated text, the last failing", lambda n: (
        "read-resource",
        _contents(n, lambda i: b'{"uri":"u%d","text":"t","text":"t","blob":"b"}' % i, b',{"text":"t"}'),
        _blobs(n)), "reject"),
    Shape("result item neither text nor blob at the end", lambda n: (
        "read-resource",
        _contents(n, lambda i: b'{"uri":"u%d","text":"t","blob":"b"}' % i, b',{"uri":"u","blob":1}'),
        _blobs(n)), "reject"),
    Shape("invalid UTF-8 at the end", lambda n: (
        "notifications", b'\x01{"code":1,"message":"' + b"a" * n + b'\xff"}',
        b'\x01{"code":1,"message":"' + b"a" * n + b'a"}'), "reject"),
    Shape("invalid UTF-8 in a skipped member", lambda n: (
        "notifications", _log(n, 0, False)[:-1] + b',"x":"\xff"}',
        _log(n, 0, False)[:-1] + b',"x":"a"}'), "reject"),
    Shape("128 levels at the end", lambda n: (
        "notifications", _nested(n, b',' + b"[" * 128 + b"]" * 128 + b"]}"),
        _nested(n, b',' + b"[" * 100 + b"]" * 100 + b"]}")), "reject"),
    Shape("truncated", lambda n: ("notifications", _nested(n, b"]}")[:-3], _nested(n, b"]}")),
          "reject"),
    Shape("more after the body", lambda n: (
        "notifications", _nested(n, b"]}") + b' {"x":1}', _nested(n, b"]}") + b" "), "reject"),
    Shape("a high byte after the body", lambda n: (
        "notifications", _nested(n, b"]}") + b"\xff", _nested(n, b"]}") + b" "), "reject"),
    Shape("a high byte after a log", lambda n: (
        "notifications", _log(n, 0, False) + b"\xe9", _log(n, 0, False)), "reject"),
    Shape("repeated top-level member", lambda n: (
        "notifications", _nested(n, b'],"code":2}'), _nested(n, b'],"x":2}')), "reject"),
    Shape("known method, params that do not fit", lambda n: (
        "notifications", _log(n, 0, False).replace(b'"info"', b'"bogus"'), _log(n, 0, False))),
    Shape("known method, the misfit member last", lambda n: (
        "notifications", _log_last(n, b'"level":"bogus"'), _log_last(n, b'"level":"info"'))),
    Shape("known method, a wrong type in a typed member", lambda n: (
        "notifications", _progress(n, b'"half"'), _progress(n, b"0.5"))),
    Shape("result failing validation", lambda n: (
        "read-resource",
        _array(lambda i: b'{"uri":"u%d","text":"t"}' % i, n, b'\x00{"contents":[', b',{"text":"t"}]}'),
        _array(lambda i: b'{"uri":"u%d","text":"t"}' % i, n, b'\x00{"contents":[', b',{"uri":"","text":"t"}]}')),
        "reject"),
    Shape("text result written with indent=2", lambda n: _written(
        "read-resource", b"\x00", _text_result(n), indent=2), whitespace=True),
    Shape("text result, default separators", lambda n: _written(
        "read-resource", b"\x00", _text_result(n)), whitespace=True),
    Shape("blob result written with indent=2", lambda n: _written(
        "read-resource", b"\x00", _blob_result(n), indent=2), whitespace=True),
    Shape("log message written with indent=2", lambda n: _written(
        "notifications", b"\x00", _log_message(n, "line: of a log\n" * (n // 17 + 1)), indent=2),
        whitespace=True),
    Shape("log record array, default separators", lambda n: _written(
        "notifications", b"\x00", _log_message(n, [f"line {i}" for i in range(n // 10)])),
        whitespace=True),
    Shape("log record array written with indent=2", lambda n: _written(
        "notifications", b"\x00", _log_message(n, [f"line {i}" for i in range(n // 10)]), indent=2),
        whitespace=True),
    Shape("large floats (encode)", _numbers(
        lambda i: b"%d.5e%d" % (i % 9 + 1, 16 + i % 280), lambda i: b"%d.5" % (i % 9 + 1)), "encode"),
    Shape("error data keys sharing a prefix, out of order (encode)", lambda n: (
        "notifications", _long_keys(n, reverse=True), _long_keys(n, reverse=False)), "encode"),
]  # fmt: skip


def _decoder(twin: Any, channel: str) -> Callable[[Any], Any]:
    return twin.decode_notification if channel == "notifications" else twin.decode_read_resource


def _encoder(twin: Any, channel: str) -> Callable[[Any], Any]:
    return twin.encode_notification if channel == "notifications" else twin.encode_read_resource


def _outcome(call: Callable[[Any], Any], arg: Any) -> Any:
    try:
        return call(arg)
    except FrameError as exc:
        return exc


def _seconds(call: Callable[[Any], Any], arg: Any, loops: int) -> float:
    """Thread CPU seconds of one call (``loops`` calls, averaged), the GC paused."""
    gc.disable()
    try:
        start = time.thread_time()
        for _ in range(loops):
            _outcome(call, arg)
        return (time.thread_time() - start) / loops
    finally:
        gc.enable()


def _loops(call: Callable[[Any], Any], arg: Any, target: float) -> int:
    loops = 1
    while True:
        took = _seconds(call, arg, loops) * loops
        if took >= target or loops >= 10**5:
            return loops
        loops *= 10 if took < target / 20 else 2


def _peak(call: Callable[[Any], Any], arg: Any) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        result = _outcome(call, arg)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del result
    return peak


@dataclass
class Row:
    shape: str
    op: str
    size: int
    impl: str
    trigger_mbs: float
    plain_mbs: float
    speed: float  # trigger throughput / plain throughput
    trigger_mem: float  # peak / body length
    plain_mem: float
    memory: float  # trigger peak / plain peak
    speed_target: float = SPEED_TARGET

    def missed(self) -> list[str]:
        out = []
        if self.speed < self.speed_target:
            out.append(f"speed {self.speed:.2f} < {self.speed_target}")
        if self.memory > MEMORY_TARGET:
            out.append(f"memory {self.memory:.2f} > {MEMORY_TARGET}")
        return out


def measure(shape: Shape, size: int, impl: str, rounds: int, target: float) -> Row:
    twin = TWINS[impl]
    channel, trigger, plain = shape.make(size)
    decode = _decoder(twin, channel)
    if shape.op == "encode":
        encode = _encoder(twin, channel)
        args = (decode(trigger), decode(plain))
        call: Callable[[Any], Any] = encode
        length = (len(encode(args[0])), len(encode(args[1])))
    else:
        args = (trigger, plain)
        call = decode
        length = (len(plain) if shape.whitespace else len(trigger), len(plain))
        if shape.op == "reject":
            assert isinstance(_outcome(decode, trigger), FrameError), shape.name
            assert not isinstance(_outcome(decode, plain), FrameError), shape.name
        else:
            for arg in args:
                assert not isinstance(_outcome(decode, arg), FrameError), (shape.name, arg[:80])
    loops = [_loops(call, arg, target) for arg in args]
    ratios, seconds = [], ([], [])
    for _ in range(rounds):  # in turns: the ratio of each round, then their median
        t = _seconds(call, args[0], loops[0])
        p = _seconds(call, args[1], loops[1])
        seconds[0].append(t)
        seconds[1].append(p)
        ratios.append((length[0] / t) / (length[1] / p))
    peaks = [_peak(call, arg) for arg in args]
    return Row(
        shape.name,
        shape.op,
        size,
        impl,
        length[0] / min(seconds[0]) / 1e6,
        length[1] / min(seconds[1]) / 1e6,
        statistics.median(ratios),
        peaks[0] / length[0],
        peaks[1] / length[1],
        peaks[0] / max(peaks[1], 1),
        WHITESPACE_TARGET if shape.whitespace else SPEED_TARGET,
    )


def _size(text: str) -> int:
    return int(float(text))


def _label(size: int) -> str:
    return f"{size // 10**6} MB" if size >= 10**6 else f"{size // 1000} kB"


def summarize(path: str) -> None:
    """One row a shape from a saved ``--markdown`` run: per implementation, the speed
    ratio's range over the sizes, the trigger's MB/s at the largest size and the
    largest memory ratio."""
    cells: dict[str, dict[str, list[list[str]]]] = {}
    sizes: list[str] = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) != 9 or parts[0] in ("shape", "---"):
            continue
        cells.setdefault(parts[0], {}).setdefault(parts[2], []).append(parts)
        if parts[1] not in sizes:
            sizes.append(parts[1])
    impls = ["compiled", "python"]
    print(
        f"| shape ({sizes[0]} to {sizes[-1]}) | "
        + " | ".join(
            f"{i}: speed ratio | {i}: MB/s at {sizes[-1]} (plain) | {i}: memory ratio"
            for i in impls
        )
        + " |"
    )
    print("|---" * (1 + 3 * len(impls)) + "|")
    for shape, by_impl in cells.items():
        row = [shape]
        for impl in impls:
            rows = by_impl.get(impl, [])
            if not rows:
                row += ["-", "-", "-"]
                continue
            speeds = [float(r[5]) for r in rows]
            last = rows[-1]
            memory = [float(r[8]) for r in rows if r[8] != "-"]
            row.append(f"{min(speeds):.2f}-{max(speeds):.2f}")
            row.append(f"{last[3]} ({last[4]})")
            row.append(f"{max(memory):.2f}" if memory else "-")
        print("| " + " | ".join(row) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", type=_size, default=[10**4, 10**5, 10**6, 10**7])
    parser.add_argument("--quick", action="store_true", help="10 kB and 1 MB, fewer rounds")
    parser.add_argument("--impl", choices=sorted(TWINS), action="append")
    parser.add_argument("--shape", action="append", help="a shape's name (or part of it)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--summarize", metavar="RUN", help="summarize a saved --markdown run")
    args = parser.parse_args(argv)
    if args.summarize:
        summarize(args.summarize)
        return 0
    sizes = [10**4, 10**6] if args.quick else args.sizes
    target = 0.02 if args.quick else 0.05
    impls = [i for i in (args.impl or ["compiled", "python"]) if TWINS[i] is not None]
    shapes = [s for s in SHAPES if not args.shape or any(p in s.name for p in args.shape)]
    print(
        f"# {platform.python_implementation()} {platform.python_version()}, msgspec "
        f"{msgspec.__version__}, {platform.machine()}; thread CPU time, best of "
        f"{args.rounds} rounds; ratios: median of the rounds'"
    )
    if args.markdown:
        print(
            "| shape | size | impl | trigger MB/s | plain MB/s | speed ratio | "
            "trigger peak | plain peak | memory ratio |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for shape in shapes:
        for size in sizes:
            for impl in impls:
                row = measure(shape, size, impl, args.rounds, target)
                rows.append(row)
                cells = (
                    f"{row.shape}{' (rejected)' if row.op == 'reject' else ''}",
                    _label(size),
                    impl,
                    f"{row.trigger_mbs:.1f}",
                    f"{row.plain_mbs:.1f}",
                    f"{row.speed:.2f}",
                    f"{row.trigger_mem:.1f}x",
                    f"{row.plain_mem:.1f}x",
                    f"{row.memory:.2f}",
                )
                if args.markdown:
                    print("| " + " | ".join(cells) + " |", flush=True)
                else:
                    print(
                        f"{cells[0]:48} {cells[1]:>6} {cells[2]:9} {cells[3]:>8} {cells[4]:>8}"
                        f" {cells[5]:>6} {cells[6]:>7} {cells[7]:>7} {cells[8]:>6}",
                        flush=True,
                    )
    missed = [(row, row.missed()) for row in rows if row.missed()]
    print(
        f"\n{len(rows) - len(missed)} of {len(rows)} cells meet the targets "
        f"(speed >= {SPEED_TARGET}, {WHITESPACE_TARGET} with whitespace; memory <= {MEMORY_TARGET})"
    )
    for row, why in missed:
        print(f"  missed: {row.shape} {_label(row.size)} {row.impl}: {', '.join(why)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
