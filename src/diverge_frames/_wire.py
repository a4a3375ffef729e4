"""The wire shapes the hot paths decode through, and every msgspec decoder and encoder, built once.

Both twins and the rmcp-exact path take their decoders and encoders from here, so a
decoder is never built twice and a shape is changed in one place. The public types are
in :mod:`diverge_frames.types`; the structs here are private decode shapes that the
hot paths turn into those types (see :func:`diverge_frames._exact.rmcp_result.read_resource_result`).

Encoders: results and errors are written as rmcp serializes them directly: struct
fields in declared order, dict keys sorted (serde_json's ``Map`` is a ``BTreeMap``).
Notification params go through ``serde_json::to_value`` in rmcp, so every member comes
out in sorted key order; the params structs declare their fields in that order
(``tests/test_encoder_order.py`` checks it), so ``order="deterministic"`` writes what
``"sorted"`` would without sorting struct fields again on every call.
"""

from __future__ import annotations

from typing import Any, Union

import msgspec
from msgspec import UNSET, field

from . import types as t
from .types import CacheScope, _Wire

__all__ = [
    "Payload",
    "RELEASED_PAYLOAD",
    "payload_view",
    "DECODE_ERRORS",
    "TYPED_CLASSES",
    "TYPED_METHODS",
    "ResourceContentsWire",
    "ReadResourceResultWire",
    "TextReadResourceResultWire",
    "BlobReadResourceResultWire",
    "ListChangedWire",
    "CancelledWire",
    "NOTIFICATION_PUBLIC",
    "PARAMS_TWIN_PUBLIC",
    "notification_decoder",
    "notification_wire_decoder",
    "custom_decoder",
    "result_decoder",
    "text_result_decoder",
    "blob_result_decoder",
    "error_decoder",
    "any_decoder",
    "encoder",
    "TAG_NOTIFICATION",
    "TAG_RESULT",
    "TAG_ERROR",
    "plain_encoder",
    "unsorted_encoder",
]

#: A channel payload: any contiguous bytes-like object, a slice of a larger buffer too.
Payload = bytes | bytearray | memoryview

#: What both twins raise (as ``ValueError``, what Python raises for it) for a payload
#: that is a released ``memoryview``.
RELEASED_PAYLOAD = "the payload is a released memoryview: it has no bytes to decode"


def payload_view(payload: Payload) -> memoryview:
    """A memoryview of ``payload``.

    Raises TypeError when it is not bytes-like, worded as the buffer request of the
    compiled twin words it (CPython's), so that both twins say the same, and
    ValueError (``RELEASED_PAYLOAD``) for a released ``memoryview``.
    """
    try:
        return memoryview(payload)
    except ValueError:  # released
        raise ValueError(RELEASED_PAYLOAD) from None
    except TypeError:
        raise TypeError(
            f"a bytes-like object is required, not '{type(payload).__name__}'"
        ) from None


#: What a msgspec decoder raises for input it cannot read, in every msgspec version
#: ``pyproject.toml`` allows: ``DecodeError`` (``ValidationError`` included) and, before
#: msgspec 0.23, ``UnicodeDecodeError`` for invalid UTF-8 in a string. Every step that
#: maps msgspec's errors catches this tuple, never a part of it.
DECODE_ERRORS: tuple[type[Exception], ...] = (msgspec.DecodeError, UnicodeDecodeError)

#: The typed notification classes, for the encoders' dispatch on ``type(value)``.
TYPED_CLASSES: frozenset[type] = frozenset(t.TYPED_NOTIFICATIONS)
#: Their methods (msgspec tags), in rmcp's order of trial.
TYPED_METHODS: tuple[str, ...] = tuple(
    str(cls.__struct_config__.tag)  # type: ignore[attr-defined]
    for cls in t.TYPED_NOTIFICATIONS
)

_Meta = dict[str, Any] | None


