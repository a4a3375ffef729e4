"""The matrix's results as text: a header, one Markdown table per section, a summary
of geometric means, and the memory check (:func:`text_report`); and the README's table
(:func:`readme_table`).

``python -m benchmarks.report RESULT.json [--readme]`` prints either from the JSON of
one run of ``python -m benchmarks.matrix --json``, so that every figure of README.md and
docs/performance.md comes from the same run."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from typing import Any

from . import relay
from .cases import SMALL_LIMIT
from .memory import memory_lines
from .peers import BASELINES, FLOOR, OURS_FLOOR, PEERS, REFERENCE
from .timing import median

__all__ = [
    "SECTIONS",
    "COLUMNS",
    "README_ROWS",
    "table",
    "summary_lines",
    "readme_table",
    "text_report",
    "main",
]

#: The sections of the output, in order (``relay`` is the relay loop).
SECTIONS = ("synthetic", "real", "text", "fresh", "built", "relay")
#: Columns of the decode/encode tables.
COLUMNS = (*PEERS, "rmcp", "rmcp variant", *BASELINES)


def _fmt_ns(ns: float | None) -> str:
    if ns is None:
        return "-"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e4:
        return f"{ns / 1e3:.1f} us"
    return f"{ns:.0f} ns"


def _fmt_x(ratio: float | None) -> str:
    if ratio is None:
        return "-"
    return f"{ratio:.1f}x" if ratio >= 10 else f"{ratio:.2f}x"


def table(result: dict[str, Any], section: str) -> str:
    """One section's rows as a Markdown table (``""`` when it has none)."""
    rows = [r for r in result["rows"] if r["section"] == section]
    if not rows:
        return ""
    if section == "relay":
        return "\n\n".join(_relay_table(r) for r in rows)
    present = [i for i in COLUMNS if any(i in r["ns"] for r in rows)]
    others = [i for i in present if i not in (REFERENCE, FLOOR, OURS_FLOOR)]
    throughput = section in ("text", "fresh")
    head = ["case", "op", "frame B", *present]
    head += ["compiled GB/s"] if throughput else []
    head += ["compiled faults/call"] if section == "fresh" else []
    head += [f"{REFERENCE} / {FLOOR}", f"{REFERENCE} / {OURS_FLOOR}"]
    head += [f"{i} / {REFERENCE}" for i in others]
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]
    for r in rows:
        name = r["case"] if r["frames"] == 1 else f"{r['case']} ({r['frames']} frames)"
        cells = [name, r["op"], str(r["frame_bytes"])]
        cells += [_fmt_ns(r["ns"].get(i)) for i in present]
        if throughput:
            ns = r["ns"].get(REFERENCE)
            cells.append(f"{r['frame_bytes'] / ns:.2f}" if ns else "-")
        if section == "fresh":
            cells.append(f"{r['faults'].get(REFERENCE, 0):.0f}")
        cells.append(_fmt_x(r["to_floor"].get(REFERENCE)))
        cells.append(_fmt_x(r.get("to_ours_floor", {}).get(REFERENCE)))
        cells += [_fmt_x(r["over_reference"].get(i)) for i in others]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _relay_table(row: dict[str, Any]) -> str:
    title = row.get("title", "real frames")
    lines = [
        (
            f"| {row['case']}: {title} ({row['frames']} frames, {row['frame_bytes']} B on "
            f"average) | ns per frame | frames/s | / {row['reference']} |"
        ),
        "|---|---:|---:|---:|",
    ]
    for impl in relay.IMPLEMENTATIONS:
        if impl in row["ns"]:
            ns = row["ns"][impl]
            lines.append(
                f"| {impl} | {_fmt_ns(ns)} | {1e9 / ns:,.0f} | "
                f"{_fmt_x(row['over_reference'][impl])} |"
            )
    return "\n".join(lines)


