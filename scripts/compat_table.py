"""The comparison table of docs/compatibility.md: one input shape per row, what rmcp
3.1.4, the official Python SDK and diverge-frames each make of it.

    cargo build --release --manifest-path interop/rmcp-oracle/Cargo.toml
    pip install mcp          # the official Python SDK (module mcp.types, pydantic)
    python scripts/compat_table.py           # rewrite the table in docs/compatibility.md
    python scripts/compat_table.py --check   # exit 1 if the table is out of date

rmcp's column comes from the oracle; the SDK's from ``mcp.types``
(``server_notification_adapter.validate_json``, ``ReadResourceResult.model_validate_json``,
``ErrorData.model_validate_json``, and ``model_dump_json(by_alias=True,
exclude_unset=True)`` for what it writes back); ours from ``diverge_frames`` (the
compiled and the pure-Python implementation must agree, or the script stops).
Each cell is "accepted: <type>, writes <JSON>" or "rejected". ``tests/interop/test_compat_doc.py``
checks the diverge-frames column against the code without the oracle or the SDK.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "interop"))

from rmcp_diff import NOTIFICATIONS, READ_RESOURCE, Case, Outcome, ours  # noqa: E402

DOC = ROOT / "docs" / "compatibility.md"
BEGIN = "<!-- BEGIN compat table: python scripts/compat_table.py -->"
END = "<!-- END compat table -->"
WIDTH = 90  # characters of written JSON shown per cell
#: A long cell holding one of these starts there (the member its row is about).
FOCUS = ('"status":{', '"inputRequests":', '"mode":', '"temperature":')


class Row(NamedTuple):
    shape: str  # the input shape, in words
    channel: str
    payload: bytes
    why: str  # why we do what we do


def _n(body: bytes) -> bytes:
    return b"\x00" + body


def _e(body: bytes) -> bytes:
    return b"\x01" + body


P = b'"method":"notifications/progress"'
M = b'"method":"notifications/message"'
DEEP = b"[" * 126 + b"]" * 126

_TASK = (
    b'{"method":"notifications/tasks","params":{"taskId":"t","status":"%s",'
    b'"createdAt":"c","lastUpdatedAt":"u","inputRequests":{"r":%s}}}'
)


def _task(request: bytes, status: bytes = b"input_required") -> bytes:
    return _n(_TASK % (status, request))


_SAMPLE = b'"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":9'


ROWS: list[Row] = [
    Row(
        "known method, params that do not fit it",
        NOTIFICATIONS,
        _n(b"{" + P + b',"params":{"progress":"x"}}'),
        "rmcp falls back to its CustomNotification variant; so do we",
    ),
    Row(
        "unknown method",
        NOTIFICATIONS,
        _n(b'{"method":"notifications/stderr","params":{"content":"x"}}'),
        "rmcp's CustomNotification; the SDK's ServerNotification has no catch-all",
    ),
    Row(
        "params absent on a list_changed notification",
        NOTIFICATIONS,
        _n(b'{"method":"notifications/tools/list_changed"}'),
        "all agree",
    ),
    Row(
        "params absent on notifications/cancelled",
        NOTIFICATIONS,
        _n(b'{"method":"notifications/cancelled"}'),
        "rmcp reads absent params as {} (JSON-RPC makes params optional)",
    ),
    Row(
        "params null on a method that needs params",
        NOTIFICATIONS,
        _n(b"{" + P + b',"params":null}'),
        "rmcp: custom notification with params null",
    ),
    Row(
        "params an array",
        NOTIFICATIONS,
        _n(b'{"method":"notifications/tools/list_changed","params":[]}'),
        "rmcp rejects; params must be an object or null",
    ),
    Row(
        "_meta null",
        NOTIFICATIONS,
        _n(b"{" + P + b',"params":{"progressToken":1,"progress":1,"_meta":null}}'),
        "rmcp drops it and does not write it back",
    ),
    Row(
        "_meta not an object",
        NOTIFICATIONS,
        _n(b"{" + P + b',"params":{"progressToken":1,"progress":1,"_meta":1}}'),
        "all reject",
    ),
    Row(
        "_meta at the top level (misplaced)",
        NOTIFICATIONS,
        _n(b'{"method":"notifications/tools/list_changed","_meta":{"a":1}}'),
        "ignored as an unknown member",
    ),
    Row(
        "extra members",
        NOTIFICATIONS,
        _n(b"{" + P + b',"params":{"progressToken":1,"progress":1,"extra":{"k":1}}}'),
        "dropped, as serde drops them",
    ),
    Row(
        "progress an integer (rmcp: f64)",
        NOTIFICATIONS,
        _n(b"{" + P + b',"params":{"progressToken":"t","progress":2}}'),
        "rmcp writes f64 fields as floats",
    ),
    Row(
        "progressToken a float",
        NOTIFICATIONS,
        _n(b"{" + P + b',"params":{"progressToken":1.5,"progress":1}}'),
        "rmcp's ProgressToken is an i64 or a string: the typed variant fails, custom",
    ),
    Row(
        "integer beyond 64 bits in a free-form value",
        NOTIFICATIONS,
        _n(b"{" + M + b',"params":{"level":"info","data":18446744073709551616}}'),
        "serde_json's Value has no big integers: it becomes an f64",
    ),
    Row(
        "-0 in a free-form value",
        NOTIFICATIONS,
        _n(b"{" + M + b',"params":{"level":"info","data":-0}}'),
        "serde_json reads -0 as the float -0.0",
    ),
    Row(
        "float 1e16 and beyond",
        NOTIFICATIONS,
        _n(b"{" + M + b',"params":{"level":"info","data":[1e16,1e20,5e-324,2.0]}}'),
        "serde_json 1.0.154 (zmij) writes a signed exponent: 1e+16",
    ),
    Row(
        "float with more digits than an f64 holds",
        NOTIFICATIONS,
        _n(b"{" + M + b',"params":{"level":"info","data":9007199254740993.0}}'),
        "serde_json (no float_roundtrip) computes significand * 10^exp, not always the nearest double",
    ),
    Row(
        "key order of a free-form object",
        NOTIFICATIONS,
        _n(b"{" + M + b',"params":{"level":"info","data":{"b":1,"a":2}}}'),
        "serde_json's Map is a BTreeMap: keys sorted",
    ),
    Row(
        "NaN literal",
        NOTIFICATIONS,
        _n(b"{" + M + b',"params":{"level":"info","data":NaN}}'),
        "not JSON; rmcp rejects",
    ),
    Row(
        "U+2028 raw in a string",
        NOTIFICATIONS,
        _n(b"{" + M + b',"params":{"level":"info","data":"a\xe2\x80\xa8b"}}'),
        "valid JSON; written back raw",
    ),
    Row(
        "duplicate member of a struct (params.progress)",
        NOTIFICATIONS,
        _n(b"{" + P + b',"params":{"progressToken":1,"progress":1,"progress":2}}'),
        "serde rejects duplicate fields, so rmcp's typed variant fails: custom",
    ),
    Row(
        "duplicate method",
        NOTIFICATIONS,
        _n(b'{"method":"notifications/tools/list_changed","method":"x/y"}'),
        "serde: duplicate field in every variant: rejected",
    ),
    Row(
        "duplicate key in a free-form object",
        NOTIFICATIONS,
        _n(b"{" + M + b',"params":{"level":"info","data":{"a":1,"a":2}}}'),
        "the last one wins everywhere",
    ),
    Row(
        "nesting 128 levels deep",
        NOTIFICATIONS,
        _n(b"{" + M + b',"params":{"level":"info","data":[' + DEEP + b"]}}"),
        "serde_json's recursion limit: 127 levels pass, 128 fail",
    ),
    Row(
        "byte-order mark after the tag",
        NOTIFICATIONS,
        _n(b'\xef\xbb\xbf{"method":"notifications/tools/list_changed"}'),
        "not JSON; all reject",
    ),
    Row(
        "invalid UTF-8 in an unknown member",
        NOTIFICATIONS,
        _n(b'{"method":"notifications/tools/list_changed","x":"\xff"}'),
        "rmcp buffers the whole notification and checks every string",
    ),
    Row(
        "top-level array [method, params]",
        NOTIFICATIONS,
        _n(b'["notifications/progress",{"progressToken":1,"progress":2}]'),
        "serde's derived structs also read a sequence of their fields",
    ),
    Row(
        "notifications/tasks (rmcp 3.1, SEP-2663)",
        NOTIFICATIONS,
        _n(
            b'{"method":"notifications/tasks","params":{"taskId":"t","status":"working","createdAt":"c","lastUpdatedAt":"u","ttlMs":null}}'
        ),
        "rmcp's TaskStatusNotification; ours TasksNotification",
    ),
    Row(
        "notifications/tasks/status (spec 2025-11-25)",
        NOTIFICATIONS,
        _n(
            b'{"method":"notifications/tasks/status","params":{"taskId":"t","status":"working","createdAt":"c","lastUpdatedAt":"u","ttl":null}}'
        ),
        "rmcp 3.1 has no type for it (custom); we type it when it fits exactly; the bytes are the same",
    ),
    Row(
        "notifications/elicitation/complete",
        NOTIFICATIONS,
        _n(b'{"method":"notifications/elicitation/complete","params":{"elicitationId":"e"}}'),
        "as above: custom in rmcp, typed here, same bytes",
    ),
    Row(
        "subscriptions/acknowledged, filter as an array",
        NOTIFICATIONS,
        _n(
            b'{"method":"notifications/subscriptions/acknowledged","params":{"notifications":[true]}}'
        ),
        "serde's derived SubscriptionFilter reads a sequence of up to four fields",
    ),
    Row(
        'unit enum in serde\'s map form: level {"info": null}',
        NOTIFICATIONS,
        _n(b"{" + M + b',"params":{"level":{"info":null},"data":1}}'),
        "serde reads a unit variant from a one-key map too; written as the string",
    ),
    Row(
        'unit enum as {"info": {}} (a params member)',
        NOTIFICATIONS,
        _n(b"{" + M + b',"params":{"level":{"info":{}},"data":1}}'),
        "params members are read from serde's owned Content, which takes {} for unit",
    ),
    Row(
        "task status in serde's map form",
        NOTIFICATIONS,
        _n(
            b'{"method":"notifications/tasks","params":{"taskId":"t","status":{"working":{}},'
            b'"createdAt":"c","lastUpdatedAt":"u"}}'
        ),
        "as for every unit enum",
    ),
    Row(
        "inputRequests: elicitation without mode (spec 2025-06-18)",
        NOTIFICATIONS,
        _task(
            b'{"method":"elicitation/create","params":{"message":"m",'
            b'"requestedSchema":{"type":"object","properties":{}}}}'
        ),
        "rmcp's LegacyForm: a form, written with mode",
    ),
    Row(
        "inputRequests: roots/list with params {} and jsonrpc, id",
        NOTIFICATIONS,
        _task(b'{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}'),
        "RequestNoParam keeps only _meta; the envelope drops jsonrpc and id",
    ),
    Row(
        "inputRequests: sampling temperature 0.7 (rmcp: f32)",
        NOTIFICATIONS,
        _task(b'{"method":"sampling/createMessage","params":{' + _SAMPLE + b',"temperature":0.7}}'),
        "an f32, widened to f64 when written",
    ),
    Row(
        "inputRequests: an entry rmcp cannot read",
        NOTIFICATIONS,
        _task(b'{"method":"ping"}'),
        "the typed variant fails: CustomNotification, params kept",
    ),
    Row(
        "inputRequests unreadable on a working task",
        NOTIFICATIONS,
        _task(b'{"method":"ping"}', b"working"),
        "rmcp reads inputRequests whatever the status",
    ),
    Row("negative ttlMs", READ_RESOURCE, _n(b'{"contents":[],"ttlMs":-5}'), "rmcp clamps it to 0"),
    Row(
        "cacheScope in serde's map form",
        READ_RESOURCE,
        _n(b'{"contents":[],"cacheScope":{"private":null}}'),
        "a unit variant from a one-key map; written as the string",
    ),
    Row(
        'cacheScope {"public": {}}',
        READ_RESOURCE,
        _n(b'{"contents":[],"cacheScope":{"public":{}}}'),
        "read straight from serde_json, which takes only null for unit",
    ),
    Row(
        "cacheScope map form in the array form",
        READ_RESOURCE,
        _n(b'[null,null,{"public":null},[],null]'),
        "the same inside serde's sequence form",
    ),
    Row(
        "resultType absent",
        READ_RESOURCE,
        _n(b'{"contents":[{"uri":"a","text":"t"}]}'),
        'rmcp keeps it absent (older peers); the SDK\'s model defaults it to "complete"',
    ),
    Row(
        "unknown cacheScope",
        READ_RESOURCE,
        _n(b'{"contents":[],"cacheScope":"shared"}'),
        "all reject",
    ),
    Row(
        "both text and blob",
        READ_RESOURCE,
        _n(b'{"contents":[{"uri":"a","text":"t","blob":"b"}]}'),
        "rmcp's untagged enum tries text first; blob is dropped",
    ),
    Row("neither text nor blob", READ_RESOURCE, _n(b'{"contents":[{"uri":"a"}]}'), "all reject"),
    Row(
        "URL-safe base64 blob",
        READ_RESOURCE,
        _n(b'{"contents":[{"uri":"a","blob":"-_8AAQ=="}]}'),
        "rmcp keeps the string unchecked",
    ),
    Row(
        "top-level array of the five members",
        READ_RESOURCE,
        _n(b"[null,null,null,[],null]"),
        "serde's derived struct reads a sequence",
    ),
    Row(
        "invalid UTF-8 in an unknown top-level member",
        READ_RESOURCE,
        _n(b'{"contents":[],"x":"\xff"}'),
        "serde skips unknown members of a struct it reads directly without checking UTF-8",
    ),
    Row(
        "unknown member nested 200 levels",
        READ_RESOURCE,
        _n(b'{"contents":[],"x":' + b"[" * 200 + b"]" * 200 + b"}"),
        "serde skips it without counting levels",
    ),
    Row(
        "error data null",
        NOTIFICATIONS,
        _e(b'{"code":-32603,"message":"Internal error","data":null}'),
        "rmcp's Option<Value>: null is None, not written",
    ),
    Row(
        "error code outside i32",
        NOTIFICATIONS,
        _e(b'{"code":10990201005,"message":"m"}'),
        "rmcp's ErrorCode is an i32",
    ),
    Row(
        "error code 1.0",
        NOTIFICATIONS,
        _e(b'{"code":1.0,"message":"m"}'),
        "serde does not read a float as an integer",
    ),
    Row(
        "error code -0",
        NOTIFICATIONS,
        _e(b'{"code":-0,"message":"m"}'),
        "-0 is a float to serde_json",
    ),
    Row(
        "error as [code, message, data]",
        NOTIFICATIONS,
        _e(b'[-32603,"m",null]'),
        "serde's derived struct reads a sequence",
    ),
    Row(
        "duplicate error member",
        NOTIFICATIONS,
        _e(b'{"code":1,"message":"m","code":2}'),
        "serde: duplicate field",
    ),
    Row(
        "lone surrogate escape in an unknown error member",
        NOTIFICATIONS,
        _e(b'{"code":1,"message":"m","x":"\\ud800"}'),
        "serde skips unknown members of a struct it reads directly without decoding escapes",
    ),
]


# --------------------------------------------------------------------- the columns


def _short(data: bytes) -> str:
    text = data.decode("utf-8", "backslashreplace")
    text = "".join(  # invisible characters (BOM, U+2028, controls) as escapes
        f"\\u{ord(c):04x}" if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c
        for c in text
    )
    for mark in FOCUS:
        at = text.find(mark)
        if at > 0 and len(text) > WIDTH:
            text = "..." + text[at:]
    text = text if len(text) <= WIDTH else text[: WIDTH - 3] + "..."
    return "`" + text.replace("|", "\\|").replace("`", "'") + "`"


def cell(outcome: Outcome, payload: bytes) -> str:
    """One cell: accepted (type, written bytes) or rejected."""
    if outcome.verdict != "ok":
        return "rejected"
    assert outcome.reencoded is not None
    written = "the same bytes" if outcome.reencoded == payload else _short(outcome.reencoded[1:])
    return f"{outcome.variant}, writes {written}"


def ours_cell(row: Row) -> str:
    """Our column (both implementations must agree), with our class names."""
    from diverge_frames import _frames_py

    case = Case(row.shape, row.channel, row.payload)
    results = [ours(_frames_py, case)]
    try:
        from diverge_frames import _frames_c

        results.append(ours(_frames_c, case))
    except ImportError:  # pragma: no cover - pure-Python install
        pass
    if len({r.key() for r in results}) != 1:
        raise SystemExit(f"the implementations disagree on {row.shape!r}: {results}")
    outcome = results[0]
    if outcome.verdict == "ok":
        outcome = dataclasses.replace(outcome, variant=type(_decode(row)).__name__)
    return cell(outcome, row.payload)


def _decode(row: Row) -> Any:
    from diverge_frames import notifications, read_resource

    return (notifications if row.channel == NOTIFICATIONS else read_resource).decode(row.payload)


def sdk_cell(row: Row) -> str:
    """What the official Python SDK (mcp.types) makes of the body."""
    import mcp.types as m

    tag, body = row.payload[0], row.payload[1:]
    validate: Callable[[bytes], Any]
    if tag == 1:
        validate = m.ErrorData.model_validate_json
    elif row.channel == NOTIFICATIONS:
        validate = m.server_notification_adapter.validate_json
    else:
        validate = m.ReadResourceResult.model_validate_json
    try:
        value = validate(body)
    except ValueError:
        return "rejected"
    written = value.model_dump_json(by_alias=True, exclude_unset=True).encode()
    return (
        f"{type(value).__name__}, writes {'the same bytes' if written == body else _short(written)}"
    )


def rmcp_cells(rows: list[Row]) -> list[str]:
    from rmcp_diff import oracle_available, run_oracle

    if not oracle_available():
        raise SystemExit(
            "build the oracle: cargo build --release --manifest-path interop/rmcp-oracle/Cargo.toml"
        )
    outcomes = run_oracle([Case(r.shape, r.channel, r.payload) for r in rows])
    return [cell(o, r.payload) for o, r in zip(outcomes, rows, strict=True)]


def table() -> str:
    import importlib.metadata as md

    sdk_version = md.version("mcp")
    head = (
        f"| # | input shape | body (after the tag byte) | rmcp 3.1.4 | mcp {sdk_version} (`mcp.types`) "
        "| diverge-frames | why |\n|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for index, (row, rmcp) in enumerate(zip(ROWS, rmcp_cells(ROWS), strict=True), 1):
        tag = "tag 1, " if row.payload[0] == 1 else ""
        lines.append(
            f"| {index} | {row.shape} ({tag}{row.channel}) | {_short(row.payload[1:])} | {rmcp} "
            f"| {sdk_cell(row)} | {ours_cell(row)} | {row.why} |"
        )
    return head + "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check the doc is current")
    args = parser.parse_args(argv)
    doc = DOC.read_text(encoding="utf-8")
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    new = doc[:start] + "\n" + table() + doc[end:]
    if args.check:
        if new != doc:
            print(
                "docs/compatibility.md is out of date: python scripts/compat_table.py",
                file=sys.stderr,
            )
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    print(f"wrote {len(ROWS)} rows to {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
