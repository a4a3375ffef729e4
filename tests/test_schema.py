"""What ``encode`` writes is valid MCP, for every spec version that defines the type.

The schemas are the official MCP JSON Schemas (``tests/data/mcp-schema/<version>/``,
draft-07 up to 2025-06-18, Draft 2020-12 after); ``$ref`` resolves inside the same
file. A notification body is wrapped as a JSON-RPC notification (``{"jsonrpc": "2.0",
**body}``) and checked against its own definition and the version's
``ServerNotification`` union; a result against ``ReadResourceResult``; an error against
the version's error object. Values: the real corpus and edge cases, plus constructed
values for types the corpus lacks. Encoding goes through both hot paths (``frames``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from referencing import Registry, Resource

from diverge_frames import types

DATA = Path(__file__).parent / "data"
SCHEMAS = DATA / "mcp-schema"
VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
ALL = tuple(VERSIONS)

#: Typed notification class -> (its definition name, the versions that define it).
#: ``TasksNotification`` (rmcp's ``notifications/tasks``, SEP-2663) is in no schema.
NOTIFICATION_DEFINITION: dict[type, tuple[str, tuple[str, ...]]] = {
    types.CancelledNotification: ("CancelledNotification", ALL),
    types.ProgressNotification: ("ProgressNotification", ALL),
    types.LoggingMessageNotification: ("LoggingMessageNotification", ALL),
    types.ResourceUpdatedNotification: ("ResourceUpdatedNotification", ALL),
    types.ResourceListChangedNotification: ("ResourceListChangedNotification", ALL),
    types.ToolListChangedNotification: ("ToolListChangedNotification", ALL),
    types.PromptListChangedNotification: ("PromptListChangedNotification", ALL),
    types.TaskStatusNotification: ("TaskStatusNotification", ("2025-11-25",)),
    types.ElicitationCompleteNotification: ("ElicitationCompleteNotification", ("2025-11-25",)),
    types.SubscriptionsAcknowledgedNotification: (
        "SubscriptionsAcknowledgedNotification",
        ("2026-07-28",),
    ),
}
METHOD_CLASS = {
    "notifications/cancelled": types.CancelledNotification,
    "notifications/progress": types.ProgressNotification,
    "notifications/message": types.LoggingMessageNotification,
    "notifications/resources/updated": types.ResourceUpdatedNotification,
    "notifications/resources/list_changed": types.ResourceListChangedNotification,
    "notifications/tools/list_changed": types.ToolListChangedNotification,
    "notifications/prompts/list_changed": types.PromptListChangedNotification,
    "notifications/tasks/status": types.TaskStatusNotification,
}
#: Where each version keeps the JSON-RPC error object (code, message, data).
ERROR_DEFINITION = {
    "2024-11-05": "JSONRPCError/properties/error",
    "2025-03-26": "JSONRPCError/properties/error",
    "2025-06-18": "JSONRPCError/properties/error",
    "2025-11-25": "Error",
    "2026-07-28": "Error",
}
#: Versions whose ReadResourceResult requires resultType, ttlMs and cacheScope.
CACHE_FIELDS_REQUIRED = ("2026-07-28",)


@cache
def _root(version: str) -> tuple[dict[str, Any], str]:
    """The schema of ``version`` and the name of its definitions member."""
    root = json.loads((SCHEMAS / version / "schema.json").read_text(encoding="utf-8"))
    return root, "$defs" if "$defs" in root else "definitions"


def _definition(version: str, pointer: str) -> Any:
    """The subschema at ``#/<defs>/<pointer>``; fails the test when it is missing."""
    node, defs = _root(version)
    node = node[defs]
    for part in pointer.split("/"):
        assert isinstance(node, dict) and part in node, f"{version} schema has no {defs}/{pointer}"
        node = node[part]
    return node


@cache
def _registry(version: str) -> Registry:
    """The schema of ``version`` as the one resource its ``$ref``s resolve in."""
    return Registry().with_resource(_uri(version), Resource.from_contents(_root(version)[0]))


