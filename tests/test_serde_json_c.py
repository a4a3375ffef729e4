"""serde_json's numbers in C (``src/diverge_frames/_serde_json.h``) against the Python
reference (:func:`diverge_frames._exact.serde_json.serde_number`) and msgspec.

``tests/c/test_serde_json.c`` is compiled with the C compiler that builds the extension
(as built by default, SSE2 on x86-64, and with ``-DDF_SCALAR``) and fed generated number
tokens; for each, the C port's verdict must be the reference's:

* ``df_sj_number``'s value is ``serde_number``'s, bit for bit, or both say out of range;
* a token it calls plain is read by msgspec to that same value and type (the rule that
  lets msgspec's reading stand: :func:`~diverge_frames._exact.serde_json.plain_number`, which
  must agree), and every other one is spelled by ``df_write_f64`` so that msgspec reads
  serde's f64 back;
* ``df_write_f64`` round-trips random f64 of every exponent through ``strtod``.

``DIVERGE_FRAMES_NUMBERS`` sets how many tokens (default 100,000; set it to millions to
soak) and f64 (ten times as many) are checked.
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import struct
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import msgspec
import pytest
from number_tokens import NUMBER, tokens

from diverge_frames._exact.serde_json import Reject, fix_exponents, plain_number, serde_number

ROOT = Path(__file__).resolve().parent.parent
HEADER_DIR = ROOT / "src" / "diverge_frames"
SOURCE = Path(__file__).parent / "c" / "test_serde_json.c"
COUNT = int(os.environ.get("DIVERGE_FRAMES_NUMBERS", "100000"))

pytestmark = pytest.mark.skipif(not (HEADER_DIR / "_serde_json.h").exists(), reason="no source")


def _compiler() -> list[str] | None:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    command = shlex.split(cc)
    return command if command and shutil.which(command[0]) else None


@pytest.fixture(scope="module", params=["default", "DF_SCALAR"])
def program(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler")
    binary = tmp_path_factory.mktemp("c") / "test_serde_json"
    flags = ["-DDF_SCALAR"] if request.param == "DF_SCALAR" else []
    command = [*cc, "-O2", "-Wall", "-Werror", *flags, "-I", str(HEADER_DIR), str(SOURCE)]
    subprocess.run([*command, "-o", str(binary)], check=True)
    return binary


def _bits(value: float) -> bytes:
    return struct.pack("<d", value)


@pytest.mark.heavy
def test_numbers_match_the_reference(program: Path) -> None:
    rng = random.Random(20261201)
    toks = tokens(rng, COUNT)
    answers = subprocess.run(
        [str(program), "numbers"], input="\n".join(toks) + "\n", capture_output=True,
        text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    assert len(answers) == len(toks)
    decode = msgspec.json.Decoder().decode
    kinds: dict[str, int] = {}
    wrong = []
    for token, answer in zip(toks, answers, strict=True):
        kind = answer[0]
        kinds[kind] = kinds.get(kind, 0) + 1
        if not NUMBER.match(token):
            if kind != "I":
                wrong.append((token, answer, "not a number"))
            continue
        try:
            value = serde_number(token)
        except Reject:
            if kind != "R":
                wrong.append((token, answer, "out of range"))
            continue
        if kind == "P":
            read = decode(token.encode())
            if (
                type(read) is not type(value)
                or read != value
                or (type(value) is float and _bits(read) != _bits(value))
            ):
                wrong.append((token, answer, f"plain, but msgspec reads {read!r} for {value!r}"))
        elif kind == "F":
            _, bits, text = answer.split(" ")
            f = struct.unpack(">d", bytes.fromhex(bits))[0]
            read = decode(text.encode())
            if type(value) is not float or _bits(f) != _bits(value):
                wrong.append((token, answer, f"serde reads {value!r}"))
            elif type(read) is not float or _bits(read) != _bits(value):
                wrong.append((token, answer, f"msgspec reads {read!r}"))
        else:
            wrong.append((token, answer, f"serde reads {value!r}"))
        if (kind == "P") != plain_number(token):
            wrong.append((token, answer, f"plain_number says {plain_number(token)}"))
        if len(wrong) > 10:
            break
    assert not wrong, wrong
    assert min(kinds.get(k, 0) for k in "PFRI") > 0, kinds


def test_f64_spelling_round_trips(program: Path) -> None:
    run = subprocess.run(
        [str(program), "write", str(10 * COUNT), "7"], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


def test_exponents_match_fix_exponents(program: Path) -> None:
    """``df_sj_exponents`` (the compiled twin's encode fix) writes what
    :func:`fix_exponents` writes, on JSON msgspec wrote: floats of every size, and
    strings holding digits around an ``e`` and escapes."""
    rng = random.Random(5)
    values = []
    for _ in range(3000):
        r = rng.random()
        if r < 0.5:
            values.append(rng.random() * 10 ** rng.randint(-320, 308))
        elif r < 0.8:
            values.append(
                "".join(rng.choice('0123456789e+-"\\x\u00e9') for _ in range(rng.randint(0, 8)))
            )
        else:
            values.append({"k1e5": [rng.randint(-9, 9), 1e16, "3e3"]})
    line = msgspec.json.encode(values)
    run = subprocess.run(
        [str(program), "exponents"], input=line + b"\n", capture_output=True, check=True
    )
    count, out = run.stdout.split(b"\n", 1)
    assert out[:-1] == fix_exponents(line)
    assert int(count) == len(out) - 1 - len(line) > 0


def test_pow10_header_is_generated() -> None:
    """``_pow10.h`` is what ``scripts/gen_pow10.py`` writes (exact integer arithmetic)."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_pow10.py"), "--check"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr


