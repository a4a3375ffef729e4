"""rmcp 3.1.4's model rules: what rmcp makes of a body that serde_json has read.

This module owns the rules of ``rmcp::model`` that msgspec's typed decoders do not
express on their own; each is written once here and both hot paths use it:

* ``ServerNotification`` is untagged: the typed variants (:data:`RMCP_TYPED`, derived
  from :mod:`diverge_frames.types`) are tried in order, then ``CustomNotification``
  (:func:`decode_custom`), which takes any object with a string ``method`` and
  ``params`` that is an object or ``null``, with a ``_meta`` that is an object or
  ``null`` (a ``null`` ``_meta`` is dropped). rmcp writes a custom notification's
  ``_meta`` first and the other members sorted (:func:`encode_custom`).
* Unit enums (:data:`._rmcp_model.ENUM_MEMBERS`) are read in serde's map forms too
  (``{"info": null}``; ``{"info": {}}`` where serde reads owned ``Content``) and written
  as the string; ``inputRequests`` is read by :mod:`._rmcp_model` alone.
* Derived structs (serde's derive): a duplicated member rejects the struct (the typed
  variant fails, so a known method becomes a ``CustomNotification``; a duplicated
  top-level member rejects the body); a struct also reads a JSON array of its fields in
  declaration order (``[method, params]``, :data:`ERROR_MEMBERS`,
  :data:`RESULT_MEMBERS`, :data:`SUBSCRIPTION_FILTER_MEMBERS`). Members are
  struct members only in objects nested at most :data:`STRUCT_DEPTH` levels; deeper
  objects are free-form ``Value`` maps, where the last duplicate wins in both readers.
* ``ErrorData`` and ``ReadResourceResult`` are read directly, not buffered as an
  untagged enum's content: members they do not have are skipped unread (syntax only).
* ``ResourceContents`` is untagged: text when ``text`` is a string, else blob when
  ``blob`` is; ``ttlMs`` below 0 is clamped to 0 (:func:`read_resource_result`).

:func:`decode_exact` applies all of it to a body read by serde_json's rules (a tree
from :mod:`diverge_frames._serde_read`, or from the compiled twin's reading); the hot
paths send a body there when their pre-check says msgspec might read it otherwise, or
when msgspec rejects it. :mod:`diverge_frames._rmcp_positions` tells the pre-checks
where a repeated member is one of a struct (derived from the types, as
:data:`RMCP_TYPED` is).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, overload

import msgspec

from . import types as t
from ._rmcp_model import ENUM_MEMBERS, MODEL_MEMBER_NAMES, MODEL_MEMBERS, enum_member
from ._serde import Mismatch
from ._serde_json import Obj, Reject, plain
from ._serde_read import parse
from ._stack import on_fresh_stack, within_openings
from ._wire import (
    DECODE_ERRORS,
    custom_decoder,
    encoder,
    error_decoder,
    notification_decoder,
    plain_encoder,
    result_decoder,
)
from .errors import FrameBodyError
from .types import CustomNotification

__all__ = [
    "RMCP_TYPED",
    "STRUCT_DEPTH",
    "MODEL_MEMBER_NAMES",
    "MODEL_MEMBER_DEPTH",
    "RESULT_MEMBERS",
    "ERROR_MEMBERS",
    "SUBSCRIPTION_FILTER_MEMBERS",
    "decode_custom",
    "encode_custom",
    "read_resource_result",
    "decode_exact",
    "rejection",
    "item_rejection",
    "duplicate_field",
]

#: Objects nested this deep or less can be struct members (the top level, a
#: notification's ``params``, its ``notifications`` filter, a result's ``contents``
#: items); duplicated keys matter only there.
STRUCT_DEPTH = 3
#: The JSON depth of a notification's ``params`` object: a member of it named in
#: :data:`MODEL_MEMBER_NAMES` (``inputRequests``) is read only by
#: :mod:`._rmcp_model`, so both pre-checks send a body with one to the exact path.
MODEL_MEMBER_DEPTH = 2
#: ``ReadResourceResult``'s members in rmcp's declaration order (its array form).
RESULT_MEMBERS = ("resultType", "ttlMs", "cacheScope", "contents", "_meta")
#: ``ErrorData``'s members in rmcp's declaration order (its array form).
ERROR_MEMBERS = ("code", "message", "data")
#: rmcp's ``SubscriptionFilter`` members in its declaration order (an array form maps
#: onto them in this order); :class:`~diverge_frames.types.SubscriptionFilter` declares
#: them sorted, as they are written.
SUBSCRIPTION_FILTER_MEMBERS = (
    "toolsListChanged",
    "promptsListChanged",
    "resourcesListChanged",
    "resourceSubscriptions",
)


def _params_members(cls: Any) -> tuple[str, ...] | None:
    """The members of a typed notification's params struct (``_meta`` aside), or None
    when rmcp does not type the method (its params are :class:`types._Exact`)."""
    params = next(f.type for f in msgspec.structs.fields(cls) if f.name == "params")
    params = next(a for a in getattr(params, "__args__", (params,)) if a is not type(None))
    if issubclass(params, t._Exact):
        return None
    return tuple(f.encode_name for f in msgspec.structs.fields(params) if f.encode_name != "_meta")


#: rmcp's typed notifications: method -> the params members of its struct (a duplicate
#: of one makes the typed variant fail). The list-changed params keep only ``_meta``.
RMCP_TYPED: dict[str, tuple[str, ...]] = {
    str(cls.__struct_config__.tag): members  # type: ignore[attr-defined]
    for cls in t.TYPED_NOTIFICATIONS
    if (members := _params_members(cls)) is not None
}


def duplicate_field(name: str) -> Reject:
    """serde's derived struct meets member ``name`` a second time."""
    return Reject(f"duplicate field `{name}`")