def _gmean(values: Sequence[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _long_text_lines(result: dict[str, Any]) -> list[str]:
    """Compiled's encode speed as a fraction of ``orjson.dumps``'s, per long string of
    10 KB to 1 MB (a reused value and one fresh from decode), and the built values."""
    out = []
    for fresh in (False, True):
        rows = [
            r
            for r in result["rows"]
            if r["op"] == "encode"
            and r["section"] == ("fresh" if fresh else "text")
            and r["case"].removesuffix("_fresh").endswith(("_10KB", "_100KB", "_1MB"))
            and r["case"].startswith("text_")
            and "orjson" in r["over_reference"]
        ]
        if rows:
            parts = ", ".join(
                f"{r['case'].removeprefix('text_').removesuffix('_fresh')} "
                f"{r['over_reference']['orjson']:.2f}"
                for r in rows
            )
            which = "fresh from decode" if fresh else "reused"
            out.append(f"- encode of long strings, {which}, speed / orjson.dumps's: {parts}")
    built = {r["case"]: r for r in result["rows"] if r["section"] == "built"}
    ints, floats = built.get("built_progress_ints"), built.get("built_progress_floats")
    if ints and floats and REFERENCE in ints["ns"]:
        ratio = ints["ns"][REFERENCE] / floats["ns"][REFERENCE]
        out.append(
            f"- encode of a ProgressNotification built with ints / built with floats "
            f"({REFERENCE}, medians): {ratio:.2f}"
        )
    relay_rows = [r for r in result["rows"] if r["section"] == "relay"]
    for r in relay_rows:
        if "orjson" in r["over_reference"]:
            out.append(
                f"- {r['case']}: {relay.REFERENCE} at {r['over_reference']['orjson']:.2f}x "
                "the untyped orjson loop's speed"
            )
    return out


def summary_lines(result: dict[str, Any]) -> str:
    """Geometric means of compiled / msgspec alone and rmcp / compiled over the small
    frames (synthetic and real), per operation; the long strings' encode against
    orjson, the built values and the relay loops against orjson."""
    out = []
    small = [
        r
        for r in result["rows"]
        if r["section"] in ("synthetic", "real") and r["frame_bytes"] <= SMALL_LIMIT
    ]
    for op in ("decode", "encode"):
        rows = [r for r in small if r["op"] == op]
        for label, values in (
            (f"{REFERENCE} / {FLOOR}", [r["to_floor"].get(REFERENCE) for r in rows]),
            (
                f"{REFERENCE} / {OURS_FLOOR}",
                [r.get("to_ours_floor", {}).get(REFERENCE) for r in rows],
            ),
            (f"rmcp / {REFERENCE}", [r["over_reference"].get("rmcp") for r in rows]),
            (
                f"rmcp variant / {REFERENCE}",
                [r["over_reference"].get("rmcp variant") for r in rows],
            ),
        ):
            known = {r["case"]: v for r, v in zip(rows, values, strict=True) if v is not None}
            if known:
                worst = max(known, key=known.__getitem__)
                best = min(known, key=known.__getitem__)
                out.append(
                    f"- {op}, small frames (<= {SMALL_LIMIT} B, {len(known)} cases), {label}: "
                    f"geometric mean {_gmean(list(known.values())):.3f}, "
                    f"{known[best]:.2f} ({best}) to {known[worst]:.2f} ({worst})"
                )
    out += _long_text_lines(result)
    return "\n".join(out)


def _header(result: dict[str, Any]) -> str:
    m, c, r = result["machine"], result["config"], result["rmcp"]
    v = m["versions"]
    rmcp_line = (
        f"rmcp {r['rmcp']} / serde_json {r['serde_json']} (rmcp-bench, built in {r['build_s']} s)"
        if r.get("binary")
        else "rmcp: not run"
    )
    ratios = [
        w / cpu
        for row in result["rows"]
        for impl, cpu in row["ns"].items()
        if (w := row["wall_ns"][impl]) and cpu
    ]
    stride = c["heavy_stride"]
    heavy = "in every round" if stride == 1 else f"in one round of {stride}"
    machine = (
        f"diverge-frames {m['diverge_frames']} ({m['default_path']}): {m['cpu']}, nproc "
        f"{m['nproc']}, {m['implementation']} {m['python']}, msgspec {v['msgspec']}, mcp "
        f"{v['mcp']} (pydantic {v['pydantic']}), orjson {v['orjson']}; {rmcp_line}"
    )
    method = (
        f"{c['rounds']} interleaved rounds (frames of 1 MB or more {heavy}) of "
        f"~{c['target_ns_per_measurement'] / 1e6:g} ms measurements, {c['elapsed_s']} s; "
        f"{c['clock']} (median wall / CPU {median(ratios) if ratios else float('nan'):.3f}); "
        f"load average {m['loadavg_before']} before, {m['loadavg_after']} after"
    )
    how = (
        "times are medians over rounds, ratios medians of per-round ratios "
        f"(X / {REFERENCE} above 1: {REFERENCE} is faster)"
    )
    return "\n".join([machine, method, how])


def text_report(result: dict[str, Any]) -> str:
    """The whole result as text: header, one table per section, summary, memory."""
    parts = [_header(result)]
    for section in SECTIONS:
        t = table(result, section)
        if t:
            parts.append(f"### {section}\n\n{t}")
    s = summary_lines(result)
    if s:
        parts.append(s)
    if result.get("memory"):
        parts.append(memory_lines(result["memory"]))
    return "\n\n".join(parts)


#: The README's rows: ``(case, op, what the frame is)``.
README_ROWS = (
    ("log", "decode", "log notification"),
    ("log", "encode", "log notification"),
    ("progress", "decode", "progress"),
    ("progress", "encode", "progress"),
    ("built_progress_ints", "encode", "progress built with ints"),
    ("list_changed", "decode", "list_changed"),
    ("unknown_method", "decode", "unknown method"),
    ("text_result", "decode", "text result"),
    ("text_result", "encode", "text result"),
    ("100_contents", "decode", "100 text contents"),
    ("error_nested", "decode", "error with nested data"),
    ("error_nested", "encode", "error with nested data"),
    ("blob_1.4MB", "decode", "blob result"),
    ("blob_1.4MB", "encode", "blob result"),
    ("text_ascii_1MB", "decode", "text result, ASCII"),
    ("text_ascii_1MB", "encode", "text result, ASCII"),
    ("text_ascii_1MB_fresh", "encode", "text result, ASCII, fresh from decode"),
    ("text_markdown_1MB", "decode", "text result, markdown"),
    ("text_markdown_1MB", "encode", "text result, markdown"),
    ("text_utf8_1MB", "decode", "text result, mixed UTF-8"),
    ("text_utf8_1MB", "encode", "text result, mixed UTF-8"),
    ("text_utf8_1MB_fresh", "encode", "text result, mixed UTF-8, fresh from decode"),
    ("text_blob_1MB", "encode", "blob result"),
)
_README_COLUMNS = (
    ("compiled", "compiled"),
    ("python", "pure Python"),
    (FLOOR, "msgspec (minimal Struct)"),
    ("mcp-types", "mcp-types"),
    ("orjson", "orjson"),
    ("rmcp", "rmcp (Rust)"),
)


def _size(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1e6:.1f} MB"
    if n >= 10_000:
        return f"{n / 1e3:.1f} KB"
    return f"{n} B"


def readme_table(result: dict[str, Any]) -> str:
    """The README's table (:data:`README_ROWS`) from one run: times, compiled over the
    minimal Struct, and each peer's time over compiled's."""
    rows = {(r["case"], r["op"]): r for r in result["rows"]}
    head = ["frame", "op", *(label for _, label in _README_COLUMNS)]
    head += [f"compiled / {FLOOR}", "mcp-types / compiled", "orjson / compiled"]
    head += ["rmcp / compiled"]
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]
    for case, op, what in README_ROWS:
        r = rows.get((case, op))
        if r is None:
            continue
        cells = [f"{what}, {_size(r['frame_bytes'])}", op]
        cells += [_fmt_ns(r["ns"].get(impl)) for impl, _ in _README_COLUMNS]
        cells.append(_fmt_x(r["to_floor"].get(REFERENCE)))
        cells += [_fmt_x(r["over_reference"].get(i)) for i in ("mcp-types", "orjson", "rmcp")]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.report RESULT.json [--readme]``; returns 0, or 1 when the
    file is not a matrix result."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.report",
        description="Print the tables of one run of python -m benchmarks.matrix --json.",
    )
    parser.add_argument("result", help="the JSON of python -m benchmarks.matrix --json")
    parser.add_argument("--readme", action="store_true", help="the README's table only")
    args = parser.parse_args(argv)
    try:
        with open(args.result, encoding="utf-8") as f:
            result = json.load(f)
        text = readme_table(result) if args.readme else text_report(result)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"benchmarks.report: {args.result}: not a matrix result: {exc}", file=sys.stderr)
        return 1
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
