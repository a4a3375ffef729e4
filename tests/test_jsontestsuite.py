"""JSON conformance: the JSONTestSuite parsing cases as frame bodies.

``tests/data/jsontestsuite/test_parsing/`` (Nicolas Seriot's JSONTestSuite, MIT) holds
JSON texts: ``y_`` must be accepted, ``n_`` rejected, ``i_`` either. Each is tried as
the body of four frames, on both implementations:

* raw: ``[0] + text`` on the notification channel and on the read-resource channel,
  ``[1] + text`` (an ``ErrorData``); almost none of these texts has the shape of an MCP
  value, so most frames fail on shape before the parser reads far;
* in a value position: ``[1]{"code":0,"message":"","data": <text>}``, where any JSON
  value is allowed, so the parser must read the whole text.

Every ``n_`` frame is a :class:`FrameBodyError`. Every ``y_`` frame is a value or a
``FrameBodyError`` for shape: in the value position it decodes, to what ``json.loads``
reads. Every ``i_`` frame is one of those two outcomes; what each one does is the table
in ``docs/hostile-input.md``, written by ``python tests/test_jsontestsuite.py
--write-doc`` (which also asks the rmcp oracle, when built, for the rmcp column) and
checked here against the code.
"""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from diverge_frames import FrameBodyError, FrameError
from diverge_frames.types import ErrorData

HERE = Path(__file__).resolve().parent
CASES = HERE / "data" / "jsontestsuite" / "test_parsing"
DOC = HERE.parent / "docs" / "hostile-input.md"
ORACLE = HERE.parent / "interop" / "rmcp-oracle" / "target" / "release" / "rmcp-oracle"
BEGIN = "<!-- BEGIN jsontestsuite i_ table: python tests/test_jsontestsuite.py --write-doc -->"
END = "<!-- END jsontestsuite i_ table -->"

NAMES = sorted(p.name for p in CASES.glob("*.json"))


def wrapped(text: bytes) -> bytes:
    """``text`` as the free-form ``data`` of a tag-1 ``ErrorData`` frame."""
    return b'\x01{"code":0,"message":"","data":' + text + b"}"


def frames_of(text: bytes) -> dict[str, tuple[str, bytes]]:
    """The frames a case is tried as: label -> (channel, payload)."""
    return {
        "notification tag 0": ("notifications", b"\x00" + text),
        "read-resource tag 0": ("read-resource", b"\x00" + text),
        "tag 1": ("notifications", b"\x01" + text),
        "value position": ("notifications", wrapped(text)),
    }


def decode(frames: ModuleType, channel: str, payload: bytes) -> Any:
    """Decode on ``channel``; returns the value or the FrameError raised."""
    fn = frames.decode_notification if channel == "notifications" else frames.decode_read_resource
    try:
        return fn(payload)
    except FrameError as exc:
        return exc


PREFIX = b'{"code":0,"message":"","data":'


def reencoded_data(frame: bytes) -> str:
    """The ``data`` member of a re-encoded value-position frame, shortened (``data``
    null is not written: shown as ``-``)."""
    if frame == b'\x01{"code":0,"message":""}':
        return "-"
    assert frame[:1] == b"\x01" and frame[1:].startswith(PREFIX) and frame.endswith(b"}")
    data = frame[1 + len(PREFIX) : -1].decode("utf-8", "backslashreplace")
    return data if len(data) <= 40 else data[:37] + "..."


def outcome(frames: ModuleType, result: Any) -> str:
    """A short, stable description of a decode outcome for the doc table: the error
    reason, or ``value`` (with the re-encoded ``data`` for an ErrorData)."""
    if isinstance(result, FrameBodyError):
        return f"rejected: {result.reason}"
    if isinstance(result, FrameError):
        return f"rejected ({type(result).__name__})"
    if isinstance(result, ErrorData):
        return f"value `{reencoded_data(frames.encode_notification(result))}`"
    return "value"


@pytest.mark.parametrize("name", NAMES)
def test_case(frames: ModuleType, name: str) -> None:
    text = (CASES / name).read_bytes()
    results = {label: decode(frames, ch, p) for label, (ch, p) in frames_of(text).items()}
    for label, result in results.items():
        assert not isinstance(result, FrameError) or isinstance(result, FrameBodyError), (
            label,
            result,
        )
    if name.startswith("n_"):
        for label, result in results.items():
            assert isinstance(result, FrameBodyError), (label, result)
    elif name.startswith("y_"):
        value = results["value position"]
        assert isinstance(value, ErrorData), value
        assert value.data == json.loads(text.decode("utf-8"))
        # so a raw frame that fails (FrameBodyError, checked above) fails on shape:
        # the same text was just read whole


def test_suite_is_complete() -> None:
    """All 318 parsing cases are present (95 y_, 188 n_, 35 i_)."""
    counts = {k: sum(n.startswith(k) for n in NAMES) for k in ("y_", "n_", "i_")}
    assert counts == {"y_": 95, "n_": 188, "i_": 35}


