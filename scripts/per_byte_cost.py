"""Print the per-byte CPU time of one shape of ``tests/test_limits.py`` at several sizes.

Usage: ``python scripts/per_byte_cost.py [SHAPE] [SIZE ...]`` (SHAPE one of that file's
``SHAPES``, default ``"progress _meta"``; sizes in bytes, default 64 kB to 64 MB). For each
size: ns per payload byte (best of 3, thread CPU time, GC paused, as the linearity test
measures) for the compiled twin, the pure-Python twin, a plain untyped
``msgspec.json.decode`` of the body and ``json.loads`` of it. Run from the repository root
with the package installed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import test_limits

from diverge_frames import _frames_py

try:
    from diverge_frames import _frames_c
except ImportError:  # no compiled twin in this install
    _frames_c = None


def _loads(payload: bytes) -> object:
    try:
        return json.loads(payload[1:])
    except (ValueError, RecursionError) as error:
        return error


def _size(text: str) -> int:
    """A size in bytes, as ``65536`` or ``6.4e4``."""
    try:
        size = int(float(text))
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(f"not a size in bytes: {text!r}") from None
    if size < 1:
        raise argparse.ArgumentTypeError(f"not a size in bytes: {text!r}")
    return size


def main(argv: list[str]) -> int:
    """Print one line per size; 2 for an unknown shape or size."""
    shapes = "\n".join(f"  {name!r}" for name in test_limits.SHAPES)
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=f"shapes (quote them: their names have spaces):\n{shapes}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("shape", nargs="?", default="progress _meta", help="default: %(default)r")
    parser.add_argument("sizes", nargs="*", type=_size, help="bytes; default 64 kB to 64 MB")
    args = parser.parse_args(argv)
    shape = args.shape
    if shape not in test_limits.SHAPES:
        print(f"unknown shape {shape!r}; --help lists them", file=sys.stderr)
        return 2
    sizes = args.sizes or [2**16, 2**20, 2**23, 2**24, 2**26]
    channel, make, _, _ = test_limits.SHAPES[shape]
    decoders = {"pure": test_limits.decoder(_frames_py, channel)}
    if _frames_c is not None:
        decoders = {"compiled": test_limits.decoder(_frames_c, channel), **decoders}
    decoders["msgspec"] = test_limits.plain_decode
    decoders["json.loads"] = _loads
    print(f"{shape}: ns per payload byte")
    for size in sizes:
        payload = make(size)
        cells = (
            f"{name} {test_limits.per_byte_seconds(decode, payload) * 1e9:.2f}"
            for name, decode in decoders.items()
        )
        print(f"{len(payload):>10}  " + "  ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