class ResourceContentsWire(_Wire, kw_only=True):
    """One item of ``contents`` before rmcp's text-or-blob rule picks its class."""

    uri: str
    mime_type: str | None = None
    text: Any = UNSET
    blob: Any = UNSET
    meta: _Meta = field(default=None, name="_meta")


class ReadResourceResultWire(_Wire, kw_only=True):
    """A ``ReadResourceResult`` whose items are :class:`ResourceContentsWire`."""

    result_type: str | None = None
    ttl_ms: t.I64 | None = None
    cache_scope: CacheScope | None = None
    contents: list[ResourceContentsWire]
    meta: _Meta = field(default=None, name="_meta")


class TextReadResourceResultWire(_Wire, kw_only=True):
    """A ``ReadResourceResult`` whose every item is text.

    Decodes each item straight to the public
    :class:`~diverge_frames.types.TextResourceContents` (the compiled path tries it
    first when the body has no ``"blob"`` key).
    """

    result_type: str | None = None
    ttl_ms: t.I64 | None = None
    cache_scope: CacheScope | None = None
    contents: list[t.TextResourceContents]
    meta: _Meta = field(default=None, name="_meta")


class BlobReadResourceResultWire(_Wire, kw_only=True):
    """A ``ReadResourceResult`` whose every item is a blob.

    Decodes each item straight to the public
    :class:`~diverge_frames.types.BlobResourceContents` (the compiled path tries it when
    the body has a ``"blob"`` key and no ``"text"`` one).
    """

    result_type: str | None = None
    ttl_ms: t.I64 | None = None
    cache_scope: CacheScope | None = None
    contents: list[t.BlobResourceContents]
    meta: _Meta = field(default=None, name="_meta")


class ListChangedWire(t._Notification):
    """A list-changed notification as msgspec reads it, before rmcp's empty-params rule.

    The public classes (:class:`~diverge_frames.types.ToolListChangedNotification` ...)
    drop ``params`` without ``_meta`` in their ``__post_init__``; the compiled path reads
    into these instead, of the same layout and without one, applies the rule in C and
    makes the value the public class in place (``_public.pxi``)."""

    params: t.NotificationParams | None = None


class _ResourceListChangedWire(ListChangedWire, tag="notifications/resources/list_changed"):
    """The wire twin of :class:`~diverge_frames.types.ResourceListChangedNotification`."""


class _ToolListChangedWire(ListChangedWire, tag="notifications/tools/list_changed"):
    """The wire twin of :class:`~diverge_frames.types.ToolListChangedNotification`."""


class _PromptListChangedWire(ListChangedWire, tag="notifications/prompts/list_changed"):
    """The wire twin of :class:`~diverge_frames.types.PromptListChangedNotification`."""


class CancelledWire(t._Notification, kw_only=True, tag="notifications/cancelled"):
    """A ``CancelledNotification`` as msgspec reads it, before rmcp's empty params.

    The public class makes absent or ``null`` params empty ones in its ``__post_init__``;
    the compiled path reads into this one, of the same layout and without it, as
    :class:`ListChangedWire`."""

    params: t.CancelledNotificationParam | None = None


#: Each wire notification class's public class (the same tag): the ones whose
#: ``__post_init__`` the compiled path applies in C.
NOTIFICATION_PUBLIC: dict[type, type] = {
    _ResourceListChangedWire: t.ResourceListChangedNotification,
    _ToolListChangedWire: t.ToolListChangedNotification,
    _PromptListChangedWire: t.PromptListChangedNotification,
    CancelledWire: t.CancelledNotification,
}