# ------------------------------------------------------------------ custom notifications


def decode_custom(
    body: Any, tag: int, exact: Callable[..., Any] | None = None
) -> t.ServerNotification:
    """Decode a notification body no typed class took as rmcp's ``CustomNotification``.

    ``params`` must be an object or ``null``/absent, and its ``_meta`` an object or
    ``null`` (a ``null`` ``_meta`` is dropped, as rmcp drops it). A method rmcp types,
    or a body this quick reading rejects, goes to ``exact`` (called as
    :func:`decode_exact` is, which it defaults to). Raises FrameBodyError.
    """
    if exact is None:
        exact = decode_exact
    try:
        value = custom_decoder.decode(body)
    except DECODE_ERRORS as exc:
        return exact(body, tag, "ServerNotification", exc)
    if value.method in RMCP_TYPED:
        return exact(body, tag, "ServerNotification")
    params = value.params
    if params is None or "_meta" not in params:
        return value
    return _custom(value.method, params, tag)


def _custom(method: str, params: dict[str, Any] | None, tag: int) -> CustomNotification:
    if params is not None and "_meta" in params:
        meta = params["_meta"]
        if meta is None:
            del params["_meta"]
        elif type(meta) is not dict:
            raise FrameBodyError(
                tag,
                "ServerNotification",
                f"Expected `object | null`, got `{_json_type(meta)}`",
                "$.params._meta",
            )
    return CustomNotification(method, params)


def encode_custom(value: CustomNotification) -> bytes:
    """Write a ``CustomNotification`` as rmcp does: ``{"method":..,"params":..}`` with
    ``"params":null`` when ``None``, ``_meta`` first, then the other members sorted.
    ``value`` has passed :func:`diverge_frames._checks.check` (a ``str`` method, params
    a dict or None, their ``_meta`` a dict or None)."""
    params = value.params
    if type(params) is dict and "_meta" not in params:
        # Without ``_meta`` rmcp's order is plain sorted order: the encoder's own.
        return encoder.encode(value)
    head = b'{"method":' + encoder.encode(value.method)
    if params is None:
        return head + b',"params":null}'
    meta = params.get("_meta")
    if meta is None:
        rest = encoder.encode({k: v for k, v in params.items() if k != "_meta"})
        return head + b',"params":' + rest + b"}"
    rest = encoder.encode({k: v for k, v in params.items() if k != "_meta"})
    body = b'{"_meta":' + encoder.encode(meta) + (b"}" if rest == b"{}" else b"," + rest[1:])
    return head + b',"params":' + body + b"}"


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else type(value).__name__


