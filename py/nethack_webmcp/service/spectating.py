"""spectating.py - what a read without a control token gets: what is already known, nothing loaded.

A stranger may read any game (its ID is on the public spectator pages and
/api/recent), so a token-less read must cost the service nothing it would
have to give back: it never starts an engine, never replays a journal and
never takes a slot of `--max-games`. It reads what exists already:

- a game loaded here: its latest known state, from memory (`live_frame`),
  exactly as the spectator page does - no engine request, no verification,
  no recovery (those are the creator's to trigger);
- any other game: its stored receipts and record (`stored_frame`): the
  frame of its last recorded call, marked as history (`result.source:
  "receipt"`), with the record once the game has ended.

An ended game's answer cannot change any more, so it is kept (a bounded
cache): reading fifty completed games again and again reads each once.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from typing import Any

from ..projection import frame as frames
from ..session import Session
from ..store import SessionInfo, Store
from ..watch.board import record_view

ENDED_ANSWERS_KEPT = 256


def live_frame(session: Session) -> dict[str, Any]:
    """A loaded game's frame as a spectator sees it: the latest known scene
    with the full world, the recent messages; no state hash (it could confirm
    a twin game of a sealed seed) and nothing the engine was asked for."""
    result: dict[str, Any] = {
        "kind": "observe",
        "source": "live",
        "spectator": True,
        "recentMessages": session.observation.get("recentMessages", []),
    }
    return frames.build(session, result=result, include_world=True)


def _historical(frame: dict[str, Any]) -> dict[str, Any]:
    """A stored receipt's frame as history: no outcome or events (they were
    news to its caller once), no executable reply, no diagnostics."""
    shown = {key: value for key, value in frame.items() if key not in ("error", "result")}
    shown.update(outcome=None, events=[], diagnostics={})
    if shown.get("decision"):
        question = shown["decision"]
        shown["decision"] = {key: question[key] for key in ("id", "kind", "prompt") if key in question}
    return shown


class StoredAnswers:
    """Token-less observe of a game not loaded here, from the store only."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._ended: OrderedDict[str, dict[str, Any]] = OrderedDict()

    async def frame(self, info: SessionInfo) -> dict[str, Any]:
        """The game's last recorded frame and, once ended, its record. Raises StoreError."""
        session_id = info["sessionId"]
        kept = self._ended.get(session_id)
        if kept is not None:
            self._ended.move_to_end(session_id)
            return copy.deepcopy(kept)  # the caller may decorate its copy
        ended = info["status"] == "ended"
        record = await self.store.get_record(session_id) if ended else None
        last = receipt["frame"] if (receipt := await self.store.latest_receipt(session_id)) else None
        frame = _historical(last) if last is not None else frames.build(None)
        result: dict[str, Any] = {
            "kind": "observe",
            "source": "receipt" if last is not None else "none",
            "spectator": True,
            "sessionId": session_id,
            "lifecycle": "ended" if ended else "stored",
            "message": "the game's last recorded frame (it is not loaded here; a read without the "
            "controlToken never loads a game)"
            if last is not None
            else "no call of this game has been recorded yet",
        }
        if record is not None:
            result["record"] = record_view(record)
        if ended and frame.get("basis") is not None:
            frame["control"] = {"gate": "ended"}
            frame["decision"] = None
        frame["result"] = result
        if ended and record is not None:
            self._ended[session_id] = copy.deepcopy(frame)
            while len(self._ended) > ENDED_ANSWERS_KEPT:
                self._ended.popitem(last=False)
        return frame
