"""Relay MCP traffic as Diverge channel frames over asyncio, and read it back.

``python examples/relay.py`` relays the sample capture shipped in the package: each
channel's payloads become length-prefixed frames on an in-process
``asyncio.StreamReader`` (its end the finish; a frame cut short, the abort), read back
by ``aio.notifications`` or ``aio.read_resource``.

``python examples/relay.py TOOL ARGS_JSON SERVER COMMAND...`` starts an MCP server over
stdio instead, calls ``TOOL`` with ``ARGS_JSON``, relays each notification it sends as
a payload of one notification channel, and each ``resources/read`` answer on a one-shot
channel of its own.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import struct
import sys
from contextlib import aclosing
from importlib.resources import files

from diverge_frames import FrameError, aio, capture, notifications, read_resource

USAGE = "usage: python examples/relay.py [TOOL ARGS_JSON SERVER COMMAND...]"


def send(channel: asyncio.StreamReader, payload: bytes) -> None:
    channel.feed_data(struct.pack(">I", len(payload)) + payload)


async def frames(channel: asyncio.StreamReader):  # EOF between frames: the finish
    while True:
        try:
            header = await channel.readexactly(4)
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                raise
            return
        yield await channel.readexactly(struct.unpack(">I", header)[0])


def _notifications(count: int) -> str:
    return f"{count} notification{'' if count == 1 else 's'}"


async def consume(name: str, kind: str, channel: asyncio.StreamReader, each: bool) -> None:
    """Read one channel back; say what it carried (``each``: every notification) and how
    it ended."""
    count = 0
    try:
        if kind == "read-resource":
            result = await aio.read_resource(frames(channel))
            print(name, [type(c).__name__ for c in result.contents])
            return
        async with aclosing(aio.notifications(frames(channel))) as stream:
            async for n in stream:
                count += 1
                if each:
                    print("notification", n.method, notifications.encode(n)[1:].decode()[:100])
        print(name, "finished" if each else f"finished after {_notifications(count)}")
    except (aio.NotificationStreamError, aio.ReadResourceError) as exc:
        before = "" if each or kind == "read-resource" else f"{_notifications(count)}, then "
        print(name, f"{before}error {exc.error.code} {exc.error.message}")
    except aio.NotServedError:
        print(name, "not served")
    except asyncio.IncompleteReadError:
        print(name, f"aborted after {_notifications(count)} (a frame cut short)")
    except FrameError as exc:  # a payload that does not decode, or out of sequence
        print(name, f"{type(exc).__name__}: {exc}")


async def relay_sample() -> None:
    """Each channel of the shipped sample relayed over its own stream, all at once."""
    channels: dict[str, asyncio.StreamReader] = {}
    tasks = []
    with (files("diverge_frames") / "data" / "sample.capture.jsonl").open("rb") as f:
        for _, record in capture.read_capture(f):
            if record.channel not in channels:
                channels[record.channel] = asyncio.StreamReader()
                name = f"channel {record.channel} ({record.kind}):"
                consumer = consume(name, record.kind, channels[record.channel], each=False)
                tasks.append(asyncio.create_task(consumer))
            channel = channels[record.channel]
            if record.payload is not None:
                send(channel, record.payload)
                continue
            if record.abort:  # the connection dropped inside a frame
                channel.feed_data(struct.pack(">I", 9) + b"cut")
            channel.feed_eof()
    await asyncio.gather(*tasks)


async def relay_server(tool: str, args: dict, argv: list[str]) -> None:
    """Start the server, call ``tool``, read two of its resources and a missing one."""
    proc = await asyncio.create_subprocess_exec(
        *argv, stdin=-1, stdout=-1, stderr=-1, limit=1 << 24
    )
    channel, pending, ids, said = asyncio.StreamReader(), {}, itertools.count(1), [b""]

    async def read_stderr() -> None:  # kept for a message if the server exits
        while line := await proc.stderr.readline():
            said[0] = line.strip() or said[0]

    async def read_lines() -> None:
        while line := await proc.stdout.readline():
            msg = json.loads(line)
            if "id" not in msg:  # a notification: relay it as a tag-0 payload
                send(channel, notifications.encode(notifications.decode(b"\x00" + line)))
            elif "method" not in msg:
                pending.pop(msg["id"]).set_result(msg)
        await stderr_reader
        status = await proc.wait()
        ended.append(f"the server exited ({status}): {said[0].decode(errors='replace')}")
        for waiting in pending.values():
            waiting.set_exception(ConnectionError(ended[0]))

    async def request(method: str, params: dict | None = None) -> dict:
        if ended:
            raise ConnectionError(ended[0])
        pending[i := next(ids)] = asyncio.get_running_loop().create_future()
        message = {"jsonrpc": "2.0", "id": i, "method": method, "params": params or {}}
        proc.stdin.write(json.dumps(message).encode() + b"\n")
        return await asyncio.wait_for(pending[i], 15)

    ended: list[str] = []  # why the server's output closed
    stderr_reader = asyncio.create_task(read_stderr())
    reader = asyncio.create_task(read_lines())
    consumer = asyncio.create_task(
        consume("notification channel", "notifications", channel, each=True)
    )
    try:
        hello = {"clientInfo": {"name": "relay", "version": "0"}, "capabilities": {}}
        await request("initialize", {"protocolVersion": "2025-06-18", **hello})
        proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        await request("logging/setLevel", {"level": "debug"})
        call = {"name": tool, "arguments": args, "_meta": {"progressToken": 1}}
        await request("tools/call", call)
        listed = (await request("resources/list"))["result"]["resources"][:2]
        for res in [*listed, {"uri": "nope://x"}]:
            answer, one = (
                await request("resources/read", {"uri": res["uri"]}),
                asyncio.StreamReader(),
            )
            tag, body = (
                (b"\x01", answer["error"]) if "error" in answer else (b"\x00", answer["result"])
            )
            send(one, read_resource.encode(read_resource.decode(tag + json.dumps(body).encode())))
            one.feed_eof()  # a one-shot channel: one payload, then the finish
            await consume(f"read {res['uri']}", "read-resource", one, each=True)
        await request("ping")  # all the server said before this answer has been relayed
        channel.feed_eof()  # the notification channel's finish
        await asyncio.wait_for(consumer, 15)
        proc.stdin.close()
        await asyncio.wait_for(proc.wait(), 15)
    finally:
        for task in (reader, consumer, stderr_reader):
            task.cancel()
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def main(argv: list[str]) -> int:
    if not argv:
        asyncio.run(relay_sample())
        return 0
    if len(argv) < 3:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        asyncio.run(relay_server(argv[0], json.loads(argv[1]), argv[2:]))
    except (OSError, ValueError, FrameError, TimeoutError, KeyError, TypeError) as exc:
        print(f"relay.py: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
