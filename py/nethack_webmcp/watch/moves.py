"""moves.py - a game's moves and tool calls for the timeline, from the store only.

A *move* is one completed journal input (docs/REPLAY.md); the timeline's
move list groups moves by the tool call (operation) that made them. Both
come from stored data alone: the journal gives each input (method,
arguments, the boundary it reached) and the operation that made it; the
operation's receipt gives the call as the agent wrote it (its tool and
arguments, `travel {"to":"downstairs"}`; a receipt stored before receipts
kept their call is labelled by its inputs' methods) and, from its agent
frame, what the call ended with (outcome, messages, turn, Dlvl, HP). The
page's move list maps its receipts the same way (web/src/timeline/calls.js;
tests/watch/test_move_labels.py holds the two equal). Nothing is loaded, replayed or started
here, so a live game's timeline never asks its engine anything and never
sees its seed: journal inputs are the agent's own requests (session.create,
which carries the seed, is not a journal entry) and receipts are agent
frames, which never carry a live game's seed.

An index is read incrementally: the journal after the last completed entry
it holds, and each call's receipt once (a call whose receipt is not written
yet - it is still running - is read again next time).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..store import JournalEntry, Store, ToolReceipt

# request fields that bind an input to a session and a view, not what it does
BINDING = frozenset({"sessionId", "requestId", "expectedRevision", "viewId", "decisionId"})
PRAYER_METHOD = "game.pray"
# calls whose receipts are looked for again on each refresh: the running one, and a few before
# it whose receipt write failed (a receipt never stored is not read for ever)
RECEIPTS_AWAITED = 16
RECEIPTS_ONE_BY_ONE = 32  # more new calls than this: their receipts are read in one query
LABEL_LIMIT = 200  # characters of a call's label (an agent's long text argument is cut)


def call_facts(receipt: ToolReceipt | None) -> dict[str, Any]:
    """What a call ended with, from its receipt's frame (None: not stored yet)."""
    if receipt is None:
        return {"label": None, "status": None, "messages": [], "turn": None, "depth": None, "hp": None,
                "hpMax": None, "events": []}  # fmt: skip
    frame = receipt["frame"]
    scene = frame.get("scene") or {}
    me = scene.get("self") or {}
    vitals = me.get("vitals") or {}
    messages: list[str] = []
    for event in frame.get("events") or ():
        if event.get("type") == "passage":
            messages.append(" ".join(str(line) for line in event.get("lines") or ()))
        elif isinstance(event.get("text"), str):
            messages.append(event["text"])
    return {
        "label": call_label(receipt.get("call")),
        "status": (frame.get("outcome") or {}).get("status"),
        "messages": [text for text in messages if text.strip()],
        "turn": (frame.get("basis") or {}).get("turn"),
        "depth": (me.get("level") or {}).get("depth"),
        "hp": vitals.get("hp"),
        "hpMax": vitals.get("hpMax"),
        "events": sorted({str(event.get("type")) for event in frame.get("events") or () if event.get("type")}),
    }


def call_label(call: Any) -> str | None:
    """The tool call as the agent wrote it: `travel {"to":"downstairs"}` (the binding
    fields left out, compact JSON); None when the receipt kept no call (an old game's)."""
    if not isinstance(call, dict) or not isinstance(call.get("tool"), str):
        return None
    given = call.get("arguments")
    arguments = {k: v for k, v in given.items() if k not in BINDING} if isinstance(given, dict) else {}
    text = call["tool"] + (" " + json.dumps(arguments, separators=(",", ":"), ensure_ascii=False) if arguments else "")
    return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 3] + "..."


def input_label(entry: JournalEntry) -> str:
    """One input as text: its method and what it asked (the binding fields left out)."""
    params = {k: v for k, v in ((entry["request"] or {}).get("params") or {}).items() if k not in BINDING}
    if not params:
        return entry["method"]
    return entry["method"] + " " + " ".join(f"{key}={_short(value)}" for key, value in params.items())


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass
class Call:
    id: str
    first: int
    last: int
    inputs: list[str] = field(default_factory=list)
    facts: dict[str, Any] | None = None  # None until its receipt is stored

    def view(self, index: int) -> dict[str, Any]:
        facts = self.facts or call_facts(None)
        label = facts["label"] or self.method_label()
        events = list(facts["events"])
        if any(text.startswith(PRAYER_METHOD) for text in self.inputs):
            events.append("prayed")
        return {"index": index, "id": self.id, "first": self.first, "last": self.last,
                **facts, "label": label, "events": events}  # fmt: skip

    def method_label(self) -> str:
        """Without a stored call: the inputs' methods and arguments."""
        labels = list(dict.fromkeys(self.inputs))  # a call of 40 steps west says "game.move direction=west" once
        return "; ".join(labels[:4]) + (f"; ... ({len(labels) - 4} more kinds)" if len(labels) > 4 else "")


@dataclass
class MoveIndex:
    """The moves and calls of one game read so far."""

    session_id: str
    moves: list[dict[str, Any]] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    after_seq: int = 0  # the last journal entry taken (completed, rejected or not applied)

    @property
    def count(self) -> int:
        return len(self.moves)

    def call_of(self, move: int) -> Call | None:
        """The call that made `move` (1..count)."""
        if not 1 <= move <= self.count:
            return None
        return self.calls[self.moves[move - 1]["call"]]

    async def refresh(self, store: Store) -> None:
        """Read what the store added since the last refresh. Raises StoreError."""
        known_calls = len(self.calls)
        for entry in await store.journal(self.session_id, after_seq=self.after_seq):
            if entry["state"] == "reserved":
                break  # in flight: read again next time, from here
            self.after_seq = entry["seq"]
            if entry["state"] != "completed":
                continue  # refused inputs are not moves (the engine did not take them)
            move = self.count + 1
            if not self.calls or self.calls[-1].id != entry["operationId"]:
                self.calls.append(Call(entry["operationId"], move, move))
            call = self.calls[-1]
            call.last = move
            call.inputs.append(input_label(entry))
            receipt = entry["receipt"] or {}
            decision = receipt.get("decision")
            self.moves.append({
                "move": move,
                "method": entry["method"],
                "params": {k: v for k, v in (entry["request"].get("params") or {}).items() if k not in BINDING},
                "revision": receipt.get("revision"),
                "decision": decision.get("kind") if isinstance(decision, dict) else None,
                "ended": bool(receipt.get("ended")),
                "call": len(self.calls) - 1,
            })  # fmt: skip
        new_calls = self.calls[known_calls:]
        waiting = [c for c in self.calls[max(0, known_calls - RECEIPTS_AWAITED) : known_calls] if c.facts is None]
        if len(new_calls) > RECEIPTS_ONE_BY_ONE:  # a game read for the first time: all its receipts in one query
            by_id = {receipt["requestId"]: receipt for receipt in await store.receipts(self.session_id)}
            for call in new_calls:
                stored = by_id.get(call.id)
                if stored is not None:
                    call.facts = call_facts(stored)
            new_calls = []
        for call in [*waiting, *new_calls]:
            if call.facts is None:
                stored = await store.get_receipt(self.session_id, call.id)
                if stored is not None:
                    call.facts = call_facts(stored)

    def page(self, first: int, last: int) -> dict[str, Any]:
        """Moves first..last (clamped) and the calls that made them."""
        chosen = self.moves[max(first, 1) - 1 : max(last, 0)]
        indexes = sorted({move["call"] for move in chosen})
        return {"moves": chosen, "calls": {str(i): self.calls[i].view(i) for i in indexes}}
