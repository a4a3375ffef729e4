"""Write the golden vectors: what rmcp 3.1.4 makes of each case, from the Rust oracle.

    cargo build --release --manifest-path interop/rmcp-oracle/Cargo.toml
    python scripts/gen_vectors.py            # rewrites tests/vectors/*.jsonl

Three files, one JSON object per line (format: tests/vectors/README.md):

* ``corpus.jsonl``: every line of ``tests/data/corpus`` and every edge case file;
* ``hostile.jsonl``: the hand-written hostile cases of ``tests/interop/rmcp_cases.py``;
* ``generated.jsonl``: ``--generated`` (default 2000) cases from the hypothesis
  strategies of ``tests/interop/rmcp_cases.py``, seed ``--seed`` (default 20260728),
  duplicates dropped.

The plain test run (``tests/interop/test_vectors.py``) checks both implementations
against these files with no Rust toolchain. Regenerate them when the cases change or
the oracle moves to another rmcp version.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "interop"))

from rmcp_diff import (  # noqa: E402
    ORACLE,
    VECTORS,
    Case,
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generated", type=int, default=2000, help="generated cases to keep")
    parser.add_argument("--seed", type=int, default=20260728, help="hypothesis seed")
    args = parser.parse_args(argv)
    if not oracle_available():
        print(f"rmcp-oracle not found at {ORACLE}; build it first:", file=sys.stderr)
        print(
            "  cargo build --release --manifest-path interop/rmcp-oracle/Cargo.toml",
            file=sys.stderr,
        )
        return 2
    from rmcp_cases import HOSTILE

    VECTORS.mkdir(parents=True, exist_ok=True)
    sets = {
        "corpus.jsonl": list(corpus_cases()),
        "hostile.jsonl": HOSTILE,
        "generated.jsonl": generated_cases(args.generated, args.seed),
    }
    for name, cases in sets.items():
        count = write_vectors(VECTORS / name, zip(cases, run_oracle(cases), strict=True))
        size = (VECTORS / name).stat().st_size
        print(f"{name}: {count} vectors, {size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
