"""The typed ``inputRequests`` of ``notifications/tasks``, both twins, every payload type:
what the public structs hold after a decode, and the rules of their constructors. (The
bytes against rmcp: ``tests/vectors/model.jsonl`` and the live differential.)"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import msgspec
import pytest

from diverge_frames import types as t
from diverge_frames._exact.serde import f32

PAYLOADS = {"bytes": bytes, "bytearray": bytearray, "memoryview": memoryview}


def _task(requests: str, status: str = "input_required") -> bytes:
    return (
        b'\x00{"method":"notifications/tasks","params":{"taskId":"t","status":"'
        + status.encode()
        + b'","createdAt":"c","lastUpdatedAt":"u","inputRequests":'
        + requests.encode()
        + b"}}"
    )


@pytest.fixture(params=sorted(PAYLOADS))
def decode(frames: ModuleType, request: pytest.FixtureRequest) -> Any:
    make = PAYLOADS[request.param]
    return lambda payload: frames.decode_notification(make(payload))


def test_sampling_request(decode: Any) -> None:
    value = decode(
        _task(
            '{"r1":{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{'
            '"_meta":{"progressToken":1},"messages":[{"role":{"user":null},"content":'
            '{"type":0,"text":"hi","extra":1}}],"maxTokens":10,"temperature":0.7,'
            '"includeContext":null,"modelPreferences":{"hints":[{"name":"c"}],"costPriority":1},'
            '"toolChoice":["auto"]}}}'
        )
    )
    assert type(value) is t.TasksNotification
    request = value.params.input_requests["r1"]
    assert type(request) is t.CreateMessageRequest and request.method == "sampling/createMessage"
    params = request.params
    assert params.meta == {"progressToken": 1}
    assert params.messages == [
        t.SamplingMessage(role="user", content={"type": "text", "text": "hi"})
    ]
    assert params.max_tokens == 10 and params.include_context is None
    assert params.temperature == f32(0.7) == 0.699999988079071
    assert params.model_preferences == t.ModelPreferences(
        hints=[t.ModelHint(name="c")], cost_priority=1.0
    )
    assert params.tool_choice == t.ToolChoice(mode="auto")


def test_elicitation_and_roots(decode: Any) -> None:
    value = decode(
        _task(
            '{"a":{"method":"elicitation/create","params":{"message":"m","url":"u",'
            '"requestedSchema":{"type":"object","properties":{"p":{"type":"number","minimum":1}}}}},'
            '"b":{"method":"elicitation/create","params":{"mode":1,"message":"m","url":"u",'
            '"elicitationId":"e","requestedSchema":{}}},'
            '"c":{"method":"roots/list","params":{"cursor":"x"}},'
            '"d":["roots/list",{"_meta":{"k":1},"cursor":"x"}]}'
        )
    )
    requests = value.params.input_requests
    form = requests["a"].params
    assert (form.mode, form.url, form.elicitation_id) == ("form", None, None)
    assert form.requested_schema == {
        "type": "object",
        "properties": {"p": {"type": "number", "minimum": 1.0}},
    }
    assert type(form.requested_schema["properties"]["p"]["minimum"]) is float
    url = requests["b"].params
    assert (url.mode, url.url, url.elicitation_id, url.requested_schema) == ("url", "u", "e", None)
    assert requests["c"] == t.ListRootsRequest()
    assert requests["d"] == t.ListRootsRequest(params=t.RequestParams(meta={"k": 1}))


@pytest.mark.parametrize(
    ("requests", "status"),
    [
        ('{"r":{"method":"ping"}}', "input_required"),
        ('{"r":{"method":"ping"}}', "working"),
        ('{"r":{"method":"roots/list","params":[]}}', "input_required"),
        (
            '{"r":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":-1}}}',
            "working",
        ),
        ("[]", "completed"),
        ("null", "input_required"),
    ],
)
def test_unreadable_input_requests_make_a_custom_notification(
    decode: Any, requests: str, status: str
) -> None:
    """rmcp reads ``inputRequests`` whatever the status: one it cannot read (or none for
    ``input_required``) fails the typed variant; the params are kept whole."""
    value = decode(_task(requests, status))
    assert type(value) is t.CustomNotification
    assert value.params["inputRequests"] == msgspec.json.decode(requests)


def test_readable_input_requests_of_another_status_are_dropped(decode: Any) -> None:
    value = decode(_task('{"r":{"method":"roots/list"}}', "working"))
    assert type(value) is t.TasksNotification and value.params.input_requests is None


def test_constructors() -> None:
    with pytest.raises(ValueError, match="requestedSchema"):
        t.ElicitRequestParams(mode="form", message="m")
    with pytest.raises(ValueError, match="elicitationId"):
        t.ElicitRequestParams(mode="url", message="m", url="u")
    both = t.ElicitRequestParams(
        mode="url", message="m", url="u", elicitation_id="e", requested_schema={}
    )
    assert both.requested_schema is None
    assert t.ListRootsRequest(params=t.RequestParams()).params is None
    assert t.InputRequest.__args__ == (  # type: ignore[attr-defined]
        t.CreateMessageRequest,
        t.ElicitRequest,
        t.ListRootsRequest,
    )


def test_encode(frames: ModuleType) -> None:
    """Written sorted, ``mode`` always, ``None`` members left out, an f32 overflow as
    ``null`` (as rmcp writes the ``inf`` it holds)."""
    value = t.TasksNotification(
        params=t.DetailedTaskNotificationParams(
            task_id="t",
            status="input_required",
            created_at="c",
            last_updated_at="u",
            input_requests={
                "e": t.ElicitRequest(
                    params=t.ElicitRequestParams(
                        mode="form",
                        message="m",
                        requested_schema={"type": "object", "properties": {}},
                    )
                ),
                "s": t.CreateMessageRequest(
                    params=t.CreateMessageRequestParams(
                        max_tokens=1, messages=[], temperature=float("inf")
                    )
                ),
            },
        )
    )
    assert frames.encode_notification(value) == (
        b'\x00{"method":"notifications/tasks","params":{"createdAt":"c","inputRequests":'
        b'{"e":{"method":"elicitation/create","params":{"message":"m","mode":"form",'
        b'"requestedSchema":{"properties":{},"type":"object"}}},"s":{"method":"sampling/createMessage","params":'
        b'{"maxTokens":1,"messages":[],"temperature":null}}},"lastUpdatedAt":"u",'
        b'"status":"input_required","taskId":"t","ttlMs":null}}'
    )
