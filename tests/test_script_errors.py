"""The repository's measuring scripts at the command line: ``--help`` works, and what
they cannot do (a missing plotting library, an unknown shape, a size that is not one)
is one message and status 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).parent.parent / "scripts"

#: Runs a script with ``matplotlib`` unimportable, as where it is not installed.
WITHOUT_MATPLOTLIB = (
    "import runpy, sys; sys.modules['matplotlib'] = None; sys.argv = sys.argv[1:]; "
    "runpy.run_path(sys.argv[0], run_name='__main__')"
)


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, check=False, timeout=120
    )


def test_charts_without_matplotlib_says_so(tmp_path: Path) -> None:
    result = tmp_path / "m.json"
    result.write_text("{}")
    proc = _run("-c", WITHOUT_MATPLOTLIB, str(SCRIPTS / "charts.py"), str(result))
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.splitlines() == [
        "charts.py: matplotlib is not installed (pip install -r docs/requirements.txt)"
    ]


def test_charts_help_without_matplotlib() -> None:
    proc = _run("-c", WITHOUT_MATPLOTLIB, str(SCRIPTS / "charts.py"), "--help")
    assert proc.returncode == 0
    assert proc.stdout.startswith("usage: charts.py")


def test_per_byte_cost_help_lists_the_shapes() -> None:
    proc = _run(str(SCRIPTS / "per_byte_cost.py"), "--help")
    assert proc.returncode == 0
    assert "  'progress _meta'\n" in proc.stdout
    assert "  'integer digits'\n" in proc.stdout


@pytest.mark.parametrize(
    ("argv", "last_line"),
    [
        (["nope"], "unknown shape 'nope'; --help lists them"),
        (
            ["progress _meta", "abc"],
            "per_byte_cost.py: error: argument sizes: not a size in bytes: 'abc'",
        ),
        (
            ["progress _meta", "0"],
            "per_byte_cost.py: error: argument sizes: not a size in bytes: '0'",
        ),
    ],
)
def test_per_byte_cost_refuses_in_one_message(argv: list[str], last_line: str) -> None:
    proc = _run(str(SCRIPTS / "per_byte_cost.py"), *argv)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[-1] == last_line
