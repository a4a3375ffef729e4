"""The bridge into an ``mcp.ClientSession``: ``python examples/mcp_session.py``.

An MCP server on the official Python SDK (PyPI ``mcp``) runs in this process and the
SDK's client session talks to it. Each notification the session hands its
``message_handler`` (an ``mcp.types`` model) becomes our value (``from_mcp``) and a
notification-channel payload (``notifications.encode``); the ``resources/read`` answers
become read-resource payloads. A consumer then reads the payloads back through
``diverge_frames.aio`` and hands them on as the SDK's models again (``to_mcp``).

Needs the MCP Python SDK: ``pip install "diverge-frames[mcp]"``.
"""

from __future__ import annotations

import asyncio
import sys
import warnings

try:
    import mcp.types as sdk
    from mcp import Client
    from mcp.server import Server
    from mcp.shared.exceptions import MCPError

    from diverge_frames.mcp import from_mcp, to_mcp
except ImportError:
    sys.exit('examples/mcp_session.py needs the MCP Python SDK: pip install "diverge-frames[mcp]"')

from diverge_frames import aio, notifications, read_resource

# The example server logs through the SDK's logging capability, deprecated from 2026-07-28.
warnings.filterwarnings("ignore", message="The logging capability is deprecated")

TEXT = {"mem://greeting": "héllo wörld"}


async def list_tools(ctx, params) -> sdk.ListToolsResult:
    schema = {"type": "object", "properties": {"steps": {"type": "integer"}}}
    return sdk.ListToolsResult(tools=[sdk.Tool(name="work", input_schema=schema)])


async def call_tool(ctx, params) -> sdk.CallToolResult:
    steps = int((params.arguments or {}).get("steps", 3))
    for i in range(1, steps + 1):
        await ctx.session.report_progress(i, steps, f"step {i} of {steps}")
        await ctx.session.send_log_message("info", {"step": i}, logger="work")
    await ctx.session.send_resource_list_changed()
    return sdk.CallToolResult(content=[sdk.TextContent(type="text", text=f"done {steps}")])


async def read(ctx, params) -> sdk.ReadResourceResult:
    uri = str(params.uri)
    if uri not in TEXT:
        raise MCPError(-32002, "Resource not found", {"uri": uri})
    return sdk.ReadResourceResult(contents=[sdk.TextResourceContents(uri=uri, text=TEXT[uri])])


async def set_level(ctx, params) -> sdk.EmptyResult:
    return sdk.EmptyResult()


async def progress(progress: float, total: float | None, message: str | None) -> None:
    pass


async def payloads(frames: list[bytes]):
    """The frames as a channel's source: its end is the finish."""
    for frame in frames:
        yield frame


async def main() -> None:
    server = Server(
        "example",
        version="1.0.0",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_read_resource=read,
        on_set_logging_level=set_level,
    )
    channel: list[bytes] = []  # the notification channel's payloads, in order

    async def relay(message) -> None:  # the session's message_handler
        if isinstance(message, Exception):  # the transport's, not a notification
            print("transport error:", message)
            return
        channel.append(notifications.encode(from_mcp(message)))

    # Client(server) runs the server in this process; client.session is its ClientSession
    async with Client(server, message_handler=relay, mode="legacy") as client:
        await client.set_logging_level("info")
        # a progress callback makes the request carry a progressToken; the
        # notifications/progress themselves reach message_handler too
        await client.call_tool("work", {"steps": 2}, progress_callback=progress)
        answers = []
        for uri in [*TEXT, "mem://missing"]:
            try:
                result = await client.read_resource(uri)
                answers.append((uri, read_resource.encode(from_mcp(result))))
            except MCPError as exc:
                answers.append((uri, read_resource.encode(from_mcp(exc.error))))

    async for value in aio.notifications(payloads(channel)):
        model = to_mcp(value)
        print("notification", type(model).__name__, notifications.encode(value)[1:].decode())
    for uri, frame in answers:
        try:
            model = to_mcp(await aio.read_resource(payloads([frame])))
            print("read", uri, [c.text for c in model.contents])
        except aio.ReadResourceError as exc:
            print("read", uri, "error", exc.error.code, exc.error.message)


if __name__ == "__main__":
    asyncio.run(main())
