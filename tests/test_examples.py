"""Each program in examples/ runs with no arguments from any directory, without a
traceback; one that lacks something says so in one line.

(``tests/e2e/test_example.py`` runs ``examples/relay.py`` against real MCP servers.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PY_SERVER = Path(__file__).resolve().parent / "e2e" / "servers" / "py_server.py"


def run(
    *argv: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


@pytest.fixture
def without_mcp(tmp_path: Path) -> dict[str, str]:
    """An environment in which ``import mcp`` fails, as without the [mcp] extra."""
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "mcp.py").write_text("raise ImportError('mcp is not installed')\n")
    path = os.pathsep.join([str(shadow), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path}


def test_every_example_is_tested() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == ["mcp_session.py", "relay.py"]


def test_relay_relays_the_sample(tmp_path: Path) -> None:
    done = run(str(EXAMPLES / "relay.py"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # the sample's 20 channels, each once, each with how it ended
    assert sorted(int(line.split()[1]) for line in lines) == list(range(1, 21))
    assert "channel 1 (notifications): finished after 70 notifications" in lines
    assert "channel 19 (read-resource): not served" in lines
    assert "channel 20 (notifications): aborted after 1 notification (a frame cut short)" in lines
    assert any(
        line.startswith("channel 18 (notifications): 3 notifications, then error") for line in lines
    )
    assert sum("['TextResourceContents']" in line for line in lines) == 8


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (["work"], 2, "usage: python examples/relay.py [TOOL ARGS_JSON SERVER COMMAND...]"),
        (["work", "{", "x"], 1, "relay.py: JSONDecodeError: "),
        (["work", "{}", "no-such-command-here"], 1, "relay.py: FileNotFoundError: "),
    ],
)
def test_relay_bad_arguments(tmp_path: Path, argv: list[str], status: int, message: str) -> None:
    done = run(str(EXAMPLES / "relay.py"), *argv, cwd=tmp_path)
    assert done.returncode == status
    assert done.stdout == "" and done.stderr.count("\n") == 1
    assert done.stderr.startswith(message)


def test_relay_server_that_exits(tmp_path: Path, without_mcp: dict[str, str]) -> None:
    """A server that cannot start (the SDK missing) ends the relay at once, in one line."""
    argv = ["work", json.dumps({"steps": 2}), sys.executable, str(PY_SERVER)]
    done = run(str(EXAMPLES / "relay.py"), *argv, cwd=tmp_path, env=without_mcp)
    assert done.returncode == 1
    assert done.stderr == (
        "relay.py: ConnectionError: the server exited (1): ImportError: mcp is not installed\n"
    )


def test_mcp_session(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    done = run(str(EXAMPLES / "mcp_session.py"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    kinds = [line.split()[1] for line in lines if line.startswith("notification ")]
    assert kinds == [
        "ProgressNotification",
        "LoggingMessageNotification",
        "ProgressNotification",
        "LoggingMessageNotification",
        "ResourceListChangedNotification",
    ]
    assert lines[-2:] == [
        "read mem://greeting ['héllo wörld']",
        "read mem://missing error -32002 Resource not found",
    ]


def test_mcp_session_without_the_sdk(tmp_path: Path, without_mcp: dict[str, str]) -> None:
    done = run(str(EXAMPLES / "mcp_session.py"), cwd=tmp_path, env=without_mcp)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        'examples/mcp_session.py needs the MCP Python SDK: pip install "diverge-frames[mcp]"\n'
    )
