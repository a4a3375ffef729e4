"""Pick the frame codec's twin: ``_frames_c`` (compiled) when it imports, else ``_frames_py``.

The compiled twin is skipped when ``DIVERGE_FRAMES_NO_EXTENSIONS`` is set to a non-empty
value or the interpreter is not CPython (the extension is built for CPython's C API
only). The only module that imports the pure-Python twin, and only when it is the one
used: importing the compiled twin does not import the pure one.
"""

from __future__ import annotations

import os
import sys
from typing import Protocol

from ._wire import Payload
from .types import ErrorData, ReadResourceResult, ServerNotification


class _HotPath(Protocol):
    """What both twins define, ``_frames_py`` and ``_frames_c`` (typed by its ``.pyi``).

    A type checker holds each module to it.
    """

    def decode_notification(self, payload: Payload) -> ServerNotification | ErrorData: ...
    def encode_notification(self, value: ServerNotification | ErrorData) -> bytes: ...
    def decode_read_resource(self, payload: Payload) -> ReadResourceResult | ErrorData: ...
    def encode_read_resource(self, value: ReadResourceResult | ErrorData) -> bytes: ...


NO_EXTENSIONS = (
    bool(os.environ.get("DIVERGE_FRAMES_NO_EXTENSIONS")) or sys.implementation.name != "cpython"
)


def _pick() -> tuple[_HotPath, str]:
    if not NO_EXTENSIONS:  # pragma: no branch
        try:
            from . import _frames_c
        except ImportError:  # pragma: no cover - no compiler at install time
            pass
        else:
            return _frames_c, "cython"
    from . import _frames_py

    return _frames_py, "python"


frames, IMPLEMENTATION = _pick()