def i_rows(frames: ModuleType) -> dict[str, list[str]]:
    """For each i_ case: outcomes of the four frames (see ``frames_of``)."""
    rows = {}
    for name in NAMES:
        if name.startswith("i_"):
            text = (CASES / name).read_bytes()
            rows[name] = [
                outcome(frames, decode(frames, ch, p)) for ch, p in frames_of(text).values()
            ]
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table_rows(text: str) -> dict[str, list[str]]:
    """Parse the committed table back: case -> our four cells."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\| `(i_[^`]+)` \| (.*) \|$", line)
        if m:
            cells = [c.strip() for c in re.split(r"(?<!\\) \| ", m.group(2))]
            rows[m.group(1)] = cells[:4]
    return rows


def test_doc_table_is_current(frames: ModuleType) -> None:
    """The i_ table in docs/hostile-input.md is what the code does now (both
    implementations). If this fails after a deliberate change, regenerate the table:
    ``python tests/test_jsontestsuite.py --write-doc``."""
    doc = DOC.read_text(encoding="utf-8")
    committed = _table_rows(doc[doc.index(BEGIN) : doc.index(END)])
    now = {k: [_cell(c) for c in v] for k, v in i_rows(frames).items()}
    assert committed == now


def _rmcp(frames_by_case: dict[str, bytes]) -> dict[str, str]:
    """The rmcp oracle's verdict on each frame, described as :func:`outcome` does
    (needs the built oracle, see interop/rmcp-oracle/README.md)."""
    lines = "".join(
        json.dumps(
            {"id": name, "channel": "notifications", "payload": base64.b64encode(p).decode()}
        )
        + "\n"
        for name, p in frames_by_case.items()
    )
    out = subprocess.run([str(ORACLE)], input=lines.encode(), capture_output=True, check=True)
    verdicts = {}
    for line in out.stdout.splitlines():
        v = json.loads(line)
        if v["verdict"] == "ok":
            verdicts[v["id"]] = f"value `{reencoded_data(base64.b64decode(v['reencoded']))}`"
        else:
            verdicts[v["id"]] = f"rejected: {v.get('error', v['verdict'])}"
    return verdicts


def _rmcp_summary() -> str:
    """How rmcp's accept/reject in the value position compares on y_ and n_ cases."""
    frames = {n: wrapped((CASES / n).read_bytes()) for n in NAMES if not n.startswith("i_")}
    verdicts = _rmcp(frames)
    odd = [n for n, v in verdicts.items() if v.startswith("value") != n.startswith("y_")]
    return (
        f"rmcp 3.1.4 (oracle) in the value position: {len(frames) - len(odd)} of "
        f"{len(frames)} y_/n_ cases as the suite expects"
        + (f"; not: {', '.join(odd)}" if odd else "")
        + ".\n"
    )


def write_doc() -> None:
    """Rewrite the i_ table in docs/hostile-input.md from the code (and the oracle)."""
    from diverge_frames import _frames_py

    try:
        from diverge_frames import _frames_c
    except ImportError:
        _frames_c = None
    rows = i_rows(_frames_py)
    if _frames_c is not None and i_rows(_frames_c) != rows:
        raise SystemExit("the two implementations differ on an i_ case: run the tests")
    rmcp = (
        _rmcp({n: wrapped((CASES / n).read_bytes()) for n in rows})
        if ORACLE.exists()
        else dict.fromkeys(rows, "(oracle not built)")
    )
    summary = _rmcp_summary() if ORACLE.exists() else ""
    if ORACLE.exists():
        ours = {n: cells[3] for n, cells in rows.items()}
        agree = sum(ours[n].startswith("value") == rmcp[n].startswith("value") for n in rows)
        same = sum(ours[n] == rmcp[n] for n in rows if ours[n].startswith("value"))
        accepted = sum(c.startswith("value") for c in ours.values())
        summary += (
            f"i_ cases in the value position: accepted or rejected as rmcp does in {agree} of "
            f"{len(rows)}; of the {accepted} accepted, the same re-encoded bytes in {same}.\n"
        )
    head = (
        summary
        + "\n"
        + (
            "| case | notification tag 0 | read-resource tag 0 | tag 1 | value position |"
            " rmcp 3.1.4, value position |\n|---|---|---|---|---|---|\n"
        )
    )
    body = "".join(
        f"| `{n}` | " + " | ".join(_cell(c) for c in cells) + f" | {_cell(rmcp[n])} |\n"
        for n, cells in rows.items()
    )
    doc = DOC.read_text(encoding="utf-8")
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    DOC.write_text(doc[:start] + "\n" + head + body + doc[end:], encoding="utf-8")
    print(f"wrote {len(rows)} rows to {DOC}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write-doc"]:
        raise SystemExit("usage: python tests/test_jsontestsuite.py --write-doc")
    write_doc()
