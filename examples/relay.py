"""Relay an MCP server's notifications and resource reads as Diverge channel frames:
``python examples/relay.py TOOL ARGS_JSON SERVER COMMAND...``. Each
notification becomes a payload on an in-process stream of length-prefixed frames, read
back by ``aio.notifications``; each ``resources/read`` answer rides its own one-shot
channel to ``aio.read_resource``."""

import asyncio
import itertools
import json
import struct
import sys
from contextlib import aclosing

from diverge_frames import aio, notifications, read_resource


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


async def main(argv: list[str], tool: str, args: dict) -> None:
    proc = await asyncio.create_subprocess_exec(*argv, stdin=-1, stdout=-1, limit=1 << 24)
    channel, pending, ids = asyncio.StreamReader(), {}, itertools.count(1)

    async def read_lines() -> None:
        while line := await proc.stdout.readline():
            msg = json.loads(line)
            if "id" not in msg:  # a notification: relay it as a tag-0 payload
                send(channel, notifications.encode(notifications.decode(b"\x00" + line)))
            elif "method" not in msg:
                pending.pop(msg["id"]).set_result(msg)

    async def request(method: str, params: dict | None = None) -> dict:
        pending[i := next(ids)] = asyncio.get_running_loop().create_future()
        message = {"jsonrpc": "2.0", "id": i, "method": method, "params": params or {}}
        proc.stdin.write(json.dumps(message).encode() + b"\n")
        return await asyncio.wait_for(pending[i], 15)

    async def consume() -> None:
        async with aclosing(aio.notifications(frames(channel))) as stream:
            async for n in stream:
                print("notification", n.method, notifications.encode(n)[1:].decode()[:100])

    reader, consumer = asyncio.create_task(read_lines()), asyncio.create_task(consume())
    hello = {"clientInfo": {"name": "relay", "version": "0"}, "capabilities": {}}
    await request("initialize", {"protocolVersion": "2025-06-18", **hello})
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    await request("logging/setLevel", {"level": "debug"})
    await request("tools/call", {"name": tool, "arguments": args, "_meta": {"progressToken": 1}})
    for res in [*(await request("resources/list"))["result"]["resources"][:2], {"uri": "nope://x"}]:
        answer, one = await request("resources/read", {"uri": res["uri"]}), asyncio.StreamReader()
        tag, body = (b"\x01", answer["error"]) if "error" in answer else (b"\x00", answer["result"])
        send(one, read_resource.encode(read_resource.decode(tag + json.dumps(body).encode())))
        one.feed_eof()  # a one-shot channel: one payload, then the finish
        try:
            result = await aio.read_resource(frames(one))
            print("read", res["uri"], [type(c).__name__ for c in result.contents])
        except aio.ReadResourceError as exc:
            print("read", res["uri"], "error", exc.error.code, exc.error.message)
    await request("ping")  # all the server said before this answer has been relayed
    channel.feed_eof()  # the notification channel's finish
    try:
        await asyncio.wait_for(consumer, 15)
        print("notification channel finished")
    except aio.NotServedError:
        print("notification channel not served (no notification before the finish)")
    proc.stdin.close()
    reader.cancel()
    await asyncio.wait_for(proc.wait(), 15)


if __name__ == "__main__":  # python examples/relay.py TOOL ARGS_JSON SERVER COMMAND...
    asyncio.run(main(sys.argv[3:], sys.argv[1], json.loads(sys.argv[2])))
