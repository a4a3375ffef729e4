"""Report the mutation fuzzer's disagreements with rmcp, by class, made small (Markdown).

    cargo build --release --manifest-path interop/rmcp-oracle/Cargo.toml
    python scripts/mutation_findings.py --cases 20000 > findings.md

Runs ``--cases`` mutants (seed ``--seed``) of ``tests/interop/rmcp_mutations.py``, and
one enum-map-form mutant of every accepted seed, through the oracle and both
implementations (``bytes``, ``bytearray``, ``memoryview``), groups the disagreements by
the class of ``KNOWN`` in ``tests/interop/test_mutations.py`` they fall in (else by
their first operator and where it acted), makes ``--per-class`` of each as small as it
can, and prints, for each class, the smallest payload with rmcp's outcome and ours.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "interop"))

from rmcp_diff import ORACLE, PAYLOAD_TYPES, Outcome, oracle_available, run_oracle  # noqa: E402
from rmcp_mutations import Finding, classify, directed, judge, minimize, mutants  # noqa: E402
from test_mutations import KNOWN, TWINS  # noqa: E402


def class_of(finding: Finding) -> str:
    """The KNOWN class, or ``unlisted: <operator> at <kind>:<path>``."""
    name = classify(finding, KNOWN)
    if name is not None:
        return name
    op = finding.mutant.ops[0]
    return f"UNLISTED: {op.operator} at {op.where}"


def shown(outcome: Outcome) -> str:
    """An outcome as one Markdown table cell."""
    if outcome.verdict != "ok":
        text = f"{outcome.verdict}" + (f": {outcome.error}" if outcome.error else "")
    else:
        body = (outcome.reencoded or b"")[1:].decode("utf-8", "backslashreplace")
        text = f"{outcome.variant}, writes `{body}`"
    return text.replace("|", "\\|").replace("\n", " ")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=20000, help="random mutants")
    parser.add_argument("--seed", type=int, default=1, help="mutation seed")
    parser.add_argument("--per-class", type=int, default=3, help="findings made small per class")
    args = parser.parse_args(argv)
    if not oracle_available():
        print(f"rmcp-oracle not found at {ORACLE}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    batch = mutants(args.cases, args.seed)
    seen = {(m.case.channel, m.case.payload) for m in batch}
    batch += [
        m
        for m in directed("enum_map_form", 1, args.seed)
        if (m.case.channel, m.case.payload) not in seen
    ]
    findings = judge(list(zip(batch, run_oracle([m.case for m in batch]), strict=True)), TWINS)
    classes: dict[str, list[Finding]] = {}
    for finding in findings:
        classes.setdefault(class_of(finding), []).append(finding)
    print(
        f"{len(batch)} mutants ({args.cases} random, seed {args.seed}, and "
        f"{len(batch) - args.cases} enum-map-form ones), {len(findings)} disagree, "
        f"{len(classes)} classes ({time.perf_counter() - start:.0f} s).\n"
    )
    for name, members in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        small = min(
            minimize(members[: args.per_class], TWINS, run_oracle),
            key=lambda f: len(f.mutant.case.payload),
        )
        operators = Counter(op.operator for f in members for op in f.mutant.ops)
        body = small.mutant.case.payload
        print(f"### {name}\n")
        print(
            f"{len(members)} mutants; their operators: "
            + ", ".join(f"{op} {n}" for op, n in operators.most_common())
            + f".\n\nSmallest (from `{small.mutant.case.id}`, seed `{small.mutant.seed}`, "
            f"{'; '.join(map(str, small.mutant.ops))}), channel `{small.mutant.case.channel}`, "
            f"tag {body[0]}:\n\n```\n{body[1:].decode('utf-8', 'backslashreplace')}\n```\n"
        )
        rows: dict[str, list[str]] = {shown(small.rmcp): ["rmcp 3.1.4"]}
        for name, module in TWINS:
            for payload_type in PAYLOAD_TYPES:
                key = f"{name}/{payload_type}"
                if module is not None:
                    outcome = small.ours.get(key, small.rmcp)
                    rows.setdefault(shown(outcome), []).append(key)
        print("| who | outcome |\n| --- | --- |")
        for text, who in rows.items():
            print(f"| {', '.join(who)} | {text} |")
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
