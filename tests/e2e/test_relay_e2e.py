"""End to end: real MCP servers over stdio, relayed as Diverge channel frames.

A raw JSON-RPC line client drives each server (initialize, notifications/initialized,
resources/subscribe, logging/setLevel, tools/call with a progressToken,
resources/read of text and blob, requests that fail). Every notification the server
writes is decoded from its JSON line, re-encoded by our encoder as a notification
channel payload and written into an in-process byte stream of length-prefixed frames,
where ``aio.notifications`` (over ``NotificationChannel``) reads it back while the
server is still talking. Every ``resources/read`` answer travels the same way on its
own one-shot channel to ``aio.read_resource``.

Then, for every message: what came out equals what was decoded directly from the
server's line (nothing lost, reordered or altered); the payload's JSON equals the
server's JSON (the ``jsonrpc`` member aside); and re-encoding what came out gives the
bytes that were sent. Both hot paths, both servers, and three ways for the
notification channel to end: the finish, a real server error then the finish, and an
abrupt cut.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import aclosing
from pathlib import Path
from typing import Any

import pytest
from relay_harness import TIMEOUT, FramePipe, LineClient, read_frames

from diverge_frames import aio
from diverge_frames.types import ErrorData, ReadResourceResult

PROTOCOL_VERSION = "2025-06-18"


def _server_json(line: bytes) -> dict[str, Any]:
    """The notification as the server wrote it, without the JSON-RPC envelope member."""
    message = json.loads(line)
    message.pop("jsonrpc")
    return message


class NotificationRelay:
    """Relays each notification line onto a notification channel pipe, in order."""

    def __init__(self, frames) -> None:
        self.frames = frames
        self.pipe = FramePipe()
        self.relayed: list[tuple[bytes, Any, bytes]] = []  # (line, direct value, payload)
        self.late: list[bytes] = []  # lines after the channel ended: not relayed
        self.ended = False

    def __call__(self, line: bytes) -> None:
        if self.ended:
            self.late.append(line)
            return
        direct = self.frames.decode_notification(b"\x00" + line)
        payload = self.frames.encode_notification(direct)
        self.relayed.append((line, direct, payload))
        self.pipe.write(payload)

    def methods(self) -> set[str]:
        return {direct.method for _, direct, _ in self.relayed}


async def _consume(pipe: FramePipe, frames, got: list[Any]) -> None:
    source = read_frames(pipe.reader)
    async with aclosing(aio.notifications(source, decode=frames.decode_notification)) as stream:
        async for value in stream:
            got.append(value)


async def _wait_for(condition, what: str) -> None:
    """Wait (bounded) for something the server sends on its own schedule."""
    for _ in range(int(TIMEOUT / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


async def _relay_read(client: LineClient, frames, params: dict[str, Any]):
    """One resources/read, relayed on its own one-shot channel. Returns the response,
    the value decoded directly from it, the payload sent and what came out."""
    response = await client.request("resources/read", params)
    direct = frames.decode_read_resource(
        (b"\x01" if response.is_error else b"\x00") + response.body
    )
    payload = frames.encode_read_resource(direct)
    pipe = FramePipe()
    pipe.write(payload)
    pipe.finish()
    try:
        out: Any = await asyncio.wait_for(
            aio.read_resource(read_frames(pipe.reader), decode=frames.decode_read_resource), TIMEOUT
        )
    except aio.ReadResourceError as exc:
        out = exc.error
    return response, direct, payload, out


async def _scenario(server, frames, ending: str, tmp_path: Path) -> None:
    relay = NotificationRelay(frames)
    got: list[Any] = []
    async with LineClient(server.argv, relay, tmp_path / "stderr.log") as client:
        consumer = asyncio.create_task(_consume(relay.pipe, frames, got))

        init = await client.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "diverge-frames-e2e", "version": "0"},
            },
        )
        assert not init.is_error, init.line
        await client.notify("notifications/initialized")
        for method, params in [
            ("resources/subscribe", {"uri": server.subscribe}),
            ("logging/setLevel", {"level": "debug"}),
            ("tools/call", {**server.work, "_meta": {"progressToken": "progress-1"}}),
            *(("tools/call", call) for call in server.extra_calls),
        ]:
            response = await client.request(method, params)
            assert not response.is_error, response.line

        # Read-resource channels: the answers and the failures.
        reads = [await _relay_read(client, frames, {"uri": uri}) for uri in server.reads]
        bad = [await _relay_read(client, frames, params) for params in server.bad_reads]
        failed = await client.request("no/such/method", {})
        assert failed.is_error

        await client.request("ping")
        await _wait_for(
            lambda: server.methods <= relay.methods(), f"notifications {server.methods}"
        )

        # End the notification channel.
        relay.ended = True
        if ending == "error":
            error = frames.decode_notification(b"\x01" + failed.body)
            relay.pipe.write(frames.encode_notification(error))
            relay.pipe.finish()
        elif ending == "abort":
            relay.pipe.abort(relay.relayed[-1][2])
        else:
            relay.pipe.finish()
        outcome = (
            await asyncio.wait_for(asyncio.gather(consumer, return_exceptions=True), TIMEOUT)
        )[0]
        notification_lines = list(client.notifications)

    # How the notification channel ended.
    if ending == "finish":
        assert outcome is None
    elif ending == "error":
        assert isinstance(outcome, aio.NotificationStreamError)
        assert outcome.error == error and isinstance(outcome.error, ErrorData)
        assert outcome.error.code == json.loads(failed.body)["code"] == -32601
    else:
        assert isinstance(outcome, asyncio.IncompleteReadError)

    # Nothing lost, reordered or altered.
    assert len(relay.relayed) + len(relay.late) == len(notification_lines)
    assert [line for line, _, _ in relay.relayed] == notification_lines[: len(relay.relayed)]
    assert got == [direct for _, direct, _ in relay.relayed]
    for (line, direct, payload), value in zip(relay.relayed, got, strict=True):
        assert frames.encode_notification(value) == frames.encode_notification(direct) == payload
        assert payload[0] == 0
        assert json.loads(payload[1:]) == _server_json(line)

    # Enough of each kind of notification went through.
    methods = [direct.method for _, direct, _ in relay.relayed]
    assert server.methods <= set(methods)
    progress = [d for _, d, _ in relay.relayed if d.method == "notifications/progress"]
    assert [p.params.progress_token for p in progress] == ["progress-1"] * server.progress_steps
    assert [p.params.progress for p in progress] == sorted(p.params.progress for p in progress)

    # Read-resource answers: results and errors, each as the server wrote it.
    for response, direct, payload, out in reads:
        assert not response.is_error
        assert isinstance(out, ReadResourceResult) and out == direct
        assert frames.encode_read_resource(out) == payload
        assert json.loads(payload[1:]) == json.loads(response.body)
    kinds = {type(c).__name__ for _, direct, _, _ in reads for c in direct.contents}
    assert kinds == {"TextResourceContents", "BlobResourceContents"}
    for response, direct, payload, out in bad:
        assert response.is_error
        assert isinstance(out, ErrorData) and out == direct
        assert frames.encode_read_resource(out) == payload and payload[0] == 1
        assert json.loads(payload[1:]) == json.loads(response.body)


@pytest.mark.parametrize("ending", ["finish", "error", "abort"])
def test_relay(server, frames, ending: str, tmp_path: Path) -> None:
    asyncio.run(asyncio.wait_for(_scenario(server, frames, ending, tmp_path), 4 * TIMEOUT))
