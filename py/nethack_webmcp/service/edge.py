"""edge.py - the HTTP edge of the service: what reaches the app at all.

One ASGI middleware in front of every route (the MCP endpoint and the
spectator alike):

- Host: exactly one of the allowed values (by default the listener's own
  address, and `localhost:<port>` on loopback), else 421. A DNS-rebinding
  page reaches the listener with its own name in Host, so it is refused
  before any route runs. Forwarded-host headers are never read.
- Origin: absent (not a browser, or a same-origin GET), or exactly one of
  the allowed origins (by default http://<each allowed host>), else 403.
  "null" (sandboxed frames, file: pages) is not an origin anyone allowed.
- Body size: an MCP request longer than the limit is refused with 413
  (from Content-Length at once; a chunked body is cut off where it passes).
- /mcp responses are `Cache-Control: no-store`: they carry control tokens.

Refusals are JSON `{error, message}` and never echo the refused value.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MCP_PATH = "/mcp"


def default_hosts(host: str, port: int) -> tuple[str, ...]:
    """The Host values a listener on host:port answers to with no explicit list."""
    shown = f"[{host}]" if ":" in host else host
    names = [f"{shown}:{port}"]
    if host in ("127.0.0.1", "::1", "localhost"):
        names += [f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"]
    return tuple(dict.fromkeys(names))


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                (b"x-content-type-options", b"nosniff"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Edge:
    def __init__(self, app: ASGIApp, *, hosts: Iterable[str], origins: Iterable[str], max_body_bytes: int) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts)
        self.origins = frozenset(o.lower().rstrip("/") for o in origins)
        self.max_body_bytes = max_body_bytes

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
        lengths = headers.get(b"content-length", [])
        if lengths:
            try:
                declared = int(lengths[0])
            except ValueError:
                declared = -1
            if declared < 0 or declared > self.max_body_bytes or len(lengths) != 1:
                await _refuse(send, 413, "requestTooLarge", f"a request body is at most {self.max_body_bytes} bytes")
                return
        mcp = scope["path"] == MCP_PATH or scope["path"].startswith(MCP_PATH + "/")
        await self.app(scope, self._bounded(receive), self._no_store(send) if mcp else send)

    def _bounded(self, receive: Receive) -> Receive:
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body_bytes:  # a chunked body past the limit: the app sees a disconnect
                    return {"type": "http.disconnect"}
            return message

        return bounded

    @staticmethod
    def _no_store(send: Send) -> Send:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                message = {**message, "headers": [*kept, (b"cache-control", b"no-store")]}
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
