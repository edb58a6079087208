"""board.py - the games a native server shows to spectators.

The MCP server tells the board about every tool frame (`observe`, a few
list appends and a wake-up: it must cost the agent nothing); spectators
ask for a game's state, which is built from the session's latest known
state on the first request for a revision and kept as JSON bytes until the
revision moves (`state`); streams wait for the end of the game's next call
(`changed`). A game's history (its recent events) comes from its stored
receipts the first time the board shows it (`load_history`), whoever
played the calls (this process before a restart, another instance), so it
does not depend on what this process heard; the frames heard afterwards
are added to it. A game not loaded here shows its stored history only
(`stored_history`): nothing is loaded, replayed or started for it. A
board only reads: it sends nothing to an engine and writes nothing to the
store, so no number of spectators can change a game.

Records use the page's shape (web/src/spectator.js, home.js): camelCase,
times in milliseconds. A completed game's fields come from the store's
GameRecord (session.records.make_record computed it); a live game's from its
session. Nothing else computes a record.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ..session import GameRegistry, Session
from ..session.records import make_record
from ..store import GameRecord, StoreError
from .history import EVENT_LIMIT, StoredHistory, frame_events, merge
from .snapshot import owner, spectator_snapshot
from .timelines import Timelines

RECENT_LIMIT = 10  # seed 002: the ten most recently completed games
# the tools' sessionId rule (tools/base.ID_RULE) without a leading dot (no
# native game has one: its lock file could not be made); checked before any
# lookup, so a malformed ID never reaches the database
GAME_ID = re.compile(r"[A-Za-z0-9_:-][A-Za-z0-9._:-]{0,95}")


def valid_game_id(text: str) -> bool:
    return GAME_ID.fullmatch(text) is not None


def _ms(seconds: float | None) -> int | None:
    return None if seconds is None else int(seconds * 1000)


def record_view(record: GameRecord) -> dict[str, Any]:
    """A completed game's record in the page's shape (seed 002's fields)."""
    return {
        "gameId": record["sessionId"],
        "name": record["characterName"],
        "harness": record["harnessName"],
        "model": record["modelName"],
        "startedAt": _ms(record["startedAt"]),
        "endedAt": _ms(record["endedAt"]),
        "updatedAt": _ms(record["endedAt"]),
        "endTimeKind": record["endTimeKind"],
        "lifecycle": "ended",
        "endReason": record["endReason"],
        "how": record["how"],
        "death": record["death"],
        "score": record["score"],
        "turn": record["turns"],
        "depth": record["lastDepth"],
        "deepest": record["deepestDepth"],
        # the seed is published with the record; it was never shown while the game was live
        "seed": record.get("seed"),
        "seedChoice": record.get("seedChoice"),
    }


def session_view(session: Session) -> dict[str, Any]:
    """A loaded game's record in the page's shape: its character, labels,
    times, depths (no seed while it is live); once ended, the record fields
    as the store has them, the seed among them."""
    info, meta = session.info, session.agent_metadata()
    view: dict[str, Any] = {
        "gameId": session.session_id,
        "name": meta.get("name", ""),
        "role": meta.get("role"),
        "race": meta.get("race"),
        "gender": meta.get("gender"),
        "alignment": meta.get("alignment"),
        "seed": meta.get("seed"),
        "harness": meta.get("harness_name", ""),
        "model": meta.get("model_name", ""),
        "startedAt": _ms(info["startedAt"]),
        "updatedAt": _ms(info["updatedAt"]),
        "lifecycle": "live",
        "revision": session.revision,
        "turn": session.observation.get("turn"),
        "depth": info["lastDepth"],
        "deepest": info["deepestDepth"],
        "gate": session.gate,
    }
    if session.state.ended and info["endedAt"] is not None:
        ended = record_view(make_record(info, session.state.end, info["endedAt"]))
        view.update(
            {
                key: ended[key]
                for key in (
                    *("endedAt", "endReason", "how", "death", "score", "turn", "depth", "deepest", "lifecycle"),
                    *("seed", "seedChoice"),
                )
            }
        )
    return view


@dataclass
class _Published:
    """What spectators see of one game beyond its session: recent events and
    the last inventory seen, and the state JSON of one revision."""

    events: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=EVENT_LIMIT))
    # the loaded session whose history was read from the stored receipts (load_history): a
    # game unloaded and loaded again (taken over elsewhere meanwhile) is read again
    history_of: weakref.ref[Session] | None = None
    inventory: dict[str, Any] | None = None
    revision: int | None = None
    body: bytes = b""


