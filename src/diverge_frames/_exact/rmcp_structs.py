"""rmcp 3.1.4's derived structs as the exact reading meets them.

Their members in declaration order (serde also reads a struct from an array of its
fields in that order), which notification methods rmcp types (derived from
:mod:`diverge_frames.types`), how deep an object can still be a struct's, and the one
dispatch table on the expected type that both twins index (:data:`EXPECTED`).
"""

from __future__ import annotations

import msgspec

from .. import types as t
from .serde_json import Reject

__all__ = [
    "EXPECTED",
    "EXPECT_NOTIFICATION",
    "EXPECT_RESULT",
    "EXPECT_ERROR",
    "STRUCT_DEPTH",
    "MODEL_MEMBER_DEPTH",
    "RESULT_MEMBERS",
    "ERROR_MEMBERS",
    "SUBSCRIPTION_FILTER_MEMBERS",
    "SUBSCRIPTION_METHOD",
    "DIRECT_MEMBERS",
    "RMCP_TYPED",
    "duplicate_field",
]

#: What a tag announces, in the order every table on the expected type follows (the
#: compiled twin's C tables too): ``EXPECTED[EXPECT_NOTIFICATION]`` and so on.
EXPECTED = ("ServerNotification", "ReadResourceResult", "ErrorData")
EXPECT_NOTIFICATION, EXPECT_RESULT, EXPECT_ERROR = range(3)

#: Objects nested this deep or less can be struct members (the top level, a
#: notification's ``params``, its ``notifications`` filter, a result's ``contents``
#: items); duplicated keys matter only there.
STRUCT_DEPTH = 3
#: The JSON depth of a notification's ``params`` object: a member of it named in
#: :data:`.rmcp_types.MODEL_MEMBER_NAMES` (``inputRequests``) is read only by
#: :mod:`.rmcp_types`, so both pre-checks send a body with one to the exact path.
MODEL_MEMBER_DEPTH = 2
#: ``ReadResourceResult``'s members in rmcp's declaration order (its array form).
RESULT_MEMBERS = ("resultType", "ttlMs", "cacheScope", "contents", "_meta")
#: ``ErrorData``'s members in rmcp's declaration order (its array form).
ERROR_MEMBERS = ("code", "message", "data")
#: The method whose params hold rmcp's ``SubscriptionFilter`` (a derived struct).
SUBSCRIPTION_METHOD = "notifications/subscriptions/acknowledged"
#: rmcp's ``SubscriptionFilter`` members in its declaration order (an array form maps
#: onto them in this order); :class:`~diverge_frames.types.SubscriptionFilter` declares
#: them sorted, as they are written.
SUBSCRIPTION_FILTER_MEMBERS = (
    "toolsListChanged",
    "promptsListChanged",
    "resourcesListChanged",
    "resourceSubscriptions",
)
#: The members of each struct serde reads directly (not buffered as an untagged enum's
#: content), by :data:`EXPECTED` index: members outside them are skipped unread. None
#: for the untagged ``ServerNotification``.
DIRECT_MEMBERS: tuple[tuple[str, ...] | None, ...] = (None, RESULT_MEMBERS, ERROR_MEMBERS)


def _params_members(cls: type) -> tuple[str, ...] | None:
    """The members of a typed notification's params struct (``_meta`` aside).

    None when rmcp does not type the method (its params are
    :class:`~diverge_frames.types._ExactParams`).
    """
    params = next(f.type for f in msgspec.structs.fields(cls) if f.name == "params")
    params = next(a for a in getattr(params, "__args__", (params,)) if a is not type(None))
    if issubclass(params, t._ExactParams):
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