def _uri(version: str) -> str:
    return f"urn:mcp-schema:{version}"


@cache
def _validator(version: str, pointer: str) -> Validator:
    """A validator (of the draft the file declares) for ``#/<defs>/<pointer>``."""
    _definition(version, pointer)
    root, defs = _root(version)
    ref = {"$ref": f"{_uri(version)}#/{defs}/{pointer}"}
    return validator_for(root)(ref, registry=_registry(version))


def _validate(version: str, pointer: str, instance: Any) -> None:
    errors = [
        f"{list(e.absolute_path)}: {e.message}"
        for e in _validator(version, pointer).iter_errors(instance)
    ]
    assert not errors, f"not a valid {version} {pointer}: {errors}"


def _lines(pattern: str) -> list[bytes]:
    """Distinct corpus lines of files matching ``pattern``."""
    lines = [
        line
        for path in sorted((DATA / "corpus").glob(pattern))
        for line in path.read_bytes().splitlines()
        if line.strip()
    ]
    assert lines, pattern
    return list(dict.fromkeys(lines))


# --------------------------------------------------------------------------- tables


def test_versions_are_the_ones_copied() -> None:
    assert sorted(p.name for p in SCHEMAS.iterdir() if p.is_dir()) == VERSIONS
    for version in VERSIONS:
        draft = _root(version)[0]["$schema"]
        assert ("draft-07" in draft) == (version <= "2025-06-18"), (version, draft)


@pytest.mark.parametrize("version", VERSIONS)
def test_tables_match_the_schemas(version: str) -> None:
    """Each listed definition exists in each listed version and in no other, so no
    (type, version) pair is left out and every listed pair validates something."""
    _, defs = _root(version)
    present = _root(version)[0][defs]
    for name, versions in NOTIFICATION_DEFINITION.values():
        assert (name in present) == (version in versions), (name, version)
        if version in versions:
            union = json.dumps(present["ServerNotification"])
            assert f'/{name}"' in union, f"{name} not in {version} ServerNotification"
    _definition(version, ERROR_DEFINITION[version])
    _definition(version, "ReadResourceResult")
    required = set(_definition(version, "ReadResourceResult").get("required", []))
    assert ({"resultType", "ttlMs", "cacheScope"} <= required) == (version in CACHE_FIELDS_REQUIRED)


@pytest.mark.parametrize("version", VERSIONS)
def test_validators_reject_bad_values(version: str) -> None:
    """The validators are not vacuous: broken instances fail."""
    bad = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1.0}}
    assert list(_validator(version, "ProgressNotification").iter_errors(bad))
    assert list(_validator(version, "ServerNotification").iter_errors(bad))
    assert list(
        _validator(version, ERROR_DEFINITION[version]).iter_errors({"code": 1.5, "message": "m"})
    )
    assert list(_validator(version, "ReadResourceResult").iter_errors({"contents": [{"uri": "u"}]}))


def test_legacy_result_is_not_valid_2026() -> None:
    result = {"contents": [{"uri": "file:///a", "text": "t"}]}
    _validate("2025-11-25", "ReadResourceResult", result)
    assert list(_validator("2026-07-28", "ReadResourceResult").iter_errors(result))


# -------------------------------------------------------------------- notifications

