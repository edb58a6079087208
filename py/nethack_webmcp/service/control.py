"""control.py - who may do what with a game over HTTP, and when games end by limit.

Every tool call through the HTTP transport passes `Control.admit` before
the tool runs:

- `session create` is open to anyone within the limits (games loaded in
  this instance: the registry's tooManyGames; games one client created and
  still has here: tooManyGamesForClient). Its result gets the game's
  control token, once (`after`), never seen by the spectator board.
- Every other call naming a game must carry that game's `controlToken`
  (compared in constant time against the stored hash), except read-only
  tools, which without a token read the game as a spectator would (and
  refresh nothing). A wrong token - another game's too - is `forbidden`,
  whatever the tool; nothing runs, nothing is written.
- Deadlines are checked before a call is admitted (the sweeper is only the
  fallback): past the lifetime (from the stored start, so every instance
  agrees) or idle time, the game ends with a record whose end_reason says
  which (`time_limit`, `idle_timeout`), and every later call is `gameEnded`.
- An authorized call to a game this instance only observes (its owner was
  another instance) tries to take it over: if the owner died its advisory
  lock is gone and the game resumes here by replay; if it lives, the call
  is refused by the game's own gate (lostOwnership) and changes nothing.

The token is removed from the arguments before the tool sees them, so it
reaches no frame, journal entry, receipt or record.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from typing import Any

from ..projection import frame as frames
from ..session import GameRegistry, SessionError
from ..session.records import make_record
from ..session.registry import LIMIT_ENDS
from ..store import SessionInfo, StoreError
from ..tools.base import Tool
from . import tokens
from .config import ServiceConfig

TOKEN_FIELD = "controlToken"
#: declared on the game tools' schemas over HTTP only (stdio and WebMCP need no token)
TOKEN_SCHEMA = {"type": "string", "description": "HTTP: session create's controlToken (acting calls)"}


def refusal(tool: Tool, code: str, message: str) -> dict[str, Any]:
    """A typed error frame, as the tool itself would return it (nothing ran)."""
    return frames.error_frame(None, SessionError(code, message), mutation=not tool.read_only, include_scene=False)


class Control:
    def __init__(self, games: GameRegistry, config: ServiceConfig) -> None:
        self.games = games
        self.config = config
        self.activity: dict[str, float] = {}  # wall clock of the last authorized call, per game
        self.creators: dict[str, str] = {}  # game -> the client address that created it here

    # ---- admission -------------------------------------------------------------------

    async def admit(
        self, tool: Tool, arguments: dict[str, Any], client: str
    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """(a refusal frame, or None to run the tool; the arguments without the token)."""
        arguments = dict(arguments)
        token = arguments.pop(TOKEN_FIELD, None)
        if tool.name == "help":
            return None, arguments
        if tool.name == "session" and arguments.get("action") == "create":
            loaded = {session.session_id for session in self.games.sessions()}
            mine = sum(1 for game, who in self.creators.items() if who == client and game in loaded)
            if mine >= self.config.games_per_client:
                return refusal(
                    tool,
                    "tooManyGamesForClient",
                    f"a client may have at most {self.config.games_per_client} live games here; "
                    "close one (session close) or let one end",
                ), arguments
            return None, arguments
        session_id = arguments.get("sessionId")
        if not isinstance(session_id, str):
            return None, arguments  # the tool's own validation refuses it
        try:
            kept = await self.games.store.get_control_hash(session_id)
            info = await self.games.store.get_session(session_id)
            ended = await self.ended_by_limit(info)
        except StoreError as exc:
            return refusal(tool, "storageFailed", f"the game store cannot be read: {exc}"), arguments
        if token is None:
            if tool.read_only and ended is None:
                return None, arguments  # a spectator's read: no activity, no deadline moves
            if ended is None:
                return refusal(
                    tool,
                    "controlTokenRequired",
                    f"{tool.name} drives a game: pass the controlToken that session create "
                    "returned for it (reading tools work without one, as a spectator)",
                ), arguments
        elif not isinstance(token, str) or not tokens.matches(token, kept):
            return refusal(tool, "forbidden", "that controlToken does not control this game"), arguments
        if ended is None and info is not None and info["status"] == "active":
            ended = self._due(info, time.time())
            if ended is not None:
                await self.end(session_id, ended)
        if ended is not None:
            return refusal(
                tool,
                "gameEnded",
                f"this game ended by the service's limits ({ended}); its record stays readable on the spectator page",
            ), arguments
        self.activity[session_id] = time.time()
        await self._take_over_if_orphaned(session_id)
        return None, arguments

    async def issue(self, frame: dict[str, Any], client: str) -> dict[str, Any]:
        """A created game's frame with its new control token (a copy: the
        spectator board keeps the original). The hash is stored before the
        token is shown; if it cannot be, the game is closed and the result
        is a storageFailed error, so no game exists that nobody can drive."""
        session_id = frame["basis"]["sessionId"]
        token = tokens.mint()
        try:
            await self.games.store.put_control_hash(session_id, tokens.digest(token))
        except StoreError as exc:
            with contextlib.suppress(SessionError, StoreError):
                await self.games.close(session_id)
            return frames.error_frame(
                None,
                SessionError("storageFailed", f"the game's control token cannot be stored: {exc}"),
                mutation=True,
                include_scene=False,
            )
        self.creators[session_id] = client
        self.activity[session_id] = time.time()
        return {**frame, "result": {**frame["result"], TOKEN_FIELD: token}}

    async def _take_over_if_orphaned(self, session_id: str) -> None:
        loaded = next((s for s in self.games.sessions() if s.session_id == session_id), None)
        if loaded is not None and loaded.lost_ownership:
            with contextlib.suppress(SessionError):
                await self.games.resume(session_id)  # owner alive: stays an observer; the gate refuses acting

    # ---- limits: idle time and lifetime --------------------------------------------------

    async def ended_by_limit(self, info: SessionInfo | None) -> str | None:
        """The limit that ended this game (idle_timeout | time_limit), or None."""
        if info is None or info["status"] != "ended":
            return None
        record = await self.games.store.get_record(info["sessionId"])
        return record["endReason"] if record is not None and record["endReason"] in LIMIT_ENDS else None

    def _due(self, info: SessionInfo, now: float) -> str | None:
        if now >= info["startedAt"] + self.config.max_lifetime_s:
            return "time_limit"  # the absolute deadline wins when both have passed
        last = max(self.activity.get(info["sessionId"], 0.0), info["updatedAt"])
        if now >= last + self.config.idle_timeout_s:
            return "idle_timeout"
        return None

    async def check_deadlines(self, session_id: str) -> str | None:
        """End the game now if a deadline has passed; the reason, or None."""
        info = await self.games.store.get_session(session_id)
        if info is None or info["status"] != "active":
            return None
        reason = self._due(info, time.time())
        if reason is not None:
            await self.end(session_id, reason)
        return reason

    async def end(self, session_id: str, reason: str) -> None:
        """End a game by limit: its record (end_reason), its stored status,
        its engine retired - under the game's lock when it is loaded here,
        so no call is mid-flight; idempotent (the first record wins)."""

        async def finish() -> None:
            info = await self.games.store.get_session(session_id)
            if info is None or info["status"] != "active":
                return
            now = time.time()
            loaded = next((s for s in self.games.sessions() if s.session_id == session_id), None)
            turn = loaded.observation.get("turn") if loaded is not None else None
            record = make_record(info, {"turn": turn} if isinstance(turn, int) else None, now)
            record["endReason"] = reason  # type: ignore[typeddict-item]
            await self.games.store.put_record(record)
            await self.games.store.update_session(session_id, {"status": "ended", "endedAt": now, "updatedAt": now})

        await self.games.end(session_id, finish)
        self.activity.pop(session_id, None)
        self.creators.pop(session_id, None)

    async def sweep(self) -> None:
        """End every game loaded here whose deadline has passed (the fallback to call-time checks)."""
        for session in self.games.sessions():
            if session.lost_ownership:
                continue  # its owner sweeps it
            try:
                await self.check_deadlines(session.session_id)
            except (StoreError, SessionError) as exc:
                print(f"nethack-webmcp: could not end game {session.session_id}: {exc}", file=sys.stderr)

    async def sweeping(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_s)
            await self.sweep()
