"""proxy.py - the agents' only door to the service: per-game MCP endpoints that count, budget and search.

Each suite game gets its own path (`/agent/<slot>/mcp`, the slot 128 random
bits, not the sessionId). Everything on that path is forwarded to the
service's `/mcp` unchanged, and on the way back the proxy

- counts the game's tool calls and the ones answered with an error,
  follows the game turn and whether the game ended (from the frames);
- enforces the call and turn budgets: once one is spent, every further
  call is answered with a tool error `budgetExhausted` and never forwarded;
- answers GET (the optional server-to-client event stream) 405 itself: the
  service in stateless JSON mode sends nothing on it;
- refuses `session create` (the harness made the suite's game; an agent
  cannot swap it for one of its own choosing);
- searches every byte it returns (status line, headers and body) for every
  seed of the suite as a decimal number (not part of a longer number), and
  counts the bytes: the results file says how many were searched and how many
  seeds were found (none, or the run is marked leaked).

The agent is handed the proxy URL only; the service URL never reaches it
except as the spectator links inside frames (read-only pages that show no
live seed: tests/service/test_seed_never_leaks.py).
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

import httpx2
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

HOP_HEADERS = {"host", "content-length", "connection", "transfer-encoding", "keep-alive", "accept-encoding"}


@dataclass
class Budget:
    max_calls: int | None = None
    max_turns: int | None = None


@dataclass
class Meter:
    """One game's traffic as the agent saw it."""

    session_id: str
    budget: Budget
    calls: int = 0
    invalid_calls: int = 0
    turn: int | None = None
    max_level: int | None = None  # the highest vitals.level in a frame the agent got
    deepest: int | None = None  # the deepest self.level.depth in a frame the agent got
    ended: bool = False
    exhausted: str | None = None  # "maxCalls" | "maxTurns" once a budget is spent
    refused_after_budget: int = 0
    bytes_received: int = 0
    seed_hits: int = 0
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def observe_frame(self, frame: dict[str, Any]) -> None:
        if frame.get("error"):
            self.invalid_calls += 1
        turn = (frame.get("basis") or {}).get("turn")
        if isinstance(turn, int):
            self.turn = turn
        hero = (frame.get("scene") or {}).get("self") or {}
        level = (hero.get("vitals") or {}).get("level")
        depth = (hero.get("level") or {}).get("depth")
        if isinstance(level, int):
            self.max_level = max(level, self.max_level or 0)
        if isinstance(depth, int):
            self.deepest = max(depth, self.deepest or 0)
        if (frame.get("control") or {}).get("gate") == "ended" and not frame.get("error"):
            self.ended = True
        if self.budget.max_calls is not None and self.calls >= self.budget.max_calls:
            self.exhausted = self.exhausted or "maxCalls"
        if self.budget.max_turns is not None and isinstance(self.turn, int) and self.turn >= self.budget.max_turns:
            self.exhausted = self.exhausted or "maxTurns"
        if self.ended or self.exhausted:
            self.done.set()


class SeedSearch:
    """Finds any of the suite's seeds written as a whole decimal number."""

    def __init__(self, seeds: list[int]) -> None:
        alternatives = "|".join(sorted({str(s) for s in seeds}, key=len, reverse=True))
        self._pattern = re.compile(rf"(?<![0-9])(?:{alternatives})(?![0-9])".encode())

    def count(self, data: bytes) -> int:
        return len(self._pattern.findall(data))


def _tool_error(request_id: Any, code: str, message: str, era: str) -> dict[str, Any]:
    """A tool result with isError, as the service would answer it (2026-07-28 results carry resultType)."""
    frame = {"error": {"code": code, "message": message}}
    result: dict[str, Any] = {
        "content": [{"type": "text", "text": f"ERROR {code}: {message}"}],
        "structuredContent": frame,
        "isError": True,
    }
    if era >= "2026":  # protocol versions are dates: the stateless eras tag every result
        result["resultType"] = "complete"
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


