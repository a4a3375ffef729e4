"""Mutations of real frames against rmcp 3.1.4: the live oracle and the golden mutants.

Real payloads (the corpus, the golden vectors, a few frames written from rmcp's model)
are parsed, changed by the named operators of ``rmcp_mutations.OPERATORS`` (an enum in
serde's map form, a member moved, duplicated, dropped, retyped, wrapped, renamed, a
number or a string spelled otherwise, nesting near the limit, a struct as a sequence,
unknown members, null for absent, another method) and written back; both
implementations must then do what rmcp does, for ``bytes``, ``bytearray`` and
``memoryview`` payloads: same verdict, same variant, ``encode(decode(x))`` byte for byte
rmcp's re-encoding.

* ``test_live_mutations`` (skipped without the oracle)::

      DIVERGE_FRAMES_MUTATION_CASES=20000 python -m pytest tests/interop/test_mutations.py

  ``DIVERGE_FRAMES_MUTATION_CASES`` (default 2000) mutants, seed
  ``DIVERGE_FRAMES_MUTATION_SEED`` (default 1), go to the oracle in one batch.
* ``test_mutation_vectors``: the same check over ``tests/vectors/mutations.jsonl``
  (mutants with rmcp's outcome, written by ``scripts/gen_vectors.py``), no Rust needed.

A disagreement fails the test unless it is of a class listed in :data:`KNOWN`; delete an
entry when the codec handles its class (``test_known_classes_still_disagree`` says when).
"""

from __future__ import annotations

import os
import random
import re
import time
from collections import Counter
from pathlib import Path

import pytest
from rmcp_diff import (
    ORACLE,
    PAYLOAD_TYPES,
    VECTORS,
    Case,
    Outcome,
    oracle_available,
    run_oracle,
    short,
    write_vectors,
)
from rmcp_mutations import (
    OPERATORS,
    Finding,
    Known,
    Mutant,
    Op,
    Tree,
    classify,
    judge,
    minimize,
    mutants,
    mutation_fields,
    parse,
    read_mutation_vectors,
    render,
    seeds,
)

from diverge_frames import _frames_py

try:
    from diverge_frames import _frames_c
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None

#: Disagreements known and not fixed yet, by class; each entry names its class, the
#: operator (``*``: any) and a regex on where it acted (``<seed kind>:<path>``). A
#: disagreement of no class here fails the tests; an entry whose golden mutants all agree
#: fails ``test_known_classes_still_disagree`` (delete the entry).
KNOWN: tuple[Known, ...] = ()

TWINS = (("python", _frames_py), ("cython", _frames_c))
CASES = int(os.environ.get("DIVERGE_FRAMES_MUTATION_CASES", "2000"))
SEED = int(os.environ.get("DIVERGE_FRAMES_MUTATION_SEED", "1"))
MUTATION_VECTORS = VECTORS / "mutations.jsonl"
needs_oracle = pytest.mark.skipif(
    not oracle_available(),
    reason=f"rmcp oracle not built ({ORACLE}); "
    "cargo build --release --manifest-path interop/rmcp-oracle/Cargo.toml",
)


def unlisted(findings: list[Finding]) -> list[Finding]:
    """The findings of no class in :data:`KNOWN`."""
    return [f for f in findings if classify(f, KNOWN) is None]


def describe(finding: Finding) -> str:
    """One line per finding: the mutant, its operations, the difference."""
    case = finding.mutant.case
    where = sorted(finding.problems)
    first = finding.problems[where[0]]
    ops = "; ".join(map(str, finding.mutant.ops))
    return (
        f"{case.id} from {finding.mutant.seed} [{case.channel}] by {ops}: "
        f"{short(case.payload, 200)}: {first} ({', '.join(where)})"
    )


def failure(findings: list[Finding], total: int, minimized: list[Finding] | None = None) -> str:
    """The message for unlisted findings (``minimized``: the same, made small)."""
    lines = [f"{len(findings)} of {total} mutants disagree with rmcp in no known class:"]
    lines += [describe(f) for f in findings[:20]]
    if minimized:
        lines.append("made small:")
        lines += [describe(f) for f in minimized]
    return "\n".join(lines)


