"""rmcp 3.1.4's ``CustomNotification``: what takes a notification no typed variant reads.

Any object with a string ``method`` and ``params`` that is an object or ``null``, with
a ``_meta`` that is an object or ``null`` (a ``null`` ``_meta`` is dropped). rmcp writes
a custom notification's ``_meta`` first and the other members sorted
(:func:`encode_custom`).
"""

from __future__ import annotations

from typing import Any

from .._wire import encoder
from ..errors import FrameBodyError
from ..types import CustomNotification
from .rmcp_structs import RMCP_TYPED, SUBSCRIPTION_METHOD
from .rmcp_types import ENUM_MEMBERS, MODEL_MEMBERS

__all__ = ["custom", "serde_forms", "custom_notification", "encode_custom", "json_type"]


def custom(value: CustomNotification, tag: int) -> CustomNotification | None:
    """rmcp's reading of a notification body msgspec's custom decoder read as ``value``.

    Asked after msgspec's typed decoder rejected the body, of one in which the pre-check
    found no rule of rmcp's to apply (no member repeated at a struct position, numbers
    as serde reads them). A method rmcp types then fails its typed variant in rmcp too
    (rmcp's untagged enum takes the custom one), unless its params hold what serde
    reads otherwise than msgspec (:func:`serde_forms`): None then, the body is to be
    read exactly. None too for a ``_meta`` that is neither an object nor ``null``:
    rmcp rejects the body, and the exact reading words it as any rejection is worded
    (msgspec's words within its first openings, serde_json's past them).
    """
    params = value.params
    if value.method in RMCP_TYPED and serde_forms(value.method, params):
        return None
    if params is None or "_meta" not in params:
        return value
    if params["_meta"] is not None and type(params["_meta"]) is not dict:
        return None
    return custom_notification(value.method, params, tag)


def serde_forms(method: str, params: dict[str, Any] | None) -> bool:
    """Whether the ``params`` of the typed ``method`` may hold what serde reads otherwise.

    A unit enum in serde's map form (``{"info": null}``), ``SubscriptionFilter`` as an
    array, a member only :mod:`.rmcp_types` reads (``inputRequests``).
    """
    if params is None:
        return False
    for name, _, _ in ENUM_MEMBERS.get(method, ()):
        if type(params.get(name)) is dict:
            return True
    if any(name in params for name in MODEL_MEMBERS.get(method, ())):
        return True
    return method == SUBSCRIPTION_METHOD and type(params.get("notifications")) is list


def custom_notification(method: str, params: dict[str, Any] | None, tag: int) -> CustomNotification:
    """The ``CustomNotification`` of ``method`` and ``params``: a ``null`` ``_meta`` dropped.

    Raises FrameBodyError for a ``_meta`` that is neither an object nor ``null``.
    """
    if params is not None and "_meta" in params:
        meta = params["_meta"]
        if meta is None:
            del params["_meta"]
        elif type(meta) is not dict:
            raise FrameBodyError(
                tag,
                "ServerNotification",
                f"Expected `object | null`, got `{json_type(meta)}`",
                "$.params._meta",
            )
    return CustomNotification(method, params)


def encode_custom(value: CustomNotification) -> bytes:
    """Write a ``CustomNotification`` as rmcp does.

    ``{"method":..,"params":..}`` with ``"params":null`` when ``None``, ``_meta`` first,
    then the other members sorted. ``value`` has passed
    :func:`diverge_frames._checks.check` (a ``str`` method, params a dict or None, their
    ``_meta`` a dict or None).
    """
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


def json_type(value: Any) -> str:
    """The name msgspec's errors give the JSON type of a decoded ``value``."""
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
