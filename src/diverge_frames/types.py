"""MCP wire types as msgspec Structs: the schema, nothing else.

Every class mirrors one serde shape of rmcp 3.1.x (``rmcp::model``), the Rust MCP SDK
that writes and reads the other end of a Diverge channel, checked against the MCP JSON
Schemas of spec versions 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 and 2026-07-28.

Conventions, all taken from rmcp:

* Wire names are MCP's (camelCase, ``_meta``); Python attributes are snake_case.
* An optional field that rmcp declares ``Option<T>`` with ``skip_serializing_if`` is
  ``T | None = None`` here: absent and ``null`` both decode to ``None`` and ``None`` is
  not written back, exactly as rmcp re-encodes. Nothing absent is ever invented.
* Members a type does not model are dropped on decode, as serde drops them. Free-form
  values (``_meta``, ``data``, a custom notification's ``params``) are kept whole as
  plain ``dict`` / ``list`` / ``str`` / ``int`` / ``float`` / ``bool`` / ``None``.
* Integers bounded in rmcp (``i32``, ``i64``, ``u64``) carry the same bounds here.

A notification class has no ``method`` field: its method is its msgspec tag, and is
also the class attribute ``method`` (a ``ClassVar`` typed as its ``Literal``, so that
``n.method == "notifications/progress"`` narrows a ``ServerNotification`` for a type
checker). :class:`CustomNotification` carries its ``method`` as an ordinary field.

Class names are rmcp's; the last six of ``__all__`` are the MCP Python SDK's names for six
of them (``ProgressNotificationParams`` is ``ProgressNotificationParam``): use either.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Literal, get_args

from msgspec import UNSET, Meta, Struct, UnsetType, field

from ._input_requests import (
    U32,
    ContextInclusion,
    CreateMessageRequest,
    CreateMessageRequestParams,
    ElicitationMode,
    ElicitRequest,
    ElicitRequestParams,
    IconTheme,
    InputRequest,
    ListRootsRequest,
    ModelHint,
    ModelPreferences,
    RequestParams,
    Role,
    SamplingMessage,
    StringFormat,
    ToolChoice,
    ToolChoiceMode,
)
from ._names import public_dir

__all__ = [
    "I32",
    "U32",
    "I64",
    "U64",
    "RequestId",
    "ProgressToken",
    "LoggingLevel",
    "TaskStatus",
    "CacheScope",
    "Role",
    "ContextInclusion",
    "ToolChoiceMode",
    "IconTheme",
    "StringFormat",
    "ElicitationMode",
    "NotificationParams",
    "CancelledNotificationParam",
    "ProgressNotificationParam",
    "LoggingMessageNotificationParam",
    "ResourceUpdatedNotificationParam",
    "SubscriptionFilter",
    "SubscriptionsAcknowledgedNotificationParams",
    "TaskStatusNotificationParams",
    "DetailedTaskNotificationParams",
    "ElicitationCompleteNotificationParams",
    "RequestParams",
    "ModelHint",
    "ModelPreferences",
    "ToolChoice",
    "SamplingMessage",
    "CreateMessageRequestParams",
    "ElicitRequestParams",
    "CreateMessageRequest",
    "ElicitRequest",
    "ListRootsRequest",
    "InputRequest",
    "CancelledNotification",
    "ProgressNotification",
    "LoggingMessageNotification",
    "ResourceUpdatedNotification",
    "ResourceListChangedNotification",
    "ToolListChangedNotification",
    "PromptListChangedNotification",
    "SubscriptionsAcknowledgedNotification",
    "TaskStatusNotification",
    "TasksNotification",
    "ElicitationCompleteNotification",
    "CustomNotification",
    "TypedNotification",
    "ServerNotification",
    "TYPED_NOTIFICATIONS",
    "TextResourceContents",
    "BlobResourceContents",
    "ResourceContents",
    "ReadResourceResult",
    "ErrorData",
    # the MCP Python SDK's names (mcp.types) for the same classes
    "CancelledNotificationParams",
    "ProgressNotificationParams",
    "LoggingMessageNotificationParams",
    "ResourceUpdatedNotificationParams",
    "ElicitCompleteNotification",
    "ElicitCompleteNotificationParams",
]


__dir__: Callable[[], list[str]] = public_dir(__all__)


#: JSON-RPC error code: rmcp ``ErrorCode(i32)``.
I32 = Annotated[int, Meta(ge=-(2**31), le=2**31 - 1)]
#: rmcp ``i64``.
I64 = Annotated[int, Meta(ge=-(2**63), le=2**63 - 1)]
#: rmcp ``u64`` (msgspec bounds stop at ``i64``; the upper bound is checked after decode).
U64 = Annotated[int, Meta(ge=0)]
#: An integer serde_json's ``Value`` holds exactly (``i64`` or ``u64``; upper bound
#: checked after decode).
_ValueInt = Annotated[int, Meta(ge=-(2**63))]
_U64_MAX = 2**64 - 1

#: JSON-RPC request id: rmcp ``NumberOrString`` (an ``i64`` or a string; floats rejected).
RequestId = I64 | str
#: MCP ``ProgressToken``: rmcp ``ProgressToken(NumberOrString)``.
ProgressToken = I64 | str
#: MCP ``LoggingLevel`` (RFC 5424 severities), rmcp ``LoggingLevel``.
LoggingLevel = Literal[
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"
]
#: MCP ``TaskStatus`` (spec 2025-11-25), rmcp ``TaskStatus``.
TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
#: MCP ``cacheScope`` (spec 2026-07-28, SEP-2549), rmcp ``CacheScope``.
CacheScope = Literal["public", "private"]

#: A ``_meta`` object: free-form, kept whole.
_Meta = dict[str, Any] | None


class _Wire(Struct, omit_defaults=True, rename="camel", kw_only=True):
    """Base of every wire struct: camelCase names, ``None`` defaults not written."""


# ------------------------------------------------------------------------------ bases


class _Notification(Struct, omit_defaults=True, rename="camel", kw_only=True, tag_field="method"):
    """A typed MCP server notification; its ``method`` is its tag.

    Each class declares ``method`` again as a ``ClassVar`` of its own ``Literal`` type,
    equal to its tag (held equal at import, below the classes): msgspec forbids a field
    named like the tag field, and a class attribute leaves the bytes alone."""

    #: The JSON-RPC ``method`` this notification is sent with (its msgspec tag).
    method: ClassVar[str]


class _ExactParams(
    Struct, omit_defaults=True, rename="camel", kw_only=True, forbid_unknown_fields=True
):
    """Params of a notification rmcp 3.1 does not type (it keeps them as ``CustomNotification``).

    Typed here only when they fit exactly, so that writing them back gives rmcp's bytes
    (``_meta`` first, then members in sorted order).

    ``"_meta": null`` counts as absent, as rmcp drops it from a custom notification."""

    meta: dict[str, Any] | UnsetType | None = field(default=UNSET, name="_meta")

    def __post_init__(self) -> None:
        if self.meta is None:
            self.meta = UNSET


# ----------------------------------------------------------------------- list changed


class NotificationParams(_Wire, kw_only=True):
    """MCP ``NotificationParams``: only ``_meta``.

    The params of the list-changed notifications, which rmcp models as
    ``NotificationNoParam``: every member but ``_meta`` is dropped.
    """

    meta: _Meta = field(default=None, name="_meta")


class _ListChanged(_Notification):
    """rmcp ``NotificationNoParam``.

    ``params`` keeps only ``_meta`` and is written only when ``_meta`` is present."""

    params: NotificationParams | None = None

    def __post_init__(self) -> None:
        if self.params is not None and self.params.meta is None:
            self.params = None


class ResourceListChangedNotification(_ListChanged, tag="notifications/resources/list_changed"):
    """MCP ``ResourceListChangedNotification``; rmcp ``ResourceListChangedNotification``."""

    method: ClassVar[Literal["notifications/resources/list_changed"]] = (
        "notifications/resources/list_changed"
    )


class ToolListChangedNotification(_ListChanged, tag="notifications/tools/list_changed"):
    """MCP ``ToolListChangedNotification``; rmcp ``ToolListChangedNotification``."""

    method: ClassVar[Literal["notifications/tools/list_changed"]] = (
        "notifications/tools/list_changed"
    )


class PromptListChangedNotification(_ListChanged, tag="notifications/prompts/list_changed"):
    """MCP ``PromptListChangedNotification``; rmcp ``PromptListChangedNotification``."""

    method: ClassVar[Literal["notifications/prompts/list_changed"]] = (
        "notifications/prompts/list_changed"
    )


# -------------------------------------------------------------------------- cancelled


class CancelledNotificationParam(_Wire, kw_only=True):
    """MCP ``CancelledNotification.params``; rmcp ``CancelledNotificationParam``.

    ``request_id`` (``requestId``) is the id of the request being cancelled.
    """

    meta: _Meta = field(default=None, name="_meta")
    reason: str | None = None
    request_id: RequestId | None = None


class CancelledNotification(_Notification, kw_only=True, tag="notifications/cancelled"):
    """MCP ``CancelledNotification``; rmcp ``CancelledNotification``.

    ``params`` absent or ``null`` decodes as empty params and is written as ``{}``.
    """

    method: ClassVar[Literal["notifications/cancelled"]] = "notifications/cancelled"

    params: CancelledNotificationParam | None = None

    def __post_init__(self) -> None:
        if self.params is None:
            self.params = CancelledNotificationParam()


# --------------------------------------------------------------------------- progress


class ProgressNotificationParam(_Wire, kw_only=True):
    """MCP ``ProgressNotification.params``; rmcp ``ProgressNotificationParam``.

    ``progress`` and ``total`` are ``f64`` in rmcp: an integer on the wire becomes a
    float and is written back as one (``2`` -> ``2.0``), as rmcp writes it.
    """

    meta: _Meta = field(default=None, name="_meta")
    message: str | None = None
    progress: float
    progress_token: ProgressToken
    total: float | None = None


class ProgressNotification(_Notification, kw_only=True, tag="notifications/progress"):
    """MCP ``ProgressNotification``; rmcp ``ProgressNotification``."""

    method: ClassVar[Literal["notifications/progress"]] = "notifications/progress"

    params: ProgressNotificationParam


# ---------------------------------------------------------------------------- logging


class LoggingMessageNotificationParam(_Wire, kw_only=True):
    """MCP ``LoggingMessageNotification.params``; rmcp ``LoggingMessageNotificationParam``.

    ``data`` is required and free-form (any JSON value, ``null`` included).
    """

    meta: _Meta = field(default=None, name="_meta")
    data: Any
    level: LoggingLevel
    logger: str | None = None


class LoggingMessageNotification(_Notification, kw_only=True, tag="notifications/message"):
    """MCP ``LoggingMessageNotification``; rmcp ``LoggingMessageNotification``."""

    method: ClassVar[Literal["notifications/message"]] = "notifications/message"

    params: LoggingMessageNotificationParam


# ------------------------------------------------------------------- resource updated


class ResourceUpdatedNotificationParam(_Wire, kw_only=True):
    """MCP ``ResourceUpdatedNotification.params``; rmcp ``ResourceUpdatedNotificationParam``."""

    meta: _Meta = field(default=None, name="_meta")
    uri: str


class ResourceUpdatedNotification(
    _Notification, kw_only=True, tag="notifications/resources/updated"
):
    """MCP ``ResourceUpdatedNotification``; rmcp ``ResourceUpdatedNotification``."""

    method: ClassVar[Literal["notifications/resources/updated"]] = "notifications/resources/updated"

    params: ResourceUpdatedNotificationParam


# ---------------------------------------------------------------------- subscriptions


class SubscriptionFilter(_Wire, kw_only=True):
    """MCP ``SubscriptionFilter`` (spec 2026-07-28, SEP-2575); rmcp ``SubscriptionFilter``."""

    prompts_list_changed: bool | None = None
    resource_subscriptions: list[str] | None = None
    resources_list_changed: bool | None = None
    tools_list_changed: bool | None = None


class SubscriptionsAcknowledgedNotificationParams(_Wire, kw_only=True):
    """MCP ``SubscriptionsAcknowledgedNotificationParams`` (spec 2026-07-28)."""

    meta: _Meta = field(default=None, name="_meta")
    notifications: SubscriptionFilter


class SubscriptionsAcknowledgedNotification(
    _Notification, tag="notifications/subscriptions/acknowledged"
):
    """MCP ``SubscriptionsAcknowledgedNotification`` (spec 2026-07-28, SEP-2575)."""

    method: ClassVar[Literal["notifications/subscriptions/acknowledged"]] = (
        "notifications/subscriptions/acknowledged"
    )

    params: SubscriptionsAcknowledgedNotificationParams


# ------------------------------------------------------------------------------ tasks


class TaskStatusNotificationParams(_ExactParams, kw_only=True):
    """MCP ``TaskStatusNotificationParams`` (spec 2025-11-25): ``NotificationParams & Task``.

    ``ttl`` is milliseconds of retention from creation, ``None`` for unlimited;
    ``poll_interval`` is milliseconds. Fields are declared in wire-name order.

    ``poll_interval`` and ``status_message`` are ``msgspec.UNSET`` when absent (the SDK
    has ``None``): rmcp takes ``null`` for neither (``"statusMessage": null`` makes a
    custom notification), so encode refuses ``None``. Test absence with ``is UNSET``.
    """

    created_at: str
    last_updated_at: str
    poll_interval: _ValueInt | UnsetType = UNSET
    status: TaskStatus
    status_message: str | UnsetType = UNSET
    task_id: str
    ttl: _ValueInt | None

    def __post_init__(self) -> None:
        super().__post_init__()
        for value in (self.poll_interval, self.ttl):
            if type(value) is int and value > _U64_MAX:
                raise ValueError("integer does not fit in 64 bits")


class TaskStatusNotification(_Notification, kw_only=True, tag="notifications/tasks/status"):
    """MCP ``TaskStatusNotification`` (spec 2025-11-25, ``notifications/tasks/status``).

    rmcp 3.1 names its task notification ``notifications/tasks``, with other params:
    that is :class:`TasksNotification`, a class of its own (not a subclass of this one).
    """

    method: ClassVar[Literal["notifications/tasks/status"]] = "notifications/tasks/status"

    params: TaskStatusNotificationParams


class DetailedTaskNotificationParams(_Wire, kw_only=True):
    """rmcp 3.1 ``TaskStatusNotificationParams``: a ``DetailedTask`` (SEP-2663).

    The params of rmcp's ``notifications/tasks``. ``ttl_ms`` (``ttlMs``) is always
    written, ``null`` meaning unlimited. The payload member that matches ``status`` is
    required (``input_requests`` for ``input_required``, ``result`` for ``completed``,
    ``error`` for ``failed``) and the others are dropped, as rmcp does.

    ``input_requests`` (``inputRequests``, SEP-2322) maps a key to an
    :data:`InputRequest` (:class:`CreateMessageRequest`, :class:`ElicitRequest` or
    :class:`ListRootsRequest`), each as rmcp reads and writes it. rmcp reads the member
    whatever the status: one it cannot read makes the whole notification a
    :class:`CustomNotification`.
    """

    meta: _Meta = field(default=None, name="_meta")
    created_at: str
    error: dict[str, Any] | None = None
    input_requests: dict[str, InputRequest] | None = None
    last_updated_at: str
    poll_interval_ms: U64 | None = None
    result: dict[str, Any] | None = None
    status: TaskStatus
    status_message: str | None = None
    task_id: str
    ttl_ms: U64 | UnsetType | None = UNSET

    _PAYLOAD: ClassVar[dict[str, str]] = {
        "input_required": "input_requests",
        "completed": "result",
        "failed": "error",
    }

    def __post_init__(self) -> None:
        if self.ttl_ms is UNSET:
            self.ttl_ms = None
        for name in ("ttl_ms", "poll_interval_ms"):
            value = getattr(self, name)
            if value is not None and value > _U64_MAX:
                raise ValueError(f"`{name}` does not fit in u64")
        wanted = self._PAYLOAD.get(self.status)
        for name in ("input_requests", "result", "error"):
            if name == wanted:
                if getattr(self, name) is None:
                    raise ValueError(f"task with status {self.status!r} is missing `{name}`")
            else:
                setattr(self, name, None)


class TasksNotification(_Notification, kw_only=True, tag="notifications/tasks"):
    """rmcp 3.1 ``TaskStatusNotification`` (``notifications/tasks``, SEP-2663).

    Not a :class:`TaskStatusNotification` (the spec's ``notifications/tasks/status``):
    its params are a :class:`DetailedTaskNotificationParams`. Match both with
    ``isinstance(n, (TaskStatusNotification, TasksNotification))``.
    """

    method: ClassVar[Literal["notifications/tasks"]] = "notifications/tasks"

    params: DetailedTaskNotificationParams


# ------------------------------------------------------------------------ elicitation


class ElicitationCompleteNotificationParams(_ExactParams, kw_only=True):
    """MCP ``ElicitationCompleteNotification.params`` (spec 2025-11-25)."""

    elicitation_id: str


class ElicitationCompleteNotification(
    _Notification, kw_only=True, tag="notifications/elicitation/complete"
):
    """MCP ``ElicitationCompleteNotification`` (spec 2025-11-25)."""

    method: ClassVar[Literal["notifications/elicitation/complete"]] = (
        "notifications/elicitation/complete"
    )

    params: ElicitationCompleteNotificationParams


# --------------------------------------------------------------- custom and the union


class CustomNotification(Struct, omit_defaults=True):
    """rmcp ``CustomNotification``: any notification no typed class fits.

    An unknown ``method``, or a known one whose ``params`` do not fit its shape.
    ``params`` is the params object kept whole (``_meta`` included), or ``None`` when
    the notification had none. rmcp writes ``_meta`` first and the other members in
    sorted key order; so does :func:`diverge_frames.notifications.encode`.
    """

    method: str
    params: dict[str, Any] | None = None


#: Every typed notification, in rmcp's order of trial (the union's order).
TypedNotification = (
    CancelledNotification
    | ProgressNotification
    | LoggingMessageNotification
    | ResourceUpdatedNotification
    | ResourceListChangedNotification
    | ToolListChangedNotification
    | PromptListChangedNotification
    | SubscriptionsAcknowledgedNotification
    | TasksNotification
    | TaskStatusNotification
    | ElicitationCompleteNotification
)

#: The members of :data:`TypedNotification`, in its order: rmcp's order of trial.
TYPED_NOTIFICATIONS: tuple[type, ...] = get_args(TypedNotification)

for _cls in TYPED_NOTIFICATIONS:  # each class's ``method`` is its tag
    if _cls.method != _cls.__struct_config__.tag:  # type: ignore[attr-defined]  # pragma: no cover
        raise TypeError(f"{_cls.__name__}.method is not its msgspec tag")

#: rmcp ``ServerNotification``: the whole union, discriminated by ``method``.
ServerNotification = TypedNotification | CustomNotification


# ---------------------------------------------------------------------- read resource


class TextResourceContents(_Wire, kw_only=True):
    """MCP ``TextResourceContents``; rmcp ``ResourceContents::TextResourceContents``."""

    uri: str
    mime_type: str | None = None
    text: str
    meta: _Meta = field(default=None, name="_meta")


class BlobResourceContents(_Wire, kw_only=True):
    """MCP ``BlobResourceContents``; rmcp ``ResourceContents::BlobResourceContents``.

    ``blob`` is the base64 text as sent; it is not decoded or checked (rmcp keeps a
    ``String``), so URL-safe or unpadded base64 passes through unchanged.
    """

    uri: str
    mime_type: str | None = None
    blob: str
    meta: _Meta = field(default=None, name="_meta")


#: rmcp ``ResourceContents`` (untagged): text when ``text`` is a string, else blob.
ResourceContents = TextResourceContents | BlobResourceContents


class ReadResourceResult(_Wire, kw_only=True):
    """MCP ``ReadResourceResult``; rmcp ``ReadResourceResult``.

    ``result_type`` (``resultType``, SEP-2322), ``ttl_ms`` (``ttlMs``, milliseconds,
    SEP-2549; a negative value is clamped to 0 as rmcp does) and ``cache_scope``
    (``cacheScope``) are spec 2026-07-28 members, ``None`` when absent.
    """

    result_type: str | None = None
    ttl_ms: I64 | None = None
    cache_scope: CacheScope | None = None
    contents: list[ResourceContents]
    meta: _Meta = field(default=None, name="_meta")


# ----------------------------------------------------------------------------- errors


class ErrorData(_Wire, kw_only=False):
    """JSON-RPC error object; rmcp ``ErrorData``.

    ``code`` is the JSON-RPC error code (an ``i32``: -32700 parse error, -32600 invalid
    request, -32601 method not found, -32602 invalid params, -32603 internal error,
    -32002 resource not found, ...), passed through untouched. ``data`` is free-form;
    ``"data": null`` decodes as ``None`` and is not written back, as in rmcp.
    """

    code: I32
    message: str
    data: Any = None


# ------------------------- the MCP Python SDK's names (mcp.types) for classes above
CancelledNotificationParams = CancelledNotificationParam
ProgressNotificationParams = ProgressNotificationParam
LoggingMessageNotificationParams = LoggingMessageNotificationParam
ResourceUpdatedNotificationParams = ResourceUpdatedNotificationParam
ElicitCompleteNotification = ElicitationCompleteNotification
ElicitCompleteNotificationParams = ElicitationCompleteNotificationParams