# ------------------------------------------------------------------ oracle-free checks


def test_every_operator_applies() -> None:
    """2000 mutants apply every operator many times, and are the same each time."""
    first = mutants(2000, SEED)
    again = mutants(2000, SEED)
    assert [m.case for m in first] == [m.case for m in again]
    assert len({(m.case.channel, m.case.payload) for m in first}) == len(first) == 2000
    counts = Counter(op.operator for m in first for op in m.ops)
    assert set(counts) == set(OPERATORS), set(OPERATORS) - set(counts)
    assert min(counts.values()) >= 2000 // 40, counts


def test_seeds_keep_their_spelling() -> None:
    """A seed written back unchanged is its body byte for byte (escapes, numbers,
    duplicates, member order), so a mutant differs from its seed only where changed."""
    pool = seeds()
    assert len(pool) > 1000
    assert any(s.id.startswith("corpus/") for s in pool)
    assert any(s.id.startswith("extra/") for s in pool)
    body = '{"b":1.50,"a":"\\u0041\\/","b":-0e0,"c":[1E+2,{}]}'
    assert render(parse(body)) == body


@pytest.mark.parametrize(
    ("operator", "body", "expected"),
    [
        (
            "enum_map_form",
            '{"method":"notifications/message","params":{"level":"info","data":1}}',
            r'"level":\{"info":(null|\{\}|\[\]|""|0|\{"a":1\})\}',
        ),
        ("move_member", '{"a":1,"b":2}', r'^\{"b":2,"a":1\}$'),
        ("duplicate_member", '{"a":1}', r'^\{(.*"a"|"\\u0061"):.*,.*:.*\}$'),
        ("drop_member", '{"a":1}', r"^\{\}$"),
        ("retype_value", '{"a":1}', r'^\{"a":("1"|true|false|null|\[\]|\[1\]|\{\}|\{"a":1\})\}$'),
        ("wrap_value", '{"a":1}', r'^\{"a":(\[1\]|\[1,1\]|\{"value":1\}|\{"a":1\})\}$'),
        ("number_spelling", '{"a":1}', r'^\{"a":-?[0-9.eE+-]+\}$'),
        ("string_spelling", '{"a":"/"}', r"\\"),
        ("nest_deeper", '{"a":1}', r"\[{90}|(\{\"a\":){90}"),
        ("array_form", '{"method":"x/y","params":{}}', r'^\["x/y"(,\{\})?\]$|\["x/y",\{\}\]'),
        ("add_unknown_member", '{"a":1}', r"^\{.*,.*\}$"),
        ("null_or_absent", '{"a":1}', r"null"),
        ("change_method", '{"method":"x/y"}', r'^\{"method":"(?!x/y")'),
        ("rename_case", '{"aB":1}', r'^\{"(a_b|AB|ab|a-b)":1\}$'),
    ],
)
def test_operator(operator: str, body: str, expected: str) -> None:
    """Each operator changes the body, and writes the form it is named after for one of
    ten seeds of its random choices."""
    for seed_value in range(10):
        tree = Tree(parse(body))
        changed = OPERATORS[operator](random.Random(seed_value), tree)
        assert changed is not None, (operator, seed_value)
        text = render(tree.root)
        assert text != body, (operator, seed_value)
        if not re.search(expected, text):
            # Some operators pick among their forms: at least the named one must occur.
            continue
        break
    else:
        pytest.fail(f"{operator} never wrote {expected!r} from {body!r}")


def test_an_unlisted_disagreement_fails() -> None:
    """The classification cannot wave everything through: a mutant of no known class
    whose outcome differs from rmcp's is reported unlisted; one of a known class is not."""
    case = Case("m", "notifications", b'\x00{"method":"notifications/tools/list_changed"}')
    wrong = Outcome("ok", 0, "ToolListChangedNotification", "x", b"\x00{}")
    plain = Mutant(case, "s", (Op("drop_member", "ErrorData:code"),))
    listed = Mutant(case, "s", (Op("enum_map_form", "notifications/message:params.level"),))
    findings = judge([(plain, wrong), (listed, wrong)], TWINS)
    assert [f.mutant for f in findings] == [plain, listed]
    known = (Known("a class", "enum_map_form", r"^notifications/message:params\.level$"),)
    assert [f.mutant for f in findings if classify(f, known) is None] == [plain]
    combos = {f"{name}/{kind}" for name, m in TWINS if m is not None for kind in PAYLOAD_TYPES}
    assert set(findings[0].problems) == combos


