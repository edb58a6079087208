"""replay.py - rebuild a game on a fresh engine from its journal, verifying every boundary.

A resume (or a recovery after an engine failure, or an import) creates the
game again with the recorded concrete parameters (including the recorded
sessionId and the fixed clock), then sends every *completed* journal entry
again, exactly as it was first sent, and checks after each one that the
engine reached exactly the recorded boundary: revision, decision {id, kind,
prompt}, ended and end. Rejected and not-applied entries sent no input and
are skipped.

The replay also rebuilds the navigation memory (`ReplayResult.memory`): it
folds the creation response and every replayed response into a fresh
WorldTracker in order, the same sequence of observations the original
session folded, so trap bases, visited squares, creature sightings, other
levels and each row's layers come back exactly. That is why it asks for
full responses: quiet ones carry no observation, and they also leave the
driver's changed-row tracking to accumulate, so the first response after a
quiet replay would resend rows the original game never resent. A replay
that needs only the boundaries can stay quiet (`memory=False`; its memory
is then only the final observation's).

A resume can also start from a restore point (restore_point.py, `replay_from`):
an engine the host already brought to the boundary after entry k (from a
checkpoint) and the navigation memory at k (a snapshot); then only the
entries after k are sent, with full responses folded into that memory, and
the same checks hold for them and for the final observation.

A trailing reservation without a receipt is the input that
died with its engine: it is never sent again; the caller decides how to
record it. Anything else - a different engine package, a different
creation, a boundary mismatch, a hole in the journal - stops the replay
with a typed SessionError instead of guessing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import Engine, EngineError
from ..navigation.level import WorldTracker
from ..store import JournalEntry, SessionInfo, Summary
from . import restore_point
from .errors import SessionError
from .restore_point import RestorePoint

LOW_VERSION = 1
PIPELINE_WINDOW = 64  # requests in flight during a replay on engines that can pipeline
# Benchmarks set this to measure a quiet replay everywhere (boundaries only:
# the navigation memory is not rebuilt, so such a resume is not exact).
QUIET_REPLAY = False


def summary_of(response: dict[str, Any]) -> Summary:
    """The boundary a response reports."""
    decision = response.get("decision")
    return Summary(
        revision=int(response["revision"]),
        decision=None if decision is None else {key: decision.get(key) for key in ("id", "kind", "prompt")},
        ended=bool(response.get("ended")),
        end=response.get("end"),
    )


def quiet(request: dict[str, Any]) -> dict[str, Any]:
    """The request with `quiet: true`: its response carries only what the
    boundary check compares (the driver numbers items at every boundary
    whether or not the response is quiet)."""
    return {**request, "params": {**request["params"], "quiet": True}}


@dataclass
class ReplayResult:
    created: dict[str, Any] | None  # the session.create response (None for a catch-up)
    observed: dict[str, Any]  # session.observe after the last replayed entry
    replayed: int  # completed entries sent again
    skipped: int  # rejected / not-applied entries (no input)
    last_seq: int  # the last entry processed (a trailing reservation is not processed)
    dangling: JournalEntry | None  # the trailing reservation without a receipt, if any
    seconds: float
    # The navigation memory: every replayed observation folded in (exact); after
    # a quiet replay only the final observation (an approximation: no trap
    # bases, sightings or earlier levels, and each row's layers as of now).
    memory: WorldTracker


class ReplayDiverged(SessionError):
    pass


def _diverged(entry: JournalEntry | None, expected: Any, got: Any, what: str) -> ReplayDiverged:
    where = (
        f"journal entry {entry['seq']} ({entry['method']}, requestId {entry['requestId']})"
        if entry
        else "session.create"
    )
    return ReplayDiverged(
        "replayDiverged",
        f"the replay diverged at {where}: {what}; the game is not resumed (the journal "
        "and this engine do not reproduce the recorded game)",
        seq=entry["seq"] if entry else 0,
        expected=expected,
        got=got,
    )


def _unseeded(params: dict[str, Any]) -> dict[str, Any]:
    """Creation facts for an error the agent receives: without the seed, which
    a live game never shows (the store keeps it for the operator)."""
    return {key: value for key, value in params.items() if key != "seed"}


async def _send_all(
    engine: Engine, requests: Sequence[dict[str, Any]], check: Callable[[int, dict[str, Any]], None]
) -> None:
    """Send every request, checking each response in order; hosts that can
    pipeline keep several requests in flight (`Engine.pipeline`)."""
    await engine.pipeline(requests, check, window=PIPELINE_WINDOW)


def plan(
    entries: Sequence[JournalEntry], *, after_seq: int = 0
) -> tuple[list[JournalEntry], int, int, JournalEntry | None]:
    """Split entries into (to replay, skipped count, last processed seq, dangling).

    Raises SessionError `journalCorrupt` for a gap or a reservation that is
    not the last entry (torn history is never truncated automatically)."""
    todo: list[JournalEntry] = []
    skipped = 0
    last = after_seq
    dangling = None
    for index, entry in enumerate(entries):
        if entry["seq"] != last + 1:
            raise SessionError(
                "journalCorrupt",
                f"the journal jumps from entry {last} to {entry['seq']}; the game is not resumed",
                seq=entry["seq"],
            )
        if entry["state"] == "reserved":
            if index != len(entries) - 1:
                raise SessionError(
                    "journalCorrupt",
                    f"journal entry {entry['seq']} has no receipt but later entries exist; the game is not resumed",
                    seq=entry["seq"],
                )
            dangling = entry
            continue
        last = entry["seq"]
        if entry["state"] == "completed":
            todo.append(entry)
        else:
            skipped += 1
    return todo, skipped, last, dangling


async def apply_entries(
    engine: Engine,
    entries: Sequence[JournalEntry],
    *,
    after_seq: int,
    start_summary: Summary,
    memory: WorldTracker | None = None,
) -> tuple[Summary, int, int, JournalEntry | None]:
    """Replay entries (seq > after_seq) on an engine already at `start_summary`.

    With `memory`, every response is a full one and its observation is
    folded into that tracker in order; without, the replay is quiet.
    Returns (last summary, replayed, last processed seq, dangling)."""
    todo, _, last_seq, dangling = plan(entries, after_seq=after_seq)
    reached = [start_summary]

    def check(index: int, response: dict[str, Any]) -> None:
        entry = todo[index]
        if "error" in response:
            raise _diverged(entry, entry["receipt"], response["error"], "the engine refused the input")
        got = summary_of(response)
        if got != entry["receipt"]:
            raise _diverged(entry, entry["receipt"], got, "it reached a different boundary")
        reached[0] = got
        if memory is not None:
            memory.apply(response.get("observation"), searching=entry["method"] == "game.search")

    requests = [entry["request"] if memory is not None else quiet(entry["request"]) for entry in todo]
    try:
        await _send_all(engine, requests, check)
    except EngineError as exc:
        raise SessionError("engineFailed", f"the engine failed during the replay: {exc}") from exc
    return reached[0], len(todo), last_seq, dangling


async def observe(engine: Engine, session_id: str) -> dict[str, Any]:
    try:
        observed = await engine.request(
            {"version": LOW_VERSION, "method": "session.observe", "params": {"sessionId": session_id}}
        )
    except EngineError as exc:
        raise SessionError("engineFailed", f"the engine failed during the replay: {exc}") from exc
    if "error" in observed:
        raise SessionError("replayFailed", f"the replayed game cannot be observed: {observed['error']}")
    return observed


async def replay(
    engine: Engine, info: SessionInfo, entries: Sequence[JournalEntry], *, memory: bool | None = None
) -> ReplayResult:
    """Create the game on `engine` and replay `entries` (the whole journal),
    rebuilding the navigation memory unless `memory` is False (quiet; the
    default is not QUIET_REPLAY).

    The caller owns the engine and closes it when this raises."""
    started = time.perf_counter()
    try:
        created = await engine.request({"version": LOW_VERSION, "method": "session.create", "params": info["create"]})
    except EngineError as exc:
        raise SessionError("engineFailed", f"the engine failed while re-creating the game: {exc}") from exc
    if "error" in created:
        raise _diverged(None, _unseeded(info["create"]), created["error"], "the engine refused the recorded creation")
    if created.get("session") != info["metadata"] or summary_of(created) != info["createdSummary"]:
        raise _diverged(
            None,
            {"session": _unseeded(info["metadata"]), **info["createdSummary"]},
            {"session": _unseeded(created.get("session") or {}), **summary_of(created)},
            "the engine created a different game",
        )
    tracker = WorldTracker() if (not QUIET_REPLAY if memory is None else memory) else None
    if tracker is not None:
        tracker.apply(created.get("observation"))
    summary, replayed, last_seq, dangling = await apply_entries(
        engine, entries, after_seq=0, start_summary=info["createdSummary"], memory=tracker
    )
    observed = await observe(engine, info["sessionId"])
    if summary_of(observed) != summary:
        raise _diverged(None, summary, summary_of(observed), "the final observation disagrees with the journal")
    if tracker is None:
        tracker = WorldTracker()
        tracker.apply(observed.get("observation"))
    skipped = sum(1 for entry in entries if entry["state"] in ("rejected", "notApplied"))
    return ReplayResult(
        created=created,
        observed=observed,
        replayed=replayed,
        skipped=skipped,
        last_seq=last_seq,
        dangling=dangling,
        seconds=time.perf_counter() - started,
        memory=tracker,
    )


async def replay_from(
    engine: Engine, info: SessionInfo, entries: Sequence[JournalEntry], *, point: RestorePoint
) -> ReplayResult:
    """Replay the entries after `point.seq` on an engine already at that
    boundary, folding their full responses into `point.memory`, then observe
    and check the final boundary (as `replay` does after the creation).

    Raises SessionError `checkpointRefused` for a point not of this game and
    journal, and the replay's own errors (replayDiverged: the engine was not
    where the point says, or the journal does not reproduce). `created` of
    the result is the point's creation facts. The caller owns the engine."""
    started = time.perf_counter()
    restore_point.check(point, info, entries)
    # Observed first, before any input: the engine must be at the point's
    # boundary; and an engine restored from a checkpoint remembers the last
    # observation it sent (delta responses, engine/deltas.py) while this host
    # object has seen none - a full response puts both sides in step.
    at = summary_of(await observe(engine, info["sessionId"]))
    if at != point.summary:
        raise _diverged(None, point.summary, at, f"the checkpoint's engine is not at journal entry {point.seq}")
    after = [entry for entry in entries if entry["seq"] > point.seq]
    summary, replayed, last_seq, dangling = await apply_entries(
        engine, after, after_seq=point.seq, start_summary=point.summary, memory=point.memory
    )
    observed = await observe(engine, info["sessionId"])
    if summary_of(observed) != summary:
        raise _diverged(None, summary, summary_of(observed), "the final observation disagrees with the journal")
    skipped = sum(1 for entry in after if entry["state"] in ("rejected", "notApplied"))
    return ReplayResult(
        # what Session builds from: the creation facts and boundary (its observation is the point's memory)
        created={**point.created, **info["createdSummary"]},
        observed=observed,
        replayed=replayed,
        skipped=skipped,
        last_seq=last_seq,
        dangling=dangling,
        seconds=time.perf_counter() - started,
        memory=point.memory,
    )
