#!/usr/bin/env python3
"""CI speed guard: the compiled path must stay faster than pure Python and close to
msgspec alone on small frames, and write long strings at orjson's speed. Ratios measured
in one run, never absolute times.

Runs the small synthetic frames (at most 1 KiB) of the benchmark matrix
(:mod:`benchmarks.matrix`, the same as ``python -m benchmarks.matrix``) for the
compiled path, the pure-Python path and msgspec alone (msgspec with our own types, the
matrix's ``msgspec (ours)``, which the limits below are taken against; the minimal
Struct of each shape, the matrix's floor, is reported beside it), interleaved in one
process on the thread's CPU time: every round times each once per frame and
operation, and each ratio is the median over rounds of the ratio within a round. Then
the long strings of the matrix's text and fresh sections (:func:`long_strings`): text
results of plain ASCII, escaped markdown and mixed UTF-8 and a blob result, 10 KB,
100 KB and 1 MB, encoded by the compiled path and by ``orjson.dumps``, on a reused
value and on one fresh from decode (orjson's fresh from ``orjson.loads``), every
frame in every round. Time the machine gives to other processes is not counted, and
what load does to the caches moves both sides of a ratio alike. Takes well under 60 s.

Fails (exit 1) when, for decode or encode:

* on any small frame the compiled path is not faster than the pure-Python path
  (median of python/compiled <= 1.0);
* over the small frames the compiled decode costs more than ``--max-floor`` (1.5) times
  msgspec alone (geometric mean of the per-frame ratios), or on any one frame more than
  ``--max-floor-case`` (2.0) times; the compiled encode more than
  ``--max-encode-floor`` (1.3) or ``--max-encode-floor-case`` (1.5) times;
* a value built with ints in its f64 members (``ProgressNotification(params=
  ProgressNotificationParam(progress=1, total=4, ...))``) costs the compiled encode more
  than ``--max-built`` (1.5) times the same value built with floats (median over the
  rounds of the ratio within a round, :func:`built_values`);
* a long string's encode, reused or fresh from decode, is slower than 85%
  (:data:`LONG_STRING_ENFORCED`) of the aim :data:`LONG_STRING_SPEED` says against
  ``orjson.dumps`` of the same JSON (our speed over orjson's, the median over rounds of
  orjson's time / ours). The aims: 0.75 for ASCII and mixed UTF-8 text and 0.9 for
  escaped markdown and blobs at 100 KB and 1 MB, 1 / 1.5 (within 1.5x orjson's time)
  for all four at 10 KB; a cell under its aim but over 85% of it is printed as such. Without orjson
  installed these checks fail (``--no-long-strings`` leaves them out). A long string that
  misses is measured twice more and judged on the median of the three.

The compiled extension missing is a failure too. ``--advisory-mean`` reports the
geometric-mean check without failing on it (the per-frame check still fails the run).

Each run writes its results and verdict to ``benchmarks/results/<UTC time>-guard.json``
(``--results-dir`` to change, ``--no-save`` to skip).

``.ci/run`` runs the guard once more after a failure: a real regression fails twice.

Usage: ``python scripts/bench_guard.py [--rounds N] [--long-rounds N] [--max-floor X]
[--max-floor-case X] [--max-encode-floor X] [--max-encode-floor-case X] [--max-built X]
[--advisory-mean] [--no-long-strings]``
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The benchmark matrix is in the repository (benchmarks/), not in the installed package.
sys.path.insert(0, str(ROOT))

from benchmarks import matrix, peers  # noqa: E402
from benchmarks.cases import TEXT_KINDS  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"

#: The long strings' sizes the guard encodes (the text section's labels).
LONG_STRING_SIZES = ("10KB", "100KB", "1MB")
#: The least speed of the compiled encode over ``orjson.dumps``'s, by size and kind.
LONG_STRING_SPEED = {
    "10KB": dict.fromkeys(TEXT_KINDS, 1 / 1.5),
    **{
        size: {"ascii": 0.75, "utf8": 0.75, "markdown": 0.9, "blob": 0.9}
        for size in ("100KB", "1MB")
    },
}


def checks(
    result: dict[str, Any],
    max_floor: float,
    max_floor_case: float,
    max_encode_floor: float | None = None,
    max_encode_floor_case: float | None = None,
) -> list[dict[str, Any]]:
    """The guard's checks on a :func:`benchmarks.matrix.run` result: each
    ``{"check", "op", "value", "limit", "ok", "detail"}``. Decode's limits over msgspec
    alone are ``max_floor`` and ``max_floor_case``; encode's ``max_encode_floor`` and
    ``max_encode_floor_case`` (decode's when None)."""
    out: list[dict[str, Any]] = []
    limits = {
        "decode": (max_floor, max_floor_case),
        "encode": (
            max_floor if max_encode_floor is None else max_encode_floor,
            max_floor_case if max_encode_floor_case is None else max_encode_floor_case,
        ),
    }
    for op, (max_floor, max_floor_case) in limits.items():
        rows = [r for r in result["rows"] if r["op"] == op]
        faster = {r["case"]: r["over_reference"]["python"] for r in rows}
        floor = {r["case"]: r["to_ours_floor"]["compiled"] for r in rows}
        slowest = min(faster, key=faster.__getitem__)
        out.append(
            {
                "check": "compiled faster than pure Python on every small frame "
                "(python/compiled > 1)",
                "op": op,
                "value": faster[slowest],
                "worst_case": slowest,
                "limit": 1.0,
                "ok": faster[slowest] > 1.0,
                "detail": faster,
            }
        )
        gmean = math.exp(sum(math.log(v) for v in floor.values()) / len(floor))
        out.append(
            {
                "check": f"compiled/msgspec-alone (our types) over the small frames"
                f" (geometric mean) <= {max_floor}",
                "op": op,
                "value": gmean,
                "worst_case": None,
                "limit": max_floor,
                "ok": gmean <= max_floor,
                "detail": floor,
            }
        )
        worst = max(floor, key=floor.__getitem__)
        out.append(
            {
                "check": f"compiled/msgspec-alone (our types) on every small frame"
                f" <= {max_floor_case}",
                "op": op,
                "value": floor[worst],
                "worst_case": worst,
                "limit": max_floor_case,
                "ok": floor[worst] <= max_floor_case,
                "detail": floor,
            }
        )
    return out


def long_strings(rounds: int, names: list[str] | None = None) -> dict[str, Any]:
    """The compiled encode and ``orjson.dumps`` of the long strings of
    :data:`LONG_STRING_SIZES` (text section and fresh section; or of ``names`` alone),
    ``rounds`` interleaved rounds, every frame in every round: a
    :func:`benchmarks.matrix.run` result.

    Measured in a process of its own (:func:`_long_strings_here`), started for the
    purpose: at 1 MB what a frame costs depends on the allocator's state, which the
    small frames measured before leave behind (glibc may then hand a 1 MB buffer back to
    the system at every free and fault it in again: 0.27-0.36 of orjson's speed for a
    1 MB string fresh from decode in such a process, 0.8-1.3 in a fresh one)."""
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import bench_guard as g; "
        "print(json.dumps(g._long_strings_here(int(sys.argv[2]), sys.argv[3:] or None)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(ROOT / "scripts"), str(rounds), *(names or [])],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return json.loads(out.splitlines()[-1])  # type: ignore[no-any-return]


def _long_strings_here(rounds: int, names: list[str] | None = None) -> dict[str, Any]:
    """:func:`long_strings` measured in this process."""
    names = names or [
        f"text_{kind}_{size}{fresh}"
        for kind in TEXT_KINDS
        for size in LONG_STRING_SIZES
        for fresh in ("", "_fresh")
    ]
    return matrix.run(
        rounds=rounds,
        sections=["text", "fresh"],
        only={"compiled", "orjson"},
        names=names,
        with_rmcp=False,
        log=None,
        heavy_stride=1,
    )


def long_string_checks(result: dict[str, Any]) -> list[dict[str, Any]]:
    """One check per long string of a :func:`long_strings` result: the compiled
    encode's speed over ``orjson.dumps``'s at least :data:`LONG_STRING_SPEED`'s."""
    out = []
    for row in result["rows"]:
        if row["op"] != "encode":
            continue
        _, kind, size, *fresh = row["case"].split("_")
        aim = LONG_STRING_SPEED[size][kind]
        least = aim * LONG_STRING_ENFORCED
        speed = row["over_reference"].get("orjson", 0.0)
        which = "fresh from decode" if fresh else "reused"
        out.append(
            {
                "check": f"compiled encode speed / orjson.dumps's, {kind} {size} {which}"
                f" >= {least:.3f} (aim {aim:.3f})",
                "op": "encode",
                "value": speed,
                "worst_case": row["case"],
                "limit": least,
                "aim": aim,
                "ok": speed >= least,
                "detail": {"ns": row["ns"], "samples": row["samples"]},
            }
        )
    return out


#: The share of :data:`LONG_STRING_SPEED` (the aims) that fails the guard: the cells sit
#: at their aims (a 1 MB blob fresh from decode at 0.86-0.93 of orjson's speed, where the
#: aim is 0.9), so the aims are reported and a fall below 85% of one is a regression.
LONG_STRING_ENFORCED = 0.85
#: How often a long string that missed its limit is measured again: at 1 MB the ratio
#: moves by up to a fifth from one process to the next on a shared machine (where the
#: allocator takes the output's pages from), so a cell is judged on the median of three.
LONG_STRING_REMEASURES = 2


def remeasured(checks: list[dict[str, Any]], rounds: int) -> list[dict[str, Any]]:
    """``checks`` with each failed long string measured :data:`LONG_STRING_REMEASURES`
    times more and judged on the median of its speeds (``detail["speeds"]``)."""
    failed = [c["worst_case"] for c in checks if not c["ok"]]
    if not failed:
        return checks
    speeds: dict[str, list[float]] = {name: [] for name in failed}
    for _ in range(LONG_STRING_REMEASURES):
        for again in long_string_checks(long_strings(rounds, failed)):
            speeds[again["worst_case"]].append(again["value"])
    for c in checks:
        if c["worst_case"] in speeds:
            measured = sorted([c["value"], *speeds[c["worst_case"]]])
            c["detail"]["speeds"] = measured
            c["value"] = measured[len(measured) // 2]
            c["ok"] = c["value"] >= c["limit"]
    return checks


def built_values(rounds: int, calls: int = 2000) -> dict[str, Any]:
    """The compiled encode of a progress notification built with ints in its f64 members
    (``progress=1, total=4``) over the same built with floats: each round times a loop
    of ``calls`` encodes of each, interleaved, on the thread's CPU time; the median of
    the rounds' ratios. Both must write the same bytes (``1.0``, as rmcp writes it)."""
    from diverge_frames import _frames_c
    from diverge_frames import types as t

    def built(progress: Any, total: Any) -> t.ProgressNotification:
        params = t.ProgressNotificationParam(progress=progress, total=total, progress_token="t")
        return t.ProgressNotification(params=params)

    encode = _frames_c.encode_notification
    ints, floats = built(1, 4), built(1.0, 4.0)
    if encode(ints) != encode(floats):
        raise AssertionError(f"built with ints: {encode(ints)!r} != {encode(floats)!r}")
    timer = time.thread_time_ns

    def loop(value: Any) -> int:
        start = timer()
        for _ in range(calls):
            encode(value)
        return timer() - start

    ratios, ns = [], []
    for _ in range(rounds):
        with_ints, with_floats = loop(ints), loop(floats)
        ratios.append(with_ints / with_floats)
        ns.append((with_ints / calls, with_floats / calls))
    return {
        "ratio": statistics.median(ratios),
        "ints_ns": statistics.median(i for i, _ in ns),
        "floats_ns": statistics.median(f for _, f in ns),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=41, help="interleaved rounds (41)")
    parser.add_argument(
        "--long-rounds",
        type=int,
        default=15,
        help="interleaved rounds of the long strings' encode (15)",
    )
    parser.add_argument(
        "--no-long-strings",
        action="store_true",
        help="leave out the long strings' encode against orjson.dumps",
    )
    parser.add_argument(
        "--max-floor",
        type=float,
        default=1.5,
        help="limit on the geometric mean of compiled/msgspec (1.5)",
    )
    parser.add_argument(
        "--max-floor-case",
        type=float,
        default=2.0,
        help="limit on compiled/msgspec for any one frame (2.0)",
    )
    parser.add_argument(
        "--max-encode-floor",
        type=float,
        default=1.3,
        help="limit on the geometric mean of compiled/msgspec for encode (1.3)",
    )
    parser.add_argument(
        "--max-encode-floor-case",
        type=float,
        default=1.5,
        help="limit on compiled/msgspec for encode on any one frame (1.5)",
    )
    parser.add_argument(
        "--max-built",
        type=float,
        default=1.5,
        help="limit on encoding a value built with ints in f64 members over one built"
        " with floats (1.5)",
    )
    parser.add_argument(
        "--results-dir",
        type=Path,
        default=RESULTS,
        help="where to write the JSON (benchmarks/results)",
    )
    parser.add_argument("--no-save", action="store_true", help="do not write the JSON")
    parser.add_argument(
        "--advisory-mean",
        action="store_true",
        help="report the geometric-mean msgspec-alone check without failing on it (the "
        "per-frame and compiled-vs-Python checks and a missing extension still fail)",
    )
    args = parser.parse_args(argv)

    if not peers.HAS_COMPILED:
        print(
            "bench_guard: FAIL: the compiled extension diverge_frames._frames_c is not built",
            file=sys.stderr,
        )
        return 1
    result = matrix.run(
        rounds=args.rounds,
        sections=["synthetic"],
        only={"compiled", "python"},
        max_frame=matrix.SMALL_LIMIT,
        with_rmcp=False,
        log=None,
    )
    result["guard"] = checks(
        result,
        args.max_floor,
        args.max_floor_case,
        args.max_encode_floor,
        args.max_encode_floor_case,
    )
    built = built_values(args.rounds)
    result["built_values"] = built
    result["guard"].append(
        {
            "check": f"compiled encode of a value built with ints in f64 members / built"
            f" with floats <= {args.max_built}",
            "op": "encode",
            "value": built["ratio"],
            "worst_case": None,
            "limit": args.max_built,
            "ok": built["ratio"] <= args.max_built,
            "detail": built,
        }
    )
    if not args.no_long_strings:
        if peers.orjson() is None:
            print("bench_guard: FAIL: orjson is not installed (--no-long-strings)", file=sys.stderr)
            return 1
        long = long_strings(args.long_rounds)
        result["long_strings"] = {
            "config": long["config"],
            "rows": [r for r in long["rows"] if r["op"] == "encode"],
        }
        result["guard"] += remeasured(long_string_checks(long), args.long_rounds)
    for c in result["guard"]:
        c["enforced"] = not (args.advisory_mean and "geometric mean" in c["check"])
    ok = all(c["ok"] for c in result["guard"] if c["enforced"])
    result["guard_ok"] = ok

    print(
        f"bench_guard: {len(result['rows']) // 2} small frames, {args.rounds} interleaved"
        f" rounds, {result['config']['clock']}, {result['config']['elapsed_s']} s, load"
        f" average {result['machine']['loadavg_before']}"
    )
    for row in result["rows"]:
        print(
            f"  {row['case']:>15} {row['op']}: compiled/msgspec (our types) "
            f"{row['to_ours_floor']['compiled']:.2f}x, compiled/minimal Struct "
            f"{row['to_floor']['compiled']:.2f}x, python/compiled "
            f"{row['over_reference']['python']:.2f}x"
        )
    for c in result["guard"]:
        where = f" ({c['worst_case']})" if c["worst_case"] else ""
        verdict = "ok" if c["ok"] else "FAIL" if c["enforced"] else "missed, advisory"
        if c["ok"] and c["value"] < c.get("aim", 0.0):
            verdict = "ok, under its aim"
        print(f"  [{verdict}] {c['op']}: {c['check']}: {c['value']:.3f}{where}")
    if not args.no_save:
        print(f"bench_guard: results in {matrix.save(result, str(args.results_dir), 'guard')}")
    print(f"bench_guard: {'ok' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
