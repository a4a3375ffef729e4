"""examples/relay.py runs against each real server and relays what it should."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).parents[2] / "examples" / "relay.py"


def test_example_relay(server) -> None:
    argv = [sys.executable, str(EXAMPLE), server.work["name"], json.dumps(server.work["arguments"])]
    done = subprocess.run(
        [*argv, *server.argv], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    progress = [line for line in lines if line.startswith("notification notifications/progress ")]
    assert len(progress) == server.progress_steps
    for line in progress:
        assert line.split(" ", 2)[2].startswith('{"method":"notifications/progress","params":{')
    reads = [line.split(" ", 2) for line in lines if line.startswith("read ")]
    assert len(reads) == 3
    assert all(what.startswith("['") for _, _, what in reads[:2])
    assert reads[2][1] == "nope://x" and reads[2][2].startswith("error -3")
    assert lines[-1] == "notification channel finished"
