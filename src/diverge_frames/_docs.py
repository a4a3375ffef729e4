"""The docstrings of the frame codec's public functions, given where they are defined."""

from __future__ import annotations

from collections.abc import Callable
from types import BuiltinFunctionType
from typing import Any

from ._impl import frames


def document(function: Callable[..., Any], doc: str) -> None:
    """Give ``function``, one of the twin's public functions, its docstring ``doc``.

    The compiled twin's are builtin functions (called faster than Cython's own function
    objects), whose ``__doc__`` cannot be assigned: they get ``doc`` through
    ``_frames_c._set_doc``, which writes their signature first.
    """
    if isinstance(function, BuiltinFunctionType):
        frames._set_doc(function, doc)  # type: ignore[attr-defined]
    else:
        function.__doc__ = doc
