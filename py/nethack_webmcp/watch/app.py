"""app.py - the spectator's HTTP routes: a read-only ASGI app (starlette).

    GET /                          the page (what this is, how to connect, live games, records)
    GET /g/<sessionId>             the page (the spectator of one game, or its record);
                                   404 (still the page, which says so) for an unknown game
    GET /api/games/<id>/state      the latest published state; ETag "<id>/<revision>",
                                   If-None-Match -> 304; 410 + record for a completed game
                                   whose live state is gone, 404 notLive for a stored game
                                   not loaded here (both with its history from its stored
                                   receipts); 404 for an unknown or malformed ID (a
                                   malformed one never reaches the store)
    GET /api/games/<id>/events     the same states as server-sent events (stream.py), for
                                   a loaded game; otherwise the state route's answer
    GET /api/games/<id>/moves      the game's moves (journal inputs) and the tool calls that made
                                   them, ?from=&to= (1-based, inclusive, 2000 at most), from the store
    GET /api/games/<id>/frames/<k> the game's frame at move k: an ended game's from its verified
                                   replay, a live game's from its stored receipts (timelines.py)
    GET /api/recent                live games and the ten most recently completed records
    GET /health                    readiness
    GET /assets/<name>             the page's script and style (web/dist, built by scripts/build)

Only GET and HEAD: any other method is 405, on every path of this app.
No CORS headers: another origin's page cannot read any of it. The page is
one constant HTML shell (no game text in it): the site's spectator
modules render every game string with textContent. `build_app` returns
a Starlette app whose routes a later HTTP MCP transport can join (mounted
before the spectator's catch-all read-only mount).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route, Router
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import __version__
from ..replay import ReplayRefused
from ..store import StoreError
from .board import Board, valid_game_id
from .page import shell
from .stream import state_events
from .timelines import UnknownGame

SITE_DIR = Path(__file__).resolve().parents[3] / "web" / "dist"
# the page's files (built by scripts/build-site) and their content types
ASSETS = {"spectator.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}
JSON = "application/json"
REVALIDATE = {"Cache-Control": "no-cache"}
PAGE_HEADERS = {
    **REVALIDATE,
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _json(status: int, value: Any, headers: dict[str, str] | None = None) -> Response:
    body = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return Response(body, status, {**REVALIDATE, "X-Content-Type-Options": "nosniff", **(headers or {})}, JSON)


def unchanged(if_none_match: str, etag: str) -> bool:
    """Whether an If-None-Match header names `etag` (weak comparison, "*")."""
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags


def _not_found(message: str) -> Response:
    return _json(404, {"error": "notFound", "message": message})


class ReadOnly:
    """Refuse every method but GET and HEAD (405, Allow: GET, HEAD)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD"):
            response = _json(
                405,
                {"error": "methodNotAllowed", "message": "this server is read-only: GET and HEAD"},
                {"Allow": "GET, HEAD"},
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


class Assets:
    """The page's script and style, read once; URLs carry a content hash."""

    def __init__(self, directory: Path) -> None:
        self.files: dict[str, bytes] = {}
        for name in ASSETS:
            path = directory / name
            if path.is_file():
                self.files[name] = path.read_bytes()
        self.versions = {name: hashlib.sha256(body).hexdigest()[:16] for name, body in self.files.items()}

    def url(self, name: str) -> str | None:
        return f"/assets/{name}?v={self.versions[name]}" if name in self.files else None


def spectator_routes(board: Board, assets: Assets) -> list[BaseRoute]:
    page = shell(script=assets.url("spectator.js"), style=assets.url("app.css"))

    async def html(_: Request) -> Response:
        return Response(page, 200, PAGE_HEADERS, "text/html; charset=utf-8")

    async def game_page(request: Request) -> Response:
        session_id = request.path_params["session_id"]
        if not valid_game_id(session_id):
            return Response(b"not found\n", 404, PAGE_HEADERS, "text/plain; charset=utf-8")
        known = board.live(session_id) is not None
        if not known:
            with contextlib.suppress(StoreError):  # the page itself then says what the state route says
                known = await board.stored(session_id) or await board.completed(session_id) is not None
        # an unknown game's page is still the page (it says so), with the status a crawler understands
        return Response(page, 200 if known else 404, PAGE_HEADERS, "text/html; charset=utf-8")

    async def state(request: Request) -> Response:
        session_id = request.path_params["session_id"]
        if not valid_game_id(session_id):
            return _not_found("not a game ID")
        session = board.live(session_id)
        if session is not None:
            etag = board.etag(session)
            headers = {**REVALIDATE, "ETag": etag}
            if unchanged(request.headers.get("if-none-match", ""), etag):
                return Response(None, 304, headers)
            await board.load_history(session)
            return Response(board.state(session), 200, headers, JSON)
        try:
            record = await board.completed(session_id)
            if record is not None:
                history = await board.stored_history(session_id, ended=True)
                gone = {"error": "gone", "message": "the game is over and its live state is gone", "record": record}
                return _json(410, {**gone, **history})
            if await board.stored(session_id):
                history = await board.stored_history(session_id, ended=False)
                not_live = {
                    "error": "notLive",
                    "message": "this game is stored but not being played "
                    "in this server; it shows here once an agent resumes it",
                }
                return _json(404, {**not_live, **history})
        except StoreError as exc:
            return _json(503, {"error": "storageFailed", "message": str(exc)})
        return _not_found("no game has this ID")

    async def events(request: Request) -> Response:
        session_id = request.path_params["session_id"]
        if not valid_game_id(session_id) or board.live(session_id) is None:
            return await state(request)  # 404/410, said once: an EventSource does not retry those
        headers = {**REVALIDATE, "X-Content-Type-Options": "nosniff"}
        if request.method == "HEAD":
            return Response(None, 200, headers, "text/event-stream")
        return StreamingResponse(state_events(board, session_id), 200, headers, "text/event-stream")

    async def moves(request: Request) -> Response:
        session_id = request.path_params["session_id"]
        if not valid_game_id(session_id):
            return _not_found("not a game ID")
        try:
            first = int(request.query_params.get("from", "1"))
            last = int(request.query_params["to"]) if "to" in request.query_params else None
        except ValueError:
            return _json(400, {"error": "invalidArguments", "message": "from and to are move numbers (integers)"})
        return await _timeline_answer(board.timelines.moves(session_id, first, last))

    async def frame(request: Request) -> Response:
        session_id, move = request.path_params["session_id"], request.path_params["move"]
        if not valid_game_id(session_id):
            return _not_found("not a game ID")
        if not move.isdigit() or len(move) > 9:
            return _json(400, {"error": "invalidArguments", "message": "a move is a number: 0, 1, 2, ..."})
        return await _timeline_answer(board.timelines.frame(session_id, int(move)))

    async def recent(_: Request) -> Response:
        return _json(200, await board.overview())

    async def health(_: Request) -> Response:
        return _json(200, {"status": "ok", "version": __version__, "games": len(board.games.sessions())})

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        body = assets.files.get(name)
        if body is None:
            return Response(b"not found\n", 404, media_type="text/plain; charset=utf-8")
        return Response(
            body,
            200,
            {"Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff"},
            ASSETS[name],
        )

    return [
        Route("/", html),
        Route("/g/{session_id}", game_page),
        Route("/api/games/{session_id}/state", state),
        Route("/api/games/{session_id}/events", events),
        Route("/api/games/{session_id}/moves", moves),
        Route("/api/games/{session_id}/frames/{move}", frame),
        Route("/api/recent", recent),
        Route("/health", health),
        Route("/assets/{name}", asset),
    ]


async def _timeline_answer(work: Any) -> Response:
    """A timeline route's answer, or why not: unknown game 404, a move outside the
    game 404 moveOutOfRange, a replay that refuses 409 (never a wrong frame), the store 503."""
    try:
        return _json(200, await work)
    except UnknownGame:
        return _not_found("no game has this ID")
    except ReplayRefused as refused:
        status = 404 if refused.code == "moveOutOfRange" else 409
        return _json(status, {"error": refused.code, "message": refused.message})
    except StoreError as exc:
        return _json(503, {"error": "storageFailed", "message": str(exc)})


def build_app(board: Board, *, site_dir: Path = SITE_DIR, routes: list[BaseRoute] | None = None) -> Starlette:
    """The server's ASGI app: `routes` (a later HTTP MCP transport) first,
    then the read-only spectator for every other path."""
    spectator = ReadOnly(Router(spectator_routes(board, Assets(site_dir))))
    return Starlette(routes=[*(routes or []), Mount("/", app=spectator)])
