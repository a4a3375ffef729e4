"""A bridge to the official MCP Python SDK's types: :func:`to_mcp` and :func:`from_mcp`.

The SDK's types are ``mcp.types``, PyPI ``mcp`` 2.x.

Needs the SDK: ``pip install "diverge-frames[mcp]"``. Both directions go through the
JSON the channels carry, so that what crosses is what rmcp writes and reads:

* :func:`to_mcp` builds the SDK model from the JSON ``encode`` writes
  (``model_validate_json``; a member of a frame from :func:`diverge_frames.to_builtins`
  with ``model_validate``): members rmcp leaves out stay unset
  in the model (not the SDK's defaults: ``ttlMs`` ``0``, ``cacheScope`` ``"private"``,
  ``resultType`` ``"complete"`` are defaults the model fills in, not members it was
  given).
* :func:`from_mcp` is :func:`diverge_frames.convert` of the members that were set
  (``model_dump(by_alias=True, exclude_unset=True)``, with ``method`` put back: a
  model built without it has it unset), so it reads them exactly as ``decode`` reads a
  frame and refuses what ``encode`` refuses for want of JSON (a NaN, which the SDK's
  JSON writes as ``null``; bytes, which it writes as text). A ``data`` or ``params``
  set to ``None`` stays (``exclude_none`` would turn a log message with
  ``"data": null`` into a custom notification).

So ``encode(from_mcp(to_mcp(v))) == encode(v)`` for every value ``encode`` writes.

What the SDK has no class for crosses as ``mcp.types.JSONRPCNotification`` (method and
params kept whole): a :class:`~diverge_frames.types.CustomNotification` and rmcp's
``notifications/tasks`` (:class:`~diverge_frames.types.TasksNotification`; the SDK's
``TaskStatusNotification`` is the spec's ``notifications/tasks/status``, ours of the
same name). :func:`from_mcp` of a ``JSONRPCNotification`` gives what ``decode`` gives
for it: a typed notification when its method and params fit one. The SDK's
``ServerNotification`` union takes neither task notification nor an unknown method;
these functions do not use it.

Cannot cross (``TypeError``): rmcp's task params
(:class:`~diverge_frames.types.DetailedTaskNotificationParams`) on their own, and any
SDK model with no counterpart here (requests, other results, client notifications).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, overload

from . import notifications, read_resource
from . import types as t
from ._convert import convert, to_builtins
from ._names import public_dir

try:
    import mcp.types as _sdk
except ImportError as _missing:  # pragma: no cover - the extra not installed
    raise ImportError(
        'diverge_frames.mcp needs the MCP Python SDK: pip install "diverge-frames[mcp]"'
    ) from _missing

__all__ = ["to_mcp", "from_mcp", "SDK_CLASSES"]


__dir__: Callable[[], list[str]] = public_dir(__all__)


#: Our class -> the ``mcp.types`` class of the same MCP type.
SDK_CLASSES: dict[type, type] = {
    t.CancelledNotification: _sdk.CancelledNotification,
    t.CancelledNotificationParam: _sdk.CancelledNotificationParams,
    t.ProgressNotification: _sdk.ProgressNotification,
    t.ProgressNotificationParam: _sdk.ProgressNotificationParams,
    t.LoggingMessageNotification: _sdk.LoggingMessageNotification,
    t.LoggingMessageNotificationParam: _sdk.LoggingMessageNotificationParams,
    t.ResourceUpdatedNotification: _sdk.ResourceUpdatedNotification,
    t.ResourceUpdatedNotificationParam: _sdk.ResourceUpdatedNotificationParams,
    t.ResourceListChangedNotification: _sdk.ResourceListChangedNotification,
    t.ToolListChangedNotification: _sdk.ToolListChangedNotification,
    t.PromptListChangedNotification: _sdk.PromptListChangedNotification,
    t.NotificationParams: _sdk.NotificationParams,
    t.SubscriptionsAcknowledgedNotification: _sdk.SubscriptionsAcknowledgedNotification,
    t.SubscriptionsAcknowledgedNotificationParams: _sdk.SubscriptionsAcknowledgedNotificationParams,
    t.SubscriptionFilter: _sdk.SubscriptionFilter,
    t.TaskStatusNotification: _sdk.TaskStatusNotification,
    t.TaskStatusNotificationParams: _sdk.TaskStatusNotificationParams,
    t.ElicitationCompleteNotification: _sdk.ElicitCompleteNotification,
    t.ElicitationCompleteNotificationParams: _sdk.ElicitCompleteNotificationParams,
    t.ReadResourceResult: _sdk.ReadResourceResult,
    t.TextResourceContents: _sdk.TextResourceContents,
    t.BlobResourceContents: _sdk.BlobResourceContents,
    t.ErrorData: _sdk.ErrorData,
}
#: Ours with no SDK class: they cross as a ``JSONRPCNotification``.
_AS_JSONRPC = (t.CustomNotification, t.TasksNotification)
_OURS: dict[type, Any] = {sdk: ours for ours, sdk in SDK_CLASSES.items()}
#: A frame's values: how each is encoded.
_ENCODE: dict[type, Any] = {
    **dict.fromkeys(t.TYPED_NOTIFICATIONS, notifications.encode),
    t.ErrorData: notifications.encode,
    t.ReadResourceResult: read_resource.encode,
}
_NOTIFICATIONS = frozenset(
    sdk for ours, sdk in SDK_CLASSES.items() if ours in t.TYPED_NOTIFICATIONS
)


@overload
def to_mcp(value: t.CancelledNotification) -> _sdk.CancelledNotification: ...
@overload
def to_mcp(value: t.CancelledNotificationParam) -> _sdk.CancelledNotificationParams: ...
@overload
def to_mcp(value: t.ProgressNotification) -> _sdk.ProgressNotification: ...
@overload
def to_mcp(value: t.ProgressNotificationParam) -> _sdk.ProgressNotificationParams: ...
@overload
def to_mcp(value: t.LoggingMessageNotification) -> _sdk.LoggingMessageNotification: ...
@overload
def to_mcp(value: t.LoggingMessageNotificationParam) -> _sdk.LoggingMessageNotificationParams: ...
@overload
def to_mcp(value: t.ResourceUpdatedNotification) -> _sdk.ResourceUpdatedNotification: ...
@overload
def to_mcp(value: t.ResourceUpdatedNotificationParam) -> _sdk.ResourceUpdatedNotificationParams: ...
@overload
def to_mcp(value: t.ResourceListChangedNotification) -> _sdk.ResourceListChangedNotification: ...
@overload
def to_mcp(value: t.ToolListChangedNotification) -> _sdk.ToolListChangedNotification: ...
@overload
def to_mcp(value: t.PromptListChangedNotification) -> _sdk.PromptListChangedNotification: ...
@overload
def to_mcp(
    value: t.SubscriptionsAcknowledgedNotification,
) -> _sdk.SubscriptionsAcknowledgedNotification: ...
@overload
def to_mcp(
    value: t.SubscriptionsAcknowledgedNotificationParams,
) -> _sdk.SubscriptionsAcknowledgedNotificationParams: ...
@overload
def to_mcp(value: t.SubscriptionFilter) -> _sdk.SubscriptionFilter: ...
@overload
def to_mcp(value: t.TaskStatusNotification) -> _sdk.TaskStatusNotification: ...
@overload
def to_mcp(value: t.TaskStatusNotificationParams) -> _sdk.TaskStatusNotificationParams: ...
@overload
def to_mcp(value: t.ElicitationCompleteNotification) -> _sdk.ElicitCompleteNotification: ...
@overload
def to_mcp(
    value: t.ElicitationCompleteNotificationParams,
) -> _sdk.ElicitCompleteNotificationParams: ...
@overload
def to_mcp(value: t.ReadResourceResult) -> _sdk.ReadResourceResult: ...
@overload
def to_mcp(value: t.TextResourceContents) -> _sdk.TextResourceContents: ...
@overload
def to_mcp(value: t.BlobResourceContents) -> _sdk.BlobResourceContents: ...
@overload
def to_mcp(value: t.ErrorData) -> _sdk.ErrorData: ...
@overload
def to_mcp(value: t.CustomNotification | t.TasksNotification) -> _sdk.JSONRPCNotification: ...
@overload
def to_mcp(value: t.NotificationParams) -> _sdk.NotificationParams: ...
def to_mcp(value: Any) -> Any:
    """The ``mcp.types`` model of ``value``, with only the members ``encode`` writes set.

    ``value`` is any public struct of :mod:`diverge_frames.types` but rmcp's task params. The
    model is the SDK class of the same MCP type (:data:`SDK_CLASSES`), or a
    ``JSONRPCNotification`` for a custom notification and rmcp's ``notifications/tasks``.

    Raises what ``encode`` raises for a value it refuses (``TypeError`` /
    ``ValueError`` naming the member), ``pydantic.ValidationError`` when the SDK model
    refuses what rmcp writes, ``TypeError`` for a value with no SDK counterpart.
    """
    cls = type(value)
    if cls in _AS_JSONRPC:
        plain = to_builtins(value)
        return _sdk.JSONRPCNotification(
            jsonrpc="2.0", method=plain["method"], params=plain.get("params")
        )
    sdk = SDK_CLASSES.get(cls)
    if sdk is None:
        raise TypeError(f"{cls.__name__} has no class in mcp.types")
    encode = _ENCODE.get(cls)
    if encode is not None:  # a frame's value: the SDK reads the JSON encode writes
        return sdk.model_validate_json(encode(value)[1:])  # type: ignore[attr-defined]
    return sdk.model_validate(to_builtins(value))  # type: ignore[attr-defined]


# The SDK's params classes subclass its NotificationParams, whose overload is last;
# from_mcp dispatches on the exact class, so the overload of a subclass is the one that
# applies, whatever mypy's overload-overlap says of its other return type.
@overload
def from_mcp(obj: _sdk.CancelledNotification) -> t.CancelledNotification | t.CustomNotification: ...
@overload
def from_mcp(obj: _sdk.CancelledNotificationParams) -> t.CancelledNotificationParam: ...  # type: ignore[overload-overlap]
@overload
def from_mcp(obj: _sdk.ProgressNotification) -> t.ProgressNotification | t.CustomNotification: ...
@overload
def from_mcp(obj: _sdk.ProgressNotificationParams) -> t.ProgressNotificationParam: ...  # type: ignore[overload-overlap]
@overload
def from_mcp(
    obj: _sdk.LoggingMessageNotification,
) -> t.LoggingMessageNotification | t.CustomNotification: ...
@overload
def from_mcp(obj: _sdk.LoggingMessageNotificationParams) -> t.LoggingMessageNotificationParam: ...  # type: ignore[overload-overlap]
@overload
def from_mcp(
    obj: _sdk.ResourceUpdatedNotification,
) -> t.ResourceUpdatedNotification | t.CustomNotification: ...
@overload
def from_mcp(obj: _sdk.ResourceUpdatedNotificationParams) -> t.ResourceUpdatedNotificationParam: ...  # type: ignore[overload-overlap]
@overload
def from_mcp(
    obj: _sdk.ResourceListChangedNotification,
) -> t.ResourceListChangedNotification | t.CustomNotification: ...
@overload
def from_mcp(
    obj: _sdk.ToolListChangedNotification,
) -> t.ToolListChangedNotification | t.CustomNotification: ...
@overload
def from_mcp(
    obj: _sdk.PromptListChangedNotification,
) -> t.PromptListChangedNotification | t.CustomNotification: ...
@overload
def from_mcp(
    obj: _sdk.SubscriptionsAcknowledgedNotification,
) -> t.SubscriptionsAcknowledgedNotification | t.CustomNotification: ...
@overload
def from_mcp(  # type: ignore[overload-overlap]
    obj: _sdk.SubscriptionsAcknowledgedNotificationParams,
) -> t.SubscriptionsAcknowledgedNotificationParams: ...
@overload
def from_mcp(obj: _sdk.SubscriptionFilter) -> t.SubscriptionFilter: ...
@overload
def from_mcp(
    obj: _sdk.TaskStatusNotification,
) -> t.TaskStatusNotification | t.CustomNotification: ...
@overload
def from_mcp(obj: _sdk.TaskStatusNotificationParams) -> t.TaskStatusNotificationParams: ...  # type: ignore[overload-overlap]
@overload
def from_mcp(
    obj: _sdk.ElicitCompleteNotification,
) -> t.ElicitationCompleteNotification | t.CustomNotification: ...
@overload
def from_mcp(  # type: ignore[overload-overlap]
    obj: _sdk.ElicitCompleteNotificationParams,
) -> t.ElicitationCompleteNotificationParams: ...
@overload
def from_mcp(obj: _sdk.ReadResourceResult) -> t.ReadResourceResult: ...
@overload
def from_mcp(obj: _sdk.TextResourceContents) -> t.TextResourceContents: ...
@overload
def from_mcp(obj: _sdk.BlobResourceContents) -> t.BlobResourceContents: ...
@overload
def from_mcp(obj: _sdk.ErrorData) -> t.ErrorData: ...
@overload
def from_mcp(obj: _sdk.JSONRPCNotification) -> t.ServerNotification: ...
@overload
def from_mcp(obj: _sdk.NotificationParams) -> t.NotificationParams: ...
def from_mcp(obj: Any) -> Any:
    """Our value of an ``mcp.types`` model, as ``decode`` reads the JSON of the members set in it.

    As :func:`diverge_frames.convert` reads it: a notification model (or a
    ``JSONRPCNotification``) gives a :data:`~diverge_frames.types.ServerNotification`,
    typed or custom as rmcp reads it; ``ReadResourceResult`` and ``ErrorData`` theirs;
    params, contents items and the subscription filter their classes here.

    Raises ``msgspec.ValidationError`` when ``decode`` would refuse the JSON, or
    when a member holds what ``encode`` refuses for want of JSON (worded as encode
    words it: ``$.params.data[0]: inf: JSON has no such number``), ``TypeError`` for a model with no counterpart here.
    """
    cls = type(obj)
    if cls is _sdk.JSONRPCNotification:
        return convert({"method": obj.method, "params": obj.params}, t.ServerNotification)
    ours = _OURS.get(cls)
    if ours is None:
        raise TypeError(f"{cls.__name__} has no counterpart in diverge_frames.types")
    # The members set, as Python values (not the SDK's JSON, which writes a NaN or an
    # infinity as null and bytes as text): convert refuses what has no JSON.
    plain = obj.model_dump(by_alias=True, exclude_unset=True, warnings=False)
    if cls in _NOTIFICATIONS:
        # ``method`` is a default in the SDK's models: unset in one built without it
        return convert({"method": obj.method, **plain}, t.ServerNotification)
    return convert(plain, ours)