def _twin(public: type, **types: Any) -> type:
    """``public``'s struct without its ``__post_init__``.

    The same fields, names, defaults, order, options and slots; ``types`` gives some of
    its own fields another type. Built from the public class itself
    (``msgspec.defstruct``), on a twin of each struct class it derives from (CPython lays
    out each class's slots in name order), so that the two cannot drift apart; the
    compiled path checks the layout again at import."""
    base = public.__mro__[1]
    inherited = base.__struct_fields__ if base is not msgspec.Struct else ()  # type: ignore[attr-defined]
    config = public.__struct_config__  # type: ignore[attr-defined]
    fields = [
        (
            f.name,
            types.get(f.name, f.type),
            field(name=f.encode_name)
            if f.required
            else field(default=f.default, name=f.encode_name),
        )
        for f in msgspec.structs.fields(public)
        if f.name not in inherited
    ]
    options = {k: getattr(config, k) for k in dir(config) if not k.startswith("_")}
    return msgspec.defstruct(
        f"_{public.__name__.lstrip('_')}Wire",
        fields,
        bases=(_twin(base),) if base is not msgspec.Struct else None,
        module=__name__,
        kw_only=True,
        **options,
    )


def _params_twin(public: type) -> type:
    """The wire twin of a typed notification whose ``params`` run a ``__post_init__``.

    Its params are read as a :func:`_twin` of them, without it: the compiled path
    applies its rules in C, or leaves the value to the public class (``_public.pxi``)."""
    params = msgspec.structs.fields(public)[0]
    return _twin(public, params=_twin(params.type))


#: Each wire notification class whose params' ``__post_init__`` the compiled path
#: applies in C, and its public class.
PARAMS_TWIN_PUBLIC: dict[type, type] = {
    _params_twin(cls): cls
    for cls in (t.TaskStatusNotification, t.ElicitationCompleteNotification, t.TasksNotification)
}
_WIRE_OF = {public: wire for wire, public in (NOTIFICATION_PUBLIC | PARAMS_TWIN_PUBLIC).items()}


#: The tag byte of each frame: a notification or a result (tag 0, by channel), or the
#: ErrorData that ends a channel (tag 1). The public modules and both twins read them here.
TAG_NOTIFICATION = 0
TAG_RESULT = 0
TAG_ERROR = 1

# ------------------------------------------------------------------ decoders

#: Straight into the public types: one struct per notification, not two.
notification_decoder = msgspec.json.Decoder(t.TypedNotification)
#: The same with the classes of :data:`NOTIFICATION_PUBLIC` read as their wire twins
#: (the compiled path, which makes them public).
notification_wire_decoder = msgspec.json.Decoder(
    Union[tuple(_WIRE_OF.get(cls, cls) for cls in t.TYPED_NOTIFICATIONS)]  # noqa: UP007
)
#: One decoder per typed notification, in :data:`TYPED_METHODS`' order: the compiled
#: path reads a body whose method it has found (its first key) with its method's class
#: at once, without the union's look-up of the tag (the wire twins' where
#: ``notification_wire_decoder`` is used, the public classes' where it is not).
notification_method_decoders: tuple[msgspec.json.Decoder[Any], ...] = tuple(
    msgspec.json.Decoder(cls) for cls in t.TYPED_NOTIFICATIONS
)
notification_method_wire_decoders: tuple[msgspec.json.Decoder[Any], ...] = tuple(
    msgspec.json.Decoder(_WIRE_OF.get(cls, cls)) for cls in t.TYPED_NOTIFICATIONS
)
custom_decoder = msgspec.json.Decoder(t.CustomNotification)
result_decoder = msgspec.json.Decoder(ReadResourceResultWire)
text_result_decoder = msgspec.json.Decoder(TextReadResourceResultWire)
blob_result_decoder = msgspec.json.Decoder(BlobReadResourceResultWire)
error_decoder = msgspec.json.Decoder(t.ErrorData)
#: Any JSON value as plain Python.
any_decoder = msgspec.json.Decoder()

# ------------------------------------------------------------------ encoders

#: Every frame's body: notifications, results, errors (see the module docstring for why
#: "deterministic").
encoder = msgspec.json.Encoder(order="deterministic")
#: The same without the dicts' sort: the compiled encode writes with it a value whose
#: dicts it found all in sorted order already (the same bytes, none of the sort's time).
unsorted_encoder = msgspec.json.Encoder()
#: Bodies rebuilt by the rmcp-exact path before the typed decoders read them.
plain_encoder = msgspec.json.Encoder()
