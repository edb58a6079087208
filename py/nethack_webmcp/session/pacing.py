"""pacing.py - hold a game's next input while a host killed now would resume it too slowly.

A native host killed in the middle of play resumes a game from its newest
persisted checkpoint and replays the journal entries after it
(docs/REPLAY.md). The background checkpointer (replay/checkpointer.py)
keeps those checkpoints close behind, but in a costly stretch of a game a
client with no pause between calls makes inputs faster than a WebAssembly
catch-up can replay them, and the tail a resume would replay grows without
bound. So the checkpointer gives each game it follows a `Pace`, and before
each input the session asks it (`paced`): while the tail, priced at what a
resume pays per input, is over the budget, the input waits for the next
checkpoint. A resume replays the tail on the catch-ups' engine with full
responses and folds each into its navigation memory; a catch-up replays
quietly, so it asks for full responses for the last few inputs of each
stretch and times them (the engine's share: replay/persisted.py
`price_sample`), and the live session times its own folds (the same
`WorldTracker.apply` on the same observations: the fold's share).

The wait happens only where nothing is in flight: no input of the game is
being sent, and no completion is held for a receipt (a leg's inputs after
its first go on; a catch-up could not use a held entry, and the two would
wait on each other). There the session's point is given to the
checkpointer's look (`waiting_point`: the memory for the catch-up, as
idle_point.py's points are), so the catch-up it waits for needs no fold. A
wait ends at `MAX_HOLD` whatever happens (a checkpointer that cannot catch
up must not stop play); after such a miss the game goes unpaced until a
catch-up succeeds again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..navigation import snapshot
from .idle_point import IdlePoint

#: seconds of replay a resume may face, beside the restore, the store's reads and the last observe
#: (~25 ms together on this machine): the goal is a resume within 200 ms (issue 25). The price is an
#: estimate from the last stretches, so the budget leaves room: on the bench's 50,000-input game the
#: worst resume was 117-120 ms at 0.09 and 137-158 ms at 0.12, for about the same throughput
TAIL_BUDGET = 0.09
MAX_HOLD = 2.0  # seconds an input waits for a checkpoint at most
#: a catch-up is due once the tail costs this share of the budget: it then runs while the game goes on,
#: and the game waits only when the catch-ups cannot keep its pace
DUE_SHARE = 0.5
SMOOTHING = 0.5  # weight of the newest catch-up's rate in the price (catch-ups replay stretches of the game)
FOLD_SMOOTHING = 0.05  # weight of the newest fold (one input's: noisier)


def _smoothed(old: float, new: float, weight: float = SMOOTHING) -> float:
    return new if not old else weight * new + (1 - weight) * old


@dataclass
class Pace:
    wake: Callable[[], None]  # the checkpointer's next look, at once
    budget: float = TAIL_BUDGET
    engine_per_input: float = 0.0  # seconds a full response took a catch-up's engine lately (0: not measured)
    fold_per_input: float = 0.0  # seconds the live session's folds of a response took lately
    checkpointed: int = 0  # the journal seq the stored checkpoints reach
    waiting: bool = False  # an input waits for a checkpoint now
    stalled: bool = False  # a wait ran out: unpaced until the next catch-up
    holds: int = 0  # inputs that waited (metrics, tests)
    held_seconds: float = 0.0
    #: told when an input starts (True) and stops (False) waiting: the page's follower works while a
    #: call is in flight only if that call waits for it (session/page_pacing.py)
    on_waiting: Callable[[bool], None] | None = None
    _advanced: asyncio.Event = field(default_factory=asyncio.Event)

    #: what a resume pays per input over the two measured shares (1 natively, where they are the
    #: resume's own work; the page's resume does more per input than its follower can time: page_pacing.py)
    scale: float = 1.0

    @property
    def per_input(self) -> float:
        """What a resume pays per input (0 until a catch-up measured the engine's share)."""
        return (self.engine_per_input + self.fold_per_input) * self.scale if self.engine_per_input else 0.0

    def tail(self, seq: int) -> float:
        """Seconds a resume would spend replaying the entries after the newest checkpoint."""
        return max(0, seq - self.checkpointed) * self.per_input

    def due(self, seq: int) -> bool:
        """Whether the checkpointer should catch the game up now, whatever its spacing."""
        return self.waiting or self.tail(seq) >= self.budget * DUE_SHARE

    def measured(self, priced: int, seconds: float, *, folded: bool) -> None:
        """A catch-up replayed `priced` inputs with full responses in `seconds` (`folded`: into a memory,
        as a resume does, so the fold is in that time already)."""
        if priced > 0:
            rate = seconds / priced - (self.fold_per_input if folded else 0.0)
            rate = max(rate, 1e-6)
            self.engine_per_input = _smoothed(self.engine_per_input, rate)

    def folded(self, seconds: float) -> None:
        """The live session folded one response into its memory in `seconds`."""
        self.fold_per_input = _smoothed(self.fold_per_input, seconds, FOLD_SMOOTHING)

    def advanced(self, seq: int) -> None:
        """The stored checkpoints now reach journal seq `seq`: a waiting input may go on."""
        self.checkpointed = max(self.checkpointed, seq)
        self.stalled = False
        self._advanced.set()
        self._advanced = asyncio.Event()

    def release(self) -> None:
        """The checkpointer stopped following the game: nothing waits for it any more."""
        self.engine_per_input = 0.0
        self._advanced.set()

    async def wait(self, session: Any) -> None:
        """Hold the session's next input while its tail is over the budget (see the module)."""
        if self.stalled or self.tail(int(session.journal.seq)) <= self.budget:
            return
        started = time.monotonic()
        self.waiting, self.holds = True, self.holds + 1
        if self.on_waiting is not None:
            self.on_waiting(True)
        try:
            async with asyncio.timeout(MAX_HOLD):
                while self.per_input and self.tail(int(session.journal.seq)) > self.budget:
                    self.wake()
                    await self._advanced.wait()
        except TimeoutError:
            self.stalled = True
        finally:
            self.waiting = False
            self.held_seconds += time.monotonic() - started
            if self.on_waiting is not None:
                self.on_waiting(False)


def waiting_point(session: Any) -> IdlePoint | None:
    """The point of a game whose next input waits for a checkpoint (`paced`: nothing is in flight
    then, so the tracker has applied exactly the settled entries), for the catch-up it waits for;
    None when no input waits."""
    pace: Pace | None = getattr(session, "pace", None)
    if pace is None or not pace.waiting:
        return None
    tracker = session.state.tracker
    return IdlePoint(int(session.journal.seq), tracker.level_id, snapshot.dump(tracker))


async def paced(session: Any) -> None:
    """Session._step_in_turn, before an input: wait while the game's pace says so. Only where nothing
    is in flight (see the module); a game no checkpointer follows is never held."""
    pace: Pace | None = session.pace
    if (
        pace is None
        or session.journal.holds_completion
        or session.journal.fault is not None
        or session.journal.lost is not None
        or session.state.ended
    ):
        return
    await pace.wait(session)
