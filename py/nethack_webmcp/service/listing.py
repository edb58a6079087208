"""listing.py - `session list` over HTTP: the public live games, plus the caller's own.

A stranger may watch any game loaded here (the spectator pages list them
too), so a token-less list shows those, read-only (`access: watch`), from
memory: nothing is read from the store, loaded or replayed for it. Each
control token the caller passes (`controlToken`, or several in
`controlTokens`) adds the game it controls, loaded or stored, with
`access: drive` (or `watch` once it has ended). Finding a stored game for
a token compares the token's hash with each stored game's, in constant
time, newest first, until every token is placed; a token that matches no
game adds nothing and says nothing (a list never tells a guess apart from
a game that is gone). No entry carries a seed (tools/listing.py).

The transport's extra schema fields live here too (`http_fields`): every
game tool takes `controlToken`; session also takes `controlTokens`, for list.
"""

from __future__ import annotations

import hmac
from typing import Any

from ..projection import frame as frames
from ..session import GameRegistry, SessionError
from ..session.registry import SPECTATING
from ..store import SessionInfo, StoreError
from ..tools import listing
from . import tokens

TOKEN_FIELD = "controlToken"
TOKENS_FIELD = "controlTokens"
#: a client's games are few (ServiceConfig.games_per_client); a list names at most this many
MAX_TOKENS = 16
#: No description: session create's result says to pass it as controlToken
#: (mcp.py), and tools/list is budgeted (ten tools carry it over HTTP).
TOKEN_SCHEMA: dict[str, Any] = {"type": "string"}
TOKENS_SCHEMA: dict[str, Any] = {"type": "array", "items": TOKEN_SCHEMA, "maxItems": MAX_TOKENS}


def http_fields(tool: str) -> dict[str, Any]:
    """The fields the HTTP transport adds to a game tool's schema (taken off before the tool runs)."""
    fields = {TOKEN_FIELD: TOKEN_SCHEMA}
    if tool == "session":
        fields[TOKENS_FIELD] = TOKENS_SCHEMA
    return fields


def token_problems(token: Any, many: Any) -> list[str]:
    """What is wrong with a list call's tokens (empty when fine)."""
    problems = []
    if token is not None and not isinstance(token, str):
        problems.append(f"{TOKEN_FIELD} must be string")
    if many is not None and (
        not isinstance(many, list) or len(many) > MAX_TOKENS or not all(isinstance(item, str) for item in many)
    ):
        problems.append(f"{TOKENS_FIELD} must be at most {MAX_TOKENS} strings")
    return problems


class Lister:
    """The games one HTTP list call may see (`listing.SCOPE` for the call)."""

    def __init__(self, games: GameRegistry, given: list[str]) -> None:
        self.games = games
        # digests once, compared in constant time against each stored hash
        self.digests = [tokens.digest(token).encode("ascii") for token in dict.fromkeys(given)]

    async def __call__(self, closed: set[str]) -> tuple[list[listing.Entry], int]:
        mine = await self._controlled() if self.digests else {}
        loaded = [session.info for session in self.games.sessions() if session.session_id not in closed]
        return await listing.entries(self.games, [*mine.values(), *loaded], closed, mine.__contains__)

    async def _controlled(self) -> dict[str, SessionInfo]:
        """The stored games the given tokens control: {sessionId: SessionInfo}."""
        try:
            stored = listing.newest_first(await self.games.store.list_sessions())
        except StoreError:
            return {}
        found: dict[str, SessionInfo] = {}
        left = list(self.digests)
        for info in stored:
            if not left:
                break
            try:
                kept = await self.games.store.get_control_hash(info["sessionId"])
            except StoreError:
                continue
            if kept is None:
                continue
            match = next((d for d in left if hmac.compare_digest(d, kept.encode("ascii"))), None)
            if match is not None:
                left.remove(match)
                found[info["sessionId"]] = info
        return found


def admit_list(games: GameRegistry, token: Any, many: Any) -> dict[str, Any] | None:
    """Before a `session list` call runs over HTTP: a refusal frame for bad
    tokens, else None with this call's scope set (the tool then lists
    through it, and nothing may be loaded during the call)."""
    problems = token_problems(token, many)
    if problems:
        error = SessionError("invalidArguments", "session: " + "; ".join(problems), field=TOKENS_FIELD)
        return frames.error_frame(None, error, mutation=True, include_scene=False)
    given = ([token] if token is not None else []) + (many or [])
    listing.SCOPE.set(Lister(games, given))
    SPECTATING.set(True)  # a list reads; the registry refuses to load anything during it
    return None


def misplaced_tokens() -> dict[str, Any]:
    """controlTokens on a session call other than list."""
    error = SessionError("invalidArguments", f"session: only action 'list' takes {TOKENS_FIELD!r}", field=TOKENS_FIELD)
    return frames.error_frame(None, error, mutation=True, include_scene=False)
