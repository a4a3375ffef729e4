"""The C of the compiled twin against byte-by-byte references: the scanners
(``src/diverge_frames/_scan.h``, checked by ``tests/c/test_scan.c``) and the string
functions (``_strings.h``, checked by ``tests/c/test_strings.c`` on every path the CPU
has: AVX-512, AVX2, SSE2, SWAR), their writing of a str's content by
``tests/c/test_write.c``, their UTF-8 transcoding (``_transcode_avx512.h`` and
``_transcode_avx2.h``, each path the CPU has) by ``tests/c/test_transcode.c``; and the
glance of ``_serde_json_glance.h``, 64 bytes a block, against its byte loop by
``tests/c/test_glance.c``.

Each program is compiled with the C compiler that builds the extension and run twice:
as built by default (SSE2 on x86-64) and with ``-DDF_SCALAR``, the fallback path that
arm64 wheels run, so that both are exercised on any machine with a compiler.
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
SOURCES = {
    "_scan.h": (Path(__file__).parent / "c" / "test_scan.c", "every scanner matches"),
    "_strings.h": (Path(__file__).parent / "c" / "test_strings.c", "every string function matches"),
    "_strings.h write": (
        Path(__file__).parent / "c" / "test_write.c",
        "every string write matches",
    ),
    "_strings.h transcode": (
        Path(__file__).parent / "c" / "test_transcode.c",
        "every transcoding matches",
    ),
    "_serde_json_glance.h": (
        Path(__file__).parent / "c" / "test_glance.c",
        "the glance matches",
    ),
}


def _compiler() -> list[str] | None:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    command = shlex.split(cc)
    return command if command and shutil.which(command[0]) else None


@pytest.mark.heavy
@pytest.mark.skipif(not (HEADER_DIR / "_scan.h").exists(), reason="no source tree")
@pytest.mark.parametrize("header", sorted(SOURCES))
@pytest.mark.parametrize("path", ["default", "DF_SCALAR"])
def test_c_matches_reference(header: str, path: str, tmp_path: Path) -> None:
    source, ok = SOURCES[header]
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler")
    binary = tmp_path / "test_scan"
    flags = ["-DDF_SCALAR", "-funsigned-char"] if path == "DF_SCALAR" else []
    subprocess.run(
        [
            *cc,
            "-O2",
            "-Wall",
            "-Werror",
            *flags,
            "-I",
            str(HEADER_DIR),
            str(source),
            "-o",
            str(binary),
        ],
        check=True,
    )
    run = subprocess.run([str(binary)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    expected_sse2 = "0" if path == "DF_SCALAR" else None
    assert f"ok: {ok} its reference" in run.stdout
    if expected_sse2 is not None:
        assert "DF_SSE2=0" in run.stdout
