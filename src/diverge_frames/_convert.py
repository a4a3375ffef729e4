"""``convert``, ``to_builtins`` and ``json_schema``: the public types as plain values.

The public types to and from plain Python values, in msgspec's spirit, and their JSON
Schema.

Both directions go through the codec itself, so that they say what the channels say:
:func:`convert` reads the JSON of ``obj`` as ``decode`` reads a frame (rmcp's reading:
the custom fallback, ``ttlMs`` clamped, unknown members dropped), and
:func:`to_builtins` gives the JSON value ``encode`` writes (checked; ``f64`` members as
floats; notification params with ``_meta`` first). A struct that is a member of a frame
(params, contents, a subscription filter) is placed where it sits in its frame, read
or written with it, and taken out again.
"""

from __future__ import annotations

import builtins
import functools
from typing import Any, TypeVar, cast, overload

import msgspec

from . import _plans
from . import types as t
from ._checks import unicode_error
from ._checks_plain import check_plain, plain_json
from ._impl import frames as _frames
from ._wire import any_decoder
from .errors import FrameBodyError

__all__ = ["convert", "to_builtins", "json_schema"]

_T = TypeVar("_T")

#: The unions users name, each read as the frame that carries it.
_UNIONS: dict[Any, tuple[type, ...]] = {
    t.ServerNotification: (*t.TYPED_NOTIFICATIONS, t.CustomNotification),
    t.TypedNotification: t.TYPED_NOTIFICATIONS,
    t.ResourceContents: (t.TextResourceContents, t.BlobResourceContents),
}
#: Tag byte, decode and encode of each class a frame carries.
_TOP: dict[type, tuple[bytes, str]] = {
    **dict.fromkeys((*t.TYPED_NOTIFICATIONS, t.CustomNotification), (b"\x00", "notifications")),
    t.ReadResourceResult: (b"\x00", "read-resource"),
    t.ErrorData: (b"\x01", "notifications"),
}


_Step = tuple[str, str, bool, type]


@functools.cache
def _positions() -> dict[type, tuple[type, tuple[_Step, ...]]]:
    """Each struct class a frame holds -> ``(the frame's class, the path to it)``.

    A path is ``(attribute, wire name, in a list, the class there)`` steps; the first place
    found, and only where every other member on the way is optional (so that it stands alone
    there)."""
    found: dict[type, tuple[type, tuple[_Step, ...]]] = {}
    todo: list[tuple[type, type, tuple[_Step, ...]]] = [(cls, cls, ()) for cls in _TOP]
    while todo:
        top, cls, path = todo.pop(0)
        if cls in found:
            continue
        found[cls] = (top, path)
        for field in _plans.PLANS[cls].fields:
            others = [f for f in _plans.PLANS[cls].fields if f is not field and f.required]
            if others:
                continue
            for kind, arg in field.alternatives:
                if kind == _plans.KIND_STRUCT:
                    step = (field.name, field.wire, False, arg.cls)
                    todo.append((top, arg.cls, (*path, step)))
                elif kind == _plans.KIND_LIST:
                    for item_kind, item in arg:
                        if item_kind == _plans.KIND_STRUCT:
                            step = (field.name, field.wire, True, item.cls)
                            todo.append((top, item.cls, (*path, step)))
    return found


def _classes(target: Any) -> tuple[type, ...]:
    if isinstance(target, _type):
        if target in _positions():
            return (target,)
    else:
        for union, classes in _UNIONS.items():  # by identity: hashing a union is slow
            if target is union:
                return classes
        if target in _UNIONS:
            return _UNIONS[target]
    raise TypeError(f"convert and json_schema take the public types, not {target!r}")


#: The builtin ``type`` (``convert`` and ``json_schema`` name a parameter ``type``, as
#: msgspec does).
_type = type


# ------------------------------------------------------------------ convert


