"""timelines.py - what the timeline routes answer: a game's moves, and its frame at any move.

    moves(id, first, last)  {gameId, count, live, moves: [...], calls: {index: call}}
    frame(id, move)         one frame (frames.py): an ended game's from its verified
                            replay (replays.py), a live game's from its stored receipts

Everything is read from the store (moves.py) whether or not this process
has the game loaded, so any instance on the same store answers the same.
A live game is never replayed: its frames are the receipts of the calls
that made its moves (no engine is asked, its seed stays sealed). Once the
game has ended (its stored status says so), frames come from a replay of
its journal, exact at every move.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from ..replay import ReplayRefused
from ..replay.tty import MAP_ROWS
from ..store import Store
from .frames import from_receipt
from .moves import MoveIndex
from .replays import Replays

INDEXES_KEPT = 8  # games whose move index is kept (a few hundred bytes per move: 50,000 moves ~ 15 MB)
PAGE_LIMIT = 2000  # moves per answer


class UnknownGame(LookupError):
    """The store knows no game with this ID."""


def blank_frame(move: int, message: str) -> dict[str, Any]:
    return {
        "move": move,
        "exact": False,
        "rows": [""] * MAP_ROWS,
        "message": message,
        "status": ["", ""],
        "turn": None,
        "depth": None,
        "hp": None,
        "hpMax": None,
        "decision": None,
        "ended": False,
    }


class Timelines:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.replays = Replays(store)
        self._indexes: OrderedDict[str, MoveIndex] = OrderedDict()

    async def _index(self, session_id: str) -> tuple[MoveIndex, bool]:
        """The game's move index brought up to date, and whether it is still live.
        Raises StoreError, UnknownGame."""
        info = await self.store.get_session(session_id)
        if info is None:
            raise UnknownGame(session_id)
        index = self._indexes.get(session_id)
        if index is None:
            index = self._indexes[session_id] = MoveIndex(session_id)
            while len(self._indexes) > INDEXES_KEPT:
                self._indexes.popitem(last=False)
        else:
            self._indexes.move_to_end(session_id)
        await index.refresh(self.store)
        return index, info["status"] != "ended"

    async def moves(self, session_id: str, first: int, last: int | None) -> dict[str, Any]:
        index, live = await self._index(session_id)
        first = max(first, 1)
        last = min(index.count if last is None else last, first + PAGE_LIMIT - 1)
        return {"gameId": session_id, "count": index.count, "live": live, **index.page(first, last)}

    async def frame(self, session_id: str, move: int) -> dict[str, Any]:
        index, live = await self._index(session_id)
        if not 0 <= move <= index.count:
            raise ReplayRefused("moveOutOfRange", f"move {move} is outside this game's 0..{index.count}")
        if not live:
            return await self.replays.frame(session_id, move)
        return await self._from_receipts(index, move)

    async def _from_receipts(self, index: MoveIndex, move: int) -> dict[str, Any]:
        """The receipt of the call that made `move` (exact at its last move); a
        call still running shows the last stored one before it."""
        call_number = index.moves[move - 1]["call"] if move else -1
        while call_number >= 0:
            call = index.calls[call_number]
            receipt = await self.store.get_receipt(index.session_id, call.id)
            if receipt is not None:
                messages = (call.facts or {}).get("messages", [])
                return from_receipt(move, move == call.last, receipt["frame"], messages)
            call_number -= 1
        return blank_frame(move, "" if move else "the game was just created")

    async def close(self) -> None:
        await self.replays.close()
