"""``python -m benchmarks.relay`` runs, and its loops agree (ours write the same bytes,
all serve the same channels): a quick run, one round of tiny measurements; the
figures themselves are the benchmark's, never asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _relay(tmp_path: Path, *args: str) -> dict[str, Any]:
    """What a quick ``python -m benchmarks.relay ARGS`` writes with ``--json``."""
    if not (ROOT / "benchmarks" / "relay.py").exists():
        pytest.skip("no benchmarks/ here")
    out = tmp_path / "relay.json"
    subprocess.run(
        [sys.executable, "-m", "benchmarks.relay", *args, "--json", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_relay_benchmark_runs(tmp_path: Path) -> None:
    result = _relay(tmp_path, "--rounds", "1", "--target-ms", "0.05")
    assert result.keys() == {"corpus", "stream", "capture"}
    # 46 channels of the corpus, all served; the capture: 20, one not served, one aborted.
    assert (result["corpus"]["channels"], result["corpus"]["served"]) == (46, 46)
    assert (result["stream"]["frames"], result["stream"]["served"]) == (71, 1)
    assert (result["capture"]["channels"], result["capture"]["served"]) == (20, 18)
    for each in result.values():
        assert {"channel", "receive_value", "values", "minimal", "bare"} <= each["loops"].keys()
        assert all(row["ns_per_frame"] > 0 for row in each["loops"].values())


def test_layer_benchmark_runs(tmp_path: Path) -> None:
    """``--layer``: the channel layer alone, every loop over the 71 notifications."""
    result = _relay(tmp_path, "--layer", "--rounds", "1", "--target-ms", "0.05")["layer"]
    assert result["frames"] == 71
    loops = result["loops"]
    assert {"decode", "pure receive_value", "pure receive", "pure receive + value"} <= loops.keys()
    assert all(row["ns_per_frame"] > 0 for row in loops.values())