@overload
def convert(obj: Any, type: builtins.type[_T]) -> _T: ...
@overload
def convert(obj: Any, type: Any) -> Any: ...
def convert(obj: Any, type: Any) -> Any:
    """``obj`` as a value of ``type``, exactly as ``decode`` reads the JSON of ``obj``.

    ``obj`` is plain Python: dicts with str keys, lists or tuples, str, int, float, bool,
    None, enum members.

    ``type``: :data:`~diverge_frames.types.ServerNotification`,
    :data:`~diverge_frames.types.TypedNotification`,
    :class:`~diverge_frames.types.ReadResourceResult`,
    :class:`~diverge_frames.types.ErrorData`,
    :data:`~diverge_frames.types.ResourceContents`, or any public struct class of
    :mod:`diverge_frames.types` (a notification, its params, a contents item, ...).
    For ``ServerNotification`` an unknown method, or a known one whose params do not
    fit, gives a :class:`~diverge_frames.types.CustomNotification`, as ``decode`` does.

    Raises ``msgspec.ValidationError`` (as ``msgspec.convert`` does) when ``decode``
    would reject the JSON, or when it reads it as another class than ``type`` names
    (message and path say where, relative to ``obj``); ``TypeError`` for a ``type``
    that is not a public type. ``obj`` with no JSON that rmcp reads back as it raises
    ``msgspec.ValidationError`` worded as ``encode`` words it for a value of that
    class (``$.data[0]: inf: JSON has no such number``): a NaN or an infinity, bytes
    or another object that is no JSON value, a key that is no str, an integer beyond
    serde_json's range where encode refuses one (in free-form members: ``data``,
    ``_meta``, a custom notification's params), nesting past serde_json's 127 levels
    (a cycle included), a lone surrogate.
    """
    classes = _classes(type)
    top, path = _positions()[classes[0]]
    frame = _wrap(obj, top, path)
    meant = _meant(frame, classes, top, path)
    plain = plain_json(frame)  # then nothing to refuse, whatever the class
    if not plain:
        _refuse(frame, meant, path)
    try:
        body = msgspec.json.encode(frame)
    except UnicodeEncodeError:
        _refuse(frame, meant, path)  # a lone surrogate where the member takes no str
        raise msgspec.ValidationError(_relative(str(unicode_error(frame)), path)) from None
    except (TypeError, ValueError, OverflowError) as exc:
        raise msgspec.ValidationError(f"{exc} - at `$`") from exc
    value = _read(body, classes, top, path)
    if not plain and _type(value) is not meant and not path:
        _refuse(frame, _type(value), path)  # read as another class (custom): its rules
    return value


def _meant(frame: Any, classes: tuple[type, ...], top: type, path: tuple[_Step, ...]) -> type:
    """The class of the frame ``frame`` (plain) as the caller means it.

    The frame's class of a member, the class a union names by ``method``, else custom."""
    if path or len(classes) == 1:
        return top
    method = frame.get("method") if isinstance(frame, dict) else None
    if isinstance(method, str):
        return _BY_METHOD.get(method, t.CustomNotification)
    return t.CustomNotification if t.CustomNotification in classes else top


#: Each typed notification by its method.
_BY_METHOD: dict[str, type] = {cast(Any, cls).method: cls for cls in t.TYPED_NOTIFICATIONS}


def _refuse(frame: Any, cls: type, path: tuple[_Step, ...]) -> None:
    """Raise ``msgspec.ValidationError`` where ``encode`` would refuse ``frame`` for want of JSON.

    The plain frame ``frame`` is checked as a value of ``cls``
    (:func:`._checks_plain.check_plain`), worded as encode words it, the path relative to the
    member at ``path``."""
    try:
        check_plain(frame, cls)
    except (TypeError, ValueError) as exc:
        raise msgspec.ValidationError(_relative(str(exc), path)) from exc


def _relative(text: str, path: tuple[_Step, ...]) -> str:
    """Encode's message ``text`` with its path made relative to the member at ``path``.

    ``text`` reads as ``$.params.level: ...``."""
    prefix = _wire_path(path)
    return "$" + text[len(prefix) :] if path and text.startswith(prefix) else text


def _read(body: bytes, classes: tuple[_type, ...], top: _type, path: tuple[_Step, ...]) -> Any:
    tag, channel = _TOP[top]
    decode = (
        _frames.decode_read_resource if channel == "read-resource" else _frames.decode_notification
    )
    try:
        value = decode(tag + body)
    except FrameBodyError as exc:
        where = (
            "$" + exc.path[len(_wire_path(path)) :]
            if exc.path.startswith(_wire_path(path))
            else "$"
        )
        raise msgspec.ValidationError(f"{exc.reason} - at `{where}`") from exc
    if _type(value) is t.CustomNotification and t.CustomNotification not in classes:
        raise msgspec.ValidationError(_why_custom(body, path, classes)) from None
    got = _unwrap(value, path)
    if _type(got) not in classes:
        names = " or ".join(c.__name__ for c in classes)
        raise msgspec.ValidationError(
            f"read as a {_type(got).__name__}, not {names} (as decode reads it) - at `$`"
        )
    return got


def _why_custom(body: bytes, path: tuple[_Step, ...], classes: tuple[type, ...]) -> str:
    """Why decode read as custom what was asked for as a typed notification (or a part of one).

    msgspec's reason for the typed class, at its path relative to ``obj``."""
    typed = classes[0] if not path and len(classes) == 1 else t.TypedNotification
    if path:
        typed = _positions()[classes[0]][0]
    try:
        msgspec.json.decode(body, type=typed)
    except msgspec.ValidationError as exc:
        text = str(exc)
        prefix = _wire_path(path)
        mark = f" - at `{prefix}"
        if mark in text:
            text = text.replace(mark, " - at `$", 1)
        elif " - at `" not in text:
            text += " - at `$`"
        return text
    return "decode reads it as a CustomNotification (rmcp reads it so) - at `$`"


def _wire_path(path: tuple[_Step, ...]) -> str:
    return "$" + "".join(f".{wire}[0]" if in_list else f".{wire}" for _, wire, in_list, _ in path)


