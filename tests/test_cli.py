"""The command line (``python -m diverge_frames``): encode, decode, bench, and bad input.

In-process tests call ``main(argv)`` with the ``frames`` fixture swapped into the CLI's
internal ``_frames`` hook, so both hot paths run; subprocess tests cover what only a
process shows (exit status, tracebacks, ``DIVERGE_FRAMES_NO_EXTENSIONS``, a closed pipe).
"""

from __future__ import annotations

import base64
import errno
import io
import os
import signal
import subprocess
import sys
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pytest

import diverge_frames
from diverge_frames import __main__ as cli
from diverge_frames import _cli_io, _frames_py, capture

_frames_c: ModuleType | None
try:
    from diverge_frames import _frames_c  # type: ignore[attr-defined,no-redef]
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None

#: As in conftest.py: CI sets it to fail rather than skip without the extension.
REQUIRE_EXTENSIONS = bool(os.environ.get("DIVERGE_FRAMES_REQUIRE_EXTENSIONS"))
CORPUS = Path(__file__).parent / "data" / "corpus"
EVERYTHING = CORPUS / "server-everything"
SAMPLE = resources.files("diverge_frames").joinpath("data").joinpath("sample.capture.jsonl")
ERROR_FILES = sorted(CORPUS.glob("*/errors.jsonl"))


class Line(msgspec.Struct):
    """One line ``decode`` prints: a frame (tag/type/value) or an end (event)."""

    channel: str
    kind: str
    tag: int = -1
    type: str = ""
    value: msgspec.Raw = msgspec.Raw(b"")
    event: str = ""


_line = msgspec.json.Decoder(Line)


@pytest.fixture
def cli_frames(frames: ModuleType, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """Run the in-process CLI on the hot path under test."""
    monkeypatch.setattr(cli, "_frames", frames)
    return frames


def run(capsysbinary: pytest.CaptureFixture[bytes], *argv: str) -> tuple[int, bytes, str]:
    """``main(argv)`` in process: (exit status, stdout bytes, stderr text)."""
    status = cli.main(list(argv))
    out, err = capsysbinary.readouterr()
    return status, out, err.decode()


def run_process(
    *argv: str, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "diverge_frames", *argv],
        input=stdin,
        capture_output=True,
        env={**os.environ, **(env or {})},
        check=False,
    )


def decoder(frames: ModuleType, kind: str) -> Any:
    return frames.decode_notification if kind == "notifications" else frames.decode_read_resource


def encoder(frames: ModuleType, kind: str) -> Any:
    return frames.encode_notification if kind == "notifications" else frames.encode_read_resource


def bodies(path: Path) -> list[bytes]:
    return [line for line in path.read_bytes().splitlines() if line.strip()]


def record(channel: str, kind: str, payload: bytes | None = None, **end: bool) -> bytes:
    if payload is None:
        return capture.encode_record(capture.Record(channel, kind, **end))  # type: ignore[arg-type]
    return capture.encode_record(capture.response(channel, kind, payload))  # type: ignore[arg-type]


def decoded(frames: ModuleType, lines: bytes) -> list[tuple[str, str, str, Any]]:
    """Parse ``decode`` output back to ``(channel, kind, type-or-event, value)``, the
    value decoded again from the printed tag and JSON (which must be what our encoder
    writes for it)."""
    result = []
    for raw in lines.splitlines():
        line = _line.decode(raw)
        if line.event:
            result.append((line.channel, line.kind, line.event, None))
        else:
            value = decoder(frames, line.kind)(bytes([line.tag]) + bytes(line.value))
            assert type(value).__name__ == line.type
            assert bytes([line.tag]) + bytes(line.value) == encoder(frames, line.kind)(value), (
                "the printed value is the JSON our encoder writes"
            )
            result.append((line.channel, line.kind, line.type, value))
    return result


# ------------------------------------------------------------------- decode


