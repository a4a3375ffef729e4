"""The C scanners (``src/diverge_frames/_scan.h``) against byte-by-byte references.

``tests/c/test_scan.c`` is compiled with the C compiler that builds the extension and
run twice: as built by default (SSE2 on x86-64) and with ``-DDF_SCALAR``, the fallback
path that arm64 wheels run, so that both are exercised on any machine with a compiler.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEADER_DIR = ROOT / "src" / "diverge_frames"
SOURCE = Path(__file__).parent / "c" / "test_scan.c"


def _compiler() -> list[str] | None:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    command = shlex.split(cc)
    return command if command and shutil.which(command[0]) else None


@pytest.mark.skipif(not (HEADER_DIR / "_scan.h").exists(), reason="no source tree")
@pytest.mark.parametrize("path", ["default", "DF_SCALAR"])
def test_scanners_match_reference(path: str, tmp_path: Path) -> None:
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler")
    binary = tmp_path / "test_scan"
    flags = ["-DDF_SCALAR"] if path == "DF_SCALAR" else []
    subprocess.run(
        [
            *cc,
            "-O2",
            "-Wall",
            "-Werror",
            *flags,
            "-I",
            str(HEADER_DIR),
            str(SOURCE),
            "-o",
            str(binary),
        ],
        check=True,
    )
    run = subprocess.run([str(binary)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    expected_sse2 = "0" if path == "DF_SCALAR" else None
    assert "ok: every scanner matches its reference" in run.stdout
    if expected_sse2 is not None:
        assert "DF_SSE2=0" in run.stdout