NOW = "2025-11-25T10:00:00.000Z"
CONSTRUCTED_NOTIFICATIONS = [
    types.CancelledNotification(
        params=types.CancelledNotificationParam(request_id="req-1", reason="user")
    ),
    types.ProgressNotification(
        params=types.ProgressNotificationParam(
            progress_token="tok",
            progress=0.5,
            total=1.0,
            message="half",
            meta={"io.modelcontextprotocol/subscriptionId": 3},
        )
    ),
    types.LoggingMessageNotification(
        params=types.LoggingMessageNotificationParam(
            level="debug", logger="db", data={"rows": [1, 2]}
        )
    ),
    types.ResourceUpdatedNotification(
        params=types.ResourceUpdatedNotificationParam(uri="file:///x.txt", meta={"k": "v"})
    ),
    types.ToolListChangedNotification(params=types.NotificationParams(meta={"trace": "t-1"})),
    types.PromptListChangedNotification(),
    types.ResourceListChangedNotification(),
    types.TaskStatusNotification(
        params=types.TaskStatusNotificationParams(
            task_id="t-1",
            status="input_required",
            status_message="need input",
            created_at=NOW,
            last_updated_at=NOW,
            ttl=None,
            poll_interval=250,
            meta={"m": 1},
        )
    ),
    types.TaskStatusNotification(
        params=types.TaskStatusNotificationParams(
            task_id="t-2", status="failed", created_at=NOW, last_updated_at=NOW, ttl=60000
        )
    ),
    types.ElicitationCompleteNotification(
        params=types.ElicitationCompleteNotificationParams(elicitation_id="el-1")
    ),
    types.ElicitationCompleteNotification(
        params=types.ElicitationCompleteNotificationParams(elicitation_id="el-2", meta={"a": 1})
    ),
    types.SubscriptionsAcknowledgedNotification(
        params=types.SubscriptionsAcknowledgedNotificationParams(
            notifications=types.SubscriptionFilter(
                tools_list_changed=True,
                prompts_list_changed=False,
                resources_list_changed=True,
                resource_subscriptions=["file:///a", "file:///b"],
            ),
            meta={"io.modelcontextprotocol/subscriptionId": "sub-1"},
        )
    ),
    types.SubscriptionsAcknowledgedNotification(
        params=types.SubscriptionsAcknowledgedNotificationParams(
            notifications=types.SubscriptionFilter()
        )
    ),
]
REAL_NOTIFICATIONS = _lines("*/notifications.jsonl") + [
    (DATA / "edge-cases" / name).read_bytes().rstrip(b"\n")
    for name in (
        "01-notification-no-params.json",
        "02-progress-float.json",
        "07-method-key-inside-params.json",
    )
]


def _notification_cases() -> list[Any]:
    cases = []
    for line in REAL_NOTIFICATIONS:
        cls = METHOD_CLASS[json.loads(line)["method"]]
        for version in NOTIFICATION_DEFINITION[cls][1]:
            cases.append(
                pytest.param(
                    line, cls, version, id=f"{version}-{line[:60].decode(errors='replace')}"
                )
            )
    for index, value in enumerate(CONSTRUCTED_NOTIFICATIONS):
        cls = type(value)
        for version in NOTIFICATION_DEFINITION[cls][1]:
            cases.append(pytest.param(value, cls, version, id=f"{version}-{cls.__name__}-{index}"))
    return cases


@pytest.mark.parametrize(("source", "cls", "version"), _notification_cases())
def test_notification_is_valid_mcp(frames: Any, source: Any, cls: type, version: str) -> None:
    value = frames.decode_notification(b"\x00" + source) if isinstance(source, bytes) else source
    assert type(value) is cls
    payload = frames.encode_notification(value)
    assert payload[0] == 0
    message = {"jsonrpc": "2.0", **json.loads(payload[1:])}
    _validate(version, NOTIFICATION_DEFINITION[cls][0], message)
    _validate(version, "ServerNotification", message)
    _validate(version, "JSONRPCNotification", message)


CUSTOM = [
    (DATA / "edge-cases" / name).read_bytes().rstrip(b"\n")
    for name in (
        "04-unknown-notification-stderr.json",
        "05-non-mcp-method-with-meta.json",
        "18-key-order-preserve-order.json",
    )
] + [
    b'{"method":"notifications/progress","params":{"progress":"x"}}',
    b'{"method":"x/y","params":{}}',
]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("body", CUSTOM)
def test_custom_notification_is_a_valid_jsonrpc_notification(
    frames: Any, body: bytes, version: str
) -> None:
    """A ``CustomNotification`` with params is a valid JSON-RPC notification. (With no
    params it writes ``"params":null`` as rmcp does, which no schema allows.)"""
    value = frames.decode_notification(b"\x00" + body)
    assert type(value) is types.CustomNotification
    message = {"jsonrpc": "2.0", **json.loads(frames.encode_notification(value)[1:])}
    _validate(version, "JSONRPCNotification", message)