def test_decode_prints_every_frame_of_the_shipped_sample(
    cli_frames: ModuleType, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    status, out, err = run(capsysbinary, "decode")
    assert (status, err) == (0, "")
    expected = []
    for _, rec in capture.read_capture(SAMPLE.read_bytes().splitlines()):
        if rec.payload is None:
            expected.append((rec.channel, rec.kind, None))
        else:
            expected.append((rec.channel, rec.kind, decoder(cli_frames, rec.kind)(rec.payload)))
    got = [(c, k, v) for c, k, _, v in decoded(cli_frames, out)]
    assert got == expected
    events = [e for _, _, e, v in decoded(cli_frames, out) if v is None]
    assert set(events) == {"finished", "not_served", "aborted"}


def test_decode_line_shape(
    cli_frames: ModuleType, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    body = b'{"method":"notifications/progress","params":{"progressToken":"t","progress":1}}'
    path = tmp_path / "c.jsonl"
    path.write_bytes(
        record("n", "notifications", b"\x00" + body) + record("n", "notifications", finish=True)
    )
    status, out, _ = run(capsysbinary, "decode", str(path))
    value = cli_frames.encode_notification(cli_frames.decode_notification(b"\x00" + body))[1:]
    assert status == 0
    assert out.splitlines() == [
        b'{"channel":"n","kind":"notifications","tag":0,"type":"ProgressNotification","value":'
        + value
        + b"}",
        b'{"channel":"n","kind":"notifications","event":"finished"}',
    ]


def test_decode_interleaved_channels(
    cli_frames: ModuleType, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    note = b"\x00" + bodies(EVERYTHING / "notifications.jsonl")[0]
    result = b"\x00" + bodies(EVERYTHING / "read_resource_results.jsonl")[0]
    path = tmp_path / "c.jsonl"
    path.write_bytes(
        record("n", "notifications", note)
        + record("r", "read-resource", result)
        + record("n", "notifications", note)
        + record("r", "read-resource", finish=True)
        + record("n", "notifications", abort=True)
    )
    status, out, err = run(capsysbinary, "decode", str(path))
    assert (status, err) == (0, "")
    assert [(c, t) for c, _, t, _ in decoded(cli_frames, out)] == [
        ("n", type(cli_frames.decode_notification(note)).__name__),
        ("r", "ReadResourceResult"),
        ("n", type(cli_frames.decode_notification(note)).__name__),
        ("r", "finished"),
        ("n", "aborted"),
    ]


def test_decode_stdin(
    cli_frames: ModuleType,
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = SAMPLE.read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, err = run(capsysbinary, "decode", "-")
    assert (status, err) == (0, "")
    assert out == run(capsysbinary, "decode")[1]


def test_decode_stdin_process() -> None:
    proc = run_process("decode", "-", stdin=SAMPLE.read_bytes())
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert proc.stdout == run_process("decode").stdout
    assert proc.stdout.count(b"\n") == SAMPLE.read_bytes().count(b"\n")


def test_output_identical_without_extensions() -> None:
    if _frames_c is None:
        if REQUIRE_EXTENSIONS:
            pytest.fail("the compiled extension diverge_frames._frames_c did not build")
        pytest.skip("compiled extension not built: both runs would be pure Python")
    default = run_process("decode")
    python = run_process("decode", env={"DIVERGE_FRAMES_NO_EXTENSIONS": "1"})
    versions = {
        run_process("--version").stdout.strip(),
        run_process("--version", env={"DIVERGE_FRAMES_NO_EXTENSIONS": "1"}).stdout.strip(),
    }
    assert versions == {
        f"diverge-frames {diverge_frames.__version__} (cython)".encode(),
        f"diverge-frames {diverge_frames.__version__} (python)".encode(),
    }
    assert default.returncode == python.returncode == 0
    assert default.stdout.count(b"\n") == SAMPLE.read_bytes().count(b"\n")
    assert default.stdout == python.stdout


# ------------------------------------------------------------------- encode


def encode(
    capsysbinary: pytest.CaptureFixture[bytes],
    tmp_path: Path,
    kind: str,
    lines: list[bytes],
    cid: str,
) -> bytes:
    path = tmp_path / f"in-{cid}.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    status, out, err = run(
        capsysbinary, "encode", "--channel", kind, "--channel-id", cid, str(path)
    )
    assert (status, err) == (0, "")
    return out


def test_corpus_round_trips_through_the_cli(
    cli_frames: ModuleType, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    """Encode every corpus file (one channel per notification file, one read-resource
    channel per result or error), decode the capture: the values are the corpus values
    decoded directly."""
    notes = bodies(EVERYTHING / "notifications.jsonl")
    results = bodies(EVERYTHING / "read_resource_results.jsonl")
    errors = [b for path in ERROR_FILES for b in bodies(path)]
    note_values = [cli_frames.decode_notification(b"\x00" + b) for b in notes]
    capture_bytes = encode(capsysbinary, tmp_path, "notifications", notes, "notes")
    expected: list[tuple[str, str, Any]] = [("notes", "notifications", v) for v in note_values]
    expected.append(("notes", "notifications", None))
    for n, body in enumerate(results):
        capture_bytes += encode(capsysbinary, tmp_path, "read-resource", [body], f"r{n}")
        expected += [
            (f"r{n}", "read-resource", cli_frames.decode_read_resource(b"\x00" + body)),
            (f"r{n}", "read-resource", None),
        ]
    for n, body in enumerate(errors):
        marked = b'{"error":' + body + b"}"
        capture_bytes += encode(capsysbinary, tmp_path, "read-resource", [marked], f"e{n}")
        capture_bytes += encode(
            capsysbinary, tmp_path, "notifications", [*notes[:2], marked], f"ne{n}"
        )
        error = cli_frames.decode_read_resource(b"\x01" + body)
        assert error == cli_frames.decode_notification(b"\x01" + body)
        expected += [(f"e{n}", "read-resource", error), (f"e{n}", "read-resource", None)]
        expected += [(f"ne{n}", "notifications", v) for v in note_values[:2]]
        expected += [(f"ne{n}", "notifications", error), (f"ne{n}", "notifications", None)]
    path = tmp_path / "all.capture.jsonl"
    path.write_bytes(capture_bytes)
    status, out, err = run(capsysbinary, "decode", str(path))
    assert (status, err) == (0, "")
    assert [(c, k, v) for c, k, _, v in decoded(cli_frames, out)] == expected


def test_encode_writes_rmcp_payloads(
    cli_frames: ModuleType, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    body = b'{"method": "notifications/progress", "params": {"progressToken": 1, "progress": 2}}'
    out = encode(
        capsysbinary,
        tmp_path,
        "notifications",
        [body, b"", b'{"error": {"code": 5, "message": "m"}}'],
        "1",
    )
    payload = cli_frames.encode_notification(cli_frames.decode_notification(b"\x00" + body))
    error = cli_frames.encode_notification(
        cli_frames.decode_notification(b'\x01{"code":5,"message":"m"}')
    )
    assert out.splitlines() == [
        b'{"channel":"1","kind":"notifications","payload":"' + base64.b64encode(payload) + b'"}',
        b'{"channel":"1","kind":"notifications","payload":"' + base64.b64encode(error) + b'"}',
        b'{"channel":"1","kind":"notifications","finish":true}',
    ]


def test_encode_error_mark_needs_error_alone(
    cli_frames: ModuleType, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    out = encode(
        capsysbinary,
        tmp_path,
        "notifications",
        [b'{"method":"x","error":{"code":1,"message":"m"}}'],
        "1",
    )
    [(_, _, type_name, value), _] = decoded(
        cli_frames, run_decode_bytes(capsysbinary, tmp_path, out)
    )
    assert type_name == "CustomNotification" and value.method == "x"


def run_decode_bytes(
    capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path, data: bytes
) -> bytes:
    path = tmp_path / "decode-me.jsonl"
    path.write_bytes(data)
    status, out, err = run(capsysbinary, "decode", str(path))
    assert (status, err) == (0, "")
    return out


def test_encode_nothing_on_read_resource_is_not_served(
    cli_frames: ModuleType, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    out = encode(capsysbinary, tmp_path, "read-resource", [], "x")
    assert out == b'{"channel":"x","kind":"read-resource","finish":true}\n'
    assert (
        run_decode_bytes(capsysbinary, tmp_path, out)
        == b'{"channel":"x","kind":"read-resource","event":"not_served"}\n'
    )


def test_encode_stdin_process() -> None:
    proc = run_process(
        "encode",
        "--channel",
        "read-resource",
        stdin=b'{"error": {"code": -32002, "message": "Resource not found"}}\n',
    )
    assert (proc.returncode, proc.stderr) == (0, b"")
    back = run_process("decode", "-", stdin=proc.stdout)
    assert (back.returncode, back.stderr) == (0, b"")
    assert back.stdout.splitlines() == [
        (
            b'{"channel":"1","kind":"read-resource","tag":1,"type":"ErrorData",'
            b'"value":{"code":-32002,"message":"Resource not found"}}'
        ),
        b'{"channel":"1","kind":"read-resource","event":"finished"}',
    ]


# ---------------------------------------------------------------- bad input

NOTE = b'\x00{"method":"notifications/tools/list_changed"}'
GOOD = record("1", "notifications", NOTE)

#: name -> (capture, line of the bad record, words the message must hold); line 0: the
#: capture ends with a channel still open (every record is printed, then the message).
BAD_CAPTURES = {
    "malformed line": (GOOD + b'{"channel":"1"\n', 2, ["not a capture record"]),
    "bad base64": (GOOD + b'{"channel":"1","kind":"notifications","payload":"A"}\n', 2, ["base64"]),
    "unknown kind": (GOOD + b'{"channel":"1","kind":"prompts","finish":true}\n', 2, ["'prompts'"]),
    "empty payload": (
        GOOD + record("1", "notifications", b""),
        2,
        ['channel "1"', "EmptyFrameError"],
    ),
    "unknown tag": (
        GOOD + record("1", "notifications", b"\x02{}"),
        2,
        ['channel "1"', "UnknownTagError", "2"],
    ),
    "bad body": (
        GOOD + record("r", "read-resource", b'\x00{"contents":[{"uri":1}]}'),
        2,
        ['channel "r"', "FrameBodyError", "$.contents[0].uri"],
    ),
    "after the error": (
        GOOD + record("1", "notifications", b'\x01{"code":1,"message":"m"}') + GOOD,
        3,
        ['channel "1"', "SequenceError"],
    ),
    "second result": (
        record("r", "read-resource", b'\x00{"contents":[]}') * 2,
        2,
        ['channel "r"', "SequenceError"],
    ),
    "finish twice": (
        GOOD + record("1", "notifications", finish=True) * 2,
        3,
        ['channel "1"', "SequenceError"],
    ),
    "reused after not served": (
        record("2", "read-resource", finish=True)
        + record("2", "read-resource", b'\x00{"contents":[]}'),
        2,
        ['channel "2"', "SequenceError"],
    ),
    "kind changes": (
        GOOD + record("1", "read-resource", finish=True),
        2,
        ['channel "1"', "read-resource"],
    ),
    "never finished": (
        GOOD + record("2", "read-resource", abort=True) + GOOD,
        0,
        ["(after line 3)", 'channel "1"', "no finish"],
    ),
}


def good_prefix(frames: ModuleType, data: bytes, bad_line: int) -> list[tuple[str, str, str, Any]]:
    """What decode must print before the bad record (all records when ``bad_line`` is
    0), as :func:`decoded` parses it."""
    lines = data.splitlines()
    out: list[tuple[str, str, str, Any]] = []
    answered: set[str] = set()
    for _, rec in capture.read_capture(lines[: bad_line - 1] if bad_line else lines):
        if rec.payload is not None:
            value = decoder(frames, rec.kind)(rec.payload)
            answered.add(rec.channel)
            out.append((rec.channel, rec.kind, type(value).__name__, value))
        else:
            event = (
                "aborted" if rec.abort else "finished" if rec.channel in answered else "not_served"
            )
            out.append((rec.channel, rec.kind, event, None))
    return out


@pytest.mark.parametrize("case", sorted(BAD_CAPTURES))
def test_bad_capture_in_process(
    case: str, cli_frames: ModuleType, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    data, line, words = BAD_CAPTURES[case]
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data)
    status, out, err = run(capsysbinary, "decode", str(path))
    assert status == 1
    assert decoded(cli_frames, out) == good_prefix(cli_frames, data, line)
    assert err.count("\n") == 1
    where = (
        f"diverge-frames: {path}: end of capture"
        if line == 0
        else f"diverge-frames: {path}:{line}: "
    )
    assert err.startswith(where)
    for word in words:
        assert word in err


@pytest.mark.parametrize("case", sorted(BAD_CAPTURES))
def test_bad_capture_process(case: str) -> None:
    data, line, words = BAD_CAPTURES[case]
    proc = run_process("decode", "-", stdin=data)
    err = proc.stderr.decode()
    assert proc.returncode == 1
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("diverge-frames: <stdin>")
    assert all(word in err for word in words)
    assert proc.stdout.count(b"\n") == len(good_prefix(_frames_py, data, line))


BAD_ENCODE = {
    "not JSON": ("notifications", [b'{"method":'], 1, ["not a JSON object"]),
    "not an object": ("notifications", [b'{"method":"x"}', b"[1]"], 2, ["not a JSON object"]),
    "not a notification": ("notifications", [b'{"params":{}}'], 1, ["FrameBodyError"]),
    "bad error": (
        "read-resource",
        [b'{"error":{"code":"x","message":"m"}}'],
        1,
        ["FrameBodyError", "ErrorData"],
    ),
    "after the error": (
        "notifications",
        [b'{"method":"x"}', b'{"error":{"code":1,"message":"m"}}', b'{"method":"y"}'],
        3,
        ["SequenceError"],
    ),
    "two results": (
        "read-resource",
        [b'{"contents":[]}', b"", b'{"contents":[]}'],
        3,
        ["SequenceError"],
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_ENCODE))
def test_bad_encode_input(
    case: str, cli_frames: ModuleType, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    kind, lines, line, words = BAD_ENCODE[case]
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    status, out, err = run(
        capsysbinary, "encode", "--channel", kind, "--channel-id", "c", str(path)
    )
    assert status == 1
    good = [b for b in lines[: line - 1] if b.strip()]
    assert len(out.splitlines()) == len(good), "a record per value before the bad line, no finish"
    assert b'"finish"' not in out
    assert err.count("\n") == 1
    for word in [f"{path}:{line}:", f'channel "c" ({kind})', *words]:
        assert word in err


def test_bad_encode_input_process() -> None:
    proc = run_process(
        "encode", "--channel", "notifications", stdin=b'{"method":"x"}\n{"method":\n'
    )
    assert proc.returncode == 1
    assert proc.stdout.count(b"\n") == 1
    assert proc.stderr.startswith(b"diverge-frames: <stdin>:2: ") and proc.stderr.count(b"\n") == 1
    assert b"Traceback" not in proc.stderr


def test_channel_id_is_quoted_in_messages(
    capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(record('a"\nb', "notifications", b""))
    status, _, err = run(capsysbinary, "decode", str(path))
    assert status == 1 and err.count("\n") == 1
    assert 'channel "a\\"\\nb" (notifications)' in err


def test_missing_file(capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    for argv in (["decode", str(missing)], ["encode", "--channel", "notifications", str(missing)]):
        status, out, err = run(capsysbinary, *argv)
        assert (status, out) == (1, b"")
        assert err.startswith(f"diverge-frames: {missing}: cannot open") and err.count("\n") == 1


def test_closed_pipe_is_quiet(tmp_path: Path) -> None:
    """A reader that stops early (``| head``): no traceback, no message."""
    big = max(bodies(EVERYTHING / "read_resource_results.jsonl"), key=len)
    path = tmp_path / "big.jsonl"
    path.write_bytes(
        b"".join(
            record(str(n), "read-resource", b"\x00" + big)
            + record(str(n), "read-resource", finish=True)
            for n in range(3)
        )
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "diverge_frames", "decode", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(10) == b'{"channel"'
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait() == cli.EXIT_BROKEN_PIPE == 141  # 128 + SIGPIPE, like `seq | head`
    assert err == b""


def test_closed_pipe_is_quiet_for_bench() -> None:
    """``bench | true``: the reader is gone before the table is written; quiet, 141."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "diverge_frames", "bench", "--rounds", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == cli.EXIT_BROKEN_PIPE
    assert err == b""


# ------------------------------------------------------- interrupts and I/O errors


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process: POSIX")
@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["decode", "-"], record("1", "notifications", b'\x00{"method":"x"}')),
        (["encode", "--channel", "notifications"], b'{"method":"x"}\n'),
    ],
)
def test_ctrl_c_exits_130_without_traceback(argv: list[str], line: bytes) -> None:
    """Ctrl-C while the command waits for input: status 130, nothing on stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "diverge_frames", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        # SIGINT as a terminal leaves it: a shell without job control starts a command
        # run in the background with SIGINT ignored, which its children inherit (and
        # Python then leaves ignored).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line)
    proc.stdin.flush()
    # Its output line (stdout unbuffered) says the command is in its loop, reading the
    # next line: the interrupt lands there, not in the interpreter's start-up.
    assert proc.stdout.readline().startswith(b'{"channel":"1"')
    proc.send_signal(signal.SIGINT)
    # Its stdin stays open until it has exited: closed first, on a loaded machine the
    # command may read the end of its input before the signal lands, and end cleanly.
    proc.wait(timeout=30)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == cli.EXIT_INTERRUPTED == 130
    assert err == b""


@pytest.mark.parametrize(
    "argv", [["decode"], ["encode", "--channel", "notifications", "-"], ["bench"]]
)
def test_keyboard_interrupt_in_process(
    argv: list[str], capsysbinary: pytest.CaptureFixture[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    from diverge_frames import _capture_bench

    def interrupt(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(capture, "read_capture", interrupt)
    monkeypatch.setattr(cli, "_payload", interrupt)
    monkeypatch.setattr(_capture_bench, "main", interrupt)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"method":"x"}\n')))
    assert run(capsysbinary, *argv) == (130, b"", "")


DEV_FULL = Path("/dev/full")


@pytest.mark.skipif(not DEV_FULL.exists(), reason="no /dev/full")
@pytest.mark.parametrize(
    "argv",
    [["decode"], ["encode", "--channel", "read-resource"], ["bench", "--rounds", "1"]],
    ids=["decode", "encode", "bench"],
)
def test_write_error_is_one_line(argv: list[str]) -> None:
    """``decode > /dev/full``: one line on stderr, status 1, no traceback."""
    with DEV_FULL.open("wb") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "diverge_frames", *argv],
            input=b'{"contents":[]}\n',
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
        )
    assert proc.returncode == 1
    assert proc.stderr == b"diverge-frames: cannot write to stdout: No space left on device\n"


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell closes stdout")
@pytest.mark.parametrize("command", ["decode", "bench --rounds 1"])
def test_closed_stdout_is_one_line(command: str) -> None:
    """Started with stdout closed (``>&-``): one line on stderr, status 1 (as ``cat``)."""
    proc = subprocess.run(
        ["sh", "-c", f'"$0" -m diverge_frames {command} >&-', sys.executable],
        stderr=subprocess.PIPE,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stderr == b"diverge-frames: cannot write to stdout: it is closed\n"


class _FailingStdin:
    """A stdin whose ``buffer`` gives ``lines``, then fails to read with EIO."""

    def __init__(self, lines: list[bytes]) -> None:
        self.buffer = self
        self._lines = list(lines)

    def readline(self, size: int = -1) -> bytes:
        if not self._lines:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return self._lines.pop(0)


@pytest.mark.parametrize("command", ["decode", "encode"])
def test_read_error_mid_file_is_one_line(
    command: str,
    cli_frames: ModuleType,
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A read that fails after two lines: their output, then one line naming the input
    and the last line read, status 1."""
    if command == "decode":
        lines = [record("1", "notifications", b'\x00{"method":"x"}')] * 2
        argv = ["decode", "-"]
    else:
        lines = [b'{"method":"x"}\n'] * 2
        argv = ["encode", "--channel", "notifications"]
    monkeypatch.setattr(sys, "stdin", _FailingStdin(lines))
    status, out, err = run(capsysbinary, *argv)
    assert status == 1
    assert out.count(b"\n") == 2
    assert err == f"diverge-frames: <stdin>: cannot read after line 2: {os.strerror(errno.EIO)}\n"


@pytest.mark.parametrize("command", ["decode", "encode"])
def test_memory_error_is_one_line(
    command: str,
    cli_frames: ModuleType,
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    def out_of_memory(*_: object) -> None:
        raise MemoryError

    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"method":"x"}\n')
    monkeypatch.setattr(capture, "read_capture", out_of_memory)
    monkeypatch.setattr(cli, "_payload", out_of_memory)
    argv = (
        ["decode", str(path)]
        if command == "decode"
        else ["encode", "--channel", "notifications", str(path)]
    )
    status, out, err = run(capsysbinary, *argv)
    assert (status, out) == (1, b"")
    assert err == f"diverge-frames: {path}: out of memory\n"


def test_encode_rejects_an_empty_channel_id(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """A capture cannot name a channel ``""`` (decode rejects it), so encode refuses it
    up front: a usage error, nothing written."""
    status, out, err = run(capsysbinary, "encode", "--channel", "notifications", "--channel-id", "")
    assert (status, out) == (2, b"")
    assert "argument --channel-id: must not be empty" in err


@pytest.mark.skipif(sys.platform == "win32", reason="command-line bytes: POSIX")
def test_encode_rejects_a_channel_id_that_is_not_utf8() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "diverge_frames",
            "encode",
            "--channel",
            "notifications",
            "--channel-id",
            b"a\xff",
        ],
        input=b"",
        capture_output=True,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert b"argument --channel-id: must be valid UTF-8" in proc.stderr
    assert b"Traceback" not in proc.stderr


@pytest.mark.parametrize("channel_id", ["a", "x y", "7", "\u00e9\u65e5", "-"])
def test_what_encode_writes_decode_reads(
    channel_id: str,
    cli_frames: ModuleType,
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(b'{"method":"notifications/tools/list_changed"}\n')
    status, written, _ = run(
        capsysbinary,
        "encode",
        "--channel",
        "notifications",
        f"--channel-id={channel_id}",
        str(source),
    )
    assert status == 0
    path = tmp_path / "capture.jsonl"
    path.write_bytes(written)
    status, out, err = run(capsysbinary, "decode", str(path))
    assert (status, err) == (0, "")
    assert [line["channel"] for line in map(msgspec.json.decode, out.splitlines())] == [
        channel_id
    ] * 2


LINE_BREAKERS = [
    "\n",
    "\r",
    "\r\n",
    "\u2028",
    "\u2029",
    "\x85",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1b[2J",
    "\x9b",
    "\x00",
    "\x7f",
    "\t",
]


@pytest.mark.parametrize("breaker", LINE_BREAKERS, ids=[repr(b) for b in LINE_BREAKERS])
def test_messages_escape_line_separators(
    breaker: str, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    """A channel id (or any text in a message) with a line separator or another control
    character: the message stays one line, by ``str.splitlines`` (which splits on
    U+2028, U+2029, U+0085, \\v, \\f, \\x1c-\\x1e too) and for a terminal."""
    path = tmp_path / "bad.jsonl"
    path.write_bytes(record(f"a{breaker}b", "notifications", b"\x07{}"))
    status, _, err = run(capsysbinary, "decode", str(path))
    assert status == 1
    assert len(err.splitlines()) == 1 and err.endswith("\n")
    assert not any(c in err[:-1] for c in "\x00\x1b\x7f\x85\x9b\u2028\u2029\r\n\t\x0b\x0c\x1c")
    assert "UnknownTagError" in err


def test_one_line_escapes_readably() -> None:
    assert _cli_io.one_line("a\nb\rc\td\u2028e\u2029f\x85g\x1bh\x7fi") == (
        "a\\nb\\rc\\td\\u2028e\\u2029f\\x85g\\x1bh\\x7fi"
    )
    assert _cli_io.one_line("plain, caf\u00e9, \u65e5\u672c") == "plain, caf\u00e9, \u65e5\u672c"


# ------------------------------------------------------------------- the rest


def test_version(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    status, out, _ = run(capsysbinary, "--version")
    assert status == 0
    assert (
        out.decode().strip()
        == f"diverge-frames {diverge_frames.__version__} ({diverge_frames.IMPLEMENTATION})"
    )


def test_help_has_examples(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    for argv in (["--help"], ["decode", "--help"], ["encode", "--help"]):
        status, out, _ = run(capsysbinary, *argv)
        assert status == 0
        assert b"python -m diverge_frames decode\n" in out
        assert b"encode --channel notifications" in out


def test_usage_errors(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    for argv in ([], ["encode"], ["encode", "--channel", "tools"], ["frobnicate"]):
        status, out, err = run(capsysbinary, *argv)
        assert (status, out) == (2, b"")
        assert "usage:" in err


def test_console_script_entry_point() -> None:
    from importlib.metadata import entry_points

    [script] = [e for e in entry_points(group="console_scripts") if e.name == "diverge-frames"]
    assert script.load() is cli.main


@pytest.mark.parametrize("command", ["decode", "encode", "bench"])
def test_a_line_over_the_limit_stops_after_the_lines_before_it(
    command: str,
    cli_frames: ModuleType,
    capsysbinary: pytest.CaptureFixture[bytes],
    tmp_path: Path,
) -> None:
    """Two lines within ``--max-line-size``, then a longer one: the two lines' output,
    one line naming the third, status 1; a line of exactly the limit is read."""
    if command == "encode":
        good, argv = b'{"method":"x"}', ["encode", "--channel", "notifications"]
    else:
        good = record("1", "notifications", b'\x00{"method":"x"}').rstrip(b"\n")
        argv = [command]
    path = tmp_path / "input.jsonl"
    limit = len(good)
    path.write_bytes(good + b"\n" + good + b"\n" + good + b" \n" + good + b"\n")
    status, out, err = run(capsysbinary, *argv, "--max-line-size", str(limit), str(path))
    assert status == 1
    assert err == (
        f"diverge-frames: {path}:3: line longer than {limit:,} bytes "
        "(the limit; --max-line-size to raise it)\n"
    )
    if command != "bench":  # bench reads the whole capture before it prints anything
        assert out.count(b"\n") == 2
    # a line of the limit with its newline, then one without (the last)
    last = good if command == "encode" else record("1", "notifications", finish=True).strip()
    path.write_bytes(good + b"\n" + last)
    status, out, err = run(capsysbinary, *argv, "--max-line-size", str(limit), str(path))
    assert (status, err) == (0, "")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
@pytest.mark.skipif(
    "libasan" in os.environ.get("LD_PRELOAD", ""),
    reason="ASan's shadow memory and quarantine are in the resident size, not the CLI's",
)
@pytest.mark.parametrize("command", ["decode -", "encode --channel notifications", "bench -"])
def test_an_endless_line_stops_at_once_in_bounded_memory(command: str) -> None:
    """``< /dev/zero``: no line break ever; the command stops at the limit with one
    line, no traceback, and memory near the limit (here 1M)."""
    code = (  # the peak from VmHWM: ru_maxrss may keep the parent's across exec
        "import sys\n"
        "from diverge_frames.__main__ import main\n"
        "status = main(sys.argv[1:])\n"
        "with open('/proc/self/status') as f:\n"
        "    peak = next(l.split()[1] for l in f if l.startswith('VmHWM:'))\n"
        "print(peak, file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run(
            [sys.executable, "-c", code, *command.split(), "--max-line-size", "1M"],
            stdin=zero,
            capture_output=True,
            timeout=60,
            check=False,
        )
    message, peak = proc.stderr.decode().splitlines()
    assert proc.returncode == 1
    assert message == (
        "diverge-frames: <stdin>:1: line longer than 1,048,576 bytes "
        "(the limit; --max-line-size to raise it)"
    )
    assert int(peak) < 60_000  # KiB: about 19 MiB for the interpreter and the package


def test_max_line_size_takes_units_and_refuses_nonsense(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    assert [_cli_io.line_size(t) for t in ("1", "512k", "64M", "1G", "2KiB", "3mb")] == [
        1,
        512 * 1024,
        64 * 1024**2,
        1024**3,
        2048,
        3 * 1024**2,
    ]
    for bad in ("0", "-1", "x", "1.5M", "", "M", "\u00b2"):
        with pytest.raises(ValueError, match="not a size"):
            _cli_io.line_size(bad)
        status, out, err = run(capsysbinary, "decode", "--max-line-size", bad)
        assert (status, out) == (2, b"")
        assert "not a size of at least 1 byte" in err


def test_no_command_names_every_command(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    status, out, err = run(capsysbinary)
    assert (status, out) == (2, b"")
    assert err.splitlines()[-1].endswith("error: a command is required (encode, decode or bench)")


@pytest.mark.parametrize("data", [b"", b"\n\n  \n"])
def test_an_empty_capture_is_said_on_stderr(
    data: bytes,
    cli_frames: ModuleType,
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, err = run(capsysbinary, "decode", "-")
    assert (status, out) == (0, b"")
    assert err == "diverge-frames: <stdin>: no records (an empty capture): nothing to print\n"


def test_encode_says_a_read_resource_value_is_one_run(
    cli_frames: ModuleType,
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = b'{"contents":[]}\n{"contents":[]}\n'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, err = run(capsysbinary, "encode", "--channel", "read-resource")
    assert status == 1
    assert out.count(b"\n") == 1  # the first value's record
    assert err.startswith('diverge-frames: <stdin>:2: channel "1" (read-resource): SequenceError')
    assert err.endswith(
        "(encode writes one channel per run: run it once per read-resource value, each "
        "with its own --channel-id, and concatenate the captures)\n"
    )