def read_resource_result(wire: Any, tag: int) -> t.ReadResourceResult:
    """The public ``ReadResourceResult`` of a decoded :class:`_wire.ReadResourceResultWire`:
    rmcp's untagged ``ResourceContents`` (text when ``text`` is a string, else blob when
    ``blob`` is) and rmcp's ``ttlMs`` clamp to 0. Raises FrameBodyError for an item that
    is neither."""
    contents: list[t.ResourceContents] = []
    for index, item in enumerate(wire.contents):
        if type(item.text) is str:
            contents.append(
                t.TextResourceContents(
                    uri=item.uri, mime_type=item.mime_type, text=item.text, meta=item.meta
                )
            )
        elif type(item.blob) is str:
            contents.append(
                t.BlobResourceContents(
                    uri=item.uri, mime_type=item.mime_type, blob=item.blob, meta=item.meta
                )
            )
        else:
            raise FrameBodyError(
                tag,
                "ReadResourceResult",
                "data did not match any variant of untagged enum ResourceContents"
                " (no string `text` or `blob`)",
                f"$.contents[{index}]",
            )
    ttl_ms = wire.ttl_ms
    if ttl_ms is not None and ttl_ms < 0:
        ttl_ms = 0
    return t.ReadResourceResult(
        result_type=wire.result_type,
        ttl_ms=ttl_ms,
        cache_scope=wire.cache_scope,
        contents=contents,
        meta=wire.meta,
    )


# ------------------------------------------------------------------ the exact reading


def _keys(obj: Obj) -> dict[str, int]:
    counts: dict[str, int] = {}
    for key, _ in obj:
        counts[key] = counts.get(key, 0) + 1
    return counts


def _last(obj: Obj, key: str, default: Any = None) -> Any:
    for k, v in reversed(obj):
        if k == key:
            return v
    return default


def _duplicated(counts: dict[str, int], names: Any) -> list[str]:
    return [name for name in names if counts.get(name, 0) > 1]


_ABSENT = object()
#: What the exact reading's msgspec step raises for a body rmcp rejects.
_FAILED: tuple[type[Exception], ...] = (*DECODE_ERRORS, FrameBodyError)
#: Structs serde reads directly (not buffered as an untagged enum's content): members
#: outside these are skipped unread.
_SKIPPED = {"ReadResourceResult": RESULT_MEMBERS, "ErrorData": ERROR_MEMBERS}


#: Reads a body as serde_json does (``parse``'s contract, ``read(body, skip_unknown)``):
#: a tree, or Reject.
Reader = Callable[[Any, "tuple[str, ...] | None"], Any]


@overload
def decode_exact(
    body: Any,
    tag: int,
    expected: Literal["ServerNotification"],
    exc: BaseException | None = None,
    read: Reader = ...,
) -> t.ServerNotification: ...
@overload
def decode_exact(
    body: Any,
    tag: int,
    expected: Literal["ReadResourceResult"],
    exc: BaseException | None = None,
    read: Reader = ...,
) -> t.ReadResourceResult: ...
@overload
def decode_exact(
    body: Any,
    tag: int,
    expected: Literal["ErrorData"],
    exc: BaseException | None = None,
    read: Reader = ...,
) -> t.ErrorData: ...
@overload
def decode_exact(
    body: Any, tag: int, expected: str, exc: BaseException | None = None, read: Reader = ...
) -> Any: ...
def decode_exact(
    body: Any, tag: int, expected: str, exc: BaseException | None = None, read: Reader = parse
) -> Any:
    """Decode ``body`` exactly as rmcp 3.1.4 does. ``expected`` is what the tag announces:
    ``"ServerNotification"``, ``"ReadResourceResult"`` or ``"ErrorData"``. ``read``
    reads the body as serde_json does (``read(body, skip_unknown)``, the contract of
    :func:`~._serde_read.parse`, the default; a faster reader may keep the pairs of
    only the objects nested ``STRUCT_DEPTH`` levels or less, and of everything under a
    member only :mod:`._rmcp_model` reads).

    Returns the value. Raises FrameBodyError when rmcp rejects the body; when the quick
    msgspec reading fails too, its error is the one reported (its message and path are
    better), chained as ``__cause__``.
    """
    reason: str | None = None
    cause: BaseException | None = None
    failed: BaseException | None = None
    try:
        tree = read(body, _SKIPPED.get(expected))
        if expected == "ServerNotification":
            value = _exact_notification(tree, tag)
        elif expected == "ReadResourceResult":
            value = _exact_result(tree, tag)
        else:
            value = _exact_error(tree, tag)
    except Reject as reject:
        reason, cause = str(reject), reject.cause
    except _FAILED as error:
        failed = _detached(error)
    else:
        return value
    # Outside the except blocks: no exception keeps this frame (and its caller's
    # payload) alive through a reference cycle.
    raise rejection(body, tag, expected, reason, cause, exc, failed)


