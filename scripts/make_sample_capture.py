#!/usr/bin/env python3
"""Build ``src/diverge_frames/data/sample.capture.jsonl`` from the real corpus.

The sample is what ``python -m diverge_frames decode`` prints with no argument. It is
made from ``tests/data/corpus/`` (real traffic of npm ``@modelcontextprotocol/
server-everything`` and ``server-filesystem``), each body decoded and re-encoded by
this package (so payloads are what rmcp writes for the same value), in this order:

1. channel "1", notifications: every server-everything notification, then the finish;
2. one read-resource channel per server-everything ``resources/read`` result: the
   result, then the finish;
3. one read-resource channel per distinct corpus error about a resource (its message
   mentions "resource"): the error (tag 1), then the finish;
4. a notification channel with the first notification of each of the first three
   methods seen, then the first server-everything error (tag 1), then the finish;
5. a read-resource channel finished with no response (decodes as ``not_served``);
6. a notification channel with the first notification of the fourth method seen, then
   an abort.

Frames over 64 KiB are left out to keep the wheel small (the corpus has one 2 MB blob
result). Run from anywhere::

    python scripts/make_sample_capture.py            # rewrite the sample
    python scripts/make_sample_capture.py --check    # exit 1 if it is out of date
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from diverge_frames import capture, notifications, read_resource
from diverge_frames.capture import Record

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "corpus"
OUTPUT = ROOT / "src" / "diverge_frames" / "data" / "sample.capture.jsonl"
#: Largest payload kept, in bytes.
MAX_FRAME = 64 * 1024


def _bodies(path: Path) -> list[bytes]:
    return [line.strip() for line in path.read_bytes().splitlines() if line.strip()]


def _notification(tag: bytes, body: bytes) -> bytes:
    return notifications.encode(notifications.decode(tag + body))


def _read_resource(tag: bytes, body: bytes) -> bytes:
    return read_resource.encode(read_resource.decode(tag + body))


def records() -> Iterator[Record]:
    """The sample's records, in order (see the module docstring)."""
    everything = CORPUS / "server-everything"
    notes = [_notification(b"\x00", b) for b in _bodies(everything / "notifications.jsonl")]
    notes = [p for p in notes if len(p) <= MAX_FRAME]
    results = [
        _read_resource(b"\x00", b) for b in _bodies(everything / "read_resource_results.jsonl")
    ]
    errors: list[bytes] = []
    for server in sorted(CORPUS.iterdir()):
        if (server / "errors.jsonl").is_file():
            for body in _bodies(server / "errors.jsonl"):
                payload = _read_resource(b"\x01", body)
                if payload not in errors:
                    errors.append(payload)
    resource_errors = [p for p in errors if b"resource" in p.lower()]
    first_error = _notification(b"\x01", _bodies(everything / "errors.jsonl")[0])
    by_method: dict[str, bytes] = {}
    for payload in notes:
        by_method.setdefault(notifications.decode(payload).method, payload)
    firsts = list(by_method.values())

    ids = (str(n) for n in range(1, 1_000_000))

    cid = next(ids)
    for payload in notes:
        yield capture.response(cid, "notifications", payload)
    yield capture.finish(cid, "notifications")

    for payload in [p for p in results if len(p) <= MAX_FRAME] + resource_errors:
        cid = next(ids)
        yield capture.response(cid, "read-resource", payload)
        yield capture.finish(cid, "read-resource")

    cid = next(ids)
    for payload in [*firsts[:3], first_error]:
        yield capture.response(cid, "notifications", payload)
    yield capture.finish(cid, "notifications")

    cid = next(ids)
    yield capture.finish(cid, "read-resource")

    cid = next(ids)
    yield capture.response(cid, "notifications", firsts[3])
    yield capture.abort(cid, "notifications")


def build() -> bytes:
    """The sample file's bytes."""
    return b"".join(capture.encode_record(r) for r in records())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the sample is out of date")
    parser.add_argument("--output", type=Path, default=OUTPUT, help=f"default: {OUTPUT}")
    args = parser.parse_args(argv)
    data = build()
    if args.check:
        current = args.output.read_bytes() if args.output.exists() else b""
        if current != data:
            print(f"{args.output} is out of date: run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_bytes(data)
    count = data.count(b"\n")
    print(f"wrote {args.output} ({len(data)} bytes, {count} records)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
