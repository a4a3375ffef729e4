"""The notification channel: real traffic, custom notifications, buffers, encoding.

Every decode/encode test takes the ``frames`` fixture (conftest.py), so it runs against
both hot paths (``_frames_py`` and ``_frames_c``). Expected bytes written out here are
what the rmcp 3.1.4 oracle (``interop/rmcp-oracle``) printed for the same input.
"""

from __future__ import annotations

import gc
import json
import sys
from array import array
from pathlib import Path
from typing import Any

import msgspec
import pytest

from diverge_frames import FrameBodyError, _frames_py, _wire, notifications, types

try:
    from diverge_frames import _frames_c
except ImportError:  # pragma: no cover - pure-Python install
    _frames_c = None

DATA = Path(__file__).parent / "data"
EDGE = DATA / "edge-cases"

#: The class a well-formed notification of each method decodes to.
METHOD_CLASS: dict[str, type] = {
    "notifications/cancelled": types.CancelledNotification,
    "notifications/progress": types.ProgressNotification,
    "notifications/message": types.LoggingMessageNotification,
    "notifications/resources/updated": types.ResourceUpdatedNotification,
    "notifications/resources/list_changed": types.ResourceListChangedNotification,
    "notifications/tools/list_changed": types.ToolListChangedNotification,
    "notifications/prompts/list_changed": types.PromptListChangedNotification,
    "notifications/subscriptions/acknowledged": types.SubscriptionsAcknowledgedNotification,
    "notifications/tasks": types.TasksNotification,
    "notifications/tasks/status": types.TaskStatusNotification,
    "notifications/elicitation/complete": types.ElicitationCompleteNotification,
}


def _corpus(name: str) -> list[Any]:
    """Every line of ``corpus/*/<name>`` as a pytest param (id ``server/file:line``)."""
    params = []
    for path in sorted((DATA / "corpus").glob(f"*/{name}")):
        for number, line in enumerate(path.read_bytes().splitlines(), 1):
            if line.strip():
                params.append(pytest.param(line, id=f"{path.parent.name}:{number}"))
    assert params, f"no corpus lines in corpus/*/{name}"
    return params


NOTIFICATIONS = _corpus("notifications.jsonl")
ERRORS = _corpus("errors.jsonl")


def _twins() -> tuple[Any, Any]:
    """Both hot paths; skips when the compiled one is not built."""
    if _frames_c is None:
        pytest.skip("compiled extension not built")
    return _frames_py, _frames_c


# --------------------------------------------------------------------- real traffic


@pytest.mark.parametrize("body", NOTIFICATIONS)
def test_corpus_notification_decodes_to_its_class(frames: Any, body: bytes) -> None:
    wire = json.loads(body)
    value = frames.decode_notification(b"\x00" + body)
    assert type(value) is METHOD_CLASS[wire["method"]]
    assert value.method == wire["method"]


@pytest.mark.parametrize("body", NOTIFICATIONS + ERRORS)
def test_corpus_notification_channel_round_trips(frames: Any, body: bytes) -> None:
    tag = b"\x01" if "method" not in json.loads(body) else b"\x00"
    value = frames.decode_notification(tag + body)
    encoded = frames.encode_notification(value)
    assert frames.decode_notification(encoded) == value
    assert frames.encode_notification(frames.decode_notification(encoded)) == encoded


@pytest.mark.parametrize("body", NOTIFICATIONS)
def test_corpus_notification_keeps_members(frames: Any, body: bytes) -> None:
    """Real traffic loses nothing: every member is written back with its value."""
    written = json.loads(frames.encode_notification(frames.decode_notification(b"\x00" + body))[1:])
    assert written == json.loads(body)


@pytest.mark.parametrize("body", ERRORS)
def test_corpus_error_decodes_to_error_data(frames: Any, body: bytes) -> None:
    wire = json.loads(body)
    value = frames.decode_notification(b"\x01" + body)
    assert type(value) is types.ErrorData
    assert (value.code, value.message, value.data) == (
        wire["code"],
        wire["message"],
        wire.get("data"),
    )