def rejection(
    body: Any,
    tag: int,
    expected: str,
    reason: str | None,
    cause: BaseException | None = None,
    exc: BaseException | None = None,
    failed: BaseException | None = None,
) -> FrameBodyError:
    """The FrameBodyError for a body rmcp rejects: ``reason`` (caused by ``cause``), or
    msgspec's error when msgspec rejects the body too, since its message and path are
    better: ``exc``, the hot path's, or else the quick reading's asked again (or
    ``failed``, the exact reading's own). Returned, for the caller to raise."""
    if exc is None:
        exc = _msgspec_error(body, tag, expected) or failed
    if isinstance(exc, FrameBodyError):
        return exc
    if exc is not None:
        error = FrameBodyError.from_exception(tag, expected, exc)
        error.__cause__ = exc
        return error
    error = FrameBodyError(tag, expected, reason or "rejected")
    error.__cause__ = cause
    return error


def item_rejection(tag: int, exc: BaseException) -> FrameBodyError | None:
    """The FrameBodyError for a ``ReadResourceResult`` body that msgspec's typed reading
    rejects inside ``contents`` (``exc``, a ValidationError at ``$.contents`` or below),
    when the pre-check found no rule of rmcp's to apply to the body (no member repeated
    at a struct position, no number to spell anew, nothing skipped): the exact reading
    reads each of its items as msgspec does (``_contents_item`` rewrites only an item
    with a repeated member), so it rejects the body too, and :func:`rejection` words it
    from ``exc``. None when ``exc`` lies elsewhere (a top-level member: rmcp reads
    serde's forms of its enums and of the struct itself): the exact reading decides."""
    if not isinstance(exc, msgspec.ValidationError):
        return None
    error = FrameBodyError.from_exception(tag, "ReadResourceResult", exc)
    path = error.path or ""
    if path != "$.contents" and not path.startswith("$.contents["):
        return None
    error.__cause__ = exc
    return error


def _detached(error: BaseException) -> BaseException:
    """``error`` without its traceback and context (which hold frames)."""
    error.__traceback__ = None
    error.__context__ = None
    return error


def _msgspec_error(body: Any, tag: int, expected: str) -> BaseException | None:
    """The error the quick msgspec reading gives for a body rmcp rejects (its message
    and path are better than ours), or None when msgspec reads it. A body that opens
    many arrays and objects is asked only up to ``_stack.MSGSPEC_MESSAGE_OPENINGS`` of
    them (``within_openings``): None when msgspec reads that far without an error, so
    that the answer never depends on the stack's recursion budget."""
    src, cut = within_openings(body)
    try:
        if expected == "ServerNotification":
            try:
                notification_decoder.decode(src)
            except msgspec.ValidationError:
                _custom(**msgspec.structs.asdict(custom_decoder.decode(src)), tag=tag)
        elif expected == "ReadResourceResult":
            read_resource_result(result_decoder.decode(src), tag)
        else:
            error_decoder.decode(src)
    except DECODE_ERRORS as exc:
        if cut and _TRUNCATED in str(exc):
            return None  # msgspec would have read on past the prefix
        return _detached(exc)
    except RecursionError:
        if not on_fresh_stack():
            raise  # the caller's stack may be at fault: the hot path decodes on a fresh one
        return None  # nesting msgspec cannot follow: the exact reading's reason stands
    except FrameBodyError as exc:
        return _detached(exc)
    return None


#: msgspec's message for input that ends early (``msgspec.DecodeError``).
_TRUNCATED = "Input data was truncated"


def _as_struct(tree: Any, names: tuple[str, ...]) -> Obj:
    """A derived serde struct read from a JSON object, or from an array of exactly its
    fields in order. Duplicated members reject it."""
    if type(tree) is list:
        if len(tree) != len(names):
            raise Reject(f"invalid length {len(tree)}, expected {len(names)} elements")
        return Obj(zip(names, tree, strict=True))
    if type(tree) is not Obj:
        raise Reject("invalid type, expected a struct")
    duplicated = _duplicated(_keys(tree), names)
    if duplicated:
        raise duplicate_field(duplicated[0])
    return tree


