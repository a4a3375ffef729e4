"""The compiled module's stub, ``_frames_c.pyi``, says what ``_frames_py`` does.

Type checkers read the stub for ``diverge_frames._frames_c``; these tests hold it to
the pure-Python twin (same public functions, parameters and types) and to the compiled
module itself, and run ``tests/typing_sample.py`` (the typed use that ``mypy --strict``
checks) under both implementations.
"""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import inspect
import os
import subprocess
import sys
import typing
from pathlib import Path
from types import ModuleType

import helpers
import pytest

from diverge_frames import _frames_py

try:
    from diverge_frames import _frames_c
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None

#: The installed stub, next to the module it describes (so a wheel's is checked).
STUB = Path(_frames_py.__file__).with_name("_frames_c.pyi")
SAMPLE = Path(__file__).with_name("typing_sample.py")


def _public_functions(module: ModuleType) -> dict[str, typing.Any]:
    """The public functions ``module`` defines (not the ones it imports)."""
    return {
        name: value
        for name, value in vars(module).items()
        if not name.startswith("_")
        and callable(value)
        and not isinstance(value, type)
        and getattr(value, "__module__", None) == module.__name__
    }


def _stub_tree() -> ast.Module:
    return ast.parse(STUB.read_text(encoding="utf-8"), str(STUB))


def _load_stub() -> ModuleType:
    """Execute the stub as a module of the package, for ``inspect`` and type hints."""
    name = "diverge_frames._frames_c_stub"
    loader = importlib.machinery.SourceFileLoader(name, str(STUB))
    spec = importlib.util.spec_from_file_location(name, STUB, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _shape(signature: inspect.Signature) -> list[tuple[str, object, object]]:
    """Each parameter's name, kind and default (annotations are compared resolved)."""
    return [(p.name, p.kind, p.default) for p in signature.parameters.values()]


def test_stub_declares_the_pure_functions() -> None:
    declared = {
        node.name
        for node in _stub_tree().body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    }
    assert declared == set(_public_functions(_frames_py))
    assert declared >= {
        "decode_notification",
        "encode_notification",
        "decode_read_resource",
        "encode_read_resource",
    }


def test_stub_is_declarations_only() -> None:
    for node in _stub_tree().body:
        if isinstance(node, ast.FunctionDef):
            assert len(node.body) == 1, node.name
            body = node.body[0]
            assert isinstance(body, ast.Expr), node.name
            assert isinstance(body.value, ast.Constant) and body.value.value is Ellipsis


@pytest.mark.parametrize("name", sorted(_public_functions(_frames_py)))
def test_stub_signature_is_the_pure_one(name: str) -> None:
    pure = getattr(_frames_py, name)
    stub = getattr(_load_stub(), name)
    assert _shape(inspect.signature(stub)) == _shape(inspect.signature(pure))
    assert typing.get_type_hints(stub) == typing.get_type_hints(pure)


@pytest.mark.c_extension
def test_compiled_module_matches_the_stub() -> None:
    compiled = _public_functions(_frames_c)
    stub = _load_stub()
    assert set(compiled) == set(_public_functions(_frames_py))
    for name, function in compiled.items():
        assert _shape(inspect.signature(function)) == _shape(
            inspect.signature(getattr(stub, name))
        ), name


@pytest.mark.parametrize("implementation", ["python", "cython"])
def test_typing_sample_runs(implementation: str) -> None:
    if implementation == "cython":
        helpers.compiled()
    env = {k: v for k, v in os.environ.items() if k != "DIVERGE_FRAMES_NO_EXTENSIONS"}
    if implementation == "python":
        env["DIVERGE_FRAMES_NO_EXTENSIONS"] = "1"
    done = subprocess.run(
        [sys.executable, str(SAMPLE)], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"typing sample ran: {implementation}"