# ------------------------------------------------------------------------ results

REAL_RESULTS = _lines("*/read_resource_results.jsonl") + [
    (DATA / "edge-cases" / name).read_bytes().rstrip(b"\n")
    for name in ("10-blob-urlsafe-base64.json", "12-readresource-legacy-no-cache-fields.json")
]
CONSTRUCTED_RESULTS = [
    types.ReadResourceResult(
        contents=[
            types.TextResourceContents(
                uri="file:///a.md", mime_type="text/markdown", text="# A", meta={"x": 1}
            ),
            types.BlobResourceContents(uri="file:///b.bin", blob="AAEC", meta={"y": [1]}),
        ],
        meta={"io.modelcontextprotocol/serverInfo": {"name": "srv", "version": "1.0.0"}},
    ),
    types.ReadResourceResult(contents=[]),
]


def _for_version(value: types.ReadResourceResult, version: str) -> types.ReadResourceResult:
    """The value with the members ``version`` requires (resultType, ttlMs, cacheScope)."""
    if version not in CACHE_FIELDS_REQUIRED:
        return value
    return msgspec.structs.replace(
        value, result_type="complete", ttl_ms=30000, cache_scope="private"
    )


def _result_cases() -> list[Any]:
    sources = [pytest.param(line, id=line[:50].decode(errors="replace")) for line in REAL_RESULTS]
    sources += [
        pytest.param(value, id=f"constructed-{i}") for i, value in enumerate(CONSTRUCTED_RESULTS)
    ]
    return sources


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("source", _result_cases())
def test_result_is_valid_mcp(frames: Any, source: Any, version: str) -> None:
    value = frames.decode_read_resource(b"\x00" + source) if isinstance(source, bytes) else source
    assert type(value) is types.ReadResourceResult
    payload = frames.encode_read_resource(_for_version(value, version))
    assert payload[0] == 0
    _validate(version, "ReadResourceResult", json.loads(payload[1:]))


def test_2026_members_are_written_by_their_wire_names(frames: Any) -> None:
    value = _for_version(types.ReadResourceResult(contents=[]), "2026-07-28")
    written = json.loads(frames.encode_read_resource(value)[1:])
    assert written == {
        "resultType": "complete",
        "ttlMs": 30000,
        "cacheScope": "private",
        "contents": [],
    }


# ------------------------------------------------------------------------- errors

REAL_ERRORS = [
    *_lines("*/errors.jsonl"),
    (DATA / "edge-cases" / "16-error-data-null.json").read_bytes().rstrip(b"\n"),
]
CONSTRUCTED_ERRORS = [
    types.ErrorData(-(2**31), "min", [1, "two", None]),
    types.ErrorData(2**31 - 1, "max", {"nested": {"a": 1.5}}),
    types.ErrorData(-32002, "Resource not found", {"uri": "file:///missing"}),
]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(
    "source",
    [pytest.param(line, id=line[:40].decode(errors="replace")) for line in REAL_ERRORS]
    + [pytest.param(value, id=f"constructed-{i}") for i, value in enumerate(CONSTRUCTED_ERRORS)],
)
def test_error_is_valid_mcp(frames: Any, source: Any, version: str) -> None:
    value = frames.decode_notification(b"\x01" + source) if isinstance(source, bytes) else source
    assert type(value) is types.ErrorData
    for encode in (frames.encode_notification, frames.encode_read_resource):
        payload = encode(value)
        assert payload[0] == 1
        _validate(version, ERROR_DEFINITION[version], json.loads(payload[1:]))