@pytest.mark.parametrize("body", NOTIFICATIONS + ERRORS)
def test_both_implementations_decode_alike(body: bytes) -> None:
    """The Python and the compiled hot path give equal values and equal bytes."""
    python, cython = _twins()
    payload = (b"\x01" if "method" not in json.loads(body) else b"\x00") + body
    value = python.decode_notification(payload)
    assert cython.decode_notification(payload) == value
    assert cython.encode_notification(value) == python.encode_notification(value)


# ------------------------------------------------------------------ constructed values

#: Values of every typed notification, ErrorData and CustomNotification.
VALUES = [
    types.CancelledNotification(
        params=types.CancelledNotificationParam(request_id="r-1", reason="x")
    ),
    types.CancelledNotification(),
    types.ProgressNotification(
        params=types.ProgressNotificationParam(
            progress_token=7, progress=1.0, total=3.0, meta={"k": 1}
        )
    ),
    types.LoggingMessageNotification(
        params=types.LoggingMessageNotificationParam(
            level="error", logger="l", data={"b": [1, None]}
        )
    ),
    types.ResourceUpdatedNotification(
        params=types.ResourceUpdatedNotificationParam(uri="file:///a")
    ),
    types.ResourceListChangedNotification(),
    types.ToolListChangedNotification(params=types.NotificationParams(meta={"trace": "t"})),
    types.PromptListChangedNotification(),
    types.SubscriptionsAcknowledgedNotification(
        params=types.SubscriptionsAcknowledgedNotificationParams(
            notifications=types.SubscriptionFilter(
                tools_list_changed=True, resource_subscriptions=["a://b"]
            )
        )
    ),
    types.TaskStatusNotification(
        params=types.TaskStatusNotificationParams(
            task_id="t",
            status="working",
            created_at="2025-01-01T00:00:00Z",
            last_updated_at="2025-01-01T00:00:01Z",
            ttl=None,
            poll_interval=500,
        )
    ),
    types.TasksNotification(
        params=types.DetailedTaskNotificationParams(
            task_id="t",
            status="completed",
            created_at="c",
            last_updated_at="d",
            result={"ok": True},
        )
    ),
    types.ElicitationCompleteNotification(
        params=types.ElicitationCompleteNotificationParams(elicitation_id="e-1")
    ),
    types.CustomNotification("x/y", {"_meta": {"b": 1}, "z": 1, "a": [1.5, "s"]}),
    types.CustomNotification("x/y", None),
    types.CustomNotification("x/y", {}),
    types.ErrorData(-32603, "Internal error", {"detail": [1, 2]}),
    types.ErrorData(2**31 - 1, ""),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_constructed_value_round_trips(frames: Any, value: Any) -> None:
    encoded = frames.encode_notification(value)
    assert encoded[0] == (1 if type(value) is types.ErrorData else 0)
    assert frames.decode_notification(encoded) == value
    assert frames.encode_notification(frames.decode_notification(encoded)) == encoded


# ---------------------------------------------------------------- custom notifications

CUSTOM_BODIES = [
    # unknown methods
    {"method": "notifications/stderr", "params": {"content": "warn: cache miss\n"}},
    {"method": "codex/event", "params": {"_meta": {"requestId": "2"}, "msg": {"turn": 1}}},
    {"method": "x/y", "params": {}},
    {"method": "x/y", "params": {"ü": 1, "nested": {"d": [1, {"c": None}]}, "big": 2**63 + 1}},
    # known methods whose params do not fit their type
    {"method": "notifications/progress", "params": {"progress": "x"}},
    {"method": "notifications/progress", "params": {"progressToken": 1.5, "progress": 1}},
    {"method": "notifications/message", "params": {"level": "loud", "data": 1}},
    {"method": "notifications/resources/updated", "params": {}},
    {"method": "notifications/cancelled", "params": {"requestId": 1.5}},
    {"method": "notifications/subscriptions/acknowledged", "params": {}},
    {"method": "notifications/elicitation/complete", "params": {"elicitationId": "e", "extra": 1}},
    {
        "method": "notifications/tasks/status",
        "params": {
            "taskId": "a",
            "status": "working",
            "ttl": None,
            "createdAt": "c",
            "lastUpdatedAt": "d",
            "extra": 1,
        },
    },
]


@pytest.mark.parametrize("wire", CUSTOM_BODIES, ids=lambda w: w["method"])
def test_custom_notification_keeps_method_and_params(frames: Any, wire: dict[str, Any]) -> None:
    value = frames.decode_notification(b"\x00" + json.dumps(wire).encode())
    assert type(value) is types.CustomNotification
    assert value.method == wire["method"]
    assert value.params == wire["params"]
    assert frames.decode_notification(frames.encode_notification(value)) == value


#: The method as written: escaped, its typed class is still found (rmcp unescapes it first);
#: a method no class has, custom however it is spelled or however long.
METHOD_SPELLINGS = [
    (b'"notifications/messag\\u0065"', types.LoggingMessageNotification),
    (b'"notifications\\/message"', types.LoggingMessageNotification),
    (b'"notifications/tools/list_change\\u0064"', types.ToolListChangedNotification),
    (b'"notifications/x\\"y"', types.CustomNotification),
    (b'"notifications/\\u00e9"', types.CustomNotification),
    (b'"' + b"m" * 200 + b'"', types.CustomNotification),
    (b'"notifications/message2"', types.CustomNotification),
    (b'"notifications/messag"', types.CustomNotification),
]


@pytest.mark.parametrize(("method", "cls"), METHOD_SPELLINGS)
def test_method_spelling_finds_its_class(frames: Any, method: bytes, cls: type) -> None:
    payload = b'\x00{"method":' + method + b',"params":{"level":"info","data":1}}'
    value = frames.decode_notification(payload)
    assert type(value) is cls
    if cls is types.CustomNotification:
        assert value.method == json.loads(method)
        assert value.params == {"level": "info", "data": 1}


def test_custom_notification_drops_null_meta(frames: Any) -> None:
    value = frames.decode_notification(b'\x00{"method":"x/y","params":{"_meta":null,"b":1,"a":2}}')
    assert value == types.CustomNotification("x/y", {"b": 1, "a": 2})
    # rmcp's output for this input
    assert frames.encode_notification(value) == b'\x00{"method":"x/y","params":{"a":2,"b":1}}'


@pytest.mark.parametrize("body", [b'{"method":"x/y","params":null}', b'{"method":"x/y"}'])
def test_custom_notification_without_params_writes_null(frames: Any, body: bytes) -> None:
    value = frames.decode_notification(b"\x00" + body)
    assert value == types.CustomNotification("x/y", None)
    # rmcp's output for both inputs
    assert frames.encode_notification(value) == b'\x00{"method":"x/y","params":null}'


@pytest.mark.parametrize("params", [b"[]", b"[1]", b'"s"', b"1", b"true"])
@pytest.mark.parametrize("method", [b"x/y", b"notifications/tools/list_changed"])
def test_params_not_an_object_is_rejected(frames: Any, method: bytes, params: bytes) -> None:
    """rmcp rejects these (no ServerNotification variant takes non-object params)."""
    payload = b'\x00{"method":"' + method + b'","params":' + params + b"}"
    with pytest.raises(FrameBodyError) as info:
        frames.decode_notification(payload)
    assert info.value.path == "$.params"
    assert info.value.tag == 0


def test_custom_meta_not_an_object_is_rejected(frames: Any) -> None:
    with pytest.raises(FrameBodyError) as info:
        frames.decode_notification(b'\x00{"method":"x/y","params":{"_meta":[1]}}')
    assert info.value.path == "$.params._meta"
    assert "$.params._meta" in str(info.value)


def test_custom_encode_rejects_bad_members(frames: Any) -> None:
    for value in (
        types.CustomNotification(1, None),  # type: ignore[arg-type]
        types.CustomNotification("x/y", [1]),  # type: ignore[arg-type]
        types.CustomNotification("x/y", {"_meta": 5}),
    ):
        with pytest.raises(TypeError):
            frames.encode_notification(value)


# ----------------------------------------------------------------------- edge cases


def _edge(name: str) -> bytes:
    return (EDGE / name).read_bytes().rstrip(b"\n")


#: Edge-case file -> exact payload rmcp 3.1.4 wrote back after decoding it (oracle output).
RMCP_REENCODED = {
    "01-notification-no-params.json": b'\x00{"method":"notifications/tools/list_changed"}',
    "02-progress-float.json": (
        b'\x00{"method":"notifications/progress",'
        b'"params":{"message":"halfway","progress":0.5,"progressToken":"job-7","total":2.0}}'
    ),
    "04-unknown-notification-stderr.json": (
        b'\x00{"method":"notifications/stderr","params":{"content":"warn: cache miss\\n"}}'
    ),
    "05-non-mcp-method-with-meta.json": (
        b'\x00{"method":"codex/event",'
        b'"params":{"_meta":{"requestId":"2"},"msg":{"turn":1,"type":"task_started"}}}'
    ),
    "07-method-key-inside-params.json": (
        b'\x00{"method":"notifications/tools/list_changed","params":{"_meta":{"trace":"t-1"}}}'
    ),
    "18-key-order-preserve-order.json": (
        b'\x00{"method":"notifications/build/status",'
        b'"params":{"_meta":{"a":2,"b":1},"alpha":{"x":1,"y":2},"zeta":1}}'
    ),
}
EDGE_CLASS = {
    "01-notification-no-params.json": types.ToolListChangedNotification,
    "02-progress-float.json": types.ProgressNotification,
    "04-unknown-notification-stderr.json": types.CustomNotification,
    "05-non-mcp-method-with-meta.json": types.CustomNotification,
    "07-method-key-inside-params.json": types.ToolListChangedNotification,
    "18-key-order-preserve-order.json": types.CustomNotification,
}


@pytest.mark.parametrize("name", sorted(RMCP_REENCODED))
def test_edge_case_encodes_as_rmcp(frames: Any, name: str) -> None:
    value = frames.decode_notification(b"\x00" + _edge(name))
    assert type(value) is EDGE_CLASS[name]
    assert frames.encode_notification(value) == RMCP_REENCODED[name]


def test_progress_integers_become_floats(frames: Any) -> None:
    value = frames.decode_notification(b"\x00" + _edge("02-progress-float.json"))
    assert value.params == types.ProgressNotificationParam(
        progress_token="job-7", progress=0.5, total=2.0, message="halfway"
    )
    assert type(value.params.total) is float


def test_error_data_null_is_dropped(frames: Any) -> None:
    value = frames.decode_notification(b"\x01" + _edge("16-error-data-null.json"))
    assert value == types.ErrorData(-32603, "Internal error")
    # rmcp's output for this input
    assert frames.encode_notification(value) == b'\x01{"code":-32603,"message":"Internal error"}'


def test_list_changed_without_meta_drops_params(frames: Any) -> None:
    value = frames.decode_notification(
        b'\x00{"method":"notifications/prompts/list_changed","params":{"x":1}}'
    )
    assert value == types.PromptListChangedNotification()
    # rmcp's output for this input
    assert (
        frames.encode_notification(value) == b'\x00{"method":"notifications/prompts/list_changed"}'
    )


#: List-changed frames with each shape of ``params``: absent, ``null``, empty, unknown
#: members only, ``"_meta": null``, and a ``_meta`` (the one kept).
LIST_CHANGED = [
    b'\x00{"method":"notifications/tools/list_changed"}',
    b'\x00{"method":"notifications/tools/list_changed","params":null}',
    b'\x00{"method":"notifications/resources/list_changed","params":{}}',
    b'\x00{"method":"notifications/prompts/list_changed","params":{"x":[1]}}',
    b'\x00{"method":"notifications/prompts/list_changed","params":{"_meta":null}}',
    b'\x00{"params":{"_meta":{"k":1}},"method":"notifications/resources/list_changed"}',
]


def _python_calls(decode: Any, payloads: list[bytes]) -> tuple[list[Any], list[str]]:
    """``decode`` over ``payloads``: the values, and the names of the Python functions
    that ran meanwhile (a profile hook sees each one called, from C too). The garbage
    collector is off meanwhile: a collection runs the callbacks others put in
    ``gc.callbacks`` (hypothesis has one), which are not the decode's."""
    calls: list[str] = []

    def hook(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            calls.append(frame.f_code.co_name)

    values = []
    enabled = gc.isenabled()
    gc.disable()
    sys.setprofile(hook)
    try:
        for payload in payloads:  # a loop, not a comprehension (a frame of its own)
            values.append(decode(payload))
    finally:
        sys.setprofile(None)
        if enabled:
            gc.enable()
    return values, calls


def test_list_changed_values_and_types_are_the_constructors(frames: Any) -> None:
    for payload in LIST_CHANGED:
        value = frames.decode_notification(payload)
        body = json.loads(payload[1:])
        cls = METHOD_CLASS[body["method"]]
        meta = (body.get("params") or {}).get("_meta")
        expected = cls(params=None if meta is None else types.NotificationParams(meta=meta))
        assert type(value) is cls and value == expected, payload
        assert type(value.params) is type(expected.params)
        assert frames.encode_notification(value) == frames.encode_notification(expected)


#: Cancelled frames with each shape of ``params``: absent, ``null``, empty, filled.
CANCELLED = [
    b'\x00{"method":"notifications/cancelled"}',
    b'\x00{"method":"notifications/cancelled","params":null}',
    b'\x00{"method":"notifications/cancelled","params":{}}',
    b'\x00{"method":"notifications/cancelled","params":{"requestId":"a","reason":"r"}}',
]


def test_cancelled_values_and_types_are_the_constructors(frames: Any) -> None:
    for payload in CANCELLED:
        value = frames.decode_notification(payload)
        params = json.loads(payload[1:]).get("params") or {}
        expected = types.CancelledNotification(
            params=types.CancelledNotificationParam(
                reason=params.get("reason"), request_id=params.get("requestId")
            )
        )
        assert type(value) is types.CancelledNotification and value == expected, payload
        assert type(value.params) is types.CancelledNotificationParam
        assert frames.encode_notification(value) == frames.encode_notification(expected)


_U64_MAX = 2**64 - 1
_TASK = (
    '"createdAt":"2026-11-29T18:10:38.978Z","lastUpdatedAt":"2026-11-29T18:10:39.991Z",'
    '"status":"working","taskId":"d3d3"'
)


def _exact_params_frames(big: bool) -> list[bytes]:
    """Task-status and elicitation-complete frames (params that are ``_ExactParams``)
    with each shape of ``_meta`` and of their integers; ``big``: only those with an
    integer past ``u64`` (which rmcp's ``Value`` holds as a float), else none of them."""
    metas = ["", '"_meta":null,', '"_meta":{},', '"_meta":{"k":[1,{"n":null}]},']
    ints = [0, 1000, _U64_MAX, -1, -(2**63)] if not big else [_U64_MAX + 1, 10**30]
    frames = []
    for meta in metas:
        for n in ints:
            for members in (
                f'"pollInterval":{n},{_TASK},"ttl":null',
                f'{_TASK},"statusMessage":"m","ttl":{n}',
                f'"pollInterval":1,{_TASK},"ttl":{n},"statusMessage":"m"',  # out of order
            ):
                body = f'{{"method":"notifications/tasks/status","params":{{{meta}{members}}}}}'
                frames.append(b"\x00" + body.encode())
        if not big:
            body = f'{{"params":{{"elicitationId":"e",{meta}}},"method":"notifications/elicitation/complete"}}'
            frames.append(b"\x00" + body.replace(",}", "}").encode())
    return frames


def _detailed_task_frames(big: bool) -> list[bytes]:
    """rmcp's ``notifications/tasks`` frames: each status with each of its payload
    members there or not, with ``ttlMs`` absent, ``null`` or an integer (``big``: past
    ``u64``, and only those) and ``pollIntervalMs`` absent or an integer."""
    payloads = ['"error":{"code":1},', '"inputRequests":{},', '"result":{"content":[]},']
    ttls = ["", '"ttlMs":null,', '"ttlMs":0,'] if not big else [f'"ttlMs":{_U64_MAX + 1},']
    frames = []
    for status in ("working", "input_required", "completed", "failed", "cancelled"):
        for members in [[], *([p] for p in payloads), payloads[:2], payloads]:
            for ttl in ttls:
                for poll in ("", f'"pollIntervalMs":{_U64_MAX},'):
                    body = (
                        f'{{"method":"notifications/tasks","params":{{"createdAt":"a",'
                        f'{"".join(members)}"lastUpdatedAt":"b",{poll}"status":"{status}",'
                        f'"taskId":"c",{ttl}"statusMessage":"m"}}}}'
                    )
                    frames.append(b"\x00" + body.encode())
    return frames


def _its_payload(payload: bytes) -> bool:
    """Whether a frame is no task, or a task with its status's payload member alone and
    no ``inputRequests`` (which the exact reading reads)."""
    body = json.loads(payload[1:])
    if body["method"] != "notifications/tasks":
        return True
    params = body["params"]
    if "inputRequests" in params:
        return False
    wanted = types.DetailedTaskNotificationParams._PAYLOAD.get(params["status"])
    there = {n for n in ("error", "input_requests", "result") if _camel(n) in params}
    return there == ({wanted} if wanted else set())


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


EXACT_PARAMS = _exact_params_frames(big=False) + _detailed_task_frames(big=False)
EXACT_PARAMS_BIG = _exact_params_frames(big=True) + _detailed_task_frames(big=True)


@pytest.mark.parametrize("payload", EXACT_PARAMS + EXACT_PARAMS_BIG)
def test_exact_params_values_and_types_are_the_public_classes(frames: Any, payload: bytes) -> None:
    """Both twins give the value the public classes give (their ``__post_init__``:
    ``"_meta": null`` absent, an absent ``ttlMs`` None, an integer past ``u64`` or a
    task's payload member missing not typed, another's dropped), of the same classes."""
    body = json.loads(payload[1:])
    cls = METHOD_CLASS[body["method"]]
    value = frames.decode_notification(payload)
    try:
        expected = msgspec.json.decode(payload[1:], type=cls)
    except msgspec.ValidationError:
        expected = _frames_py.decode_notification(payload)
        assert type(expected) is types.CustomNotification
    assert type(value) is type(expected) and value == expected, payload
    if type(value) is cls:
        assert type(value.params) is type(expected.params)
        assert value.params.meta is not None or cls is types.TasksNotification
    assert frames.encode_notification(value) == frames.encode_notification(expected)


@pytest.mark.c_extension
@pytest.mark.parametrize("payload", EXACT_PARAMS + EXACT_PARAMS_BIG)
def test_typed_exact_params_are_the_public_classes_values(payload: bytes) -> None:
    """The compiled typed decoders alone (no pre-check before them, which sends a body
    with an integer past ``u64`` to the exact reading) give what the public classes
    give, their refusal of such an integer included, by method and by the union."""
    assert _frames_c is not None
    body = payload[1:]
    cls = METHOD_CLASS[json.loads(body)["method"]]
    for method in (_wire.TYPED_METHODS.index(cls.method), -1):
        try:
            expected = msgspec.json.decode(body, type=cls)
        except msgspec.ValidationError as exc:
            refusal = str(exc)
        else:
            refusal = None
        if refusal is not None:
            with pytest.raises(msgspec.ValidationError) as raised:
                _frames_c._typed_notification(body, method)
            assert str(raised.value) == refusal
            continue
        value = _frames_c._typed_notification(body, method)
        assert type(value) is cls and type(value.params) is type(expected.params)
        assert value == expected


@pytest.mark.c_extension
def test_compiled_notifications_run_no_python() -> None:
    """The compiled path reads list-changed and cancelled notifications, and those
    whose params run a ``__post_init__`` (but a task whose payload members are not its
    status's alone, which the public class reads, or with ``inputRequests``), without their ``__post_init__`` (or
    any Python code); the pure twin's reading runs it, which shows the hook sees it."""
    assert _frames_c is not None and _frames_c.NOTIFICATION_RETYPE
    for payloads in (LIST_CHANGED, CANCELLED, [p for p in EXACT_PARAMS if _its_payload(p)]):
        pure, pure_calls = _python_calls(_frames_py.decode_notification, payloads)
        assert "__post_init__" in pure_calls
        values, calls = _python_calls(_frames_c.decode_notification, payloads)
        assert calls == []
        assert values == pure and [type(v) for v in values] == [type(v) for v in pure]


# ---------------------------------------------------------------------- buffer input

PROGRESS = b"\x00" + _edge("02-progress-float.json")


def _buffers(payload: bytes) -> dict[str, Any]:
    """``payload`` as every kind of bytes-like object the decoders accept."""
    padded = payload + b" " * (len(payload) % 2)  # whitespace after JSON is allowed
    wide = array("H")
    wide.frombytes(padded)
    strided = bytes(byte for each in payload for byte in (each, 0xAA))
    return {
        "bytes": payload,
        "bytearray": bytearray(payload),
        "memoryview": memoryview(payload),
        "memoryview-slice": memoryview(b"garbage" + payload + b"trailing")[7 : 7 + len(payload)],
        "memoryview-noncontiguous": memoryview(strided)[::2],
        "array-H": wide,
        "memoryview-array-H": memoryview(wide),
        "memoryview-2d": memoryview(padded).cast("B", (2, len(padded) // 2)),
    }


@pytest.mark.parametrize("kind", sorted(_buffers(PROGRESS)))
@pytest.mark.parametrize(
    "payload", [PROGRESS, PROGRESS[:1] + PROGRESS[1:].ljust(4000)], ids=["small", "large"]
)
def test_every_buffer_kind_decodes_like_bytes(frames: Any, kind: str, payload: bytes) -> None:
    buffer = _buffers(payload)[kind]
    if kind == "memoryview-noncontiguous":
        assert not buffer.c_contiguous
    assert frames.decode_notification(buffer) == frames.decode_notification(payload)


def test_value_from_bytearray_survives_mutation(frames: Any) -> None:
    buffer = bytearray(b'\x00{"method":"x/y","params":{"text":"' + b"a" * 1000 + b'"}}')
    value = frames.decode_notification(buffer)
    expected = types.CustomNotification("x/y", {"text": "a" * 1000})
    assert value == expected
    buffer[30:40] = b"Z" * 10
    buffer.extend(b"z" * 5000)  # resizing needs every export released
    del buffer[:]
    assert value == expected


def test_bytes_subclass_decodes(frames: Any) -> None:
    class Frame(bytes):
        pass

    assert frames.decode_notification(Frame(PROGRESS)) == frames.decode_notification(PROGRESS)


# --------------------------------------------------------------------------- encode


@pytest.mark.parametrize(
    "value",
    [
        types.ReadResourceResult(contents=[]),
        types.TextResourceContents(uri="u", text="t"),
        {"method": "x/y"},
        b'{"method":"x/y"}',
        None,
        types.ProgressNotificationParam(progress_token=1, progress=1.0),
    ],
    ids=lambda v: type(v).__name__,
)
def test_encode_rejects_other_values(frames: Any, value: Any) -> None:
    with pytest.raises(TypeError):
        frames.encode_notification(value)


def test_encode_rejects_subclass_of_error_data(frames: Any) -> None:
    class MyError(types.ErrorData):
        pass

    with pytest.raises(TypeError):
        frames.encode_notification(MyError(1, "m"))


# -------------------------------------------------------------------------- request


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"\x00",
        b"anything at all",
        bytearray(b"\x07\x08"),
        memoryview(b"xyz")[1:],
        memoryview(b"ab")[::2],
    ],
)
def test_decode_request_ignores_bytes(payload: Any) -> None:
    assert notifications.decode_request(payload) == notifications.Request()


@pytest.mark.parametrize("payload", ["", "x", 0, None, [0], {}])
def test_decode_request_rejects_non_bytes(payload: Any) -> None:
    with pytest.raises(TypeError):
        notifications.decode_request(payload)


def test_request_encodes_empty_and_is_a_value() -> None:
    assert notifications.encode_request() == b""
    assert notifications.encode_request(notifications.Request()) == b""
    assert notifications.decode_request(notifications.encode_request()) == notifications.Request()
    assert notifications.Request() == notifications.Request()
    assert hash(notifications.Request()) == hash(notifications.Request())
    assert notifications.Request() != object()
    assert repr(notifications.Request()) == "Request()"


@pytest.mark.parametrize("channel", ["notifications", "read_resource"])
def test_a_released_memoryview_is_a_clear_value_error(frames: Any, channel: str) -> None:
    view = memoryview(b'\x00{"method":"x"}')
    view.release()
    decode = getattr(frames, f"decode_{'notification' if channel == 'notifications' else channel}")
    with pytest.raises(ValueError, match=r"^the payload is a released memoryview") as raised:
        decode(view)
    assert not isinstance(raised.value, FrameBodyError)