def _wrap(obj: Any, top: type, path: tuple[_Step, ...]) -> Any:
    """``obj`` placed at ``path`` in a frame of class ``top`` (as plain JSON)."""
    for _, wire, in_list, _ in reversed(path):
        obj = {wire: [obj] if in_list else obj}
    method = getattr(top, "method", None)
    if path and isinstance(method, str):
        obj = {"method": method, **obj}
    return obj


def _unwrap(value: Any, path: tuple[_Step, ...]) -> Any:
    for name, _, in_list, cls in path:
        value = getattr(value, name)
        if value is None:
            return cls()  # not written (list-changed params without _meta): empty
        if in_list:
            value = value[0]
    return value


# ------------------------------------------------------------------ to_builtins


def to_builtins(value: Any) -> Any:
    """The JSON value ``encode`` writes for ``value`` (a public struct), as plain Python.

    That is ``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``, ``None``, member order
    kept. A value that is a member of a frame (params, a contents item) gives what encode
    writes for it inside its frame; list-changed params without ``_meta``, which rmcp does
    not write, give ``{}``.

    Raises what ``encode`` raises: ``TypeError`` / ``ValueError`` naming the member
    (``$.level: ...``, relative to ``value``), ``TypeError`` for a value that is no
    public struct.
    """
    cls = _type(value)
    if cls not in _positions():
        raise TypeError(f"to_builtins takes a value of the public types, not {cls.__name__}")
    top, path = _positions()[cls]
    frame = value
    for index in range(len(path) - 1, -1, -1):
        name, _, in_list, _ = path[index]
        parent = path[index - 1][3] if index else top
        frame = parent(**{name: [frame] if in_list else frame})
    _, channel = _TOP[top]
    encode = (
        _frames.encode_read_resource if channel == "read-resource" else _frames.encode_notification
    )
    try:
        written = encode(frame)
    except (TypeError, ValueError) as exc:
        text = str(exc)
        if path and text != _relative(text, path):
            raise _type(exc)(_relative(text, path)) from None
        raise
    out = any_decoder.decode(memoryview(written)[1:])
    for _, wire, in_list, _ in path:
        if wire not in out:
            return {}
        out = out[wire][0] if in_list else out[wire]
    return out


# ------------------------------------------------------------------ JSON Schema


def json_schema(type: Any = t.ServerNotification) -> dict[str, Any]:
    """A JSON Schema (2020-12, as ``msgspec.json.schema`` writes it) of a public type.

    The shapes are in ``$defs``. The type is
    :data:`~diverge_frames.types.ServerNotification` (the default),
    :data:`~diverge_frames.types.TypedNotification`,
    :class:`~diverge_frames.types.ReadResourceResult`,
    :class:`~diverge_frames.types.ErrorData`, or a public struct class.

    msgspec's own view of the shapes, with the two unions it cannot write itself added:
    ``ServerNotification`` is a typed notification (by ``method``) or any object with
    a string ``method`` (the custom fallback, so the schema does not reject an
    unknown method), and a ``contents`` item is text or blob. rmcp's reading beyond
    that (a duplicated member, ``ttlMs`` clamped to 0, the custom fallback of a known
    method whose params do not fit, u64 upper bounds) is the codec's, not the schema's.
    Raises ``TypeError`` for any other type.
    """
    _classes(type)
    schemas, components = _components()
    if type is t.ServerNotification:
        schema: dict[str, Any] = {
            "anyOf": [schemas[t.TypedNotification], {"$ref": "#/$defs/CustomNotification"}]
        }
    elif type is t.ResourceContents:
        schema = _contents_items()
    elif type is t.TypedNotification:
        schema = dict(schemas[t.TypedNotification])
    else:
        schema = {"$ref": f"#/$defs/{type.__name__}"}
    return {**schema, "$defs": dict(components)}


def _contents_items() -> dict[str, Any]:
    return {
        "anyOf": [
            {"$ref": "#/$defs/TextResourceContents"},
            {"$ref": "#/$defs/BlobResourceContents"},
        ]
    }


@functools.cache
def _components() -> tuple[dict[Any, dict[str, Any]], dict[str, Any]]:
    # msgspec refuses the untagged unions (CustomNotification beside tagged classes,
    # text-or-blob contents): ReadResourceResult is written from a copy whose contents
    # are Any, then given the union.
    shadow = msgspec.defstruct(
        "ReadResourceResult",
        [
            (f.name, Any if f.name == "contents" else f.type, f.default)
            if not f.required
            else (f.name, Any if f.name == "contents" else f.type)
            for f in msgspec.structs.fields(t.ReadResourceResult)
        ],
        bases=(t._Wire,),
        kw_only=True,
        namespace={"__doc__": t.ReadResourceResult.__doc__},
    )
    types = [
        t.TypedNotification,
        t.CustomNotification,
        shadow,
        t.TextResourceContents,
        t.BlobResourceContents,
        t.ErrorData,
        *(cls for cls in _positions() if cls is not t.ReadResourceResult),
    ]
    found, components = msgspec.json.schema_components(types)
    components["ReadResourceResult"]["properties"]["contents"] = {
        "type": "array",
        "items": _contents_items(),
    }
    return {t.TypedNotification: found[0]}, components