# ------------------------------------------------------------------- golden mutants


def test_mutation_vectors() -> None:
    """Both implementations, for each payload type, do what rmcp did with each golden
    mutant (or the disagreement is of a class in KNOWN)."""
    pairs = list(read_mutation_vectors(MUTATION_VECTORS))
    assert len(pairs) >= 300, len(pairs)
    counts = Counter(op.operator for m, _ in pairs for op in m.ops)
    assert set(counts) == set(OPERATORS), set(OPERATORS) - set(counts)
    findings = judge(pairs, TWINS)
    problems = unlisted(findings)
    assert not problems, failure(problems, len(pairs))


def test_known_classes_still_disagree() -> None:
    """Every KNOWN class still disagrees on some golden mutant: an entry whose class
    agrees everywhere is fixed, and must go (so that a regression fails again)."""
    pairs = list(read_mutation_vectors(MUTATION_VECTORS))
    findings = judge(pairs, TWINS)
    seen = Counter(classify(f, KNOWN) for f in findings)
    stale = [k.name for k in KNOWN if not seen[k.name]]
    assert not stale, f"fixed, delete from KNOWN: {stale}"


# ---------------------------------------------------------------------- live oracle


@pytest.mark.heavy
@needs_oracle
def test_extra_seeds_are_accepted() -> None:
    """rmcp accepts every frame of tests/data/mutation-seeds, as its README says."""
    pool = [s for s in seeds() if s.id.startswith("extra/")]
    assert len(pool) >= 10
    cases = [Case(s.id, s.channel, bytes([s.tag]) + render(s.tree).encode()) for s in pool]
    refused = [c.id for c, v in zip(cases, run_oracle(cases), strict=True) if v.verdict != "ok"]
    assert not refused


@pytest.mark.heavy
@needs_oracle
def test_live_mutations(tmp_path: Path) -> None:
    start = time.perf_counter()
    batch = mutants(CASES, SEED)
    assert len(batch) == CASES, f"{len(batch)} distinct mutants of {CASES}"
    built = time.perf_counter()
    verdicts = run_oracle([m.case for m in batch])
    judged_at = time.perf_counter()
    findings = judge(list(zip(batch, verdicts, strict=True)), TWINS)
    done = time.perf_counter()
    applied = Counter(op.operator for m in batch for op in m.ops)
    disagreeing = Counter(op.operator for f in findings for op in f.mutant.ops)
    classes = Counter(classify(f, KNOWN) or "UNLISTED" for f in findings)
    summary = (
        f"{len(batch)} mutants (seed {SEED}) x {sum(m is not None for _, m in TWINS)} "
        f"implementations x 3 payload types; rmcp accepted "
        f"{sum(v.verdict == 'ok' for v in verdicts)}; {len(findings)} disagree: "
        + ", ".join(f"{name} {n}" for name, n in classes.most_common())
        + f"; build {built - start:.1f}s, oracle {judged_at - built:.1f}s,"
        f" compare {done - judged_at:.1f}s\nper operator (mutants / disagreeing): "
        + ", ".join(f"{name} {applied[name]}/{disagreeing[name]}" for name in OPERATORS)
    )
    print(summary)
    problems = unlisted(findings)
    if problems:
        out = tmp_path / "rmcp-mutation-disagreements.jsonl"
        write_vectors(
            out,
            ((f.mutant.case, f.rmcp) for f in problems),
            {f.mutant.case.id: mutation_fields(f.mutant) for f in problems},
        )
        small = minimize(problems[:10], TWINS, run_oracle)
        pytest.fail(
            summary + f"\nall of them, as vectors: {out}\n" + failure(problems, len(batch), small)
        )
