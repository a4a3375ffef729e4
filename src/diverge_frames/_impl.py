"""Pick the hot path: the compiled one when it imports, unless
``DIVERGE_FRAMES_NO_EXTENSIONS`` is set to a non-empty value or the interpreter is not
CPython (the extension is built for CPython's C API only).

The only module that imports the pure-Python twin."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from types import BuiltinFunctionType
from typing import Any, Protocol

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


def document(function: Callable[..., Any], doc: str) -> None:
    """Give ``function``, one of the hot path's public functions, its docstring ``doc``.

    The compiled twin's are builtin functions (called faster than Cython's own function
    objects), whose ``__doc__`` cannot be assigned: they get ``doc`` and the pure twin's
    signature through ``_frames_c._set_doc``."""
    if isinstance(function, BuiltinFunctionType):
        code = getattr(_frames_py, function.__name__).__code__
        params = ", ".join(code.co_varnames[: code.co_argcount])
        frames._set_doc(function, f"{function.__name__}({params})\n--\n\n{doc}")  # type: ignore[attr-defined]
    else:
        function.__doc__ = doc
