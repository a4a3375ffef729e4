"""Draw the benchmark charts from one run of the matrix, as SVG.

Usage (from the repository's root, a Python with matplotlib: ``docs/requirements.txt``)::

    python -m benchmarks.matrix --json > matrix.json     # or --quick
    python scripts/charts.py matrix.json [OUT]           # OUT defaults to docs/_static/charts

Writes ``decode.svg`` and ``encode.svg`` (the small frames, synthetic and real: ns per
frame of ours compiled, a minimal msgspec Struct, orjson, mcp-types and rmcp),
``text.svg`` (long text and blob results, 1 KB to 10 MB: GB/s of decode and encode
against a ``memcpy`` of the payload, and CPython's UTF-8 decoder on the string alone),
``long_encode.svg`` (the long strings' encode speed over ``orjson.dumps``'s, reused and
fresh from decode, with the speed guard's limits) and ``relay.svg`` (the relay loops:
frames per second on each set of frames), each with the run's command, commit and
machine under it. The files are the same bytes for the same run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

try:
    import matplotlib
except ImportError:  # told by main(), after --help
    matplotlib = None
else:
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, NullFormatter, NullLocator

ROOT = Path(__file__).resolve().parent.parent
#: Colour and label of each column, in drawing order.
STYLE = {
    "compiled": ("#1f6feb", "diverge-frames (compiled)"),
    "msgspec": ("#8c959f", "msgspec, a minimal Struct (the floor)"),
    "orjson": ("#bf8700", "orjson (untyped)"),
    "mcp-types": ("#cf222e", "mcp-types (pydantic)"),
    "rmcp": ("#1a7f37", "rmcp (Rust)"),
    "memcpy": ("#000000", "memcpy of the payload"),
    "utf-8 decode": ("#8250df", "CPython's UTF-8 decoder, the string alone"),
}
#: The kinds of long string, in panel order.
KINDS = ["ascii", "markdown", "utf8", "blob"]
CODECS = ["compiled", "msgspec", "orjson", "mcp-types", "rmcp"]
RELAY = {
    "channel": "NotificationChannel events",
    "receive_value": "receive_value",
    "values": "values",
    "minimal": "rules inline",
    "orjson": "orjson, untyped",
    "mcp-types": "mcp-types",
}


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown commit"
    return done.stdout.strip()


def caption(result: dict[str, Any], commit: str) -> str:
    """The command, commit and machine of the run, for under each chart."""
    m, c = result["machine"], result["config"]
    flag = {"default": "", "quick": " --quick", "smoke": " --smoke"}[c["length"]]
    versions = m["versions"]
    rmcp = result.get("rmcp") or {}
    peers = f"msgspec {versions.get('msgspec')}, orjson {versions.get('orjson')}, "
    peers += f"mcp {versions.get('mcp')} / pydantic {versions.get('pydantic')}"
    if rmcp.get("rmcp"):
        peers += f", rmcp {rmcp['rmcp']} / serde_json {rmcp.get('serde_json')}"
    load = m.get("loadavg_before")
    return (
        f"python -m benchmarks.matrix{flag} --json (commit {commit}): {c['rounds']} interleaved "
        f"rounds, medians on {c['clock']}\n"
        f"{m['cpu']}, {m['nproc']} cores (load {load[0] if load else '?'} at the start), "
        f"CPython {m['python']}\n{peers}"
    )


def _finish(fig: Any, text: str, path: Path) -> None:
    fig.text(0.01, 0.005, text, fontsize=7, color="#57606a", va="bottom", ha="left")
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)


def _small_rows(result: dict[str, Any], op: str) -> list[dict[str, Any]]:
    small = result["config"]["small_limit_bytes"]
    return [
        r
        for r in result["rows"]
        if r["section"] in ("synthetic", "real") and r["op"] == op and r["frame_bytes"] <= small
    ]


def small_frames(result: dict[str, Any], op: str, text: str, path: Path) -> None:
    """Grouped horizontal bars: ns per frame of each codec, for each small frame."""
    rows = _small_rows(result, op)
    columns = [c for c in CODECS if any(c in r["ns"] for r in rows)]
    height = 0.8 / len(columns)
    fig, ax = plt.subplots(figsize=(8, 0.13 * len(rows) * len(columns) + 1.9))
    for j, column in enumerate(columns):
        colour, label = STYLE[column]
        ys = [i + j * height for i, r in enumerate(rows) if column in r["ns"]]
        xs = [r["ns"][column] for r in rows if column in r["ns"]]
        ax.barh(ys, xs, height=height, color=colour, label=label)
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(rows))])
    ax.set_yticklabels([f"{r['case']} ({r['frame_bytes']} B)" for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.set_xlabel(f"ns per frame, {op} (log scale; shorter is faster)")
    ax.set_title(
        f"{op.capitalize()} of a small frame (at most {result['config']['small_limit_bytes']} B)"
    )
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="x", which="both", alpha=0.3)
    fig.tight_layout(rect=(0, 0.09, 1, 1))
    _finish(fig, text, path)


def long_text(result: dict[str, Any], text: str, path: Path) -> None:
    """GB/s against the text's size, one panel per kind of text and operation."""
    rows = [r for r in result["rows"] if r["section"] == "text"]
    kinds = sorted({r["case"].split("_")[1] for r in rows}, key=KINDS.index)
    fig, axes = plt.subplots(2, len(kinds), figsize=(12, 7), sharex=True)
    for col, kind in enumerate(kinds):
        for row, op in enumerate(("decode", "encode")):
            ax = axes[row][col]
            cases = sorted(
                (r for r in rows if r["op"] == op and r["case"].split("_")[1] == kind),
                key=lambda r: r["frame_bytes"],
            )
            for column in [*CODECS, "memcpy", "utf-8 decode"]:
                points = [(r["frame_bytes"], r["ns"][column]) for r in cases if column in r["ns"]]
                if not points:
                    continue
                colour, label = STYLE[column]
                style = "--" if column in ("memcpy", "utf-8 decode") else "-"
                ax.plot(
                    [b for b, _ in points],
                    [b / ns for b, ns in points],
                    style,
                    marker="o",
                    markersize=3,
                    color=colour,
                    label=label,
                )
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
            ax.yaxis.set_minor_formatter(NullFormatter())
            ax.set_xticks([r["frame_bytes"] for r in cases])
            ax.set_xticklabels([r["case"].rsplit("_", 1)[1] for r in cases])
            ax.xaxis.set_minor_locator(NullLocator())
            ax.set_title(f"{op}, {kind}" + ("" if kind == "blob" else " text"), fontsize=9)
            ax.grid(which="both", alpha=0.3)
            if col == 0:
                ax.set_ylabel("GB/s (log; higher is faster)", fontsize=8)
            if row == 1:
                ax.set_xlabel("the string's size", fontsize=8)
            ax.tick_params(labelsize=7)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.suptitle(
        "A long text or blob result: GB/s against a memcpy of the payload", y=0.99, fontsize=11
    )
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.955), ncol=3, fontsize=8)
    fig.tight_layout(rect=(0, 0.07, 1, 0.87))
    _finish(fig, text, path)


