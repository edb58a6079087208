"""worker.py - the Python side of the browser's core worker.

The worker's JavaScript (web/src/worker/main.js) boots Pyodide, installs
this package and calls these functions; every value crossing the boundary
is JSON text, so conversions happen exactly once, here and in the worker:

    start()                    create the game registry (WASM engines)
    declarations()             the eleven tool declarations (tools.json's content)
    await call(name, args)     run one tool; returns the frame
    spectate(sessionId)        the spectator snapshot of a live game, or null

`spectate` reads the session's latest known state only: it sends nothing
to the engine, so watching a game can never advance it.
"""

from __future__ import annotations

import json
import traceback
from typing import Any

from .engine.wasm import WasmEngine
from .projection import decision as decision_view
from .projection import frame as frames
from .projection.scene import world
from .session import GameRegistry, SessionError
from .tools import BY_NAME, ToolContext
from .tools import declarations as tool_declarations

OBSERVATION_FIELDS = ("turn", "levelId", "dungeon", "depth", "levelLabel", "position", "vitals",
                      "inventoryKnown", "inventory", "here", "recentMessages")

_context: ToolContext | None = None


def start(max_games: int = 16) -> None:
    """Create the registry. Idempotent."""
    global _context
    if _context is None:
        _context = ToolContext(GameRegistry(WasmEngine.start, max_games=max_games))


def _games() -> GameRegistry:
    if _context is None:
        raise RuntimeError("worker.start() was not called")
    return _context.games


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def declarations() -> str:
    return _dump(tool_declarations())


def _error(code: str, message: str, **extra: Any) -> str:
    frame = frames.error_frame(None, SessionError(code, message), mutation=False)
    frame["diagnostics"].update(extra)
    return _dump(frame)


async def call(name: str, arguments_json: str) -> str:
    """Run one tool call; always returns a frame (errors are frames too)."""
    tool = BY_NAME.get(name)
    if tool is None:
        return _error("unknownTool", f"no tool named {name!r}; tools: {', '.join(BY_NAME)}")
    try:
        arguments = json.loads(arguments_json) if arguments_json else {}
    except json.JSONDecodeError as exc:
        return _error("invalidArguments", f"{name}: arguments are not JSON: {exc}")
    if not isinstance(arguments, dict):
        return _error("invalidArguments", f"{name}: arguments must be a JSON object")
    assert _context is not None, "worker.start() was not called"
    try:
        frame = await tool.call(_context, arguments)
    except Exception as exc:  # noqa: BLE001 - a bug, not a rejection: report it as a frame, keep the worker alive
        return _error("internalError", f"{name} failed inside the page's Python: {exc!r}",
                      traceback=traceback.format_exc(limit=8))
    return _dump(frame)


def spectate(session_id: str) -> str:
    """The read-only snapshot a spectator renders: identity, state, map
    (marks and colours), decision, end. "null" for no such live game."""
    try:
        session = _games().get(session_id)
    except SessionError:
        return "null"
    observation = session.observation
    rows = world(session.level())["rows"]
    snapshot = {
        "sessionId": session.session_id,
        "revision": session.revision,
        "viewId": session.view_id,
        "gate": session.gate,
        "session": session.metadata,
        "observation": {key: observation[key] for key in OBSERVATION_FIELDS if key in observation},
        "map": {"rows": [{"y": row["y"], "marks": row["marks"], "colors": row["colors"]} for row in rows]},
        "decision": decision_view.project(session.decision, session.session_id, observation.get("inventory"))
        if session.gate == "decision" else None,
        "end": session.state.end,
    }
    return _dump(snapshot)


async def close_all() -> None:
    if _context is not None:
        await _context.games.close_all()
