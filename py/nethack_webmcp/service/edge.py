"""edge.py - the HTTP edge of the service: what reaches the app at all.

One ASGI middleware in front of every route (the MCP endpoint, the
spectator and /metrics alike):

- Host: exactly one of the allowed values (by default the listener's own
  address, and `localhost:<port>` on loopback), else 421. A DNS-rebinding
  page reaches the listener with its own name in Host, so it is refused
  before any route runs. Forwarded-host headers are never read.
- Origin: absent (not a browser, or a same-origin GET), or exactly one of
  the allowed origins (by default http://<each allowed host>), else 403.
  "null" (sandboxed frames, file: pages) is not an origin anyone allowed.
- Event streams (spectator events, GET /mcp): at most `max_streams` open
  at once, else 503 tooManyStreams with Retry-After.
- Body: read here, whole, before any route: past the size limit 413 (from
  Content-Length at once; a chunked body where it passes), not whole
  within the body deadline 408; either way the connection is closed
  without reading the rest. An MCP POST body that is not UTF-8, not JSON,
  too deeply nested or not one object gets its JSON-RPC error here
  (-32700 / -32600, HTTP 400), so no parser failure happens in the SDK.
  The route then receives the body it would have read.
- /mcp responses are `Cache-Control: no-store`: they carry control tokens.
  A JSON /mcp response whose frame carries `retryAfterSeconds` (a capacity
  refusal such as tooManyGames) gets the matching `Retry-After` header.

Refusals are JSON `{error, message}` and never echo the refused value;
every one is counted in service.metrics by its code.
"""

from __future__ import annotations

import json
import math
import re
import socket
from collections.abc import Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..watch.json_response import send_json
from ..watch.listener import Listener, ListenerLimits
from .config import ServiceConfig
from .metrics import METRICS
from .request_body import BodyTooLarge, jsonrpc_error_body, jsonrpc_problem, read_body, replay

MCP_PATH = "/mcp"
#: the Retry-After (seconds) of the edge's own capacity refusals (connections, streams)
CAPACITY_RETRY_AFTER_S = 5
_RETRY_AFTER = re.compile(rb'"retryAfterSeconds"\s*:\s*([0-9]+(?:\.[0-9]+)?)')
_EVENTS = re.compile(r"^/api/games/[^/]+/events$")


