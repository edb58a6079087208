"""request_body.py - reading a request body within a size and a deadline, and judging a JSON-RPC body.

The edge reads every body itself before any route runs, so that a body
too large or too slow is refused (413, 408) and its connection closed
without reading the rest, and so that an MCP body the SDK cannot parse
safely (not UTF-8, not JSON, nested deeper than any MCP message needs)
gets a JSON-RPC error from the edge instead of an exception inside the
SDK. The route then receives the body it would have read (`replay`).
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass

from starlette.types import Message, Receive

#: deeper JSON than this is refused: MCP messages nest a handful of levels, and a
#: recursive parser given thousands of levels fails inside the library
MAX_JSON_DEPTH = 64
PARSE_ERROR = -32700
INVALID_REQUEST = -32600

# a JSON string (brackets inside it are not structure) or one bracket
_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class BodyTooLarge(Exception):
    pass


@dataclass(frozen=True)
class Body:
    data: bytes
    #: False when the client went away before the body ended
    complete: bool = True


async def read_body(receive: Receive, *, limit: int, timeout_s: float) -> Body:
    """The whole body, at most `limit` bytes, within `timeout_s` of the call.

    Raises BodyTooLarge as soon as the body passes the limit (nothing more
    is read) and TimeoutError when the deadline passes first."""
    parts: list[bytes] = []
    seen = 0
    async with asyncio.timeout(timeout_s):
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return Body(b"".join(parts), complete=False)  # http.disconnect
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > limit:
                raise BodyTooLarge
            parts.append(chunk)
            if not message.get("more_body", False):
                return Body(b"".join(parts))


def replay(body: Body, receive: Receive) -> Receive:
    """A receive that hands the route the body already read, then the live connection's messages
    (a disconnect, for a route that watches for one)."""
    pending: list[Message] = [{"type": "http.request", "body": body.data, "more_body": False}]

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


def json_depth_exceeds(text: str, limit: int) -> bool:
    """Whether the JSON text nests arrays/objects deeper than `limit` (strings are skipped)."""
    if text.count("[") + text.count("{") <= limit:
        return False  # not enough brackets to nest that deep: no scan
    depth = 0
    for match in _STRUCTURE.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return True
        elif token in "]}":
            depth -= 1
    return False


def jsonrpc_problem(data: bytes) -> tuple[int, str] | None:
    """Why an MCP POST body is not a JSON-RPC message the server can take, as
    (JSON-RPC error code, message); None when it is one to pass on."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return PARSE_ERROR, f"Parse error: the body is not UTF-8 (invalid byte at offset {exc.start})"
    if json_depth_exceeds(text, MAX_JSON_DEPTH):
        return INVALID_REQUEST, f"Invalid Request: JSON nested deeper than {MAX_JSON_DEPTH} levels"
    try:
        value = json.loads(text)
    except RecursionError:
        return INVALID_REQUEST, f"Invalid Request: JSON nested deeper than {MAX_JSON_DEPTH} levels"
    except ValueError as exc:
        return PARSE_ERROR, f"Parse error: the body is not JSON ({exc})"
    if not isinstance(value, dict):
        return INVALID_REQUEST, "Invalid Request: a JSON-RPC message is one JSON object (batches are not accepted)"
    return None


def jsonrpc_error_body(code: int, message: str) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}).encode()
