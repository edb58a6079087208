"""replays.py - ended games' verified replays for the spectator's timeline, opened on demand.

An ended game's frame at any move comes from a `replay.Timeline` (native
fork checkpoints, docs/REPLAY.md): opened on the first frame request for
that game (one verified replay of its journal, every recorded boundary
compared), then kept, so later seeks fork the nearest checkpoint and replay
only the few inputs after it (each boundary compared again: a checkpoint is
verified every time it is used). A refusal (a journal that does not
reproduce the game) is kept too, so a broken game is not replayed again on
every request, and no frame is ever shown for it.

Bounded: at most OPEN_TIMELINES games are open at once (least recently used
closed first), and each keeps at most about MAX_CHECKPOINTS paused forks
(the spacing grows with the game's length), so the spectator's replays hold
at most OPEN_TIMELINES * (MAX_CHECKPOINTS + 3) driver processes (each fork
shares its pages copy-on-write with the one it came from). Seeks on one
timeline run one at a time (they share its cursor).

Only an ended game is ever replayed here: its seed is public once it has
ended. A live game's timeline reads its stored receipts (moves.py).

After a restart no fork is left: a game whose checkpoints the store keeps
(replay/persisted.py, built in the background on its first open) opens on
them with no replay of its journal (replay/persisted_timeline.py).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..replay import ReplayRefused, Timeline
from ..replay.timeline import DEFAULT_SPACING
from ..session import replay as journal_replay
from ..session.errors import SessionError
from ..store import Store
from .frames import from_observation

OPEN_TIMELINES = 2
MAX_CHECKPOINTS = 48
INPUTS_PER_SECOND = 4000  # a cautious native replay rate (docs/BENCHMARKS.md: 4,800-7,600/s)
FRAMES_KEPT = 512  # per game: frames already served (a scrub back and forth costs nothing)


def spacing_for(inputs: int) -> float:
    """Seconds of replay between checkpoints so a game keeps about MAX_CHECKPOINTS."""
    return max(DEFAULT_SPACING, inputs / INPUTS_PER_SECOND / MAX_CHECKPOINTS)


@dataclass
class _Open:
    timeline: Timeline | None = None
    refused: ReplayRefused | None = None
    name: str = ""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    frames: OrderedDict[int, dict[str, Any]] = field(default_factory=OrderedDict)


class Replays:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._open: OrderedDict[str, _Open] = OrderedDict()
        self._opening = asyncio.Lock()  # one replay opens at a time (two cores shared with the agent)
        self.opened = 0  # timelines opened so far (tests: a game is replayed once, not per request)

    async def frame(self, session_id: str, move: int) -> dict[str, Any]:
        """The verified frame of an ended game at `move`. Raises ReplayRefused
        (also `moveOutOfRange`) and StoreError."""
        entry = await self._get(session_id)
        async with entry.lock:
            if entry.refused is None and entry.timeline is None:  # closed (least recently used) meanwhile
                return await self.frame(session_id, move)  # opened again (a closed entry left the cache)
            if entry.refused is not None:
                raise entry.refused
            timeline = entry.timeline
            assert timeline is not None
            kept = entry.frames.get(move)
            if kept is not None:
                entry.frames.move_to_end(move)
                return kept
            try:
                observed = await timeline.seek(move)
            except ReplayRefused as refused:
                if refused.code != "moveOutOfRange":
                    entry.refused = refused  # never shown a frame again; the game is not replayed again
                raise
            shown = from_observation(move, observed, entry.name)
            entry.frames[move] = shown
            while len(entry.frames) > FRAMES_KEPT:
                entry.frames.popitem(last=False)
            return shown

    async def _get(self, session_id: str) -> _Open:
        async with self._opening:
            entry = self._open.get(session_id)
            if entry is not None:
                self._open.move_to_end(session_id)
                return entry
            entry = _Open()
            info = await self.store.get_session(session_id)
            if info is None or info["status"] != "ended":
                raise ReplayRefused("notEnded", "only an ended game is replayed; a live game shows its receipts")
            entries = await self.store.journal(session_id)
            entry.name = str(info["metadata"].get("name", ""))
            try:
                todo = journal_replay.plan(entries)[0]
                extra = [k for k in range(1, len(todo)) if _depth_changed(todo, k)]
                entry.timeline = await Timeline.open(
                    info, entries, spacing=spacing_for(len(todo)), extra=extra, store=self.store
                )
                self.opened += 1
            except ReplayRefused as refused:
                entry.refused = refused
            except SessionError as exc:
                entry.refused = ReplayRefused("journalTampered", f"the journal cannot be replayed: {exc.message}")
            self._open[session_id] = entry
            while len(self._open) > OPEN_TIMELINES:
                _, oldest = self._open.popitem(last=False)
                await _close(oldest)
            return entry

    async def close(self) -> None:
        while self._open:
            _, entry = self._open.popitem()
            await _close(entry)


def _depth_changed(todo: list[Any], k: int) -> bool:
    """Whether input k changed level (a checkpoint there: scrubbing to a level's start is common).
    The journal's boundaries carry no depth, so the climbing inputs stand for it."""
    params = (todo[k - 1]["request"] or {}).get("params") or {}
    return todo[k - 1]["method"] == "game.climb" or params.get("direction") in ("up", "down")


async def _close(entry: _Open) -> None:
    async with entry.lock:  # a seek in progress finishes first
        if entry.timeline is not None:
            await entry.timeline.close()
            entry.timeline = None
