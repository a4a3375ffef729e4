"""End-to-end plumbing: a raw JSON-RPC line client for an MCP server over stdio, and
an in-process frame pipe that carries Diverge channel payloads.

* :class:`LineClient` starts the server, sends requests as JSON lines, and hands every
  line the server writes to a callback in the order it was written: notifications
  (``method``, no ``id``) to ``on_notification``, responses to the awaiting request.
* :class:`FramePipe` is one channel's byte stream: payloads written with a 4-byte
  big-endian length prefix into an ``asyncio.StreamReader``; EOF after a whole frame
  is the channel finish, EOF inside a frame an abrupt end. :func:`read_frames` turns
  it back into the async iterator of payloads that :mod:`diverge_frames.aio` takes.

Nothing here knows MCP beyond the JSON-RPC envelope.
"""

from __future__ import annotations

import asyncio
import itertools
import struct
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

#: Bounds every wait on the server, so that nothing hangs.
TIMEOUT = 15.0
_HEADER = struct.Struct(">I")


class Envelope(msgspec.Struct):
    """A JSON-RPC message, its result/error kept as the exact bytes the server wrote."""

    id: Any = None
    method: str | None = None
    params: msgspec.Raw = msgspec.Raw(b"")
    result: msgspec.Raw = msgspec.Raw(b"")
    error: msgspec.Raw = msgspec.Raw(b"")


_envelope = msgspec.json.Decoder(Envelope)


class Response:
    """A response line and its envelope: ``body`` is the raw ``result`` or ``error``
    JSON, ``is_error`` says which."""

    def __init__(self, line: bytes, envelope: Envelope) -> None:
        self.line = line
        self.is_error = bool(envelope.error)
        self.body = bytes(envelope.error if self.is_error else envelope.result)


class LineClient:
    """A newline-delimited JSON-RPC client over a subprocess's stdio."""

    def __init__(self, argv: Sequence[str], on_notification: Callable[[bytes], None], stderr: Path):
        self.argv = list(argv)
        self.on_notification = on_notification
        self.stderr_path = stderr
        self._ids = itertools.count(1)
        self._pending: dict[Any, asyncio.Future[Response]] = {}
        self.lines: list[bytes] = []  # every line the server wrote, in order
        self.notifications: list[bytes] = []  # the notification lines among them
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> LineClient:  # noqa: PYI034 (no typing.Self on 3.10)
        # Opened here, closed in __aexit__: the server's stderr for the whole session.
        self._stderr = open(self.stderr_path, "wb")  # noqa: ASYNC230, SIM115
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=self._stderr,
            limit=16 * 1024 * 1024,
        )
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.proc is not None and self._reader is not None
        try:
            if self.proc.stdin and not self.proc.stdin.is_closing():
                self.proc.stdin.close()
            await asyncio.wait_for(self.proc.wait(), 5)
        except asyncio.TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        finally:
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)
            self._stderr.close()

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            line = line.rstrip(b"\r\n")
            if not line.strip():
                continue
            self.lines.append(line)
            envelope = _envelope.decode(line)
            if envelope.method is not None and envelope.id is None:
                self.notifications.append(line)
                self.on_notification(line)
            elif envelope.method is not None:  # a request from the server: refuse it
                await self._send(
                    {
                        "jsonrpc": "2.0",
                        "id": envelope.id,
                        "error": {"code": -32601, "message": "Method not found"},
                    }
                )
            elif (future := self._pending.pop(envelope.id, None)) is not None:
                future.set_result(Response(line, envelope))
        for future in self._pending.values():
            future.set_exception(EOFError("the server closed its stdout"))

    async def _send(self, message: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(msgspec.json.encode(message) + b"\n")
        await self.proc.stdin.drain()

    async def request(self, method: str, params: dict[str, Any] | None = None) -> Response:
        """Send a request and await its response line (at most :data:`TIMEOUT` s)."""
        request_id = next(self._ids)
        future: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        await self._send(message)
        return await asyncio.wait_for(future, TIMEOUT)

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        await self._send(message)


class FramePipe:
    """One channel's in-process byte stream of length-prefixed payloads."""

    def __init__(self) -> None:
        self.reader = asyncio.StreamReader()
        self.written: list[bytes] = []

    def write(self, payload: bytes) -> None:
        self.written.append(payload)
        self.reader.feed_data(_HEADER.pack(len(payload)) + payload)

    def finish(self) -> None:
        """The channel response finish: a clean EOF after a whole frame."""
        self.reader.feed_eof()

    def abort(self, payload: bytes) -> None:
        """An abrupt end: half of ``payload``'s frame, then EOF."""
        frame = _HEADER.pack(len(payload)) + payload
        self.reader.feed_data(frame[: len(frame) // 2])
        self.reader.feed_eof()


async def read_frames(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    """Yield each length-prefixed payload; end at a clean EOF (the finish). An EOF
    inside a frame raises ``asyncio.IncompleteReadError`` (an abrupt end)."""
    while True:
        try:
            header = await reader.readexactly(_HEADER.size)
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                raise
            return
        (size,) = _HEADER.unpack(header)
        yield await reader.readexactly(size)
