"""``diverge_frames.mcp``: our values to and from the MCP Python SDK's models
(``mcp.types``), over the whole real corpus, and the traps of doing it by hand."""

from __future__ import annotations

from typing import Any

import helpers
import msgspec
import pytest
from rmcp_diff import corpus_cases

from diverge_frames import types as t
from diverge_frames.errors import FrameError

sdk = pytest.importorskip("mcp.types")
bridge = pytest.importorskip("diverge_frames.mcp")


def _frames_of_the_corpus() -> list[tuple[Any, str]]:
    out = []
    for case in corpus_cases():
        try:
            value = helpers.decoder(helpers._frames_py, case.channel)(case.payload)
        except FrameError:
            continue
        out.append((value, case.channel))
    return out


def test_every_real_frame_crosses_and_comes_back_as_the_same_bytes() -> None:
    frames = _frames_of_the_corpus()
    assert len(frames) > 100
    for value, channel in frames:
        encode = helpers.encoder(helpers._frames_py, channel)
        model = bridge.to_mcp(value)
        assert type(model).__module__.startswith(("mcp", "mcp_types")), type(model)
        assert encode(bridge.from_mcp(model)) == encode(value), value


def test_every_class_has_its_sdk_class() -> None:
    """Each typed notification but rmcp's tasks has a model of its own in the SDK."""
    assert set(t.TYPED_NOTIFICATIONS) - set(bridge.SDK_CLASSES) == {t.TasksNotification}
    for ours, theirs in bridge.SDK_CLASSES.items():
        assert theirs.__name__ in (ours.__name__, ours.__name__ + "s") or theirs.__name__ == (
            ours.__name__.replace("Elicitation", "Elicit")
        ), (ours, theirs)
        assert getattr(t, theirs.__name__) is ours  # the SDK's name is ours too


def test_a_log_message_with_null_data_stays_a_log_message() -> None:
    """The SDK's usual ``exclude_none`` dump drops ``data: null``: rmcp then reads a
    custom notification. The bridge keeps it."""
    model = sdk.LoggingMessageNotification(
        params=sdk.LoggingMessageNotificationParams(level="info", data=None)
    )
    value = bridge.from_mcp(model)
    assert value == t.LoggingMessageNotification(
        params=t.LoggingMessageNotificationParam(level="info", data=None)
    )


def test_a_model_built_without_its_method() -> None:
    """``method`` is a default in the SDK's models: unset, and ``exclude_unset`` drops it."""
    model = sdk.ProgressNotification(
        params=sdk.ProgressNotificationParams(progress_token="a", progress=1)
    )
    assert "method" not in model.model_dump(exclude_unset=True)
    assert bridge.from_mcp(model) == t.ProgressNotification(
        params=t.ProgressNotificationParam(progress=1.0, progress_token="a")
    )


def test_the_sdk_defaults_of_a_result_are_not_members() -> None:
    """A result the SDK built fills in ``ttlMs`` 0, ``cacheScope`` ``private`` and
    ``resultType`` ``complete``: none was set, none is written."""
    model = sdk.ReadResourceResult(contents=[sdk.TextResourceContents(uri="u", text="t")])
    assert model.ttl_ms == 0
    assert bridge.from_mcp(model) == t.ReadResourceResult(
        contents=[t.TextResourceContents(uri="u", text="t")]
    )
    crossed = bridge.to_mcp(t.ReadResourceResult(contents=[], ttl_ms=5, cache_scope="public"))
    assert crossed.model_fields_set == {"contents", "ttl_ms", "cache_scope"}


def test_what_the_sdk_has_no_class_for_crosses_as_a_jsonrpc_notification() -> None:
    custom = t.CustomNotification("notifications/stderr", {"content": "x", "_meta": {"k": 1}})
    model = bridge.to_mcp(custom)
    assert type(model) is sdk.JSONRPCNotification
    assert model.params == {"_meta": {"k": 1}, "content": "x"}
    assert bridge.from_mcp(model) == custom
    tasks = t.TasksNotification(
        params=t.DetailedTaskNotificationParams(
            task_id="t", status="working", created_at="c", last_updated_at="u"
        )
    )
    model = bridge.to_mcp(tasks)
    assert type(model) is sdk.JSONRPCNotification and model.method == "notifications/tasks"
    assert bridge.from_mcp(model) == tasks
    # a JSON-RPC notification whose params fit a typed one is read as typed, as decode does
    progress = sdk.JSONRPCNotification(
        jsonrpc="2.0",
        method="notifications/progress",
        params={"progress": 1, "progressToken": 2},
    )
    assert type(bridge.from_mcp(progress)) is t.ProgressNotification


def test_the_spec_task_status_notification_is_the_sdks() -> None:
    status = t.TaskStatusNotification(
        params=t.TaskStatusNotificationParams(
            created_at="c", last_updated_at="u", status="working", task_id="t", ttl=None
        )
    )
    model = bridge.to_mcp(status)
    assert type(model) is sdk.TaskStatusNotification
    assert bridge.from_mcp(model) == status


def test_members_of_a_frame_cross_alone() -> None:
    params = t.ProgressNotificationParam(progress=0.5, progress_token=1, total=2)
    model = bridge.to_mcp(params)
    assert type(model) is sdk.ProgressNotificationParams and model.total == 2.0
    assert bridge.from_mcp(model) == params
    item = bridge.from_mcp(sdk.BlobResourceContents(uri="u", blob="AA"))
    assert item == t.BlobResourceContents(uri="u", blob="AA")


def test_what_cannot_cross() -> None:
    with pytest.raises(
        TypeError, match=r"DetailedTaskNotificationParams has no class in mcp\.types"
    ):
        bridge.to_mcp(
            t.DetailedTaskNotificationParams(
                task_id="t", status="working", created_at="c", last_updated_at="u"
            )
        )
    with pytest.raises(TypeError, match="CallToolResult has no counterpart"):
        bridge.from_mcp(sdk.CallToolResult(content=[]))
    with pytest.raises(TypeError, match=r"no class in mcp\.types"):
        bridge.to_mcp({"method": "x"})
    with pytest.raises(ValueError, match=r"^\$\.params\.level"):
        bridge.to_mcp(
            t.LoggingMessageNotification(
                params=t.LoggingMessageNotificationParam(level="loud", data=1)
            )
        )  # type: ignore[arg-type]
    with pytest.raises(msgspec.ValidationError, match="Expected `str`, got `int`"):
        bridge.from_mcp(sdk.ErrorData.model_construct(code=1, message=2))


def test_the_typed_sample_runs() -> None:
    """``tests/typing_mcp_sample.py`` (what mypy and pyright check the bridge's types
    with, in scripts/check_static.sh) runs: the types it states hold at run time."""
    import typing_mcp_sample

    typing_mcp_sample.main()
