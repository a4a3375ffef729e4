"""Pick the hot path: the compiled one when it imports, unless
``DIVERGE_FRAMES_NO_EXTENSIONS`` is set to a non-empty value."""

from __future__ import annotations

import os
from types import ModuleType

from . import _frames_py

NO_EXTENSIONS = bool(os.environ.get("DIVERGE_FRAMES_NO_EXTENSIONS"))

frames: ModuleType = _frames_py
IMPLEMENTATION = "python"
if not NO_EXTENSIONS:  # pragma: no branch
    try:
        from . import _frames_c
    except ImportError:  # pragma: no cover - no compiler at install time
        pass
    else:
        frames = _frames_c
        IMPLEMENTATION = "cython"
