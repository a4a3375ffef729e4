"""diverge-frames: the MCP channel frames of the Diverge provider protocol.

A channel payload is one tag byte and JSON. :mod:`diverge_frames.notifications` and
:mod:`diverge_frames.read_resource` decode and encode them; :mod:`diverge_frames.types`
holds the MCP values (rmcp 3.1's serde shapes as msgspec Structs);
:mod:`diverge_frames.channel` holds the sequence rules. :func:`convert` and
:func:`to_builtins` turn values to and from plain Python as the channels read and write
them; :func:`json_schema` describes them.

``IMPLEMENTATION`` is ``"cython"`` when the compiled hot path is in use, ``"python"``
otherwise (no compiler at install time, or ``DIVERGE_FRAMES_NO_EXTENSIONS=1``).
"""

from __future__ import annotations

from collections.abc import Callable

from . import notifications, read_resource, types
from ._convert import convert, json_schema, to_builtins
from ._impl import IMPLEMENTATION
from ._names import public_dir
from .errors import (
    EmptyFrameError,
    FrameBodyError,
    FrameError,
    PayloadTooLargeError,
    SequenceError,
    UnknownTagError,
)
from .types import (
    CustomNotification,
    ErrorData,
    ReadResourceResult,
    ServerNotification,
)

__version__ = "0.1.0"

__all__ = [
    "IMPLEMENTATION",
    "__version__",
    "notifications",
    "read_resource",
    "types",
    "FrameError",
    "EmptyFrameError",
    "UnknownTagError",
    "FrameBodyError",
    "PayloadTooLargeError",
    "SequenceError",
    "ServerNotification",
    "CustomNotification",
    "ReadResourceResult",
    "ErrorData",
    "convert",
    "to_builtins",
    "json_schema",
]

#: The public submodules: ``dir(diverge_frames)`` lists those imported so far (errors,
#: notifications, read_resource and types with the package, the others when imported;
#: ``mcp`` needs the MCP Python SDK).
_SUBMODULES = (
    "aio", "capture", "channel", "errors", "mcp", "notifications", "read_resource", "types"
)  # fmt: skip

__dir__: Callable[[], list[str]] = public_dir(__all__, _SUBMODULES, globals())
