"""control.py - who may do what with a game over HTTP, and when games end by limit.

Every tool call through the HTTP transport passes `Control.admit` before
the tool runs. `admit` either lets the tool run or answers the call itself
(a typed refusal, or a token-less read's answer):

- `session create` is open to anyone within the limits. The limits are the
  registry's (games loaded here: tooManyGames; games this client created and
  still has loaded here: tooManyGamesForClient), checked and claimed in one
  step with no await in between (registry._claim), so simultaneous creates
  never exceed them; this module only says who the client is (`CREATOR`).
  A refusal carries `retryAfterSeconds`: when the first game here reaches a
  deadline if nobody uses it, plus one sweep. Its result gets the game's
  control token, once (`issue`), never seen by the spectator board.
- `session list` shows the games loaded here (read-only) plus those whose
  tokens the call carries (`listing.py`); it loads nothing.
- Every other call naming a game must carry that game's `controlToken`
  (compared in constant time against the stored hash), except read-only
  tools. Those, without a token, read what is already known and take no
  capacity (`spectating.py`; the registry refuses to load anything for
  them: `SPECTATING`). A wrong token - another game's too - is `forbidden`,
  whatever the tool; nothing runs, nothing is written.
- An ended game leaves memory as its last call ends (`evict_ended`); later
  calls read it from its record and receipts (observe), never by replay.
- Deadlines (idle time, lifetime from the stored start, so every instance
  agrees) are checked under the game's lock on every path (registry
  `deadline`, guard.GameLock), before an authorized call refreshes the
  idle clock, when a stored game would be resumed, and by the sweeper. The
  game ends with a record whose end_reason says which (`time_limit`,
  `idle_timeout`), and every later call is `gameEnded`. The sweeper also
  ends games left unfinished across a restart once their idle deadline has
  passed (`sweep_abandoned`: endTimeKind `recovery`).
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
from ..session import GameRegistry, Session, SessionError
from ..session.registry import CREATOR, SPECTATING
from ..store import SessionInfo, StoreError
from ..tools.base import Tool
from . import listing, tokens
from .config import ServiceConfig
from .spectating import StoredAnswers, live_frame

#: declared on the game tools' schemas over HTTP only (stdio and WebMCP need no
#: token): listing.http_fields
TOKEN_FIELD = listing.TOKEN_FIELD


def refusal(tool: Tool, code: str, message: str, **details: Any) -> dict[str, Any]:
    """A typed error frame, as the tool itself would return it (nothing ran)."""
    error = SessionError(code, message, **details)
    return frames.error_frame(None, error, mutation=not tool.read_only, include_scene=False)


class Control:
    def __init__(self, games: GameRegistry, config: ServiceConfig) -> None:
        self.games = games
        self.config = config
        self.activity: dict[str, float] = {}  # wall clock of the last authorized call, per game
        self.stored = StoredAnswers(games.store)
        # the registry enforces the limits, under its own critical section and the games' locks
        games.games_per_creator = config.games_per_client
        games.deadline = lambda info: self._due(info, time.time())
        games.retry_after = self.retry_after
        games.evict_ended = True

    def _loaded(self, session_id: str) -> Session | None:
        return next((s for s in self.games.sessions() if s.session_id == session_id), None)

    # ---- admission -------------------------------------------------------------------

    async def admit(
        self, tool: Tool, arguments: dict[str, Any], client: str
    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """(a frame to answer with instead of running the tool - a refusal, or a
        token-less read's answer - or None to run it; the arguments without the token)."""
        arguments = dict(arguments)
        token = arguments.pop(TOKEN_FIELD, None)
        if tool.name == "help":
            return None, arguments
        if tool.name == "session" and (arguments.get("action") == "list" or listing.TOKENS_FIELD in arguments):
            many = arguments.pop(listing.TOKENS_FIELD, None)
            if arguments.get("action") != "list":
                return listing.misplaced_tokens(), arguments
            return listing.admit_list(self.games, token, many), arguments  # public games and the caller's own
        if tool.name == "session" and arguments.get("action") == "create":
            CREATOR.set(client)  # the registry counts this client's games, atomically with the create
            return None, arguments
        session_id = arguments.get("sessionId")
        if not isinstance(session_id, str):
            return None, arguments  # the tool's own validation refuses it
        try:
            kept = await self.games.store.get_control_hash(session_id)
            info = await self.games.store.get_session(session_id)
        except StoreError as exc:
            return refusal(tool, "storageFailed", f"the game store cannot be read: {exc}"), arguments
        if token is None:
            if tool.read_only:
                return await self._spectator_read(tool, arguments, session_id, info), arguments
            if info is not None and info["status"] == "ended":
                return refusal(tool, "gameEnded", _ENDED), arguments
            return refusal(
                tool,
                "controlTokenRequired",
                f"{tool.name} drives a game: pass the controlToken that session create "
                "returned for it (reading tools work without one, as a spectator)",
            ), arguments
        if not isinstance(token, str) or not tokens.matches(token, kept):
            return refusal(tool, "forbidden", "that controlToken does not control this game"), arguments
        if info is None:
            return None, arguments  # the tool says unknownSession
        return await self._authorized(tool, arguments, session_id, info), arguments

    async def _spectator_read(
        self, tool: Tool, arguments: dict[str, Any], session_id: str, info: SessionInfo | None
    ) -> dict[str, Any] | None:
        """A read without a token: what is known already; nothing is loaded for it."""
        SPECTATING.set(True)  # belt and braces: the registry loads nothing during this call
        if info is None:
            return refusal(tool, "unknownSession", f"no game has sessionId {session_id!r}", field="sessionId")
        loaded = self._loaded(session_id)
        if loaded is not None:
            # observe answers from memory; the other reading tools only read the loaded state
            return live_frame(loaded) if tool.name == "observe" else None
        if tool.name == "observe":
            try:
                return await self.stored.frame(info)
            except StoreError as exc:
                return refusal(tool, "storageFailed", f"the game store cannot be read: {exc}")
        return refusal(
            tool,
            "notLoaded",
            f"game {session_id!r} is not being played in this server; without its controlToken "
            f"{tool.name} reads only a loaded game (observe shows its last recorded frame and record)",
            field="sessionId",
        )

    async def _authorized(
        self, tool: Tool, arguments: dict[str, Any], session_id: str, info: SessionInfo
    ) -> dict[str, Any] | None:
        loaded = self._loaded(session_id)
        if info["status"] == "ended" and loaded is None:
            # an ended game is read from its record and receipts; it is never replayed again
            if tool.name == "observe":
                try:
                    return await self.stored.frame(info)
                except StoreError as exc:
                    return refusal(tool, "storageFailed", f"the game store cannot be read: {exc}")
            if tool.name == "session" and arguments.get("action") == "close":
                return None  # closing a game that is not loaded is a no-op
            return refusal(tool, "gameEnded", _ENDED)
        now = time.time()
        # the deadline is checked before this call refreshes the idle clock: a call
        # arriving after the deadline does not revive the game
        reason = self._due(loaded.info if loaded is not None else info, now)
        if reason is not None:
            try:
                ended = await self.games.end_by_limit(session_id, reason)
            except StoreError as exc:
                return refusal(tool, "storageFailed", f"the game's end cannot be stored: {exc}")
            if ended:
                self.activity.pop(session_id, None)
                return refusal(tool, "gameEnded", f"this game ended by the service's limits ({reason}); {_RECORD}")
        self.activity[session_id] = now
        await self._take_over_if_orphaned(session_id)
        return None

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
        self.activity[session_id] = time.time()
        return {**frame, "result": {**frame["result"], TOKEN_FIELD: token}}

    async def _take_over_if_orphaned(self, session_id: str) -> None:
        loaded = next((s for s in self.games.sessions() if s.session_id == session_id), None)
        if loaded is not None and loaded.lost_ownership:
            with contextlib.suppress(SessionError):
                await self.games.resume(session_id)  # owner alive: stays an observer; the gate refuses acting

    # ---- limits: idle time and lifetime --------------------------------------------------

    def _deadline_at(self, info: SessionInfo) -> float:
        last = max(self.activity.get(info["sessionId"], 0.0), info["updatedAt"])
        return min(info["startedAt"] + self.config.max_lifetime_s, last + self.config.idle_timeout_s)

    def _due(self, info: SessionInfo, now: float) -> Any:
        """The limit this active game is past (time_limit | idle_timeout), or None."""
        if info["status"] != "active":
            return None
        if now >= info["startedAt"] + self.config.max_lifetime_s:
            return "time_limit"  # the absolute deadline wins when both have passed
        last = max(self.activity.get(info["sessionId"], 0.0), info["updatedAt"])
        if now >= last + self.config.idle_timeout_s:
            return "idle_timeout"
        return None

    def retry_after(self, creator: str | None) -> float:
        """Seconds until a slot may free up by itself: the earliest deadline of
        the games here (one creator's, for its own limit) plus one sweep. A game
        that ends in play or is closed frees its slot sooner."""
        games = [
            s for s in self.games.sessions() if creator is None or self.games.creators.get(s.session_id) == creator
        ]
        deadlines = [self._deadline_at(s.info) for s in games if s.info["status"] == "active"]
        earliest = min(deadlines) if deadlines else time.time()
        return max(1.0, earliest - time.time()) + self.config.sweep_s

    async def end(self, session_id: str, reason: str) -> bool:
        """End a game by limit (see GameRegistry.end_by_limit); idempotent."""
        ended = await self.games.end_by_limit(session_id, reason)
        self.activity.pop(session_id, None)
        return ended

    async def sweep(self) -> None:
        """End every game loaded here whose deadline has passed (calls check
        them too, under the game's lock), then the abandoned ones."""
        now = time.time()
        for session in self.games.sessions():
            if session.lost_ownership:
                continue  # its owner sweeps it
            reason = self._due(session.info, now)
            if reason is None:
                continue
            try:
                await self.end(session.session_id, reason)
            except (StoreError, SessionError) as exc:
                print(f"nethack-webmcp: could not end game {session.session_id}: {exc}", file=sys.stderr)
        await self.sweep_abandoned()

    async def sweep_abandoned(self) -> int:
        """End the service's games that nobody plays any more: stored as
        active, loaded by no instance (their ownership lock is free), past a
        deadline by their stored times - left unfinished when an instance
        stopped or died. Each gets a record with its end_reason (idle_timeout
        or time_limit) and endTimeKind `recovery`. Only games created over
        HTTP (they have a control token) are the service's to end: a stdio
        server's games in the same state directory are never touched.
        The number ended."""
        try:
            stored = await self.games.store.list_sessions()
        except StoreError as exc:
            print(f"nethack-webmcp: could not list games for the sweep: {exc}", file=sys.stderr)
            return 0
        loaded = {session.session_id for session in self.games.sessions()}
        now, ended = time.time(), 0
        for info in stored:
            session_id = info["sessionId"]
            reason = self._due(info, now) if session_id not in loaded else None
            if reason is None:
                continue
            try:
                if await self.games.store.get_control_hash(session_id) is None:
                    continue
                if await self.games.end_by_limit(session_id, reason, kind="recovery"):
                    ended += 1
            except (StoreError, SessionError) as exc:
                print(f"nethack-webmcp: could not end abandoned game {session_id}: {exc}", file=sys.stderr)
        return ended

    async def sweeping(self) -> None:
        """The sweeper: once at start-up (games a stopped instance left), then every sweep interval."""
        while True:
            await self.sweep()
            await asyncio.sleep(self.config.sweep_s)


_RECORD = "its record stays readable (observe, or the spectator page)"
_ENDED = f"this game has ended; {_RECORD}"
