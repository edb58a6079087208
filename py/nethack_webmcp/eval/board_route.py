"""board_route.py - GET /leaderboard on the HTTP service: the board of the results files in $NNH_LEADERBOARD_DIR.

`/leaderboard` renders board.render over every `*.json` results file in
that directory (read at each request: drop a file in and reload), and
`/leaderboard/replays/<run>/<game>.json` serves a game's replay (its
exported journal). Without the variable the route answers 404
`leaderboardOff`. Results files hold only ended games, whose seeds are
public: nothing live is shown.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from .board import load, render, run_id

DIR_ENV = "NNH_LEADERBOARD_DIR"


def _runs() -> list[dict[str, Any]] | None:
    folder = os.environ.get(DIR_ENV)
    if not folder:
        return None
    runs = []
    for path in sorted(Path(folder).glob("*.json")):
        try:
            runs += load([path])
        except (ValueError, OSError):
            continue  # not a results file: not on the board
    return runs


async def board(request: Request) -> Response:
    runs = _runs()
    if runs is None:
        return JSONResponse({"error": "leaderboardOff", "message": f"set {DIR_ENV} to a folder of results"}, 404)
    page = render(runs, lambda rid, index: f"/leaderboard/replays/{rid}/{index}.json")
    return HTMLResponse(page, headers={"cache-control": "no-store"})


async def replay(request: Request) -> Response:
    for results in _runs() or []:
        if run_id(results) == request.path_params["run"]:
            for game in results["games"]:
                if str(game["index"]) == request.path_params["game"] and game.get("replay"):
                    return Response(json.dumps(game["replay"]), media_type="application/json")
    return JSONResponse({"error": "unknownReplay", "message": "no such run and game on the board"}, 404)


def leaderboard_routes() -> list[Route]:
    return [
        Route("/leaderboard", board, methods=["GET"]),
        Route("/leaderboard/replays/{run}/{game}.json", replay, methods=["GET"]),
    ]
