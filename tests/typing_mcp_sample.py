"""A typed use of the ``mcp`` bridge, checked by mypy ``--strict`` and pyright in
``scripts/check_static.sh`` (with the MCP Python SDK installed there): ``to_mcp`` of each
class gives the SDK's class, ``from_mcp`` of each SDK class ours (a notification model:
the typed notification, or the custom one when rmcp reads it so), never ``Any``.

Each ``assert_type`` fails the check if the inferred type loosens (``Any`` included);
each ``# type: ignore[code]`` marks a misuse mypy must reject (``warn_unused_ignores``).
``tests/interop/test_mcp_bridge.py`` runs :func:`main`, so the types hold at run time.
"""

from __future__ import annotations

import mcp.types as sdk
from typing_extensions import assert_type

from diverge_frames import types as t
from diverge_frames.mcp import from_mcp, to_mcp


def check_to_mcp(
    cancelled_notification: t.CancelledNotification,
    cancelled_notification_param: t.CancelledNotificationParam,
    progress_notification: t.ProgressNotification,
    progress_notification_param: t.ProgressNotificationParam,
    logging_message_notification: t.LoggingMessageNotification,
    logging_message_notification_param: t.LoggingMessageNotificationParam,
    resource_updated_notification: t.ResourceUpdatedNotification,
    resource_updated_notification_param: t.ResourceUpdatedNotificationParam,
    resource_list_changed_notification: t.ResourceListChangedNotification,
    tool_list_changed_notification: t.ToolListChangedNotification,
    prompt_list_changed_notification: t.PromptListChangedNotification,
    notification_params: t.NotificationParams,
    subscriptions_acknowledged_notification: t.SubscriptionsAcknowledgedNotification,
    subscriptions_acknowledged_notification_params: t.SubscriptionsAcknowledgedNotificationParams,
    subscription_filter: t.SubscriptionFilter,
    task_status_notification: t.TaskStatusNotification,
    task_status_notification_params: t.TaskStatusNotificationParams,
    elicitation_complete_notification: t.ElicitationCompleteNotification,
    elicitation_complete_notification_params: t.ElicitationCompleteNotificationParams,
    read_resource_result: t.ReadResourceResult,
    text_resource_contents: t.TextResourceContents,
    blob_resource_contents: t.BlobResourceContents,
    error_data: t.ErrorData,
    custom: t.CustomNotification,
    tasks: t.TasksNotification,
    decoded: t.ServerNotification | t.ErrorData,
) -> None:
    assert_type(to_mcp(cancelled_notification), sdk.CancelledNotification)
    assert_type(to_mcp(cancelled_notification_param), sdk.CancelledNotificationParams)
    assert_type(to_mcp(progress_notification), sdk.ProgressNotification)
    assert_type(to_mcp(progress_notification_param), sdk.ProgressNotificationParams)
    assert_type(to_mcp(logging_message_notification), sdk.LoggingMessageNotification)
    assert_type(to_mcp(logging_message_notification_param), sdk.LoggingMessageNotificationParams)
    assert_type(to_mcp(resource_updated_notification), sdk.ResourceUpdatedNotification)
    assert_type(to_mcp(resource_updated_notification_param), sdk.ResourceUpdatedNotificationParams)
    assert_type(to_mcp(resource_list_changed_notification), sdk.ResourceListChangedNotification)
    assert_type(to_mcp(tool_list_changed_notification), sdk.ToolListChangedNotification)
    assert_type(to_mcp(prompt_list_changed_notification), sdk.PromptListChangedNotification)
    assert_type(to_mcp(notification_params), sdk.NotificationParams)
    assert_type(
        to_mcp(subscriptions_acknowledged_notification), sdk.SubscriptionsAcknowledgedNotification
    )
    assert_type(
        to_mcp(subscriptions_acknowledged_notification_params),
        sdk.SubscriptionsAcknowledgedNotificationParams,
    )
    assert_type(to_mcp(subscription_filter), sdk.SubscriptionFilter)
    assert_type(to_mcp(task_status_notification), sdk.TaskStatusNotification)
    assert_type(to_mcp(task_status_notification_params), sdk.TaskStatusNotificationParams)
    assert_type(to_mcp(elicitation_complete_notification), sdk.ElicitCompleteNotification)
    assert_type(
        to_mcp(elicitation_complete_notification_params), sdk.ElicitCompleteNotificationParams
    )
    assert_type(to_mcp(read_resource_result), sdk.ReadResourceResult)
    assert_type(to_mcp(text_resource_contents), sdk.TextResourceContents)
    assert_type(to_mcp(blob_resource_contents), sdk.BlobResourceContents)
    assert_type(to_mcp(error_data), sdk.ErrorData)
    assert_type(to_mcp(custom), sdk.JSONRPCNotification)
    assert_type(to_mcp(tasks), sdk.JSONRPCNotification)
    to_mcp(decoded)  # a union: each member has its overload
    to_mcp(t.DetailedTaskNotificationParams)  # type: ignore[call-overload]
    to_mcp("notifications/progress")  # type: ignore[call-overload]


