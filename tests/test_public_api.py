"""The public surface: names, the implementation switch, docstrings."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from typing import Any

import pytest

import diverge_frames
from diverge_frames import _frames_py, _impl, errors, notifications, read_resource, types

try:
    from diverge_frames import _frames_c
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None

HOT_PATH = (
    "decode_notification",
    "encode_notification",
    "decode_read_resource",
    "encode_read_resource",
)


def _run(env_value: str | None) -> str:
    """``diverge_frames.IMPLEMENTATION`` in a fresh interpreter with
    ``DIVERGE_FRAMES_NO_EXTENSIONS`` set to ``env_value`` (unset for ``None``)."""
    env = {k: v for k, v in os.environ.items() if k != "DIVERGE_FRAMES_NO_EXTENSIONS"}
    if env_value is not None:
        env["DIVERGE_FRAMES_NO_EXTENSIONS"] = env_value
    code = (
        "import diverge_frames as d\n"
        "from diverge_frames import _impl, notifications as n, read_resource as r\n"
        "assert n.decode is _impl.frames.decode_notification\n"
        "assert r.encode is _impl.frames.encode_read_resource\n"
        "assert n.decode(b'\\x00{\"method\":\"x/y\"}').method == 'x/y'\n"
        "print(d.IMPLEMENTATION, _impl.frames.__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_implementation_is_the_compiled_one_when_built() -> None:
    expected = "python" if _frames_c is None or _impl.NO_EXTENSIONS else "cython"
    assert expected == diverge_frames.IMPLEMENTATION
    assert _impl.frames is (_frames_py if expected == "python" else _frames_c)


def test_no_extensions_forces_python() -> None:
    assert _run("1") == "python diverge_frames._frames_py"


def test_empty_no_extensions_keeps_the_default() -> None:
    expected = (
        "python diverge_frames._frames_py"
        if _frames_c is None
        else "cython diverge_frames._frames_c"
    )
    assert _run("") == expected
    assert _run(None) == expected


def test_twins_have_the_same_functions() -> None:
    if _frames_c is None:
        pytest.skip("compiled extension not built")
    for name in HOT_PATH:
        assert callable(getattr(_frames_py, name)) and callable(getattr(_frames_c, name))


def test_module_functions_are_the_selected_hot_path() -> None:
    assert notifications.decode is _impl.frames.decode_notification
    assert notifications.encode is _impl.frames.encode_notification
    assert read_resource.decode is _impl.frames.decode_read_resource
    assert read_resource.encode is _impl.frames.encode_read_resource


def test_public_functions_work() -> None:
    note = notifications.decode(
        b'\x00{"method":"notifications/progress","params":{"progressToken":1,"progress":2}}'
    )
    assert note == types.ProgressNotification(
        params=types.ProgressNotificationParam(progress_token=1, progress=2.0)
    )
    assert note.method == "notifications/progress"
    assert notifications.decode(notifications.encode(note)) == note
    result = read_resource.decode(b'\x00{"contents":[{"uri":"a://b","blob":"AA=="}]}')
    assert result == types.ReadResourceResult(
        contents=[types.BlobResourceContents(uri="a://b", blob="AA==")]
    )
    assert read_resource.decode(read_resource.encode(result)) == result
    error = types.ErrorData(-32601, "Method not found")
    assert notifications.decode(notifications.encode(error)) == error
    assert read_resource.decode(read_resource.encode(error)) == error
    assert (notifications.TAG_NOTIFICATION, notifications.TAG_ERROR) == (0, 1)
    assert (read_resource.TAG_RESULT, read_resource.TAG_ERROR) == (0, 1)


def test_all_names_exist() -> None:
    for module in (diverge_frames, notifications, read_resource, types, errors):
        for name in module.__all__:
            assert hasattr(module, name), f"{module.__name__}.{name}"
    assert diverge_frames.__version__ == "0.1.0"


def _public() -> list[Any]:
    """Every class and function named in a public module's ``__all__`` (type aliases
    such as ``ServerNotification`` are ``typing`` objects and carry no docstring)."""
    items = []
    for module in (diverge_frames, notifications, read_resource, types, errors):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) or (callable(obj) and not hasattr(obj, "__origin__")):
                items.append(pytest.param(obj, id=f"{module.__name__}.{name}"))
    return items


@pytest.mark.parametrize("obj", _public())
def test_public_classes_and_functions_have_docstrings(obj: Any) -> None:
    assert inspect.getdoc(obj)


def test_hot_path_functions_are_documented() -> None:
    for function in (
        notifications.decode,
        notifications.encode,
        read_resource.decode,
        read_resource.encode,
    ):
        doc = inspect.getdoc(function)
        assert doc and "Raises" in doc
    for function in (notifications.encode_request, notifications.decode_request):
        assert inspect.getdoc(function)


@pytest.mark.parametrize(
    "module",
    [notifications, read_resource, types, errors, "capture", "aio", "mcp", "channel"],
)
def test_dir_of_a_public_module_is_its_public_names(module: Any) -> None:
    if isinstance(module, str):
        import importlib

        if module == "mcp":  # the bridge needs the MCP Python SDK (the mcp extra)
            pytest.importorskip("mcp")
        module = importlib.import_module(f"diverge_frames.{module}")
    assert dir(module) == sorted(module.__all__)


def test_dir_of_the_package_is_its_public_names_and_submodules() -> None:
    import importlib
    import sys

    import diverge_frames

    importlib.import_module("diverge_frames.channel")
    importlib.import_module("diverge_frames.aio")
    submodules = {
        name for name in diverge_frames._SUBMODULES if f"diverge_frames.{name}" in sys.modules
    }
    assert {"channel", "aio", "notifications", "types"} <= submodules
    assert dir(diverge_frames) == sorted({*diverge_frames.__all__, *submodules})
    assert not [
        name for name in dir(diverge_frames) if name.startswith("_") and name != "__version__"
    ]


def test_the_sdk_names_are_the_last_six_of_types_all() -> None:
    """``types``' docstring: the last six of ``__all__`` are the MCP SDK's names for
    classes listed before them under rmcp's."""
    sdk, rmcp = types.__all__[-6:], types.__all__[:-6]
    assert "ProgressNotificationParams" in sdk
    for name in sdk:
        cls = getattr(types, name)
        assert cls.__name__ != name and cls.__name__ in rmcp, name
    assert all(
        getattr(types, name).__name__ == name
        for name in rmcp
        if name[0].isupper() and isinstance(getattr(types, name), type)
    )
