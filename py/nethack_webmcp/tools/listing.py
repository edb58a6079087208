"""listing.py - `session list`: the games this host holds that the caller may drive or watch.

One entry per game: sessionId, state, access, dlvl, turn, name and role.
`state` is the gate of a loaded game (ready, decision, busy,
recoveryRequired, lostOwnership, ended), else `stored` (not loaded: any
call naming it resumes it), `closed` (`session close` closed it: the
store's close mark, seen by every host on that store until `session resume`
clears it) or `ended`. `access` says what the caller may do:
`drive` (act on it) or `watch` (read only: ended, owned elsewhere, or over
HTTP without its control token). `turn` is a loaded game's current turn, an
ended game's last (its record), else the turn of the game's last recorded
call (its latest receipt; null before any): a list never loads or replays a
game to learn it.
No entry carries a seed, live or not: the list shows what identifies a game,
and the seed is a record's (observe) once the game has ended.

Which games a caller sees is the host's: the page and the stdio server list
their own store's games and the loaded ones (`local_games`); the HTTP
service lists its public live games plus those whose control tokens the
caller passes (service/listing.py sets `SCOPE` for the call). Newest
first, at most `LIMIT`; `more` counts the rest.
"""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from ..session import GameRegistry, Session
from ..store import SessionInfo, StoreError, is_closed

Entry = dict[str, Any]
#: Who may see which games, for this call; None: the host's own games (page, stdio).
SCOPE: contextvars.ContextVar[Callable[[set[str]], Awaitable[tuple[list[Entry], int]]] | None] = contextvars.ContextVar(
    "listing_scope", default=None
)
LIMIT = 50
STATES = ("stored", "closed", "ended")  # beside the gates of loaded games
ACCESS = ("drive", "watch")


def _identity(metadata: dict[str, Any]) -> dict[str, Any]:
    """What names a game in a list: its character, never its seed."""
    return {"name": metadata.get("name", ""), "role": metadata.get("role")}


def loaded_entry(session: Session, *, may_drive: bool = True) -> Entry:
    gate = session.gate
    drivable = may_drive and gate not in ("ended", "lostOwnership")
    return {
        "sessionId": session.session_id,
        "state": gate,
        "access": "drive" if drivable else "watch",
        "dlvl": session.info["lastDepth"],
        "turn": session.observation.get("turn"),
        **_identity(session.info["metadata"]),
    }


async def stored_entry(games: GameRegistry, info: SessionInfo, closed: set[str], *, may_drive: bool = True) -> Entry:
    """A stored game's entry from its info and its record (ended) or latest receipt: nothing is loaded."""
    ended = info["status"] == "ended"
    try:
        turn = await (_ended_turn if ended else _recorded_turn)(games, info["sessionId"])
    except StoreError:
        turn = None  # unknown; the entry still says what the game is
    state = "ended" if ended else "closed" if is_closed(info) or info["sessionId"] in closed else "stored"
    return {
        "sessionId": info["sessionId"],
        "state": state,
        "access": "drive" if may_drive and not ended else "watch",
        "dlvl": info["lastDepth"],
        "turn": turn,
        **_identity(info["metadata"]),
    }


async def _ended_turn(games: GameRegistry, session_id: str) -> int | None:
    record = await games.store.get_record(session_id)
    return record["turns"] if record is not None else None


async def _recorded_turn(games: GameRegistry, session_id: str) -> int | None:
    receipt = await games.store.latest_receipt(session_id)
    basis = receipt["frame"].get("basis") if receipt is not None else None
    turn = basis.get("turn") if isinstance(basis, dict) else None
    return turn if isinstance(turn, int) else None


async def entries(
    games: GameRegistry, infos: Iterable[SessionInfo], closed: set[str], may_drive: Callable[[str], bool]
) -> tuple[list[Entry], int]:
    """The entries of these games (the loaded ones as they are now), newest
    first, at most LIMIT; and how many more there are."""
    # a closed game is listed closed even where a copy of it is loaded (an observer
    # that followed it before its owner closed it): the stored mark wins
    known: dict[str, SessionInfo] = {}
    for info in infos:
        if info["sessionId"] not in known or is_closed(info):
            known[info["sessionId"]] = info
    loaded = {
        session.session_id: session
        for session in games.sessions()
        if session.session_id not in closed and not is_closed(known.get(session.session_id, session.info))
    }
    newest = newest_first(known.values())
    listed = [
        loaded_entry(loaded[info["sessionId"]], may_drive=may_drive(info["sessionId"]))
        if info["sessionId"] in loaded
        else await stored_entry(games, info, closed, may_drive=may_drive(info["sessionId"]))
        for info in newest[:LIMIT]
    ]
    return listed, len(newest) - len(listed)


async def local_games(games: GameRegistry, closed: set[str]) -> tuple[list[Entry], int]:
    """The page's and the stdio server's list: every game of their store and every loaded one."""
    try:
        stored = await games.store.list_sessions()
    except StoreError:
        stored = []  # the loaded games are still known; storage diagnostics say the rest
    loaded = [session.info for session in games.sessions()]
    return await entries(games, [*stored, *loaded], closed, lambda _: True)


def newest_first(infos: Iterable[SessionInfo]) -> list[SessionInfo]:
    return sorted(infos, key=lambda info: (info["updatedAt"], info["sessionId"]), reverse=True)


async def result(games: GameRegistry, closed: frozenset[str] = frozenset()) -> dict[str, Any]:
    """`session list`'s result: the entries the caller may see, newest first.
    A closed game is known by its stored close mark; `closed` adds games to
    list as closed beside those (none, from the session tool)."""
    marked = set(closed)
    scope = SCOPE.get()
    listed, more = await scope(marked) if scope is not None else await local_games(games, marked)
    return {"kind": "sessions", "games": listed, "more": more}
