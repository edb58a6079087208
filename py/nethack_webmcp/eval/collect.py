"""collect.py - one played game's entry in the results: its record, its replay and its metrics.

The record and the replay come from the service's store (the exported
journal, `exchange.export_game`, replayed on the native engine for its state
hash; the tool receipts are left out - the journal replays to every frame -
so a results file stays small). The highest experience level is the
record's `maxLevel` (every store keeps it since SQL schema 7: the maximum
over the whole game, resumes included); only a game without one (no store
to read, `--server` without `--store`, or a record from an older program)
falls back to the highest `vitals.level` in the stored receipts' frames and
in the frames the agent got. The deepest level is the largest of the
record's `deepestDepth`, the ending's `deepest` and the frames'.
"""

from __future__ import annotations

from typing import Any

from ..engine.native import NativeEngine
from ..exchange import export_game
from ..store import Store
from .progression import progression
from .proxy import Meter
from .suites import SuiteGame

NATURAL_ENDS = {"died", "ascended", "escaped", "failed"}


def frame_level(frame: dict[str, Any]) -> Any:
    """A frame's experience level (scene.self.vitals.level), or None."""
    hero = (frame.get("scene") or {}).get("self") or {}
    return (hero.get("vitals") or {}).get("level")


def receipts_max_level(receipts: list[dict[str, Any]]) -> int | None:
    levels = [level for r in receipts if isinstance(level := frame_level(r.get("frame") or {}), int)]
    return max(levels) if levels else None


def _largest(*values: Any) -> int | None:
    numbers = [v for v in values if isinstance(v, int)]
    return max(numbers) if numbers else None


async def exported(store: Store | None, session_id: str) -> dict[str, Any] | None:
    if store is None:
        return None
    return await export_game(store, session_id, engine_factory=NativeEngine.start)


def game_entry(
    game: SuiteGame,
    session_id: str,
    meter: Meter,
    document: dict[str, Any] | None,
    final: dict[str, Any],
    harness_quit: bool,
    budget_cause: str | None,
    agent: dict[str, Any],
    seconds: float,
) -> dict[str, Any]:
    record = dict((document or {}).get("record") or {})
    receipts = list((document or {}).get("receipts") or [])
    end = ((final.get("scene") or {}).get("end")) or {}
    deepest = _largest(record.get("deepestDepth"), end.get("deepest"), meter.deepest)
    max_level = record.get("maxLevel")
    if not isinstance(max_level, int):  # no record, or one stored before maxLevel was
        max_level = _largest(receipts_max_level(receipts), meter.max_level)
    reason = record.get("endReason") or end.get("how")
    if not harness_quit and reason in NATURAL_ENDS or reason == "ascended":
        cause = f"{reason}: {record.get('death') or end.get('death') or reason}" if reason == "died" else reason
    elif not harness_quit and reason:
        cause = str(reason)  # the agent quit (or a service limit ended it)
    else:
        cause = budget_cause or "agentStopped"
    replay = None
    if document is not None:
        replay = {key: value for key, value in document.items() if key != "receipts"}
        replay["receiptsOmitted"] = len(receipts)
    return {
        "index": game.index,
        "role": game.role,
        "seed": game.seed,
        "sessionId": session_id,
        "progression": progression(deepest, max_level, ascended=reason == "ascended"),
        "deepestDlvl": deepest,
        "maxXL": max_level,
        "score": record.get("score", end.get("score")),
        "turns": record.get("turns", end.get("turn")),
        "toolCalls": meter.calls,
        "invalidCalls": meter.invalid_calls,
        "refusedAfterBudget": meter.refused_after_budget,
        "tokensIn": agent.get("tokensIn"),
        "tokensOut": agent.get("tokensOut"),
        "costUsd": agent.get("costUsd"),
        "wallSeconds": round(seconds, 3),
        "cause": cause,
        "endReason": reason,
        "endedByHarness": harness_quit,
        "agent": agent,
        "bytesReceived": meter.bytes_received,
        "seedHits": meter.seed_hits,
        "record": record or None,
        "replay": replay,
    }
