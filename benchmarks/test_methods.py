"""``python -m benchmarks.methods``: every frame of the corpus's notifications and
errors falls in the group of its method or code, each group is timed against the
floor, and the command prints one row per group."""

from __future__ import annotations

import json

import pytest

from benchmarks import cases, methods, peers


def test_every_real_frame_is_in_the_group_of_its_method() -> None:
    groups = methods.groups()
    grouped = [p for _, frames in groups.values() for p in frames]
    real = [p for c in cases.real() if c.name in methods.CASES for p in c.payloads]
    assert sorted(grouped) == sorted(real)
    for key, (channel, frames) in groups.items():
        for payload in frames:
            body = json.loads(payload[1:])
            assert key == body.get("method", f"error {body.get('code')}")
            assert channel == "notifications"
    assert "notifications/tasks/status" in groups and "error -32601" in groups


@pytest.mark.skipif(peers.twin("compiled") is None, reason="the compiled twin is not built")
def test_the_command_prints_a_row_per_group(capsys: pytest.CaptureFixture[str]) -> None:
    assert methods.main(["--rounds", "1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["group"] for r in rows] == list(methods.groups())
    for row in rows:
        assert row["frames"] == len(methods.groups()[row["group"]][1])
        assert row["ns"]["compiled"] > 0 and row["ns"]["msgspec"] > 0
        assert row["compiled_over_minimal"] > 0
    methods.main(["--rounds", "1"])
    table = capsys.readouterr().out.splitlines()
    assert len([line for line in table if line.startswith("| notifications/")]) == len(
        [r for r in rows if r["group"].startswith("notifications/")]
    )
