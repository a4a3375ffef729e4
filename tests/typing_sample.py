"""A typed use of the public API, checked by ``mypy --strict`` (see ``[tool.mypy]``).

Not a test module (pytest collects ``test_*.py`` only); ``tests/test_stub.py`` runs it
under both implementations, so what it asserts also holds at run time.

Each ``assert_type`` states the type mypy must infer; each ``# type: ignore[code]``
marks a misuse mypy must reject: ``--strict`` includes ``warn_unused_ignores``, so the
check fails if a signature ever loosens to accept it (say, to ``Any``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import diverge_frames
from diverge_frames import (
    EmptyFrameError,
    FrameBodyError,
    FrameError,
    UnknownTagError,
    aio,
    notifications,
    read_resource,
)
from diverge_frames.channel import (
    ChannelState,
    Error,
    Notification,
    NotificationChannel,
    OneShotChannel,
)
from diverge_frames.types import (
    BlobResourceContents,
    CustomNotification,
    ErrorData,
    ProgressNotification,
    ReadResourceResult,
    ServerNotification,
    TextResourceContents,
)

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:

    def assert_type(value: object, _type: object) -> object:
        """Run-time stand-in: mypy checks the real one."""
        return value


PROGRESS = b'\x00{"method":"notifications/progress","params":{"progressToken":"t","progress":1}}'
NOT_FOUND = b'\x01{"code":-32002,"message":"Resource not found"}'
TEXT = b'\x00{"contents":[{"uri":"file:///a.txt","text":"hi"}]}'


def progress_of(payload: bytes | bytearray | memoryview) -> float | None:
    """The progress a notification payload reports, ``None`` for anything else."""
    value = notifications.decode(payload)
    assert_type(value, ServerNotification | ErrorData)
    if isinstance(value, ProgressNotification):
        return value.params.progress
    return None


def total_of(payload: bytes) -> float | None:
    """The total a progress notification reports: a comparison of ``method`` (a
    ``ClassVar`` of each class's ``Literal``) narrows the typed notifications."""
    value = notifications.decode(payload)
    if isinstance(value, (ErrorData, CustomNotification)):
        return None
    if value.method == "notifications/progress":
        assert_type(value, ProgressNotification)
        return value.params.total
    return None


def plain_progress() -> dict[str, object]:
    """A value to and from plain Python, as the channels read and write it."""
    value = diverge_frames.convert(
        {"method": "notifications/progress", "params": {"progressToken": 1, "progress": 2}},
        ProgressNotification,
    )
    assert_type(value, ProgressNotification)
    plain = diverge_frames.to_builtins(value)
    assert isinstance(plain, dict)
    return plain


def texts(payload: bytes) -> list[str]:
    """The text of each text item of a read-resource result; an error raises."""
    value = read_resource.decode(payload)
    assert_type(value, ReadResourceResult | ErrorData)
    if isinstance(value, ErrorData):
        raise LookupError(value.code, value.message)
    out: list[str] = []
    for item in value.contents:
        assert_type(item, TextResourceContents | BlobResourceContents)
        if isinstance(item, TextResourceContents):
            out.append(item.text)
    return out


def failure_kind(payload: bytes) -> str:
    """``FrameError.kind`` of a payload that does not decode, ``""`` for one that does."""
    try:
        read_resource.decode(payload)
    except UnknownTagError as exc:
        assert_type(exc.tag, int)
        return exc.kind
    except FrameBodyError as exc:
        assert_type(exc.path, str)
        return exc.kind
    except FrameError as exc:
        return exc.kind
    return ""


async def stream() -> list[str]:
    """The methods of a notification stream that ends with an error."""

    async def payloads() -> AsyncIterator[bytes]:
        yield PROGRESS
        yield NOT_FOUND

    methods: list[str] = []
    try:
        async for notification in aio.notifications(payloads()):
            assert_type(notification, ServerNotification)
            methods.append(notification.method)
    except aio.NotificationStreamError as exc:
        assert_type(exc.error, ErrorData)
    return methods


def main() -> None:
    """Run each use and check what it returns."""
    assert isinstance(diverge_frames.__version__, str)
    assert diverge_frames.IMPLEMENTATION in ("cython", "python")

    assert progress_of(PROGRESS) == 1.0
    assert progress_of(bytearray(PROGRESS)) == 1.0
    assert progress_of(memoryview(b"??" + PROGRESS)[2:]) == 1.0
    assert progress_of(NOT_FOUND) is None
    assert texts(TEXT) == ["hi"]
    assert total_of(PROGRESS) is None
    assert plain_progress()["params"] == {"progress": 2.0, "progressToken": 1}

    custom = CustomNotification("notifications/stderr", {"content": "hi"})
    payload: bytes = notifications.encode(custom)
    assert notifications.decode(payload) == custom
    error = ErrorData(-32603, "upstream closed")
    assert read_resource.decode(read_resource.encode(error)) == error
    assert notifications.decode_request(notifications.encode_request()) == notifications.Request()

    assert failure_kind(b"") == EmptyFrameError.kind == "empty"
    assert failure_kind(b"\x07{}") == "unknown_tag"
    assert failure_kind(b"\x00[]") == "body"
    assert failure_kind(TEXT) == ""

    channel = NotificationChannel()
    event = channel.receive(PROGRESS)
    assert_type(event, Notification | Error)
    assert isinstance(event, Notification) and event.value.method == "notifications/progress"
    assert channel.state is ChannelState.OPEN
    value = channel.receive_value(PROGRESS)
    assert_type(value, ServerNotification | ErrorData)
    assert not isinstance(value, ErrorData) and value.method == "notifications/progress"
    methods = [v.method for v in channel.values([PROGRESS]) if not isinstance(v, ErrorData)]
    assert methods == ["notifications/progress"]
    one = OneShotChannel()
    assert_type(one.receive_value(TEXT), ReadResourceResult | ErrorData)

    assert asyncio.run(stream()) == ["notifications/progress"]

    # Misuse that mypy rejects, and that fails at run time too.
    try:
        notifications.decode("text")  # type: ignore[arg-type]
    except TypeError:
        pass
    else:
        raise AssertionError("decode accepted a str")
    try:
        read_resource.encode(custom)  # type: ignore[arg-type]
    except TypeError:
        pass
    else:
        raise AssertionError("read_resource.encode accepted a notification")


if __name__ == "__main__":
    main()
    print("typing sample ran:", diverge_frames.IMPLEMENTATION)