class Board:
    def __init__(self, games: GameRegistry) -> None:
        self.games = games
        self.closing = False
        self._published: dict[str, _Published] = {}
        self.history = StoredHistory(games.store)
        self._changed: dict[str, asyncio.Event] = {}  # per game: set (and replaced) when a call ends
        self.timelines = Timelines(games.store)  # moves and frames for the timeline routes
        self._closing: asyncio.Task[None] | None = None

    # ---- the agent's side: called after every tool call -----------------------------

    def observe(self, frame: dict[str, Any]) -> None:
        """Keep a frame's events for its game's spectators; a closed game's
        live state is dropped."""
        result = frame.get("result") or {}
        if result.get("kind") == "session" and result.get("action") == "closed":
            self._published.pop(result.get("sessionId") or "", None)
            self._wake(result.get("sessionId"))
            return
        basis = frame.get("basis")
        if not basis:
            return
        if frame.get("events"):
            self._published.setdefault(basis["sessionId"], _Published()).events.extend(frame_events(frame))
        self._wake(basis["sessionId"])

    def _wake(self, session_id: str | None) -> None:
        event = self._changed.pop(session_id or "", None)
        if event is not None:
            event.set()

    async def changed(self, session_id: str, timeout: float) -> None:
        """Wait until a call on the game ends (or `timeout` seconds pass, or
        the board closes): the streams' cue to look at its revision."""
        if self.closing:
            return
        event = self._changed.setdefault(session_id, asyncio.Event())
        with contextlib.suppress(asyncio.TimeoutError):
            async with asyncio.timeout(timeout):
                await event.wait()

    def close(self) -> None:
        """The server is stopping: every stream ends."""
        self.closing = True
        for event in self._changed.values():
            event.set()
        self._changed.clear()
        with contextlib.suppress(RuntimeError):  # no running loop: nothing was ever replayed
            self._closing = asyncio.get_running_loop().create_task(self.timelines.close())  # ended games' replays

    # ---- the spectators' side -----------------------------------------------------

    def live(self, session_id: str) -> Session | None:
        """A game loaded in this server (live, or ended and not yet closed)."""
        return next((s for s in self.games.sessions() if s.session_id == session_id), None)

    @staticmethod
    def etag(session: Session) -> str:
        return f'"{session.session_id}/{session.revision}"'

    async def load_history(self, session: Session) -> None:
        """Before a loaded game's state is shown: its history from its stored
        receipts, once (a game another instance owns, whose calls this one
        never hears, again on every request), then the events heard since.
        A failed read leaves what was heard; the next request tries again."""
        session_id = session.session_id
        known = self._published.get(session_id)
        if known is not None and known.history_of is not None and known.history_of() is session and owner(session):
            return
        try:
            stored, covered = await self.history.read(session_id)
        except StoreError:
            return
        published = self._published.setdefault(session_id, _Published())  # a close may have dropped it meanwhile
        events = merge(stored, covered, published.events)  # heard and not stored (or not yet): kept
        if events != list(published.events):
            published.events = deque(events, maxlen=EVENT_LIMIT)
            published.body = b""  # this revision's state is built again, with its history
        published.history_of = weakref.ref(session)

    async def stored_history(self, session_id: str, *, ended: bool) -> dict[str, Any]:
        """A game not loaded here: its recent events from its stored receipts
        and the last revision they reached. Raises StoreError."""
        if ended:
            return {"events": await self.history.of_ended(session_id)}
        events, covered = await self.history.read(session_id)
        return {"revision": max(covered, default=None), "events": events}

    def state(self, session: Session) -> bytes:
        """The spectator state of a loaded game as JSON bytes: the snapshot
        plus the page's record, recent events and last inventory. Built
        once per revision."""
        published = self._published.setdefault(session.session_id, _Published())
        if published.revision == session.revision and published.body:
            return published.body
        snapshot = spectator_snapshot(session)
        observation = snapshot["observation"]
        if observation.get("inventoryKnown"):
            published.inventory = {
                "items": observation.get("inventory", []),
                "revision": session.revision,
                "turn": observation.get("turn"),
            }
        record = session_view(session)
        snapshot.update(
            gameId=session.session_id,
            lifecycle=record["lifecycle"],
            updatedAt=record["updatedAt"],
            record=record,
            events=list(published.events),
            lastInventory=published.inventory,
        )
        published.revision, published.body = session.revision, _json(snapshot)
        return published.body

    async def completed(self, session_id: str) -> dict[str, Any] | None:
        """A completed game's record (page shape), or None."""
        record = await self.games.store.get_record(session_id)
        return record_view(record) if record else None

    async def stored(self, session_id: str) -> bool:
        """Whether the store knows the game at all."""
        return await self.games.store.get_session(session_id) is not None

    async def overview(self) -> dict[str, Any]:
        """The root page's data: the games loaded here, and the ten most
        recently completed records (ended time, then game ID, descending).
        Games that left memory leave the board too (the root polls this)."""
        loaded = self.games.sessions()
        loaded_ids = {session.session_id for session in loaded}
        for session_id in [known for known in self._published if known not in loaded_ids]:
            del self._published[session_id]
        live = sorted(
            (session_view(s) for s in loaded),
            key=lambda view: (view["startedAt"] or 0, view["gameId"]),
            reverse=True,
        )
        try:
            records = [record_view(r) for r in await self.games.store.recent_records(RECENT_LIMIT)]
        except StoreError:
            records = []
        return {"live": live, "records": records}


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
