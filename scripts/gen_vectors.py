"""Write the golden vectors: what rmcp 3.1.4 makes of each case, from the Rust oracle.

    cargo build --release --manifest-path interop/rmcp-oracle/Cargo.toml
    python scripts/gen_vectors.py            # rewrites tests/vectors/*.jsonl
    python scripts/gen_vectors.py --only mutations.jsonl   # one file, the others kept

Five files, one JSON object per line (format: tests/vectors/README.md):

* ``corpus.jsonl``: every line of ``tests/data/corpus`` and every edge case file;
* ``hostile.jsonl``: the hand-written hostile cases of ``tests/interop/rmcp_cases.py``;
* ``generated.jsonl``: ``--generated`` (default 2000) cases from the hypothesis
  strategies of ``tests/interop/rmcp_cases.py``, seed ``--seed`` (default 20260728),
  duplicates dropped;
* ``model.jsonl``: ``MODEL_VECTOR_CASES`` of ``tests/interop/rmcp_model_cases.py``
  (every unit enum in every form at every position, the tags, ``inputRequests``);
* ``mutations.jsonl``: about ``--mutations`` (default 400) mutants of the payloads above
  (``tests/interop/rmcp_mutations.py``), chosen among ``--mutation-pool`` (default 5000,
  seed ``--mutation-seed``, default 20260728) and one enum-map-form mutant of every
  accepted seed, to spread over every operator, verdict and variant, plus a few of each
  class of ``KNOWN`` disagreements of ``tests/interop/test_mutations.py``, made small.

The plain test run (``tests/interop/test_vectors.py``) checks both implementations
against these files with no Rust toolchain. Regenerate them when the cases change or
the oracle moves to another rmcp version.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "interop"))

from rmcp_diff import (  # noqa: E402
    ORACLE,
    VECTORS,
    Case,
    Outcome,
    corpus_cases,
    oracle_available,
    run_oracle,
    write_vectors,
)


def generated_cases(count: int, seed: int) -> list[Case]:
    """``count`` distinct cases drawn from :func:`rmcp_cases.cases` with a fixed seed."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed
    from rmcp_cases import cases

    drawn: dict[tuple[str, bytes], Case] = {}

    @hypothesis_seed(seed)
    @settings(
        max_examples=count * 2,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(cases())
    def collect(case: Case) -> None:
        if len(drawn) < count:
            drawn.setdefault((case.channel, case.payload), case)

    collect()
    return [
        Case(f"generated/{index}", case.channel, case.payload)
        for index, case in enumerate(drawn.values())
    ]


def mutation_vectors(
    limit: int, pool: int, seed: int
) -> tuple[list[tuple[Case, Outcome]], dict[str, dict[str, Any]]]:
    """The mutation vectors (seeds: the vector files as they are now) and their extra
    members (seed, operations)."""
    from rmcp_mutations import (
        classify,
        directed,
        judge,
        minimize,
        mutants,
        mutation_fields,
        representative,
    )
    from test_mutations import KNOWN, TWINS

    batch = mutants(pool, seed)
    # Every accepted seed's enum members in serde's map form too: a class the random
    # pool may miss when few seeds carry the member (a task status, a cache scope).
    known = {(m.case.channel, m.case.payload) for m in batch}
    batch += [
        m
        for m in directed("enum_map_form", 1, seed)
        if (m.case.channel, m.case.payload) not in known
    ]
    pairs = list(zip(batch, run_oracle([m.case for m in batch]), strict=True))
    chosen = representative(pairs, limit)
    per_class: dict[str, list] = {}
    for finding in judge(pairs, TWINS):
        per_class.setdefault(classify(finding, KNOWN) or "unlisted", []).append(finding)
    for findings in per_class.values():
        for small in minimize(findings[:KNOWN_PER_CLASS], TWINS, run_oracle):
            mutant = small.mutant
            case = Case(f"{mutant.case.id}/small", mutant.case.channel, mutant.case.payload)
            chosen.append((replace(mutant, case=case), small.rmcp))
    return (
        [(m.case, rmcp) for m, rmcp in chosen],
        {m.case.id: mutation_fields(m) for m, _ in chosen},
    )


#: The files written, in this order.
FILES = ("corpus.jsonl", "hostile.jsonl", "generated.jsonl", "model.jsonl", "mutations.jsonl")
#: Minimized disagreements kept per known class in ``mutations.jsonl``.
KNOWN_PER_CLASS = 4


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generated", type=int, default=2000, help="generated cases to keep")
    parser.add_argument("--seed", type=int, default=20260728, help="hypothesis seed")
    parser.add_argument("--mutations", type=int, default=400, help="mutants to keep")
    parser.add_argument("--mutation-pool", type=int, default=5000, help="mutants to choose from")
    parser.add_argument("--mutation-seed", type=int, default=20260728, help="mutation seed")
    parser.add_argument(
        "--only",
        action="append",
        choices=FILES,
        help="write only this file (repeatable); the others are left as they are",
    )
    args = parser.parse_args(argv)
    only = set(args.only or FILES)
    if not oracle_available():
        print(f"rmcp-oracle not found at {ORACLE}; build it first:", file=sys.stderr)
        print(
            "  cargo build --release --manifest-path interop/rmcp-oracle/Cargo.toml",
            file=sys.stderr,
        )
        return 2
    from rmcp_cases import HOSTILE
    from rmcp_model_cases import MODEL_VECTOR_CASES

    VECTORS.mkdir(parents=True, exist_ok=True)
    sets = {
        "corpus.jsonl": lambda: list(corpus_cases()),
        "hostile.jsonl": lambda: HOSTILE,
        "generated.jsonl": lambda: generated_cases(args.generated, args.seed),
        "model.jsonl": lambda: MODEL_VECTOR_CASES,
    }
    for name, make in sets.items():
        if name in only:
            cases = make()
            report(name, write_vectors(VECTORS / name, zip(cases, run_oracle(cases), strict=True)))
    if "mutations.jsonl" in only:  # last: its seeds are the files above
        pairs, extras = mutation_vectors(args.mutations, args.mutation_pool, args.mutation_seed)
        report("mutations.jsonl", write_vectors(VECTORS / "mutations.jsonl", pairs, extras))
    return 0


def report(name: str, count: int) -> None:
    size = (VECTORS / name).stat().st_size
    print(f"{name}: {count} vectors, {size / 1e6:.2f} MB")


if __name__ == "__main__":
    raise SystemExit(main())
