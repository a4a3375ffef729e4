"""``scripts/fuzz.sh`` where it cannot fuzz: one line saying why, status 2 (not 1, which
means a finding)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent.parent / "scripts" / "fuzz.sh"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_without_atheris_nothing_is_fuzzed_and_it_says_so() -> None:
    if importlib.util.find_spec("atheris") is not None:
        pytest.skip("atheris is installed here")
    proc = subprocess.run(
        ["bash", str(SCRIPT), "1"],
        env={"PATH": "/usr/bin:/bin", "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (2, "")
    expected = (
        f"scripts/fuzz.sh: atheris is not installed for {sys.executable} "
        "(pip install atheris; see fuzz/README.md): nothing fuzzed"
    )
    assert proc.stderr.splitlines() == [expected]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_a_bad_duration_is_refused() -> None:
    proc = subprocess.run(
        ["bash", str(SCRIPT), "soon"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert "SECONDS must be a whole number" in proc.stderr
