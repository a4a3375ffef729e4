"""The check encode runs on a value before it writes it (both twins).

The value is walked along its plan (:mod:`diverge_frames._plans`, where the rules are).

:func:`check` returns the value itself when it is written as rmcp writes it, or a copy
made canonical; it raises ``TypeError`` (a member of the wrong Python type, ``None``
where a member is required included) or ``ValueError`` (the right type, a value rmcp
cannot hold), each message starting with the member's wire path: ``$.params.level:``;
``ValueError`` too for a value another thread changes as it is walked.

:mod:`diverge_frames._checks_plain` applies the same rules to the plain Python value
of a frame (what ``convert`` and the ``mcp`` bridge are given).
"""

from __future__ import annotations

import enum
import math
from typing import Any, TypeAlias

from msgspec import UNSET

from ._exact import rmcp_types
from ._exact.serde import Mismatch, f32
from ._exact.serde_json import MAX_DEPTH, Reject
from ._exact.serde_json_reader import parse
from ._plans import (
    FLAG_EMPTY_NONE,
    FLAG_META_OBJECT,
    FLAG_NONE,
    FLAG_NONE_DEFAULT,
    FLAG_NONE_UNSET,
    FLAG_UNSET,
    FLAG_UNSET_NONE,
    I64_MIN,
    KIND_BOOL,
    KIND_ENUM,
    KIND_F32,
    KIND_F64,
    KIND_INT,
    KIND_JSON,
    KIND_LIST,
    KIND_MAP,
    KIND_MODEL,
    KIND_OBJECT,
    KIND_STR,
    KIND_STRUCT,
    PLANS,
    U64_MAX,
    Field,
    Plan,
)
from ._wire import encoder

__all__ = ["check", "unicode_error"]


class _Problem(Exception):
    """A value that fails a rule: raised as ``error_type`` with the path in front."""

    def __init__(self, error_type: type[Exception], message: str) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.message = message


#: A member's wire path, its text built only when a message needs it: ``"$"``, or the
#: path of the container and one step: ``(path, field)`` (``.wire``), ``(path, index)``
#: (``[index]``) or ``(path, key)`` (``.key``).
_Path: TypeAlias = str | tuple[Any, Any]
#: Types no enum member has (an enum member's type is its enum class).
_PLAIN = frozenset({str, int, float, bool, type(None), dict, list, tuple})


def _render(path: _Path) -> str:
    """The text of a wire path: ``$.params.data[0].key``."""
    steps: list[str] = []
    while not isinstance(path, str):
        path, step = path
        steps.append(
            f".{step}"
            if type(step) is str
            else f"[{step}]"
            if type(step) is int
            else f".{step.wire}"
        )
    steps.append(path)
    return "".join(reversed(steps))


def _json_type(value: Any) -> str:
    if value is None:
        return "None"
    return type(value).__name__


def check(value: Any) -> Any:
    """``value`` itself when rmcp would write it so, or a canonical copy.

    The copy has ints in ``f64`` members as floats and the constructors' rules applied
    again.

    Raises ``TypeError`` / ``ValueError`` whose message starts with the member's path
    (``$.params.level: ...``). ``value`` must be a struct of :data:`PLANS`.
    """
    plan = PLANS[type(value)]
    try:
        return _struct(value, plan, "$", 1)
    except _Problem as problem:
        raise problem.error_type(problem.message) from None
    except RecursionError:
        raise
    except RuntimeError as exc:  # a dict or set another thread changed as it was walked
        raise ValueError(
            f"$: the value changed while it was encoded ({exc}): encode a value that no "
            "other thread changes meanwhile"
        ) from None


def _at(path: _Path, error_type: type[Exception], message: str) -> _Problem:
    return _Problem(error_type, f"{_render(path)}: {message}")


def _struct(value: Any, plan: Plan, path: _Path, level: int) -> Any:
    """Check one struct (``level``: its JSON nesting level, 1 at the top)."""
    changes: dict[str, Any] = {}
    for field in plan.fields:
        try:
            item = getattr(value, field.name)
        except AttributeError:
            raise _at((path, field), ValueError, "missing (a required member)") from None
        fixed = _member(item, field, (path, field), level)
        if fixed is not item:
            changes[field.name] = fixed
    if plan.payload is not None:
        _payload(value, plan, changes, path)
    if not changes:
        return value
    copy = value.__copy__()
    for name, item in changes.items():
        setattr(copy, name, item)
    return copy