class AgentProxy:
    """The listener in front of one service for a whole run (one slot per game)."""

    def __init__(self, service_mcp_url: str, seeds: list[int]) -> None:
        self.service_mcp_url = service_mcp_url
        self.search = SeedSearch(seeds)
        self.meters: dict[str, Meter] = {}
        self.handed_bytes = 0  # what the harness handed agents itself (config files, environment, argv)
        self.handed_hits = 0
        self._http = httpx2.AsyncClient(timeout=None)
        app = Starlette(routes=[Route("/agent/{slot}/mcp", self._forward, methods=["GET", "POST", "DELETE"])])
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
        self._server = uvicorn.Server(config)
        self._task: asyncio.Task[None] | None = None
        self.base_url = ""

    async def start(self) -> None:
        self._task, port = await serve_loopback(self._server)
        self.base_url = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        self._server.should_exit = True
        if self._task is not None:
            await self._task
        await self._http.aclose()

    def open(self, session_id: str, budget: Budget) -> tuple[str, Meter]:
        """A new game endpoint: (its URL, its meter)."""
        slot = secrets.token_urlsafe(16)
        meter = Meter(session_id, budget)
        self.meters[slot] = meter
        return f"{self.base_url}/agent/{slot}/mcp", meter

    def close(self, url: str) -> None:
        """No more traffic for this game: its path answers 404 from now on."""
        self.meters.pop(url.rsplit("/", 2)[-2], None)

    def note_handed(self, data: bytes) -> None:
        """Something the harness gave an agent directly: searched like the traffic."""
        self.handed_bytes += len(data)
        self.handed_hits += self.search.count(data)

    async def _forward(self, request: Request) -> Response:
        meter = self.meters.get(request.path_params["slot"])
        if meter is None:
            return JSONResponse({"error": "unknownEndpoint", "message": "no game is open at this URL"}, 404)
        if request.method == "GET":
            # the server-to-client event stream: the stateless JSON service pushes nothing on it, and a held-open
            # stream would only keep the proxy from shutting down; 405 is the spec's "no stream here"
            return self._answer(meter, Response(status_code=405, headers={"allow": "POST, DELETE"}))
        body = await request.body()
        messages = _messages(body)
        calls = [m for m in messages if m.get("method") == "tools/call"]
        refusal = self._refusal(meter, calls, request.headers.get("mcp-protocol-version", ""))
        if refusal is not None:
            return self._answer(meter, JSONResponse(refusal, 200))
        meter.calls += len(calls)
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_HEADERS}
        upstream = await self._http.request(request.method, self.service_mcp_url, content=body, headers=headers)
        response = Response(upstream.content, upstream.status_code, _response_headers(upstream))
        for reply in _messages(upstream.content):
            frame = ((reply.get("result") or {}).get("structuredContent")) if isinstance(reply, dict) else None
            if calls and isinstance(frame, dict):
                meter.observe_frame(frame)
        return self._answer(meter, response)

    def _refusal(self, meter: Meter, calls: list[dict[str, Any]], era: str) -> dict[str, Any] | None:
        for call in calls:
            params = call.get("params") or {}
            arguments = params.get("arguments") or {}
            if params.get("name") == "session" and arguments.get("action") == "create":
                return _tool_error(call.get("id"), "suiteGame", f"this run plays the game {meter.session_id}; "
                                   "session create is the harness's", era)  # fmt: skip
            if meter.exhausted:
                meter.refused_after_budget += 1
                return _tool_error(call.get("id"), "budgetExhausted", f"the {meter.exhausted} budget is spent", era)
        return None

    def _answer(self, meter: Meter, response: Response) -> Response:
        head = f"HTTP {response.status_code}\r\n".encode() + b"".join(
            k + b": " + v + b"\r\n" for k, v in response.raw_headers
        )
        data = head + bytes(response.body)
        meter.bytes_received += len(data)
        meter.seed_hits += self.search.count(data)
        return response


def _messages(body: bytes) -> list[dict[str, Any]]:
    """The JSON-RPC messages of a body (one object or a batch); none when it is no JSON."""
    try:
        parsed = json.loads(body) if body else None
    except (ValueError, UnicodeDecodeError):
        return []
    items = parsed if isinstance(parsed, list) else [parsed]
    return [m for m in items if isinstance(m, dict)]


def _response_headers(upstream: httpx2.Response) -> dict[str, str]:
    return {k: v for k, v in upstream.headers.items() if k.lower() not in HOP_HEADERS | {"content-encoding"}}


async def serve_loopback(server: uvicorn.Server) -> tuple[asyncio.Task[None], int]:
    """Start `server` (bound to port 0) as a task; return it and the port the OS gave it once it listens.
    A server that fails to start raises its error here instead of leaving the caller waiting."""
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.02)
    return task, server.servers[0].sockets[0].getsockname()[1]
