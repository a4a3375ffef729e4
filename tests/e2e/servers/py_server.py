"""A real MCP server over stdio, built on the official Python SDK (PyPI ``mcp`` 2.x,
low-level ``mcp.server.Server``), for the end-to-end tests.

It serves what a notification channel and a read-resource channel must carry:

* tool ``work`` (``steps``: int): per step a ``notifications/progress`` (when the call
  carries a ``progressToken``; fractional progress) and a ``notifications/message``
  with nested free-form data; then ``notifications/resources/updated`` for every
  subscribed URI, ``notifications/resources/list_changed`` and
  ``notifications/tools/list_changed``;
* resources ``mem://text/greeting`` (text, non-ASCII) and ``mem://blob/bytes``
  (blob: bytes 0-255 in base64); any other URI is ``-32002`` with ``data``;
* ``resources/subscribe`` and ``logging/setLevel``.

Run: ``python py_server.py`` (stdio, newline-delimited JSON-RPC).
"""

from __future__ import annotations

import base64
import warnings

import anyio
import mcp_types as types
from mcp.server import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

warnings.simplefilter("ignore")  # the SDK's deprecation warnings for logging

TEXT = {"mem://text/greeting": 'héllo wörld ✓\nsecond line "quoted" \\ tab\t'}
BLOB = {"mem://blob/bytes": bytes(range(256))}
LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
subscribed: set[str] = set()
level = {"min": "debug"}


async def list_tools(ctx, params) -> types.ListToolsResult:
    schema = {"type": "object", "properties": {"steps": {"type": "integer"}}}
    return types.ListToolsResult(tools=[types.Tool(name="work", input_schema=schema)])


async def call_tool(ctx, params) -> types.CallToolResult:
    if params.name != "work":
        raise MCPError(-32602, f"Unknown tool: {params.name}")
    steps = int((params.arguments or {}).get("steps", 3))
    session = ctx.session
    for i in range(1, steps + 1):
        await session.report_progress(i / 2, steps / 2, f"step {i} of {steps}")
        lvl = LEVELS[i % len(LEVELS)]
        if LEVELS.index(lvl) >= LEVELS.index(level["min"]):
            data = {"step": i, "z": [1, 2.5, None, True], "a": {"ü": "ß", "big": 2**53 + 1}}
            await session.send_log_message(lvl, data, logger="work")
    for uri in sorted(subscribed):
        await session.send_resource_updated(uri)
    await session.send_resource_list_changed()
    await session.send_tool_list_changed()
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"done {steps}")])


async def list_resources(ctx, params) -> types.ListResourcesResult:
    return types.ListResourcesResult(
        resources=[types.Resource(uri=uri, name=uri.rsplit("/", 1)[1]) for uri in [*TEXT, *BLOB]]
    )


async def read_resource(ctx, params) -> types.ReadResourceResult:
    uri = str(params.uri)
    if uri in TEXT:
        contents = [types.TextResourceContents(uri=uri, mime_type="text/plain", text=TEXT[uri])]
    elif uri in BLOB:
        blob = base64.b64encode(BLOB[uri]).decode()
        contents = [
            types.BlobResourceContents(uri=uri, mime_type="application/octet-stream", blob=blob)
        ]
    else:
        raise MCPError(-32002, "Resource not found", {"uri": uri})
    return types.ReadResourceResult(contents=contents)


async def subscribe(ctx, params) -> types.EmptyResult:
    subscribed.add(str(params.uri))
    return types.EmptyResult()


async def set_level(ctx, params) -> types.EmptyResult:
    level["min"] = params.level
    return types.EmptyResult()


server = Server(
    "diverge-frames-e2e",
    version="1.0.0",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_list_resources=list_resources,
    on_read_resource=read_resource,
    on_subscribe_resource=subscribe,
    on_set_logging_level=set_level,
)


async def main() -> None:
    options = server.create_initialization_options(
        NotificationOptions(resources_changed=True, tools_changed=True)
    )
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, options)


if __name__ == "__main__":
    anyio.run(main)