def default_hosts(host: str, port: int) -> tuple[str, ...]:
    """The Host values a listener on host:port answers to with no explicit list."""
    shown = f"[{host}]" if ":" in host else host
    names = [f"{shown}:{port}"]
    if host in ("127.0.0.1", "::1", "localhost"):
        names += [f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"]
    return tuple(dict.fromkeys(names))


def service_listener(app: ASGIApp, config: ServiceConfig, sock: socket.socket) -> Listener:
    """The service's listener on `sock`: `app` behind the Edge, with every edge limit from `config`."""
    host, port = sock.getsockname()[:2]
    hosts = config.allowed_hosts or default_hosts(host, port)
    origins = config.allowed_origins or tuple(f"http://{name}" for name in hosts)
    edge = Edge(
        app,
        hosts=hosts,
        origins=origins,
        max_body_bytes=config.max_body_bytes,
        body_timeout_s=config.body_timeout_s,
        max_streams=config.max_streams,
    )
    limits = ListenerLimits(
        header_timeout_s=config.header_timeout_s,
        max_connections=config.max_connections,
        retry_after_s=CAPACITY_RETRY_AFTER_S,
    )
    return Listener(edge, sock, limits)


async def _refuse(
    send: Send, status: int, code: str, message: str, *, close: bool = True, retry_after_s: int | None = None
) -> None:
    METRICS.count_refusal(code)
    body = json.dumps({"error": code, "message": message}).encode()
    headers = [(b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff")]
    if retry_after_s is not None:
        headers.append((b"retry-after", str(retry_after_s).encode()))
    if close:  # the request body (if any) is not read: the connection cannot carry another request
        headers.append((b"connection", b"close"))
    await send_json(send, status, body, *headers)


async def _jsonrpc_error(send: Send, code: int, message: str) -> None:
    METRICS.count_refusal("parseError" if code == -32700 else "invalidRequest")
    body = jsonrpc_error_body(code, message)
    await send_json(send, 400, body, (b"cache-control", b"no-store"))


class Edge:
    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: Iterable[str],
        origins: Iterable[str],
        max_body_bytes: int,
        body_timeout_s: float = 30.0,
        max_streams: int = 256,
    ) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts)
        self.origins = frozenset(o.lower().rstrip("/") for o in origins)
        self.max_body_bytes = max_body_bytes
        self.body_timeout_s = body_timeout_s
        self.max_streams = max_streams
        self.streams = 0
        METRICS.set_gauge("open_streams", "event streams open now", lambda: self.streams)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers: dict[bytes, list[bytes]] = {}
        for name, value in scope["headers"]:
            headers.setdefault(name.lower(), []).append(value)
        hosts = headers.get(b"host", [])
        if len(hosts) != 1 or hosts[0].decode("latin-1").lower() not in self.hosts:
            await _refuse(send, 421, "hostNotAllowed", "this server does not answer to that Host (see --allowed-host)")
            return
        origins = headers.get(b"origin", [])
        if origins and (len(origins) != 1 or origins[0].decode("latin-1").lower().rstrip("/") not in self.origins):
            await _refuse(send, 403, "originNotAllowed", "requests from that Origin are refused (see --allowed-origin)")
            return
        too_large = f"a request body is at most {self.max_body_bytes} bytes"
        lengths = headers.get(b"content-length", [])
        if lengths:
            try:
                declared = int(lengths[0])
            except ValueError:
                declared = -1
            if declared < 0 or declared > self.max_body_bytes or len(lengths) != 1:
                await _refuse(send, 413, "requestTooLarge", too_large)
                return
        try:
            body = await read_body(receive, limit=self.max_body_bytes, timeout_s=self.body_timeout_s)
        except BodyTooLarge:
            await _refuse(send, 413, "requestTooLarge", too_large)
            return
        except TimeoutError:
            await _refuse(
                send, 408, "requestTimeout", f"the request body did not arrive within {self.body_timeout_s:g} s"
            )
            return
        if not body.complete:
            return  # the client left before its body ended: no one to answer, nothing to run
        path = scope["path"]
        mcp = path == MCP_PATH or path.startswith(MCP_PATH + "/")
        if mcp and scope["method"] == "POST":
            problem = jsonrpc_problem(body.data)
            if problem is not None:
                await _jsonrpc_error(send, *problem)
                return
        stream = scope["method"] == "GET" and (mcp or _EVENTS.match(path) is not None)
        if stream and self.streams >= self.max_streams:
            await _refuse(
                send,
                503,
                "tooManyStreams",
                f"at most {self.max_streams} event streams are open at once; retry later",
                close=False,
                retry_after_s=CAPACITY_RETRY_AFTER_S,
            )
            return
        if stream:
            self.streams += 1
        try:
            await self.app(scope, replay(body, receive), self._mcp_headers(send) if mcp else send)
        finally:
            if stream:
                self.streams -= 1

    @staticmethod
    def _mcp_headers(send: Send) -> Send:
        """no-store on every /mcp response; Retry-After on a JSON one whose frame asks for it."""
        held: Message | None = None

        async def sending(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                message = {**message, "headers": [*kept, (b"cache-control", b"no-store")]}
                if any(k.lower() == b"content-type" and v.startswith(b"application/json") for k, v in kept):
                    held = message  # its headers wait for the first body part (a JSON response is one part)
                    return
            elif held is not None:
                start, held = held, None
                found = _RETRY_AFTER.search(message.get("body", b""))
                if found is not None:
                    seconds = max(1, math.ceil(float(found.group(1))))
                    start = {**start, "headers": [*start["headers"], (b"retry-after", str(seconds).encode())]}
                await send(start)
            await send(message)

        return sending


def client_address(scope: dict[str, Any], trusted_proxies: tuple[str, ...]) -> str:
    """Who is calling: the peer address, or - only when the peer is a
    configured reverse proxy - the last X-Forwarded-For hop it added."""
    peer = (scope.get("client") or ("unknown", 0))[0]
    if peer in trusted_proxies:
        for name, value in scope.get("headers", []):
            if name.lower() == b"x-forwarded-for":
                hops = [hop.strip() for hop in value.decode("latin-1").split(",") if hop.strip()]
                if hops:
                    return hops[-1]
    return str(peer)
