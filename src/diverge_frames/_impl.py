"""Pick the hot path: the compiled one when it imports, unless
``DIVERGE_FRAMES_NO_EXTENSIONS`` is set to a non-empty value or the interpreter is not
CPython (the extension is built for CPython's C API only).

The only module that imports the pure-Python twin."""

from __future__ import annotations

import os
import sys
from typing import Protocol

from . import _frames_py
from ._wire import Payload
from .types import ErrorData, ReadResourceResult, ServerNotification


class _HotPath(Protocol):
    """What both twins define, ``_frames_py`` and ``_frames_c`` (typed by its ``.pyi``);
    a type checker holds each module to it."""

    def decode_notification(self, payload: Payload) -> ServerNotification | ErrorData: ...
    def encode_notification(self, value: ServerNotification | ErrorData) -> bytes: ...
    def decode_read_resource(self, payload: Payload) -> ReadResourceResult | ErrorData: ...
    def encode_read_resource(self, value: ReadResourceResult | ErrorData) -> bytes: ...


NO_EXTENSIONS = (
    bool(os.environ.get("DIVERGE_FRAMES_NO_EXTENSIONS")) or sys.implementation.name != "cpython"
)

frames: _HotPath = _frames_py
IMPLEMENTATION = "python"
if not NO_EXTENSIONS:  # pragma: no branch
    try:
        from . import _frames_c
    except ImportError:  # pragma: no cover - no compiler at install time
        pass
    else:
        frames = _frames_c
        IMPLEMENTATION = "cython"
