"""The check encode runs on a value before it writes it (both twins): the value walked
along its plan (:mod:`diverge_frames._plans`, where the rules are).

:func:`check` returns the value itself when it is written as rmcp writes it, or a copy
made canonical; it raises ``TypeError`` (a member of the wrong Python type, ``None``
where a member is required included) or ``ValueError`` (the right type, a value rmcp
cannot hold), each message starting with the member's wire path: ``$.params.level:``;
``ValueError`` too for a value another thread changes as it is walked.

:func:`check_plain` applies the same rules to the plain Python value of a frame (what
``convert`` and the ``mcp`` bridge are given), where they say it has no JSON that rmcp
reads back as the same value.
"""

from __future__ import annotations

import enum
import math
from typing import Any

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

__all__ = ["check", "check_plain", "plain_json", "unicode_error"]


class _Problem(Exception):
    """A value that fails a rule: raised as ``error_type`` with the path in front."""

    def __init__(self, error_type: type[Exception], message: str) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.message = message


def _json_type(value: Any) -> str:
    if value is None:
        return "None"
    return type(value).__name__


def check(value: Any) -> Any:
    """``value`` itself when it is written as rmcp writes it, or a copy made canonical
    (ints in ``f64`` members as floats, the constructors' rules applied again).

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


def _at(path: str, error_type: type[Exception], message: str) -> _Problem:
    return _Problem(error_type, f"{path}: {message}")


def _struct(value: Any, plan: Plan, path: str, level: int) -> Any:
    """Check one struct (``level``: its JSON nesting level, 1 at the top)."""
    changes: dict[str, Any] = {}
    for field in plan.fields:
        member = f"{path}.{field.wire}"
        try:
            item = getattr(value, field.name)
        except AttributeError:
            raise _at(member, ValueError, "missing (a required member)") from None
        fixed = _member(item, field, member, level)
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


def _member(item: Any, field: Field, path: str, level: int) -> Any:
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
    fixed = _value(item, field.alternatives, path, level, _expected(field))
    if flags & FLAG_META_OBJECT and "_meta" in fixed:
        meta = fixed["_meta"]
        if meta is not None and not isinstance(meta, dict):
            raise _at(
                f"{path}._meta", TypeError, f"expected a dict or None, got {_json_type(meta)}"
            )
    if flags & FLAG_EMPTY_NONE and all(
        getattr(fixed, f.name) is None for f in PLANS[type(fixed)].fields
    ):
        return None
    return fixed


def _expected(field: Field) -> str:
    return " or ".join(_describe(kind, arg) for kind, arg in field.alternatives)


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


def _value(item: Any, alternatives: Any, path: str, level: int, expected: str) -> Any:
    """``item`` (or its canonical copy) when it fits one of ``alternatives``."""
    if isinstance(item, enum.Enum):
        fixed = _value(item.value, alternatives, path, level, expected)
        return item if fixed is item.value else fixed
    cls = type(item)
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
                return _array(item, arg, path, level + 1)
            if kind == KIND_MAP and isinstance(item, dict):
                _depth(path, level + 1)
                return _map(item, arg, path, level + 1)
        except _Problem as problem:
            wrong = problem
            if len(alternatives) == 1:
                raise
    if wrong is not None:
        raise wrong
    raise _at(path, TypeError, f"expected {expected}, got {_json_type(item)}")


def _array(items: Any, alternatives: Any, path: str, level: int) -> Any:
    fixed: list[Any] | None = None
    expected = " or ".join(_describe(k, a) for k, a in alternatives)
    for index, item in enumerate(items):
        new = _value(item, alternatives, f"{path}[{index}]", level, expected)
        if new is not item:
            if fixed is None:
                fixed = list(items)
            fixed[index] = new
    return items if fixed is None else fixed


def _key(key: Any, path: str) -> None:
    """A key of a JSON object (at ``path``) is a ``str``."""
    if type(key) is not str:
        raise _at(path, TypeError, f"a key of type {_json_type(key)} (keys must be str)")


def _map(items: dict[Any, Any], alternatives: Any, path: str, level: int) -> Any:
    fixed: dict[str, Any] | None = None
    expected = " or ".join(_describe(k, a) for k, a in alternatives)
    for key, item in items.items():
        _key(key, path)
        new = _value(item, alternatives, f"{path}.{key}", level, expected)
        if new is not item:
            if fixed is None:
                fixed = dict(items)
            fixed[key] = new
    return items if fixed is None else fixed


def _depth(path: str, level: int) -> None:
    if level > MAX_DEPTH:
        raise _at(
            path,
            ValueError,
            f"nested {level} levels deep; serde_json reads at most {MAX_DEPTH}",
        )


def _json(item: Any, path: str, level: int, exact_ints: bool = True) -> None:
    """A free-form JSON value at ``path``; its arrays and objects are at ``level + 1``.

    ``exact_ints`` false: any ``int`` passes (where a typed member's reading, not
    serde_json's ``Value``, decides what a wide one is).
    """
    # Iterative: free-form values can nest as deep as serde_json's limit.
    stack = [(item, path, level)]
    while stack:
        node, where, at = stack.pop()
        if isinstance(node, enum.Enum):
            stack.append((node.value, where, at))
            continue
        cls = type(node)
        if node is None or cls is str or cls is bool:
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
                stack.append((value, f"{where}.{key}", at + 1))
            continue
        if isinstance(node, (list, tuple)):
            _depth(where, at + 1)
            stack.extend((value, f"{where}[{i}]", at + 1) for i, value in enumerate(node))
            continue
        raise _at(where, TypeError, f"{cls.__name__} is not a JSON value")


def _payload(value: Any, plan: Plan, changes: dict[str, Any], path: str) -> None:
    """A task's payload member follows its status: the one it names is required, the
    others are dropped (on the copy)."""
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
                    f"{path}.{field.wire}",
                    ValueError,
                    f"missing (required when status is {status!r})",
                )
        elif current is not None:
            changes[field.name] = None


def plain_json(obj: Any) -> bool:
    """Whether ``obj`` (the plain value of a frame) is plain JSON that
    :func:`check_plain` passes whatever its class: only ``dict`` with ``str`` keys,
    ``list``, ``tuple``, ``str``, ``bool``, ``None``, finite ``float`` and ``int`` in
    serde_json's range, nested at most :data:`MAX_DEPTH` levels. Stricter than
    :func:`check_plain` (an enum member, a wide int in an ``f64`` member answer False)
    and without paths, to skip it at the cost of a walk without Python calls; a lone
    surrogate is left to the writing of the JSON (:func:`unicode_error`)."""
    layer, level = [obj], 1  # level by level: no tuple a node
    while layer:
        below: list[Any] = []
        for node in layer:
            cls = type(node)
            if cls is str or cls is bool or node is None:
                continue
            if cls is int:
                if not I64_MIN <= node <= U64_MAX:
                    return False
            elif cls is float:
                if not math.isfinite(node):
                    return False
            elif cls is dict:
                if level > MAX_DEPTH:
                    return False
                for key in node:
                    if type(key) is not str:
                        return False
                below.extend(node.values())
            elif cls is list or cls is tuple:
                if level > MAX_DEPTH:
                    return False
                below.extend(node)
            else:
                return False
        layer, level = below, level + 1
    return True


def check_plain(obj: Any, cls: type) -> None:
    """Raise ``TypeError`` / ``ValueError`` (worded and placed as :func:`check` words
    them) when ``obj``, the plain Python value of a frame of class ``cls`` (dicts keyed
    by wire names, lists, scalars), holds what :func:`check` refuses in a value of
    ``cls`` because it has no JSON that rmcp reads back as it: a NaN or an infinity, an
    object that is no JSON value (``bytes``, a set, ...), a key that is no ``str``, a
    lone surrogate, an integer beyond serde_json's range in a free-form member, nesting
    past :data:`MAX_DEPTH` (a cycle included).

    What has JSON is left to the reading of that JSON (a member of the wrong type, a
    number out of a typed member's range, a string outside an enum), as are unknown
    members, which rmcp skips (only what has no JSON is refused in them). But when
    ``obj`` holds something without JSON, the error is the first one :func:`check`
    finds, as encode would raise it for the same value.
    """
    alternatives = ((KIND_STRUCT, PLANS[cls]),)
    try:
        _plain(obj, alternatives, "$", 0, False)
    except _Problem:
        try:
            _plain(obj, alternatives, "$", 0, True)
        except _Problem as problem:
            raise problem.error_type(problem.message) from None
        raise  # pragma: no cover - the strict walk refuses all the lenient one does


def _plain(item: Any, alternatives: Any, path: str, level: int, strict: bool) -> None:
    """:func:`check_plain` of ``item``, a member that takes ``alternatives`` (at
    ``level``: the nesting level of the object or array that holds it); ``strict``:
    every problem :func:`check` finds, not only a want of JSON."""
    cls = type(item)
    if not strict and (
        cls is str
        or cls is bool
        or item is None
        or (cls is float and math.isfinite(item))
        or (cls is int and not _free(alternatives))
    ):
        # JSON, of the right type or not: the reading's to judge (a lone surrogate in
        # a str of the wrong type excepted, refused as check refuses the type)
        if (
            cls is str
            and _mistyped(item, alternatives, path, level)
            and _lone_surrogate(item, path) is not None
        ):
            _value(item, alternatives, path, level, _named(alternatives))
        return
    if isinstance(item, enum.Enum):
        _plain(item.value, alternatives, path, level, strict)
        return
    wrong: _Problem | None = None
    struct = _struct_for(item, alternatives) if isinstance(item, dict) else None
    for kind, arg in alternatives:
        try:
            if kind == KIND_JSON or (kind == KIND_OBJECT and isinstance(item, dict)):
                _json(item, path, level)
                return
            if kind == KIND_MODEL:
                _plain(item, arg[0], path, level, strict)
                return
            if kind == KIND_STRUCT and struct is not None and arg is struct:
                _depth(path, level + 1)
                _plain_struct(item, struct, path, level + 1, strict)
                return
            if kind in (KIND_LIST, KIND_MAP) and isinstance(
                item, dict if kind == KIND_MAP else (list, tuple)
            ):
                _depth(path, level + 1)
                pairs = item.items() if isinstance(item, dict) else enumerate(item)
                for key, value in pairs:
                    if kind == KIND_MAP:
                        _key(key, path)
                    where = f"{path}.{key}" if kind == KIND_MAP else f"{path}[{key}]"
                    _plain(value, arg, where, level + 1, strict)
                return
        except _Problem as problem:
            wrong = problem
            if len(alternatives) == 1:
                raise
    if wrong is not None:
        raise wrong
    # A scalar, or a container where the member takes none: its JSON, if it has one,
    # is the reading's to judge. One without JSON is refused as check refuses it.
    if strict:
        _value(item, alternatives, path, level, _named(alternatives))
    try:
        _json(item, path, level, exact_ints=False)
    except _Problem as problem:
        _value(item, alternatives, path, level, _named(alternatives))
        raise problem from None
    if _mistyped(item, alternatives, path, level) and _lone_surrogate(item, path) is not None:
        _value(item, alternatives, path, level, _named(alternatives))  # no JSON either


def _free(alternatives: Any) -> bool:
    """Whether ``alternatives`` take a free-form JSON value (whose ints are ranged)."""
    return any(kind == KIND_JSON for kind, _ in alternatives)


def _mistyped(item: Any, alternatives: Any, path: str, level: int) -> bool:
    """Whether :func:`check` refuses ``item`` where ``alternatives`` are taken."""
    try:
        _value(item, alternatives, path, level, "")
    except _Problem:
        return True
    return False


def _named(alternatives: Any) -> str:
    """What ``alternatives`` take, as :func:`check`'s messages say it."""
    return " or ".join(_describe(kind, arg) for kind, arg in alternatives)


def _struct_for(obj: dict[Any, Any], alternatives: Any) -> Plan | None:
    """The plan of the struct class among ``alternatives`` that the plain object
    ``obj`` stands for: the one its tag names (``method``), else the first with a member
    of each of its keys, else the first."""
    plans: list[Plan] = [arg for kind, arg in alternatives if kind == KIND_STRUCT]
    if len(plans) < 2:
        return plans[0] if plans else None
    for plan in plans:
        cls: Any = plan.cls
        config = cls.__struct_config__
        if config.tag_field is not None and obj.get(config.tag_field) == config.tag:
            return plan
    for plan in plans:
        if obj.keys() <= _by_wire(plan).keys():
            return plan
    return plans[0]


#: Each plan's fields by wire name, made as they are first asked for.
_BY_WIRE: dict[Plan, dict[str, Field]] = {}


def _by_wire(plan: Plan) -> dict[str, Field]:
    fields = _BY_WIRE.get(plan)
    if fields is None:
        fields = _BY_WIRE[plan] = {field.wire: field for field in plan.fields}
    return fields


def _plain_struct(obj: dict[Any, Any], plan: Plan, path: str, level: int, strict: bool) -> None:
    fields = _by_wire(plan)
    for key, item in obj.items():
        _key(key, path)
        field = fields.get(key)
        if field is None:  # unknown (or a notification's method): rmcp skips it
            if type(item) is not str:
                _json(item, f"{path}.{key}", level, exact_ints=False)
        elif item is None or item is UNSET:
            if strict:
                _member(item, field, f"{path}.{key}", level)
        else:
            _plain(item, field.alternatives, f"{path}.{key}", level, strict)


def unicode_error(value: Any) -> ValueError:
    """The ``ValueError`` for a value msgspec could not write as UTF-8 (a ``str`` with a
    lone surrogate, which JSON text cannot hold), naming the first such member."""
    return _lone_surrogate(value, "$") or ValueError("$: a str that is not valid UTF-8")


def _lone_surrogate(value: Any, path: str) -> ValueError | None:
    """The ``ValueError`` naming the first ``str`` in ``value`` (at ``path``) that has
    a lone surrogate, or None when there is none."""
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


def _as_rmcp_reads_it(value: Any, wire: str, path: str) -> None:
    """Raise ValueError unless rmcp can read what encode writes of ``value`` (the member
    ``wire`` of :data:`._exact.rmcp_types.MODEL_MEMBERS`): else rmcp would take the whole
    notification for a custom one."""
    if value is None:
        return
    written = encoder.encode(value)
    try:
        tree = parse(written)
        rmcp_types.read_input_requests(tree)
    except (Mismatch, Reject) as exc:
        raise _at(path, ValueError, f"rmcp cannot read it as its {wire}: {exc}") from None