def check_from_mcp(
    sdk_cancelled_notification: sdk.CancelledNotification,
    sdk_cancelled_notification_param: sdk.CancelledNotificationParams,
    sdk_progress_notification: sdk.ProgressNotification,
    sdk_progress_notification_param: sdk.ProgressNotificationParams,
    sdk_logging_message_notification: sdk.LoggingMessageNotification,
    sdk_logging_message_notification_param: sdk.LoggingMessageNotificationParams,
    sdk_resource_updated_notification: sdk.ResourceUpdatedNotification,
    sdk_resource_updated_notification_param: sdk.ResourceUpdatedNotificationParams,
    sdk_resource_list_changed_notification: sdk.ResourceListChangedNotification,
    sdk_tool_list_changed_notification: sdk.ToolListChangedNotification,
    sdk_prompt_list_changed_notification: sdk.PromptListChangedNotification,
    sdk_notification_params: sdk.NotificationParams,
    sdk_subscriptions_acknowledged_notification: sdk.SubscriptionsAcknowledgedNotification,
    sdk_subscriptions_acknowledged_notification_params: sdk.SubscriptionsAcknowledgedNotificationParams,
    sdk_subscription_filter: sdk.SubscriptionFilter,
    sdk_task_status_notification: sdk.TaskStatusNotification,
    sdk_task_status_notification_params: sdk.TaskStatusNotificationParams,
    sdk_elicitation_complete_notification: sdk.ElicitCompleteNotification,
    sdk_elicitation_complete_notification_params: sdk.ElicitCompleteNotificationParams,
    sdk_read_resource_result: sdk.ReadResourceResult,
    sdk_text_resource_contents: sdk.TextResourceContents,
    sdk_blob_resource_contents: sdk.BlobResourceContents,
    sdk_error_data: sdk.ErrorData,
    jsonrpc: sdk.JSONRPCNotification,
) -> None:
    assert_type(
        from_mcp(sdk_cancelled_notification), t.CancelledNotification | t.CustomNotification
    )
    assert_type(from_mcp(sdk_cancelled_notification_param), t.CancelledNotificationParam)
    assert_type(from_mcp(sdk_progress_notification), t.ProgressNotification | t.CustomNotification)
    assert_type(from_mcp(sdk_progress_notification_param), t.ProgressNotificationParam)
    assert_type(
        from_mcp(sdk_logging_message_notification),
        t.LoggingMessageNotification | t.CustomNotification,
    )
    assert_type(from_mcp(sdk_logging_message_notification_param), t.LoggingMessageNotificationParam)
    assert_type(
        from_mcp(sdk_resource_updated_notification),
        t.ResourceUpdatedNotification | t.CustomNotification,
    )
    assert_type(
        from_mcp(sdk_resource_updated_notification_param), t.ResourceUpdatedNotificationParam
    )
    assert_type(
        from_mcp(sdk_resource_list_changed_notification),
        t.ResourceListChangedNotification | t.CustomNotification,
    )
    assert_type(
        from_mcp(sdk_tool_list_changed_notification),
        t.ToolListChangedNotification | t.CustomNotification,
    )
    assert_type(
        from_mcp(sdk_prompt_list_changed_notification),
        t.PromptListChangedNotification | t.CustomNotification,
    )
    assert_type(from_mcp(sdk_notification_params), t.NotificationParams)
    assert_type(
        from_mcp(sdk_subscriptions_acknowledged_notification),
        t.SubscriptionsAcknowledgedNotification | t.CustomNotification,
    )
    assert_type(
        from_mcp(sdk_subscriptions_acknowledged_notification_params),
        t.SubscriptionsAcknowledgedNotificationParams,
    )
    assert_type(from_mcp(sdk_subscription_filter), t.SubscriptionFilter)
    assert_type(
        from_mcp(sdk_task_status_notification), t.TaskStatusNotification | t.CustomNotification
    )
    assert_type(from_mcp(sdk_task_status_notification_params), t.TaskStatusNotificationParams)
    assert_type(
        from_mcp(sdk_elicitation_complete_notification),
        t.ElicitationCompleteNotification | t.CustomNotification,
    )
    assert_type(
        from_mcp(sdk_elicitation_complete_notification_params),
        t.ElicitationCompleteNotificationParams,
    )
    assert_type(from_mcp(sdk_read_resource_result), t.ReadResourceResult)
    assert_type(from_mcp(sdk_text_resource_contents), t.TextResourceContents)
    assert_type(from_mcp(sdk_blob_resource_contents), t.BlobResourceContents)
    assert_type(from_mcp(sdk_error_data), t.ErrorData)
    assert_type(from_mcp(jsonrpc), t.ServerNotification)
    from_mcp({"method": "notifications/progress"})  # type: ignore[call-overload]


def main() -> None:
    """Round trips of a few values, with the types the checkers inferred."""
    progress = t.ProgressNotification(
        params=t.ProgressNotificationParam(progress=0.5, progress_token="p")
    )
    model = to_mcp(progress)
    assert isinstance(model, sdk.ProgressNotification)
    assert model.params.progress == 0.5
    back = from_mcp(model)
    assert isinstance(back, t.ProgressNotification) and back == progress
    result = from_mcp(sdk.ReadResourceResult(contents=[]))
    assert isinstance(result, t.ReadResourceResult) and result.contents == []
    item = from_mcp(sdk.TextResourceContents(uri="u", text="x"))
    assert isinstance(item, t.TextResourceContents) and item.text == "x"
    custom = from_mcp(sdk.JSONRPCNotification(jsonrpc="2.0", method="x/y", params={"a": 1}))
    assert isinstance(custom, t.CustomNotification) and custom.params == {"a": 1}


if __name__ == "__main__":
    main()
