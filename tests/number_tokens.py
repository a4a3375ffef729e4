"""Generated JSON number tokens for the tests of serde_json's numbers (the C port, both
implementations, and rmcp itself through the oracle)."""

from __future__ import annotations

import random
import re

#: A JSON number, as the grammar has it.
NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z")


def _digits(rng: random.Random, count: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(count))


def _integer(rng: random.Random, count: int) -> str:
    return str(rng.randint(1, 9)) + _digits(rng, count - 1) if count else "0"


EDGES = [
    "0", "-0", "0.0", "-0.0", "0e5", "-0e400", "0e99999999999", "-1e-99999999999",
    "1e400", "-1e400", "1e-400", "1e99999999999", "1e2147483647", "1e2147483648",
    "18446744073709551615", "18446744073709551616", "-9223372036854775808",
    "-9223372036854775809", "9007199254740992", "9007199254740993", "9007199254740993.0",
    "9007199254740992.0", "18014398509481984.0", "18014398509481985.0",
    "1.7976931348623157e308", "1.7976931348623159e308", "5e-324", "2e-324", "2.4e-324",
    "18446744073709551616.5", "18446744073709551616.7", "1844674407370955161.6",
    "123456789012345678901234567890e-10", "0.30000000000000004", "1e-7", "1e-05",
    "1e22", "1e23", "1e-22", "1e-23", "1.5e300", "4.35e22", "123456789e-22",
    "1.", "01", "-", "1e", "1e+", ".5", "-.5", "1.e5", "--1", "+1",
]  # fmt: skip


def tokens(rng: random.Random, count: int) -> list[str]:
    """Number tokens of every shape serde_json's parser distinguishes: integers short and
    past u64, fractions within and past 19-20 digits, exponents near and far from +-22,
    significands near 2^53 with powers of ten near +-22, zeros, and some that are not
    JSON numbers."""
    out = list(EDGES)
    while len(out) < count:
        sign = "-" if rng.random() < 0.3 else ""
        r = rng.random()
        if r < 0.15:
            out.append(sign + _integer(rng, rng.randint(1, 25)))
        elif r < 0.45:
            t = sign + _integer(rng, rng.randint(0, 22)) + "." + _digits(rng, rng.randint(1, 25))
            if rng.random() < 0.4:
                t += rng.choice("eE") + rng.choice(["", "+", "-"]) + str(rng.randint(0, 340))
            out.append(t)
        elif r < 0.7:
            exp = rng.choice(["", "+", "-"]) + str(rng.randint(0, 400))
            out.append(sign + _integer(rng, rng.randint(1, 20)) + rng.choice("eE") + exp)
        else:  # the plain rule's edges: significands about 2^53, powers of ten about 22
            significand = rng.choice([2**53 + rng.randint(-3, 3), rng.randint(1, 2**55)])
            significand <<= rng.choice([0, 0, rng.randint(1, 10)])
            text = str(significand)
            point = rng.randint(0, len(text))
            mantissa = (text[:point] or "0") + "." + (text[point:] or "0")
            out.append(f"{sign}{mantissa}e{rng.randint(-30, 30) + point - len(text)}")
    return out[:count]
