"""Every test that takes ``frames`` runs against both hot paths, the aio-libs way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from diverge_frames import _frames_py

try:
    from diverge_frames import _frames_c
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None

DATA = Path(__file__).parent / "data"

IMPLEMENTATIONS = {"python": _frames_py, "cython": _frames_c}
#: Set DIVERGE_FRAMES_REQUIRE_EXTENSIONS=1 (CI does) to fail rather than skip when the
#: compiled module is missing.
REQUIRE_EXTENSIONS = bool(os.environ.get("DIVERGE_FRAMES_REQUIRE_EXTENSIONS"))


@pytest.fixture(params=["python", "cython"])
def frames(request: pytest.FixtureRequest):
    """The hot-path module under test: ``_frames_py`` or ``_frames_c``."""
    module = IMPLEMENTATIONS[request.param]
    if module is None:
        if REQUIRE_EXTENSIONS:
            pytest.fail("the compiled extension diverge_frames._frames_c did not build")
        pytest.skip("compiled extension not built")
    return module