def _exact_notification(tree: Any, tag: int) -> Any:
    top = _as_struct(tree, ("method", "params"))
    method = _last(top, "method", _ABSENT)
    params = _last(top, "params", None)
    if type(method) is not str:
        raise Reject("data did not match any variant of untagged enum ServerNotification")
    if params is not None:
        if type(params) is not Obj:
            raise Reject("data did not match any variant of untagged enum ServerNotification")
        counts = _keys(params)
        if counts.get("_meta", 0) > 1:
            raise duplicate_field("_meta")
        if type(_last(params, "_meta")) not in (Obj, type(None)):
            raise Reject("data did not match any variant of untagged enum ServerNotification")
    custom_params = None if params is None else plain(params)
    names = RMCP_TYPED.get(method)
    typed = True
    typed_params: Any = custom_params
    read: dict[str, Any] = {}
    if names is not None and params is not None and custom_params is not None:
        typed = not _duplicated(counts, names)
        if typed and method == "notifications/subscriptions/acknowledged":
            typed, typed_params = _subscription_params(params, custom_params)
        if typed:
            typed_params, read = _model_params(method, params, counts, typed_params)
            typed = read is not None
    if typed:
        body = {"method": method}
        if _last(top, "params", _ABSENT) is not _ABSENT or type(tree) is list:
            body["params"] = typed_params
        try:
            value = notification_decoder.decode(plain_encoder.encode(body))
        except msgspec.ValidationError:
            pass
        else:
            for name, (_, attribute, cls) in MODEL_MEMBERS.get(method, {}).items():
                if read.get(name) is not None and getattr(value.params, attribute) is not None:
                    setattr(value.params, attribute, msgspec.convert(read[name], cls))
            return value
    return _custom(method, custom_params, tag)


def _model_params(
    method: str, params: Obj, counts: dict[str, int], plain_params: dict[str, Any]
) -> tuple[dict[str, Any], Any]:
    """The params of a typed method with its unit enums read in serde's forms
    (:data:`ENUM_MEMBERS`), and the members only :mod:`._rmcp_model` reads
    (:data:`MODEL_MEMBERS`) as rmcp writes them, each left in the params as a
    placeholder msgspec reads (``{}``, or ``None`` for ``null``) and set on the value
    after. The second item is None when rmcp cannot read one of those (the typed
    variant fails)."""
    out = dict(plain_params)
    for name, enum, owned in ENUM_MEMBERS.get(method, ()):
        if name in counts:
            out[name] = enum_member(enum, _last(params, name), owned)
    read: dict[str, Any] = {}
    for name, (kind, _, _) in MODEL_MEMBERS.get(method, {}).items():
        if name in counts:
            try:
                read[name] = kind.read(_last(params, name), False)
            except Mismatch:
                return out, None
            out[name] = None if read[name] is None else {}
    return out, read


def _subscription_params(params: Obj, plain: dict[str, Any]) -> tuple[bool, Any]:
    """rmcp's ``SubscriptionFilter`` is a derived struct: an object without duplicated
    members, or an array of up to its four fields in order."""
    notifications = _last(params, "notifications")
    if type(notifications) is Obj:
        return not _duplicated(_keys(notifications), SUBSCRIPTION_FILTER_MEMBERS), plain
    if type(notifications) is list:
        if len(notifications) > len(SUBSCRIPTION_FILTER_MEMBERS):
            return False, plain
        return True, {
            **plain,
            "notifications": dict(
                zip(SUBSCRIPTION_FILTER_MEMBERS, plain["notifications"], strict=False)
            ),
        }
    return True, plain


def _exact_result(tree: Any, tag: int) -> t.ReadResourceResult:
    top = _as_struct(tree, RESULT_MEMBERS)
    fields = {k: v for k, v in top if k in RESULT_MEMBERS}
    for name, enum, owned in ENUM_MEMBERS["ReadResourceResult"]:
        if name in fields:
            fields[name] = enum_member(enum, fields[name], owned)
    contents = fields.get("contents")
    if type(contents) is list:
        fields["contents"] = [_contents_item(item) for item in contents]
    wire = result_decoder.decode(plain_encoder.encode({k: plain(v) for k, v in fields.items()}))
    return read_resource_result(wire, tag)


def _contents_item(item: Any) -> Any:
    """rmcp's untagged ``ResourceContents``: the text variant is tried, then the blob
    one; a duplicated member fails the variant that has it."""
    if type(item) is not Obj or len(dict(item)) == len(item):
        return item  # (no member repeated: the quick test)
    counts = _keys(item)
    if _duplicated(counts, ("uri", "mimeType", "_meta")):
        raise Reject("data did not match any variant of untagged enum ResourceContents")
    if counts.get("text", 0) > 1:
        if counts.get("blob", 0) > 1:
            raise Reject("data did not match any variant of untagged enum ResourceContents")
        return Obj((k, v) for k, v in item if k != "text")
    if counts.get("blob", 0) > 1:
        return Obj((k, v) for k, v in item if k != "blob")
    return item


def _exact_error(tree: Any, tag: int) -> t.ErrorData:
    top = _as_struct(tree, ERROR_MEMBERS)
    fields = {k: plain(v) for k, v in top if k in ERROR_MEMBERS}
    return error_decoder.decode(plain_encoder.encode(fields))