def _member(item: Any, field: Field, path: _Path, level: int) -> Any:
    flags = field.flags
    if item is None:
        if flags & FLAG_NONE_UNSET:
            return UNSET
        if flags & FLAG_NONE_DEFAULT:
            struct = next(a for k, a in field.alternatives if k == KIND_STRUCT)
            return struct.cls()
        if flags & FLAG_NONE:
            return item
        raise _at(path, TypeError, f"expected {_expected(field)}, got None")
    if item is UNSET:
        if flags & FLAG_UNSET_NONE:
            return None
        if flags & FLAG_UNSET:
            return item
        raise _at(path, ValueError, "missing (UNSET where a value is required)")
    fixed = _value(item, field.alternatives, path, level, field.alternatives)
    if flags & FLAG_META_OBJECT and "_meta" in fixed:
        meta = fixed["_meta"]
        if meta is not None and not isinstance(meta, dict):
            raise _at(
                (path, "_meta"), TypeError, f"expected a dict or None, got {_json_type(meta)}"
            )
    if flags & FLAG_EMPTY_NONE and all(
        getattr(fixed, f.name) is None for f in PLANS[type(fixed)].fields
    ):
        return None
    return fixed


def _expected(field: Field) -> str:
    return _named(field.alternatives)


def _describe(kind: int, arg: Any) -> str:
    if kind == KIND_ENUM:
        return "one of " + ", ".join(repr(v) for v in sorted(arg))
    if kind == KIND_STRUCT:
        return str(arg.cls.__name__)
    if kind == KIND_LIST:
        return "a list of " + " or ".join(_describe(k, a) for k, a in arg)
    if kind == KIND_MODEL:
        return " or ".join(_describe(k, a) for k, a in arg[0])
    if kind == KIND_MAP:
        return "a dict of str to " + " or ".join(_describe(k, a) for k, a in arg)
    return {
        KIND_STR: "str",
        KIND_BOOL: "bool",
        KIND_F64: "float",
        KIND_F32: "float",
        KIND_INT: "int",
        KIND_JSON: "a JSON value",
        KIND_OBJECT: "a dict with str keys",
    }[kind]


def _value(item: Any, alternatives: Any, path: _Path, level: int, expected: Any) -> Any:
    """``item`` (or its canonical copy) when it fits one of ``alternatives``.

    The message of a misfit says it expected what ``expected`` (alternatives) describes."""
    cls = type(item)
    if cls not in _PLAIN and isinstance(item, enum.Enum):
        fixed = _value(item.value, alternatives, path, level, expected)
        return item if fixed is item.value else fixed
    wrong: _Problem | None = None
    for kind, arg in alternatives:
        try:
            if kind == KIND_STR and cls is str:
                return item
            if kind == KIND_BOOL and cls is bool:
                return item
            if kind == KIND_F64 and cls is float:
                if not math.isfinite(item):
                    raise _at(path, ValueError, f"{item!r}: rmcp's f64 has no such number")
                return item
            if kind == KIND_MODEL:
                fixed = _value(item, arg[0], path, level, expected)
                _as_rmcp_reads_it(fixed, arg[1], path)
                return fixed
            if kind == KIND_F32 and cls in (float, int):
                try:
                    return f32(item)
                except OverflowError:
                    raise _at(path, ValueError, f"{item} is out of the f64 range") from None
            if kind == KIND_F64 and cls is int:
                try:
                    return float(item)
                except OverflowError:
                    raise _at(path, ValueError, f"{item} is out of the f64 range") from None
            if kind == KIND_INT and cls is int:
                low, high = arg
                if not low <= item <= high:
                    raise _at(path, ValueError, f"{item} is out of range ({low} to {high})")
                return item
            if kind == KIND_ENUM and cls is str:
                if item not in arg:
                    raise _at(path, ValueError, f"{item!r} is not {_describe(kind, arg)}")
                return item
            if kind == KIND_JSON:
                _json(item, path, level)
                return item
            if kind == KIND_OBJECT and isinstance(item, dict):
                _json(item, path, level)
                return item
            if kind == KIND_STRUCT and cls is arg.cls:
                _depth(path, level + 1)
                return _struct(item, arg, path, level + 1)
            if kind == KIND_LIST and isinstance(item, (list, tuple)):
                _depth(path, level + 1)
                return _members(item, enumerate(item), list, arg, path, level + 1)
            if kind == KIND_MAP and isinstance(item, dict):
                _depth(path, level + 1)
                return _members(item, item.items(), dict, arg, path, level + 1)
        except _Problem as problem:
            wrong = problem
            if len(alternatives) == 1:
                raise
    if wrong is not None:
        raise wrong
    raise _at(path, TypeError, f"expected {_named(expected)}, got {_json_type(item)}")


def _members(
    items: Any,
    pairs: Any,
    copy: type[list[Any] | dict[str, Any]],
    alternatives: Any,
    path: _Path,
    level: int,
) -> Any:
    """The array or map ``items`` itself when each member fits, else a copy made canonical.

    ``pairs``: its (index or key, member) pairs; ``copy``: ``list`` for an array, ``dict``
    for a map, whose keys must be ``str``. Every member takes ``alternatives``.
    """
    keyed = copy is dict
    fixed: Any = None
    for key, item in pairs:
        if keyed:
            _key(key, path)
        new = _value(item, alternatives, (path, key), level, alternatives)
        if new is not item:
            if fixed is None:
                fixed = copy(items)
            fixed[key] = new
    return items if fixed is None else fixed


