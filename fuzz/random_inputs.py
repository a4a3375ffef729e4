#!/usr/bin/env python3
"""Random and mutated payloads through both channels, with the fuzz harness's checks.

No atheris and no coverage guidance: a plain, bounded loop for builds that libFuzzer
cannot drive, such as the extension built with AddressSanitizer and UBSan by ``.ci/run``
(which preloads the sanitizer runtime). Each input goes to every channel's
``make_test`` from ``_harness.py``: decode as ``bytes``, ``bytearray`` and ``memoryview``
alike, the same outcome in the other implementation, ``encode(decode(x))`` the same in
both and decoding again (see ``_harness.py`` for the exact rules).

Inputs: uniformly random bytes, and payloads of the committed corpus
(``fuzz/corpus/<channel>/``) mutated by byte flips, inserts, deletions, repeats,
splices of two payloads, a changed tag byte and tokens that once found bugs (integer
and float edges, escapes, surrogates, deep nesting).

Usage::

    python fuzz/random_inputs.py [--count N] [--seconds S] [--seed SEED]

It stops after ``--count`` inputs (default 20000) or ``--seconds`` (default 60),
whichever comes first, prints how many ran and the seed, and exits 1 at the first
input that fails a check (printed as base64, with the traceback).
"""

from __future__ import annotations

import argparse
import base64
import os
import random
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

# _harness.py beside this file; the tests' json_shapes.py, which it imports (as
# scripts/fuzz.sh does, by PYTHONPATH).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "tests")]

from _harness import CHANNELS, make_test  # noqa: E402 (after the path above)

CORPUS = Path(__file__).parent / "corpus"

#: Pieces of JSON that reach the corners of a parser: integer and float limits, escapes,
#: lone surrogates, structure.
TOKENS = [
    b"-9223372036854775808",
    b"9223372036854775807",
    b"18446744073709551616",
    b"-0",
    b"1e400",
    b"1.7976931348623157e308",
    b"5e-324",
    b"0.1e-999999999",
    b'"\\u0000"',
    b'"\\ud800"',
    b'"\\udc00\\ud800"',
    b'"\\\\\\""',
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xc0\x80",
    b"null",
    b"true",
    b"{}",
    b"[]",
    b'"_meta"',
    b'"method"',
    b'"params"',
    b'"contents"',
    b'"blob"',
    b"[" * 130,
    b"{" * 3,
    b"]" * 130,
    b",",
    b":",
]


def _seeds(channel: str) -> list[bytes]:
    return [p.read_bytes() for p in sorted((CORPUS / channel).iterdir()) if p.is_file()]


def _mutate(rng: random.Random, data: bytes, seeds: list[bytes]) -> bytes:
    """One to four random edits of ``data``."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        pos = rng.randint(0, len(buf))
        if op == 0 and buf:  # flip bits of one byte
            i = rng.randrange(len(buf))
            buf[i] ^= 1 << rng.randrange(8)
        elif op == 1:  # insert random bytes
            buf[pos:pos] = rng.randbytes(rng.randint(1, 8))
        elif op == 2 and buf:  # delete a run
            del buf[pos : pos + rng.randint(1, 16)]
        elif op == 3 and buf:  # repeat a run
            end = min(len(buf), pos + rng.randint(1, 32))
            buf[pos:pos] = buf[pos:end] * rng.randint(1, 8)
        elif op == 4:  # splice in part of another payload
            other = rng.choice(seeds)
            start = rng.randint(0, len(other))
            buf[pos:] = other[start:]
        elif op == 5 and buf:  # another tag byte
            buf[0] = rng.choice((0, 1, 2, 255))
        else:  # a token
            buf[pos:pos] = rng.choice(TOKENS)
    return bytes(buf)


def _input(rng: random.Random, seeds: list[bytes]) -> bytes:
    if rng.random() < 0.2:
        return rng.randbytes(rng.randint(0, 64))
    return _mutate(rng, rng.choice(seeds), seeds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20000, help="inputs at most")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds at most")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    tests: dict[str, Callable[[bytes], None]] = {c: make_test(c) for c in CHANNELS}
    seeds = {c: _seeds(c) for c in CHANNELS}
    pool = [s for c in CHANNELS for s in seeds[c]]
    deadline = time.monotonic() + args.seconds
    done = 0
    while done < args.count and time.monotonic() < deadline:
        channel = rng.choice(list(CHANNELS))
        data = _input(rng, seeds[channel] if rng.random() < 0.8 else pool)
        for name, test in tests.items():
            try:
                test(data)
            except Exception:  # noqa: BLE001 - any failure of a check is a finding
                traceback.print_exc()
                print(
                    f"random_inputs: FAILED on {name} input (seed {seed}, input {done + 1}): "
                    f"{base64.b64encode(data).decode()}",
                    file=sys.stderr,
                )
                return 1
        done += 1
    print(f"random_inputs: {done} inputs through {len(tests)} channels, no finding (seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
