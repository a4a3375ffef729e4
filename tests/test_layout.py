"""The package's layout rules: one job per module, each rule written once.

* The compiled twin's compile-time copies of the rules' limits equal the rules'.
* Nothing in the package imports the pure-Python twin but the switch (``_impl``), nor
  the pure-Python channel twin but ``channel``.
* The typed-method lists are derived from the classes, not kept by hand.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import diverge_frames
from diverge_frames import _wire
from diverge_frames import types as t
from diverge_frames._exact import rmcp_structs, serde_json

PACKAGE = Path(diverge_frames.__file__).parent


def test_compiled_limits_equal_the_rules(frames) -> None:
    """The C header's limits and reason codes (``_serde_json.h``) are ``_exact.serde_json``'s."""
    if frames.__name__.endswith("_frames_py"):
        pytest.skip("the pure twin reads the rules' constants directly")
    limits = frames.LIMITS
    assert limits["MAX_DEPTH"] == serde_json.MAX_DEPTH
    assert limits["MAX_POWER"] == serde_json.MAX_POWER
    assert limits["MAX_SIGNIFICAND"] == serde_json.MAX_SIGNIFICAND
    for name, code in limits["REASONS"].items():
        assert serde_json.REASONS[code] == getattr(serde_json, name), name
    assert len(limits["REASONS"]) == len(serde_json.REASONS) - 1


def _imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            names.add(base)
            names.update(
                f"{base}.{a.name}" if base.endswith(".") is False else base + a.name
                for a in node.names
            )
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_only_the_switch_imports_the_pure_twin() -> None:
    importers = sorted(
        path.name
        for path in PACKAGE.glob("*.py")
        if any(name.endswith("_frames_py") for name in _imported_modules(path))
    )
    assert importers == ["_impl.py"]


def test_only_the_channel_module_imports_the_pure_channel_twin() -> None:
    """The channel classes' switch is ``channel.py`` (their twins import
    ``notifications``, which imports ``_impl``: ``_impl`` cannot import them)."""
    importers = sorted(
        path.name
        for path in PACKAGE.glob("*.py")
        if any(name.endswith("_channel_py") for name in _imported_modules(path))
    )
    assert importers == ["channel.py"]


def test_typed_method_lists_come_from_the_classes() -> None:
    assert set(_wire.TYPED_METHODS) == {cls.__struct_config__.tag for cls in t.TYPED_NOTIFICATIONS}
    assert frozenset(t.TYPED_NOTIFICATIONS) == _wire.TYPED_CLASSES
    # rmcp types every method but those whose params are exact-fit custom shapes
    untyped = {"notifications/tasks/status", "notifications/elicitation/complete"}
    assert set(rmcp_structs.RMCP_TYPED) == set(_wire.TYPED_METHODS) - untyped
    assert rmcp_structs.RMCP_TYPED["notifications/progress"] == (
        "message",
        "progress",
        "progressToken",
        "total",
    )
    assert rmcp_structs.RMCP_TYPED["notifications/tools/list_changed"] == ()
