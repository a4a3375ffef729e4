"""rmcp 3.1.4's reading of a body that serde_json has read: the exact reading.

The rules of ``rmcp::model`` that msgspec's typed decoders do not express on their own:

* ``ServerNotification`` is untagged: the typed variants (:data:`.rmcp_structs.RMCP_TYPED`)
  are tried in order, then ``CustomNotification`` (:mod:`.rmcp_custom`).
* Unit enums (:data:`.rmcp_types.ENUM_MEMBERS`) are read in serde's map forms too
  (``{"info": null}``; ``{"info": {}}`` where serde reads owned ``Content``);
  ``inputRequests`` is read by :mod:`.rmcp_types` alone.
* Derived structs (serde's derive): a duplicated member rejects the struct (the typed
  variant fails, so a known method becomes a ``CustomNotification``; a duplicated
  top-level member rejects the body); a struct also reads a JSON array of its fields in
  declaration order (:mod:`.rmcp_structs`). Members are struct members only in objects
  nested at most ``STRUCT_DEPTH`` levels; deeper objects are free-form ``Value`` maps,
  where the last duplicate wins in both readers.
* ``ErrorData`` and ``ReadResourceResult`` are read directly, not buffered as an
  untagged enum's content: members they do not have are skipped unread (syntax only).
* ``ResourceContents`` is untagged, ``ttlMs`` clamped (:mod:`.rmcp_result`).

:func:`decode_exact` applies all of it to the tree a twin read (the pure twin with
:func:`.serde_json_reader.read`, the compiled one in C and :func:`.serde_json.tree`);
:func:`read_exactly` reads the body first (the pure twin's way, or the reference's).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import Any

import msgspec

from .. import types as t
from .._wire import (
    DECODE_ERRORS,
    error_decoder,
    notification_decoder,
    plain_encoder,
    result_decoder,
)
from ..errors import INVALID_UTF8, FrameBodyError
from .rejection import detached, msgspec_rejection, rejection
from .rmcp_custom import custom_notification
from .rmcp_result import NO_VARIANT, read_resource_result
from .rmcp_structs import (
    DIRECT_MEMBERS,
    ERROR_MEMBERS,
    EXPECT_NOTIFICATION,
    RESULT_MEMBERS,
    RMCP_TYPED,
    SUBSCRIPTION_FILTER_MEMBERS,
    SUBSCRIPTION_METHOD,
    duplicate_field,
)
from .rmcp_types import ENUM_MEMBERS, MODEL_MEMBERS, enum_member
from .serde import Mismatch
from .serde_json import Obj, Reject, plain
from .serde_json_reader import parse, read

__all__ = ["decode_exact", "read_exactly", "is_utf8"]


def decode_exact(
    body: Any, tree: Any, tag: int, expected: int, exc: BaseException | None = None
) -> Any:
    """Decode ``body``, read by serde_json's rules as ``tree``, exactly as rmcp 3.1.4 does.

    ``expected`` is what the tag announces, an index of :data:`.rmcp_structs.EXPECTED`.
    ``tree`` is :func:`.serde_json_reader.parse`'s answer, or one keeping the pairs of only
    the objects nested ``STRUCT_DEPTH`` levels or less and of everything under a member
    only :mod:`.rmcp_types` reads. ``exc``: msgspec's error for the body, when msgspec
    rejected it.

    Returns the value. Raises FrameBodyError when rmcp rejects the body; when the quick
    msgspec reading fails too, its error is the one reported (its message and path are
    better), chained as ``__cause__``.
    """
    reason: str | None = None
    cause: BaseException | None = None
    failed: BaseException | None = None
    try:
        return _RULES[expected](tree, tag)
    except Reject as reject:
        reason, cause = str(reject), reject.cause
    except _FAILED as error:
        failed = detached(error)
    # Outside the except blocks: no exception keeps this frame (and its caller's
    # payload) alive through a reference cycle.
    raise rejection(body, tag, expected, reason, cause, exc, failed, parsed=True)


def read_exactly(
    body: Any, tag: int, expected: int, exc: BaseException | None = None, **how: Any
) -> Any:
    """Read ``body`` by serde_json's rules, then decode it as :func:`decode_exact` does.

    ``how``: the options of :func:`.serde_json_reader.read` (the pure twin's reader, with
    what its pre-check found); none: the reference, :func:`.serde_json_reader.parse`.
    """
    reason: str | None = None
    cause: BaseException | None = None
    asked = how and exc is None and not is_utf8(body)
    if asked:
        # serde_json rejects a body that is not UTF-8 unless all of that is in members a
        # direct struct skips unread (ignore_str checks neither UTF-8 nor surrogates).
        # When msgspec rejects it for a reason serde meets too (any in a notification,
        # whose strings the untagged enum buffers, each checked; a string's UTF-8, which
        # msgspec checks only where it reads the string, as serde does), its words are
        # the rejection (as ``rejection`` words it): no need to find serde's first reason.
        error = msgspec_rejection(body, tag, expected)
        if error is not None and (expected == EXPECT_NOTIFICATION or error.reason == INVALID_UTF8):
            raise error
        asked = error is None  # else asked again for its words, if serde rejects the body
    try:
        if how:
            tree = read(body, DIRECT_MEMBERS[expected], **how)
        else:
            tree = parse(body, DIRECT_MEMBERS[expected])
    except Reject as reject:
        reason, cause = str(reject), reject.cause
    else:
        return decode_exact(body, tree, tag, expected, exc)
    # Outside the except block: the Reject's traceback would keep this frame alive.
    raise rejection(body, tag, expected, reason, cause, exc, asked=bool(asked))


def is_utf8(body: Any) -> bool:
    """Whether the bytes-like ``body`` is UTF-8, as serde_json's ``from_slice`` requires.

    ASCII at once; else decoded 64 KiB at a time (no copy of the whole body).
    """
    data = body if type(body) is bytes else memoryview(body).cast("B")
    if type(data) is bytes and data.isascii():
        return True
    decode = codecs.getincrementaldecoder("utf-8")().decode
    try:
        for at in range(0, len(data), 65536):
            decode(data[at : at + 65536])
        decode(b"", True)
    except UnicodeDecodeError:
        return False
    return True


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


def _as_struct(tree: Any, names: tuple[str, ...]) -> Obj:
    """A derived serde struct read from a JSON object, or from an array of its fields.

    The array holds exactly its fields, in order. Duplicated members reject it.
    """
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
        if typed and method == SUBSCRIPTION_METHOD:
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
    return custom_notification(method, custom_params, tag)


def _model_params(
    method: str, params: Obj, counts: dict[str, int], plain_params: dict[str, Any]
) -> tuple[dict[str, Any], Any]:
    """The params of a typed method, with what serde reads otherwise than msgspec.

    Its unit enums read in serde's forms (:data:`ENUM_MEMBERS`), and the members only
    :mod:`.rmcp_types` reads (:data:`MODEL_MEMBERS`) as rmcp writes them, each left in
    the params as a placeholder msgspec reads (``{}``, or ``None`` for ``null``) and set
    on the value after. The second item is None when rmcp cannot read one of those (the
    typed variant fails).
    """
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
    """rmcp's ``SubscriptionFilter`` is a derived struct.

    An object without duplicated members, or an array of up to its four fields in order.
    """
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
    plain_fields = {k: plain(v) for k, v in fields.items() if k != "contents"}
    if type(contents) is list:
        plain_fields["contents"] = msgspec.Raw(_written_items(contents))
    elif "contents" in fields:
        plain_fields["contents"] = plain(contents)
    order = list(fields)  # the body's order: msgspec's first error is the body's
    wire = result_decoder.decode(plain_encoder.encode({k: plain_fields[k] for k in order}))
    return read_resource_result(wire, tag)


def _written_items(contents: list[Any]) -> bytearray:
    """The JSON of the ``contents`` items, each read by :func:`_contents_item`.

    Each item of the tree is written, then dropped from it (the tree is the rules' own),
    so that the tree and its JSON are not both whole at once.
    """
    out = bytearray(b"[")
    for index, item in enumerate(contents):
        if index:
            out += b","
        plain_encoder.encode_into(plain(_contents_item(item)), out, -1)
        contents[index] = None
    out += b"]"
    return out


def _contents_item(item: Any) -> Any:
    """rmcp's untagged ``ResourceContents``.

    The text variant is tried, then the blob one; a duplicated member fails the variant
    that has it. The compiled twin keeps a C copy of this rule (``_rmcp_items.h``), which
    a test holds equal to it on generated bodies.
    """
    if type(item) is not Obj or len(dict(item)) == len(item):
        return item  # (no member repeated: the quick test)
    counts = _keys(item)
    if _duplicated(counts, ("uri", "mimeType", "_meta")):
        raise Reject(NO_VARIANT)
    if counts.get("text", 0) > 1:
        if counts.get("blob", 0) > 1:
            raise Reject(NO_VARIANT)
        return Obj((k, v) for k, v in item if k != "text")
    if counts.get("blob", 0) > 1:
        return Obj((k, v) for k, v in item if k != "blob")
    return item


def _exact_error(tree: Any, tag: int) -> t.ErrorData:
    top = _as_struct(tree, ERROR_MEMBERS)
    fields = {k: plain(v) for k, v in top if k in ERROR_MEMBERS}
    return error_decoder.decode(plain_encoder.encode(fields))


#: The rules of each expected type, in the order of :data:`.rmcp_structs.EXPECTED`.
_RULES: tuple[Callable[[Any, int], Any], ...] = (_exact_notification, _exact_result, _exact_error)