def _members_case(rng: random.Random) -> tuple[str, bytes, bytes | None]:
    """A JSON object as msgspec writes it, a path of member names into it, and the JSON
    with ``.0`` after the integer at that path (msgspec's writing of its float), or None
    when the path leads to no integer."""
    names = ["progress", "total", "params", "a", 'x"y', "é", "progress\\"]

    def value(depth: int) -> Any:
        pick = rng.random()
        if depth < 3 and pick < 0.35:
            return {rng.choice(names): value(depth + 1) for _ in range(rng.randrange(4))}
        if depth < 3 and pick < 0.45:
            return [value(depth + 1) for _ in range(rng.randrange(3))]
        return rng.choice(
            [rng.randrange(-(2**53), 2**53), rng.randrange(-9, 10), 1.5, '"progress":1', None]
        )

    top = {rng.choice(names): value(1) for _ in range(1 + rng.randrange(4))}
    path = [rng.choice(names) for _ in range(1 + rng.randrange(3))]
    node: Any = top
    if rng.random() < 0.6:  # the path there, among the other members
        for name in path[:-1]:
            if type(node.get(name)) is not dict:
                node[name] = {rng.choice(names): value(3)}
            node = node[name]
        node[path[-1]] = value(3)
    node = top
    for name in path[:-1]:
        node = node.get(name) if type(node) is dict else None
    leaf = node.get(path[-1]) if type(node) is dict else None
    encode = msgspec.json.encode
    if type(leaf) is not int or any('"' in name or "\\" in name for name in path):
        return ".".join(path), encode(top), None  # the names are of keys written plain
    node[path[-1]] = float(leaf)
    with_float = encode(top)
    node[path[-1]] = leaf
    return ".".join(path), encode(top), with_float


def test_an_int_at_a_member_path_is_written_as_its_float(program: Path) -> None:
    """df_sj_member_end finds the integer at a member path in msgspec's JSON (keys whose
    text holds a name, or is escaped, strings that hold ``"progress":1``, arrays and other
    values skipped), and df_sj_point_zero writes it as msgspec writes its float; -1 where
    the path leads to no integer or through a key written with escapes."""
    rng = random.Random(20261202)
    cases = [_members_case(rng) for _ in range(3000)]
    lines = [f"{path}\t{json.decode()}" for path, json, _ in cases]
    answers = subprocess.run(
        [str(program), "members"], input="\n".join(lines) + "\n", capture_output=True,
        text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    assert len(answers) == len(cases)
    found = 0
    for (path, json, with_float), answer in zip(cases, answers, strict=True):
        if with_float is None:
            assert answer == "-1", (path, json, answer)
            continue
        found += 1
        assert answer.split("\t", 1)[1].encode() == with_float, (path, json, answer)
    assert 100 < found < len(cases) - 100
