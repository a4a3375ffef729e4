"""The package's layout rules: one job per module, each rule written once.

* The compiled twin's compile-time copies of the rules' limits equal the rules'.
* Nothing in the package imports the pure-Python twin but the switch (``_impl``), nor
  the pure-Python channel twin but ``channel``.
* The typed-method lists are derived from the classes, not kept by hand.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import helpers
import pytest

import diverge_frames
from diverge_frames import _frames_py, _wire
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


#: Bodies of a method rmcp types whose params its typed variant does not read: rmcp
#: takes each as a CustomNotification.
MISFITS = [
    b'{"method":"notifications/progress","params":{"progressToken":1}}',
    b'{"method":"notifications/message","params":{"level":"loud","data":1}}',
    b'{"params":{"requestId":[1]},"method":"notifications/cancelled"}',
    b'{"method":"notifications/resources/updated","params":{"uri":7,"n":[{"a":1}]}}',
]


@pytest.mark.c_extension
@pytest.mark.parametrize("body", MISFITS)
def test_a_misfit_is_read_twice_by_msgspec_and_scanned_once(body: bytes) -> None:
    """The compiled twin: the typed attempt, one general read, one C scan."""
    compiled = helpers.compiled()
    if compiled._counts() is None:
        pytest.skip("free-threaded CPython does not count")
    value = compiled.decode_notification(b"\x00" + body)
    assert type(value) is t.CustomNotification
    reads, scans = compiled._counts()
    assert reads <= 2, reads
    assert scans == 1, scans


@pytest.mark.parametrize("body", MISFITS)
def test_a_misfit_is_read_twice_by_msgspec_in_the_pure_twin(
    body: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pure twin: the typed attempt and the custom decoder, then one exact reading."""
    counts = {"msgspec": 0, "read": 0}

    def counted(what: str, function: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            counts[what] += 1
            return function(*args, **kwargs)

        return call

    for name in ("_decode_typed", "_decode_custom"):
        monkeypatch.setattr(_frames_py, name, counted("msgspec", getattr(_frames_py, name)))
    monkeypatch.setattr(_frames_py, "read", counted("read", _frames_py.read))
    value = _frames_py.decode_notification(b"\x00" + body)
    assert type(value) is t.CustomNotification
    assert counts["msgspec"] <= 2, counts
    assert counts["read"] <= 1, counts


def test_the_counts_see_each_reading() -> None:
    """The compiled twin's counts move with what it reads: none for a plain typed body
    but the typed attempt, a scan for a body with a repeated member."""
    compiled = helpers.compiled()
    if compiled._counts() is None:
        pytest.skip("free-threaded CPython does not count")
    compiled.decode_notification(b'\x00{"method":"notifications/tools/list_changed"}')
    assert compiled._counts() == (1, 0)
    compiled.decode_notification(
        b'\x00{"method":"notifications/progress","params":{"progressToken":1,"progress":1,"progress":2}}'
    )
    reads, scans = compiled._counts()
    assert reads >= 1 and scans >= 1, (reads, scans)
