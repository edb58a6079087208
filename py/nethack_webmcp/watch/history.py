"""history.py - a game's recent events for spectators, read from its stored receipts.

A spectator's history must not depend on which process has heard which
calls: after a restart, or on an instance that does not own the game (one
PostgreSQL shared by several), this process heard none of them. Every
acting call's frame is kept as a receipt (`Store.put_receipt`) before its
caller gets it, so the game's last receipts hold its recent events, and a
bounded read (`Store.recent_receipts`) gives them back with nothing loaded,
replayed or started.

Receipts are agent frames: they never carry a live game's seed (sealed
seeds, docs/DURABILITY.md), and only their `events` and `basis` (revision,
turn) are taken from them here.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from ..store import Store, ToolReceipt

EVENT_LIMIT = 40  # recent events kept per game (the page shows the last passages)
RECEIPTS_READ = EVENT_LIMIT  # a frame with events has at least one: the last 40 receipts cover 40 events
ENDED_HISTORIES_KEPT = 256  # an ended game's history cannot change: kept, so re-reads read nothing


def frame_events(frame: dict[str, Any]) -> list[dict[str, Any]]:
    """A frame's events as spectators see them: each tagged with the
    revision and turn of the frame that reported it."""
    basis = frame.get("basis")
    if not basis:
        return []
    return [{"revision": basis["revision"], "turn": basis.get("turn"), **event} for event in frame.get("events") or ()]


def receipt_events(receipts: Iterable[ToolReceipt]) -> list[dict[str, Any]]:
    """The events of some receipts (oldest first), the last EVENT_LIMIT of them."""
    events = [event for receipt in receipts for event in frame_events(receipt["frame"])]
    return events[-EVENT_LIMIT:]


def revisions(receipts: Iterable[ToolReceipt]) -> set[int]:
    """The revisions the receipts' frames showed: their events are the stored ones."""
    return {frame["basis"]["revision"] for receipt in receipts if (frame := receipt["frame"]).get("basis")}


def merge(stored: list[dict[str, Any]], covered: set[int], heard: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stored events with the events this process heard that no receipt
    read holds (calls that ended after the read; the create result, which is
    not a receipt), in revision order: what was heard is never lost, what
    was stored is never shown twice."""
    extra = [event for event in heard if event["revision"] not in covered]
    return sorted([*stored, *extra], key=lambda event: event["revision"])[-EVENT_LIMIT:]


class StoredHistory:
    """The recent events of games this process did not hear: read from the
    store each time, except an ended game's (kept, bounded)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._ended: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()

    async def read(self, session_id: str) -> tuple[list[dict[str, Any]], set[int]]:
        """(events, the revisions the receipts read showed). Raises StoreError."""
        receipts = await self.store.recent_receipts(session_id, RECEIPTS_READ)
        return receipt_events(receipts), revisions(receipts)

    async def of_ended(self, session_id: str) -> list[dict[str, Any]]:
        """An ended game's history, read once. Raises StoreError."""
        kept = self._ended.get(session_id)
        if kept is None:
            kept = (await self.read(session_id))[0]
            self._ended[session_id] = kept
            while len(self._ended) > ENDED_HISTORIES_KEPT:
                self._ended.popitem(last=False)
        else:
            self._ended.move_to_end(session_id)
        return list(kept)
