"""The floor of the matrix: a minimal msgspec ``Struct`` of each frame's shape.

For each frame, the plainest msgspec type a user who knew the frame's shape would
write: the members of that one MCP type and nothing else (no ``_meta``, no rmcp rule,
no union to try, no fallback), named and ordered as rmcp writes them (no ``rename``), each
optional member defaulting to ``None`` and left out when it is (``omit_defaults``); an ``f64``
member a ``float`` (msgspec reads ``1`` into it as ``1.0`` and writes ``1.0``, as rmcp
does), a free-form member (``data``, an unknown method's ``params``) ``Any``. A
notification is decoded straight into the struct of its method (the method read once,
before timing, as the matrix picks the decoder); a result into a list of text items,
of blob items, or of items with both members optional when one result mixes them; an
error into ``ErrorData``'s three members. Encode is ``msgspec.json.encode`` of the value
that decoder gave (no tag byte, as for every other peer given the body).

:func:`decoder` picks the decoder of one frame; :func:`built_progress` builds the
``ProgressNotification`` that the matrix's built-value cases encode.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import msgspec
from msgspec import Struct

__all__ = ["decoder", "encode", "built_progress"]


class _Params(Struct, omit_defaults=True, kw_only=True):
    pass


class LoggingMessageParams(_Params, kw_only=True):
    data: Any
    level: str
    logger: str | None = None


class ProgressParams(_Params, kw_only=True):
    progress: float
    progressToken: str | int
    total: float | None = None
    message: str | None = None


class CancelledParams(_Params, kw_only=True):
    reason: str | None = None
    requestId: str | int | None = None


class ResourceUpdatedParams(_Params, kw_only=True):
    uri: str


class TaskStatusParams(_Params, kw_only=True):
    createdAt: str
    lastUpdatedAt: str
    pollInterval: int | None = None
    status: str
    statusMessage: str | None = None
    taskId: str
    ttl: int | None


class LoggingMessageNotification(Struct):
    method: str
    params: LoggingMessageParams


class ProgressNotification(Struct):
    method: str
    params: ProgressParams


class CancelledNotification(Struct):
    method: str
    params: CancelledParams


class ResourceUpdatedNotification(Struct):
    method: str
    params: ResourceUpdatedParams


class TaskStatusNotification(Struct):
    method: str
    params: TaskStatusParams


class MethodOnly(Struct):
    """A notification without params (``*/list_changed``)."""

    method: str


class CustomNotification(Struct, omit_defaults=True):
    """An unknown method: its params as they are."""

    method: str
    params: Any = None


class TextContents(Struct, omit_defaults=True, kw_only=True):
    uri: str
    mimeType: str | None = None
    text: str


class BlobContents(Struct, omit_defaults=True, kw_only=True):
    uri: str
    mimeType: str | None = None
    blob: str


class Contents(Struct, omit_defaults=True):
    """An item of a result that mixes text and blob items."""

    uri: str
    mimeType: str | None = None
    text: str | None = None
    blob: str | None = None


class TextResult(Struct):
    contents: list[TextContents]


class BlobResult(Struct):
    contents: list[BlobContents]


class MixedResult(Struct):
    contents: list[Contents]


class ErrorData(Struct, omit_defaults=True):
    code: int
    message: str
    data: Any = None


#: The notification structs by method; any other method is a ``CustomNotification``.
_NOTIFICATIONS: dict[str, type[Struct]] = {
    "notifications/message": LoggingMessageNotification,
    "notifications/progress": ProgressNotification,
    "notifications/cancelled": CancelledNotification,
    "notifications/resources/updated": ResourceUpdatedNotification,
    "notifications/tasks/status": TaskStatusNotification,
    "notifications/resources/list_changed": MethodOnly,
    "notifications/tools/list_changed": MethodOnly,
    "notifications/prompts/list_changed": MethodOnly,
}


@functools.cache
def _decoder(kind: type[Struct]) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(kind)


def _shape(channel: str, payload: bytes) -> type[Struct]:
    """The struct of one frame (tag byte + body), read from the frame before timing."""
    if payload[0] == 1:
        return ErrorData
    value = json.loads(payload[1:])
    if channel == "read-resource":
        items = value["contents"]
        if all("text" in item and "blob" not in item for item in items):
            return TextResult
        if all("blob" in item and "text" not in item for item in items):
            return BlobResult
        return MixedResult
    return _NOTIFICATIONS.get(value["method"], CustomNotification)


def decoder(channel: str, payload: bytes) -> Callable[[Any], Any]:
    """The ``decode`` of the minimal struct of the frame ``payload`` of ``channel``
    (it is given the body, without the tag byte)."""
    return _decoder(_shape(channel, payload)).decode


#: What the floor encodes with (one encoder, as a user would keep).
encode = msgspec.json.Encoder().encode


def built_progress() -> ProgressNotification:
    """The README's ``ProgressNotification``, built as a minimal struct (with floats:
    built with ints, msgspec would write ``1``, not the ``1.0`` rmcp writes)."""
    params = ProgressParams(progress=1.0, progressToken="t", total=4.0)
    return ProgressNotification(method="notifications/progress", params=params)
