"""``python -m diverge_frames bench [CAPTURE]``: timing the frames of a capture.

In process on both hot paths (the ``frames`` fixture); in a subprocess for what only a
process shows (exit status, no traceback, no peer package imported).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from diverge_frames import __main__ as cli
from diverge_frames import _capture_bench, capture

SAMPLE = resources.files("diverge_frames").joinpath("data").joinpath("sample.capture.jsonl")

LOG = b'\x00{"method":"notifications/message","params":{"level":"info","data":"hi"}}'
PROGRESS = b'\x00{"method":"notifications/progress","params":{"progressToken":1,"progress":2}}'
RESULT = b'\x00{"contents":[{"uri":"file:///a.txt","text":"hello"}]}'
ERROR = b'\x01{"code":-32002,"message":"Resource not found"}'


def record(channel: str, kind: str, payload: bytes | None = None) -> bytes:
    if payload is None:
        return capture.encode_record(capture.finish(channel, kind))  # type: ignore[arg-type]
    return capture.encode_record(capture.response(channel, kind, payload))  # type: ignore[arg-type]


def bench_json(
    frames: ModuleType, capsys: pytest.CaptureFixture[str], *argv: str
) -> dict[str, Any]:
    status = _capture_bench.main(["--rounds", "2", "--json", *argv], frames)
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    result: dict[str, Any] = json.loads(out)
    return result


def test_the_shipped_sample_by_default(
    frames: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    result = bench_json(frames, capsys)
    payloads = [
        (r.kind, r.payload)
        for _, r in capture.read_capture(SAMPLE.read_bytes().splitlines())
        if r.payload is not None
    ]
    assert result["capture"] == "sample.capture.jsonl"
    assert result["frames"] == len(payloads) == sum(k["frames"] for k in result["kinds"])
    assert result["bytes"] == sum(len(p) for _, p in payloads)
    expected: dict[tuple[str, str], int] = {}
    for kind, payload in payloads:
        decode = (
            frames.decode_notification if kind == "notifications" else frames.decode_read_resource
        )
        key = (kind, type(decode(payload)).__name__)
        expected[key] = expected.get(key, 0) + 1
    assert {(k["channel"], k["type"]): k["frames"] for k in result["kinds"]} == expected
    for row in [*result["kinds"], result["total"]]:
        for op in ("decode", "encode"):
            assert row[op]["ns_per_frame"] > 0
            assert row[op]["mb_per_s"] > 0


def test_kinds_and_totals_of_a_capture(
    frames: ModuleType, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "mine.capture.jsonl"
    path.write_bytes(
        record("1", "notifications", LOG)
        + record("1", "notifications", PROGRESS)
        + record("1", "notifications", LOG)
        + record("1", "notifications", ERROR)
        + record("1", "notifications")
        + record("2", "read-resource", RESULT)
        + record("2", "read-resource")
    )
    result = bench_json(frames, capsys, str(path))
    kinds = [(k["channel"], k["type"], k["frames"], k["bytes"]) for k in result["kinds"]]
    assert kinds == [
        ("notifications", "LoggingMessageNotification", 2, 2 * len(LOG)),
        ("notifications", "ProgressNotification", 1, len(PROGRESS)),
        ("notifications", "ErrorData", 1, len(ERROR)),
        ("read-resource", "ReadResourceResult", 1, len(RESULT)),
    ]
    assert (result["frames"], result["rounds"]) == (5, 2)
    # the total is the sum of the kinds: its time per frame is their frame-weighted mean
    for op in ("decode", "encode"):
        weighted = sum(k[op]["ns_per_frame"] * k["frames"] for k in result["kinds"]) / 5
        assert result["total"][op]["ns_per_frame"] == pytest.approx(weighted)
        mb_s = result["bytes"] / (result["total"][op]["ns_per_frame"] * 5) * 1e3
        assert result["total"][op]["mb_per_s"] == pytest.approx(mb_s)


def test_the_table(frames: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert _capture_bench.main(["--rounds", "1"], frames) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert "sample.capture.jsonl" in lines[0] and "thread CPU time" in lines[0]
    assert lines[2].startswith("| channel | type | frames |")
    assert lines[-1].startswith("| all |")


B64 = base64.b64encode


@pytest.mark.parametrize(
    ("data", "where", "reason"),
    [
        (b"{not json\n", ":1: ", "not a capture record"),
        (
            record("1", "notifications", LOG)
            + b'{"channel":"1","kind":"notifications","payload":"*"}\n',
            ":2: ",
            "base64",
        ),
        (b'{"channel":"1","kind":"tools","payload":"AA=="}\n', ":1: ", "kind"),
        (record("1", "notifications", b""), ":1: ", "EmptyFrameError"),
        (record("1", "notifications", b"\x07{}"), ":1: ", "UnknownTagError"),
        (record("1", "read-resource", b"\x00[1,2]"), ":1: ", "FrameBodyError"),
        (record("1", "notifications", b"\x00" + b"[" * 100_000), ":1: ", "FrameBodyError"),
        (record("1", "notifications"), ": ", "no channel response"),
        (b"", ": ", "no channel response"),
    ],
)
def test_a_bad_capture_is_one_line_and_status_1(
    frames: ModuleType,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    data: bytes,
    where: str,
    reason: str,
) -> None:
    path = tmp_path / "bad.capture.jsonl"
    path.write_bytes(data)
    assert _capture_bench.main([str(path)], frames) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"diverge-frames: {path}{where}")
    assert reason in err
    assert err.count("\n") == 1


def test_a_file_that_cannot_be_opened(
    frames: ModuleType, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for path in (tmp_path / "missing.jsonl", tmp_path):
        assert _capture_bench.main([str(path)], frames) == 1
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith(f"diverge-frames: {path}: cannot open: ")
        assert err.count("\n") == 1


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--rounds", "0"], ["--rounds", "x"], ["--frobnicate"], ["a", "b"]):
        assert _capture_bench.main(argv) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert "usage:" in err or "error:" in err


def test_the_cli_runs_it_on_its_hot_path(
    frames: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[list[str], ModuleType]] = []

    def fake_main(argv: list[str], hot_path: ModuleType) -> int:
        calls.append((argv, hot_path))
        return 3

    monkeypatch.setattr(cli, "_frames", frames)
    monkeypatch.setattr(_capture_bench, "main", fake_main)
    assert cli.main(["bench", "--json", "x"]) == 3
    assert cli.main(["bench"]) == 3
    assert calls == [(["--json", "x"], frames), ([], frames)]


def run_process(*argv: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "diverge_frames", *argv],
        input=stdin,
        capture_output=True,
        env=os.environ.copy(),
        check=False,
    )


def test_a_bad_capture_from_stdin_has_no_traceback() -> None:
    proc = run_process("bench", "-", stdin=record("1", "notifications", b"\x00{"))
    assert (proc.returncode, proc.stdout) == (1, b"")
    assert proc.stderr.startswith(b"diverge-frames: <stdin>:1: ")
    assert b"Traceback" not in proc.stderr
    assert proc.stderr.count(b"\n") == 1


def test_no_peer_package_is_imported() -> None:
    code = (
        "import sys\n"
        "from diverge_frames.__main__ import main\n"
        "assert main(['bench', '--rounds', '1', '--json']) == 0\n"
        "print(sorted({'orjson', 'mcp', 'pydantic', 'benchmarks'} & set(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == b"[]"
