"""idle_point.py - a live game's last settled journal entry and its navigation memory there, read together.

A checkpoint that a session resumes from holds the engine's state and the
host's navigation memory at one journal entry. The engine's state can be
rebuilt by any engine replaying the journal quietly; the memory is what the
live session's own tracker holds, so the checkpointers (the native one in
replay/checkpointer.py, the page's in web/src/worker/follower.js through
worker.live_memory) take it from the live session instead of folding every
full response again. It is read in one synchronous step, only while no call
holds the game: then the tracker has applied exactly the inputs the journal
has settled, so the two agree.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Any

from ..navigation import snapshot


@dataclass(frozen=True)
class IdlePoint:
    seq: int  # the last settled journal entry
    level: Any  # the tracker's level then
    navigation: bytes | None  # navigation/snapshot.py's dump, when asked for


def idle_point(session: Any, *, dump: bool = True) -> IdlePoint | None:
    """The point of a game this host owns and nothing is running on; None while a call or a step
    holds it (the journal may be ahead of the memory: an input is reserved before the engine
    answers), while an input's completion is held for its tool receipt (not in the store yet),
    when it ended, its writes fail or another host owns it. Never waits: taking the game's lock
    here would answer a tool call that arrives meanwhile `busy`."""
    if (
        session.lock.locked()
        or session.stepping
        or (session.running is not None and not session.running.done)
        or session.journal.holds_completion  # (durability.py: written with the receipt)
        or session.state.ended
        or session.journal.fault is not None
        or session.gate == "lostOwnership"
    ):
        return None
    tracker = session.state.tracker
    return IdlePoint(int(session.journal.seq), tracker.level_id, snapshot.dump(tracker) if dump else None)


def want_step_point(session: Any) -> None:
    """Ask the session for its point at the end of its next accepted input."""
    session.step_point_wanted = True
    session.step_point_ready.clear()


def after_step(session: Any) -> None:
    """Session._step, after an accepted input's completion: the point, when one was asked for."""
    if session.step_point_wanted and session.journal.fault is None and session.journal.lost is None:
        session.step_point_wanted = False
        tracker = session.state.tracker
        session.step_point = IdlePoint(int(session.journal.seq), tracker.level_id, snapshot.dump(tracker))
        session.step_point_ready.set()


def take_step_point(session: Any, after_seq: int) -> IdlePoint | None:
    """The point a step left since it was asked for (once), when it is newer than `after_seq`."""
    point = getattr(session, "step_point", None)
    session.step_point = None
    return point if point is not None and point.seq > after_seq else None


async def wait_step_point(session: Any, after_seq: int, timeout: float) -> IdlePoint | None:
    """Ask for the point at the end of the next accepted input and wait up to `timeout` seconds for
    it. A game played without pause makes its next input within milliseconds; taking that point at
    the checkpointer's next look instead (0.1 s later) left each live checkpoint ~70 inputs further
    behind the game, inputs a resume after a kill replays (docs/BENCHMARKS.md)."""
    want_step_point(session)
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            await session.step_point_ready.wait()
    return take_step_point(session, after_seq)