def _key(key: Any, path: _Path) -> None:
    """A key of a JSON object (at ``path``) is a ``str``."""
    if type(key) is not str:
        raise _at(path, TypeError, f"a key of type {_json_type(key)} (keys must be str)")


def _depth(path: _Path, level: int) -> None:
    if level > MAX_DEPTH:
        raise _at(
            path,
            ValueError,
            f"nested {level} levels deep; serde_json reads at most {MAX_DEPTH}",
        )


def _json(item: Any, path: _Path, level: int, exact_ints: bool = True) -> None:
    """A free-form JSON value at ``path``; its arrays and objects are at ``level + 1``.

    ``exact_ints`` false: any ``int`` passes (where a typed member's reading, not
    serde_json's ``Value``, decides what a wide one is).
    """
    # Iterative: free-form values can nest as deep as serde_json's limit.
    stack = [(item, path, level)]
    while stack:
        node, where, at = stack.pop()
        cls = type(node)
        if node is None or cls is str or cls is bool:
            continue
        if cls not in _PLAIN and isinstance(node, enum.Enum):
            stack.append((node.value, where, at))
            continue
        if cls is int:
            if exact_ints and not I64_MIN <= node <= U64_MAX:
                raise _at(
                    where,
                    ValueError,
                    f"{node} is out of the range serde_json holds exactly ({I64_MIN} to {U64_MAX})",
                )
            continue
        if cls is float:
            if not math.isfinite(node):
                raise _at(where, ValueError, f"{node!r}: JSON has no such number")
            continue
        if isinstance(node, dict):
            _depth(where, at + 1)
            for key, value in node.items():
                _key(key, where)
                stack.append((value, (where, key), at + 1))
            continue
        if isinstance(node, (list, tuple)):
            _depth(where, at + 1)
            stack.extend((value, (where, i), at + 1) for i, value in enumerate(node))
            continue
        raise _at(where, TypeError, f"{cls.__name__} is not a JSON value")


def _payload(value: Any, plan: Plan, changes: dict[str, Any], path: _Path) -> None:
    """A task's payload member follows its status.

    The one its status names is required, the others are dropped (on the copy)."""
    assert plan.payload is not None
    status_index, by_status, members = plan.payload
    status = changes.get(
        plan.fields[status_index].name, getattr(value, plan.fields[status_index].name)
    )
    if isinstance(status, enum.Enum):
        status = status.value
    wanted = by_status.get(status)
    for index in members:
        field = plan.fields[index]
        current = changes.get(field.name, getattr(value, field.name))
        if index == wanted:
            if current is None:
                raise _at(
                    (path, field),
                    ValueError,
                    f"missing (required when status is {status!r})",
                )
        elif current is not None:
            changes[field.name] = None


def _named(alternatives: Any) -> str:
    """What ``alternatives`` take, as :func:`check`'s messages say it."""
    return " or ".join(_describe(kind, arg) for kind, arg in alternatives)


def unicode_error(value: Any) -> ValueError:
    """The ``ValueError`` for a value msgspec could not write as UTF-8.

    That is a ``str`` with a lone surrogate, which JSON text cannot hold; the error names the
    first such member. When a second look finds none, the value changed while it was
    encoded (another thread), and the error says so."""
    return _lone_surrogate(value, "$") or ValueError(
        "$: a str that is not valid UTF-8 (a lone surrogate), gone on a second look:"
        " the value changed while it was encoded"
    )


def _lone_surrogate(value: Any, path: str) -> ValueError | None:
    """The ``ValueError`` naming the first ``str`` in ``value`` that has a lone surrogate.

    The member is named by its place under ``path``; None when there is none."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        node, path = stack.pop()
        if isinstance(node, enum.Enum):
            stack.append((node.value, path))
        elif type(node) is str:
            try:
                node.encode("utf-8")
            except UnicodeEncodeError as exc:
                return ValueError(f"{path}: {exc.reason} (a lone surrogate at {exc.start})")
        elif type(node) in PLANS:
            stack.extend(
                (getattr(node, f.name, None), f"{path}.{f.wire}")
                for f in reversed(PLANS[type(node)].fields)
            )
        elif isinstance(node, dict):
            for key, item in reversed(list(node.items())):
                stack.append((item, f"{path}.{key}"))
                stack.append((key, f"{path} (a key)"))
        elif isinstance(node, (list, tuple)):
            stack.extend((item, f"{path}[{i}]") for i, item in reversed(list(enumerate(node))))
    return None


def _as_rmcp_reads_it(value: Any, wire: str, path: _Path) -> None:
    """Raise ValueError unless rmcp can read what encode writes of ``value``.

    The member is ``wire`` of :data:`._exact.rmcp_types.MODEL_MEMBERS`; were it unreadable,
    rmcp would take the whole notification for a custom one."""
    if value is None:
        return
    written = encoder.encode(value)
    try:
        tree = parse(written)
        rmcp_types.read_input_requests(tree)
    except (Mismatch, Reject) as exc:
        raise _at(path, ValueError, f"rmcp cannot read it as its {wire}: {exc}") from None
