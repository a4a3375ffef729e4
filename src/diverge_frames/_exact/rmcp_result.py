"""rmcp 3.1.4's ``ReadResourceResult`` made of its decoded wire shape.

Two rules, each stated once here as the reference: ``ResourceContents`` is untagged,
text when ``text`` is a string, else blob when ``blob`` is (:func:`public_item`); and
``ttlMs`` below 0 is clamped to 0 (:func:`clamp_ttl_ms`). The compiled twin keeps C
copies of both for speed, which a test holds equal to these on generated items.
"""

from __future__ import annotations

from typing import Any

from .. import types as t
from ..errors import FrameBodyError

__all__ = [
    "NEITHER_TEXT_NOR_BLOB",
    "NO_VARIANT",
    "check_items",
    "clamp_ttl_ms",
    "public_item",
    "read_resource_result",
]

#: serde's reason for a ``contents`` item that neither variant reads (a member of both
#: repeated, or ``text`` and ``blob`` both repeated).
NO_VARIANT = "data did not match any variant of untagged enum ResourceContents"
#: The message for a ``contents`` item that is neither text nor blob.
NEITHER_TEXT_NOR_BLOB = (
    "data did not match any variant of untagged enum ResourceContents (no string `text` or `blob`)"
)


def clamp_ttl_ms(ttl_ms: int | None) -> int | None:
    """rmcp's ``ttlMs``: below 0 read as 0."""
    if ttl_ms is not None and ttl_ms < 0:
        return 0
    return ttl_ms


def public_item(item: Any, index: int, tag: int) -> t.ResourceContents:
    """The public item of wire item ``item``, ``contents[index]``: text or blob.

    Text when ``text`` is a string, else blob when ``blob`` is; raises FrameBodyError
    for an item that is neither.
    """
    if type(item.text) is str:
        return t.TextResourceContents(
            uri=item.uri, mime_type=item.mime_type, text=item.text, meta=item.meta
        )
    if type(item.blob) is str:
        return t.BlobResourceContents(
            uri=item.uri, mime_type=item.mime_type, blob=item.blob, meta=item.meta
        )
    raise _neither(index, tag)


def check_items(wire: Any, tag: int) -> None:
    """Raise :func:`public_item`'s FrameBodyError for the first item of ``wire`` it rejects.

    Nothing is built: the check alone, for the wording of a rejection.
    """
    for index, item in enumerate(wire.contents):
        if type(item.text) is not str and type(item.blob) is not str:
            raise _neither(index, tag)


def _neither(index: int, tag: int) -> FrameBodyError:
    return FrameBodyError(tag, "ReadResourceResult", NEITHER_TEXT_NOR_BLOB, f"$.contents[{index}]")


def read_resource_result(wire: Any, tag: int) -> t.ReadResourceResult:
    """The public ``ReadResourceResult`` of a decoded :class:`_wire.ReadResourceResultWire`.

    Each item made text or blob (:func:`public_item`) in its place in the wire's list (the
    wire item freed as its public one takes its place), which becomes the result's;
    ``ttlMs`` clamped (:func:`clamp_ttl_ms`). Raises FrameBodyError for an item that is
    neither.
    """
    contents = wire.contents
    for index, item in enumerate(contents):
        contents[index] = public_item(item, index, tag)
    return t.ReadResourceResult(
        result_type=wire.result_type,
        ttl_ms=clamp_ttl_ms(wire.ttl_ms),
        cache_scope=wire.cache_scope,
        contents=contents,
        meta=wire.meta,
    )
