"""Cold paths shared by both hot-path implementations.

A notification that no typed class fits falls back here to ``CustomNotification``
(rmcp's last untagged variant), and a ``CustomNotification`` is written here the way
rmcp writes one. Neither is on the hot path of a known notification.
"""

from __future__ import annotations

from typing import Any

import msgspec

from .errors import FrameBodyError
from .types import CustomNotification, _CustomNotificationWire

_custom_decoder = msgspec.json.Decoder(_CustomNotificationWire)
#: For results and errors, which rmcp serializes directly: struct fields in declared
#: order, dict keys sorted (serde_json's ``Map`` is a ``BTreeMap``).
encoder = msgspec.json.Encoder(order="deterministic")
#: For notifications: rmcp writes ``params`` through ``serde_json::to_value``, so every
#: member comes out in sorted key order (``_meta`` sorts first among MCP's names).
notification_encoder = msgspec.json.Encoder(order="sorted")


def decode_custom(body: Any, tag: int) -> CustomNotification:
    """Decode a notification body as rmcp's ``CustomNotification``.

    ``params`` must be an object or ``null``/absent, and its ``_meta`` an object or
    ``null`` (a ``null`` ``_meta`` is dropped, as rmcp drops it).
    Raises FrameBodyError otherwise.
    """
    try:
        wire = _custom_decoder.decode(body)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise FrameBodyError.from_exception(tag, "ServerNotification", exc) from exc
    params = wire.params
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
    return CustomNotification(wire.method, params)


def encode_custom(value: CustomNotification) -> bytes:
    """Write a ``CustomNotification`` as rmcp does: ``{"method":..,"params":..}`` with
    ``"params":null`` when ``None``, ``_meta`` first, then the other members sorted."""
    method = value.method
    if type(method) is not str:
        raise TypeError(f"CustomNotification.method must be str, not {type(method).__name__}")
    params = value.params
    head = b'{"method":' + encoder.encode(method)
    if params is None:
        return head + b',"params":null}'
    if not isinstance(params, dict):
        raise TypeError(
            f"CustomNotification.params must be a dict or None, not {type(params).__name__}"
        )
    meta = params.get("_meta")
    if meta is None:
        rest = encoder.encode({k: v for k, v in params.items() if k != "_meta"})
        return head + b',"params":' + rest + b"}"
    if not isinstance(meta, dict):
        raise TypeError(f"params['_meta'] must be a dict or None, not {type(meta).__name__}")
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
