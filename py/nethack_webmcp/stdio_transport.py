"""stdio_transport.py - newline-delimited JSON-RPC over this process's stdin/stdout, with limits.

The stdio MCP server's wire (mcp.py serves the SDK's dual-era loop over
it). It replaces the SDK's own stdio transport for three guarantees that
one does not give:

- A message is at most `MAX_MESSAGE_BYTES` (1 MiB). A longer line is
  refused unread: the reader keeps at most the limit in memory, skips the
  rest of the line, and answers -32600 (with the request's id when the line
  opens with it, else null). Nothing of it reaches a tool.
- A line that is not UTF-8 JSON is answered -32700 (Parse error), one that
  is JSON but no JSON-RPC 2.0 message -32600, and the server keeps serving.
  (The SDK's transport hands such lines to a dispatcher that drops them, so
  the client never hears why its call went unanswered.)
- fd 0 and fd 1 are diverted (to /dev/null and stderr) while serving, and the
  wire runs on private duplicates, so a stray print or a child process
  inheriting the descriptors can never corrupt the protocol stream.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any, BinaryIO

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp import types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

MAX_MESSAGE_BYTES = 1024 * 1024
Incoming = MemoryObjectReceiveStream[SessionMessage | Exception]
Outgoing = MemoryObjectSendStream[SessionMessage]
_SKIP_CHUNK = 64 * 1024
# The request id of a refused line, when the line opens with it (`{"jsonrpc":"2.0","id":7,...`,
# the order every SDK writes). Anchored at the start: nothing nested can precede it, so an
# "id" inside params is never mistaken for the request's own.
_LEADING_ID = re.compile(
    rb'\A\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,256}")'
)


def read_line(wire: BinaryIO, limit: int) -> tuple[bytes, bool] | None:
    """One line (without its newline) and whether it was longer than `limit`; None at EOF.
    Blocking; never holds more than limit + 1 bytes of one line in memory."""
    line = wire.readline(limit + 1)
    if not line:
        return None
    if line.endswith(b"\n"):
        return line[:-1].rstrip(b"\r"), False
    if len(line) <= limit:
        return line, False  # the last line, with no newline before EOF
    skipped = line
    while skipped and not skipped.endswith(b"\n"):
        skipped = wire.readline(_SKIP_CHUNK)
    return line[:limit], True


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _id_of(data: Any) -> types.RequestId | None:
    found = data.get("id") if isinstance(data, dict) else None
    return found if isinstance(found, str | int) and not isinstance(found, bool) else None


def _error(request_id: types.RequestId | None, code: int, message: str, data: Any = None) -> types.JSONRPCError:
    error = (
        types.ErrorData(code=code, message=message)
        if data is None
        else types.ErrorData(code=code, message=message, data=data)
    )
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=error)


def refusal_of_oversized(prefix: bytes, limit: int) -> types.JSONRPCError:
    """The answer to a line longer than `limit`: -32600, with its id when the line opens with one."""
    found = _LEADING_ID.match(prefix)
    request_id = _id_of({"id": json.loads(found.group(1))}) if found else None
    return _error(
        request_id,
        types.INVALID_REQUEST,
        f"Invalid Request: a message is at most {limit} bytes; this one was refused unread",
        {"limitBytes": limit},
    )


def decode(line: bytes) -> SessionMessage | types.JSONRPCError:
    """A line as the client's message, or (a bare JSONRPCError) the error reply it earns:
    -32700 for what is not UTF-8 JSON, -32600 for JSON that is no JSON-RPC 2.0 message."""
    try:
        data = json.loads(line.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _error(None, types.PARSE_ERROR, "Parse error: each line must be one UTF-8 JSON value")
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_python(data, by_name=False))
    except ValidationError:
        return _error(_id_of(data), types.INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")


@contextmanager
def claimed_std_streams() -> Iterator[tuple[BinaryIO, BinaryIO]]:
    """Private duplicates of fd 0/1 for the wire; fd 0 reads /dev/null and fd 1 writes to
    stderr meanwhile. Both are restored on exit. Streams not backed by fd 0/1 (tests) are used as they are."""
    if not (_backed_by(sys.stdin, 0) and _backed_by(sys.stdout, 1)):
        yield sys.stdin.buffer, sys.stdout.buffer
        return
    sys.stdout.flush()
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)
    finally:
        os.close(null)
    try:
        # closefd=False: an abandoned reader thread may still block on wire_in after we return
        yield os.fdopen(wire_in, "rb", closefd=False), os.fdopen(wire_out, "wb", buffering=0, closefd=False)
    finally:
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        os.close(wire_out)  # the writer has ended; wire_in stays open for a reader thread still blocked on it


def _backed_by(stream: Any, fd: int) -> bool:
    try:
        return bool(stream.buffer.fileno() == fd)
    except (AttributeError, OSError, ValueError):
        return False


@asynccontextmanager
async def stdio_transport(
    limit: int = MAX_MESSAGE_BYTES,
) -> AsyncIterator[
    tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]
]:
    """(read, write) streams of SessionMessages over stdin/stdout, for `Server.run`."""
    with claimed_std_streams() as (wire_in, wire_out):
        incoming_send, incoming = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        outgoing, outgoing_receive = anyio.create_memory_object_stream[SessionMessage](0)
        replies = outgoing.clone()  # our own error replies share the one ordered writer

        async def reader() -> None:
            async with incoming_send, replies:
                while True:
                    # abandoned on cancel: a read blocked on a silent client must not hold up shutdown
                    read = await anyio.to_thread.run_sync(read_line, wire_in, limit, abandon_on_cancel=True)
                    if read is None:
                        return
                    line, oversized = read
                    if oversized:
                        await replies.send(SessionMessage(refusal_of_oversized(line, limit)))
                    elif line.strip():
                        message = decode(line)
                        if isinstance(message, SessionMessage):
                            await incoming_send.send(message)
                        else:
                            await replies.send(SessionMessage(message))

        reading = anyio.CancelScope()

        async def writer() -> None:
            client_gone = False
            async with outgoing_receive:
                async for message in outgoing_receive:
                    if client_gone:
                        continue  # drained, not written: senders must not block on a wire nobody reads
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
                    try:
                        await anyio.to_thread.run_sync(_write, wire_out, data)
                    except (BrokenPipeError, ConnectionResetError):
                        # The client closed its end (killed, window closed): as at end of input, stop reading
                        # and let the server wind down; a traceback here would only alarm whoever reads stderr.
                        client_gone = True
                        reading.cancel()

        async with anyio.create_task_group() as tasks:

            async def read_until_stopped() -> None:
                with reading:
                    await reader()

            tasks.start_soon(read_until_stopped)
            tasks.start_soon(writer)
            try:
                yield incoming, outgoing
            finally:
                # stop reading; the writer ends once every answer already given is on the wire
                reading.cancel()
                outgoing.close()


def _write(wire: BinaryIO, data: bytes) -> None:
    wire.write(data)
    wire.flush()