def long_encode(result: dict[str, Any], text: str, path: Path) -> None:
    """Grouped bars: compiled's encode speed over ``orjson.dumps``'s for each long string
    of 10 KB to 1 MB, reused and fresh from decode, with the speed guard's limits."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_guard import LONG_STRING_SIZES, LONG_STRING_SPEED

    def speed(case: str) -> float | None:
        row = by_case.get(case)
        return row["over_reference"].get("orjson") if row else None

    by_case = {r["case"]: r for r in result["rows"] if r["op"] == "encode"}
    labels = [f"{k} {s}" for k in KINDS for s in LONG_STRING_SIZES]
    fig, ax = plt.subplots(figsize=(10, 4.2))
    for j, (suffix, name, colour) in enumerate(
        (("", "reused value", "#1f6feb"), ("_fresh", "value fresh from decode", "#54aeff"))
    ):
        xs, ys = [], []
        for i, (k, s) in enumerate((k, s) for k in KINDS for s in LONG_STRING_SIZES):
            value = speed(f"text_{k}_{s}{suffix}")
            if value is not None:
                xs.append(i + (j - 0.5) * 0.38)
                ys.append(value)
        ax.bar(xs, ys, width=0.38, color=colour, label=name)
    for i, (k, s) in enumerate((k, s) for k in KINDS for s in LONG_STRING_SIZES):
        least = LONG_STRING_SPEED[s][k]
        ax.plot([i - 0.45, i + 0.45], [least, least], color="#cf222e", linewidth=1.2)
    ax.plot([], [], color="#cf222e", label="the speed guard's least")
    ax.axhline(1.0, color="#57606a", linewidth=0.8, linestyle=":")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=7, rotation=30, ha="right")
    ax.set_ylabel("speed / orjson.dumps's (higher is faster)", fontsize=8)
    ax.set_title("Encode of a long text or blob result against orjson.dumps", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    _finish(fig, text, path)


def relay(result: dict[str, Any], text: str, path: Path) -> None:
    """Horizontal bars: frames per second of each relay loop, one panel per set of
    frames."""
    rows = [r for r in result["rows"] if r["section"] == "relay"]
    fig, axes = plt.subplots(len(rows), 1, figsize=(8, 2.6 * len(rows) + 1.0), squeeze=False)
    for ax, row in zip((a for [a] in axes), rows, strict=True):
        loops = [loop for loop in RELAY if loop in row["ns"]]
        rates = [1e9 / row["ns"][loop] for loop in loops]
        colours = [STYLE[loop][0] if loop in STYLE else STYLE["compiled"][0] for loop in loops]
        ax.barh(range(len(loops)), rates, color=colours)
        for i, rate in enumerate(rates):
            ax.text(rate, i, f" {rate / 1e3:,.1f}k", va="center", fontsize=8)
        ax.set_yticks(range(len(loops)))
        ax.set_yticklabels([RELAY[loop] for loop in loops], fontsize=8)
        ax.invert_yaxis()
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v / 1e3:,.1f}k"))
        title = row.get("title", "real frames")
        ax.set_title(
            f"{title}: {row['frames']} frames, {row['frame_bytes']:,} B on average", fontsize=9
        )
        ax.set_xlim(0, max(rates) * 1.18)
        ax.grid(axis="x", alpha=0.3)
    axes[-1][0].set_xlabel("frames per second (longer is faster)")
    fig.suptitle("The relay loop: decode, channel rules, encode", fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    _finish(fig, text, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("result", help="the JSON of python -m benchmarks.matrix --json")
    parser.add_argument("out", nargs="?", default=str(ROOT / "docs" / "_static" / "charts"))
    parser.add_argument("--commit", help="the commit the run measured (default: HEAD)")
    args = parser.parse_args(argv)
    if matplotlib is None:
        print(
            "charts.py: matplotlib is not installed (pip install -r docs/requirements.txt)",
            file=sys.stderr,
        )
        return 2
    try:
        with open(args.result, encoding="utf-8") as f:
            result = json.load(f)
        sections = {r["section"] for r in result["rows"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"charts.py: {args.result}: not a matrix result: {exc}", file=sys.stderr)
        return 1
    missing = {"synthetic", "real", "text", "relay"} - sections
    if missing:
        print(f"charts.py: the run has no {', '.join(sorted(missing))} section", file=sys.stderr)
        return 1
    plt.rcParams.update({"svg.hashsalt": "diverge-frames", "svg.fonttype": "none"})
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    text = caption(result, args.commit or _commit())
    small_frames(result, "decode", text, out / "decode.svg")
    small_frames(result, "encode", text, out / "encode.svg")
    long_text(result, text, out / "text.svg")
    long_encode(result, text, out / "long_encode.svg")
    relay(result, text, out / "relay.svg")
    print(f"charts: decode.svg, encode.svg, text.svg, long_encode.svg, relay.svg in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
