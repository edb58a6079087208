"""checkpointer.py - keep every live game's persisted checkpoints close behind it, off the tool path.

One background task per registry (native hosts: hosting.py). It follows each
game this process owns through the journal, never through the game's
engine: a catch-up (`persisted.ensure(fold=True)`) restores the game's
newest stored checkpoint into a WebAssembly engine of its own (engine/
wasm_node.py), replays the journal entries after it with full responses
folded into its own navigation memory (exactly what an exact resume does,
session/replay.py apply_entries), and stores a checkpoint every
`persisted.MAX_INPUTS` inputs, at level changes and at the last move, each
with that memory (navigation/snapshot.py).

When: a game is caught up once `every` inputs were made since its last
catch-up, or once it has been `idle` seconds without a new input (and has
made at least `min_inputs`: a shorter game resumes by its journal in a few
milliseconds anyway). So a restart after a pause resumes with no input to
replay, and one in the middle of play with fewer than `every` + MAX_INPUTS.
No tool call waits for a catch-up to finish: it runs on its own engine and
its own store reads. Where the host's store can be opened again by another
process (SQLite file, PostgreSQL URL), the catch-ups run in a process of
their own at a lower priority (catch_up_worker.py, started at the first
catch-up), so the fold never shares the host's event loop with live calls;
with a store only this process can reach (the memory store) they run here,
between the live games' requests. A game closed or given up by this host is
caught up once more at its end, so its resume replays nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

from ..engine import EngineError
from ..engine.wasm_node import NodeWasmEngine, prepare
from ..session import replay as journal_replay
from ..session.errors import SessionError
from ..session.idle_point import idle_point, take_step_point, wait_step_point
from ..session.pacing import TAIL_BUDGET, Pace, waiting_point
from ..store import JournalEntry, StoreError
from . import persisted
from .catch_up_process import CatchUpProcess, store_locator
from .digest import chain, extend
from .errors import ReplayRefused

#: inputs since the last catch-up that start one while the game goes on: a host stopped in the middle
#: of play resumes by replaying about this many plus those made while a catch-up runs. A catch-up goes
#: on from the engine the last one left (persisted.KeptEngine) with the live session's memory (a quiet
#: replay), so one costs the replay of its inputs, not an engine start and a restore (docs/BENCHMARKS.md)
EVERY = 128
IDLE = 2.0  # seconds without an input after which a game is caught up
MIN_INPUTS = persisted.MIN_INPUTS  # shorter games resume by their journal (milliseconds)
INTERVAL = 0.1  # seconds between looks at the games (a look reads no store)
STEP_POINT_WAIT = 0.02  # seconds a look waits for a busy game's next input (its memory at that input)
#: games whose catch-up engine is kept between catch-ups (each a Node process at its last move, about
#: 210 MB); a game beyond them restores its newest checkpoint into the least recently used one
KEPT_ENGINES = 4
#: inputs at the end of each stretch of a quiet catch-up replayed with full responses, as a resume does:
#: their time is the price of a resume's replay there (session/pacing.py)
PRICE_SAMPLE = 16
FOLD_AFTER_BUSY_LOOKS = 10  # due looks that found the game held before a catch-up folds instead
PROCESS_RETRY = 60.0  # seconds of catch-ups in this process after the catch-up process failed
_running: set[Checkpointer] = set()


@dataclass
class _Followed:
    seq: int = 0  # the journal seq caught up to
    seen: int = 0  # the seq last seen, and when it changed
    seen_at: float = field(default_factory=time.monotonic)
    entries: list[JournalEntry] = field(default_factory=list)  # the journal read so far
    digests: list[str] = field(default_factory=list)  # its chain over the completed inputs
    failed: str | None = None  # a game that cannot be replayed is not tried again
    busy_looks: int = 0  # looks in a row at which it was due but held by a call
    kept: persisted.KeptEngine | None = None  # the last catch-up's engine, at its last move
    point_moves: list[int] = field(default_factory=list)  # the newest two checkpoints saved at live points
    used_at: float = 0.0  # when a catch-up last ran (the least recent gives its engine up first)
    pace: Pace | None = None  # the game's pace (session/pacing.py), while this checkpointer follows it


class Checkpointer:
    def __init__(
        self,
        games: Any,
        *,
        every: int = EVERY,
        idle: float = IDLE,
        min_inputs: int = MIN_INPUTS,
        interval: float = INTERVAL,
        locator: str | None = None,
        keep_engines: bool = False,
        tail_budget: float = TAIL_BUDGET,
    ) -> None:
        self.games = games  # a GameRegistry: .store and .sessions()
        self.locator = locator  # the store for a catch-up process; None: catch up in this process
        self._process: CatchUpProcess | None = None
        self._process_retry_at = 0.0  # until then catch-ups run here (the process failed)
        self.every, self.idle, self.min_inputs, self.interval = every, idle, min_inputs, interval
        self.tail_budget = tail_budget  # seconds of replay a resume after a kill may face (session/pacing.py)
        self._followed: dict[str, _Followed] = {}
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()  # a game's input waits for a checkpoint: look now (session/pacing.py)
        # set by `stop` beside the cancel: the loop ends at its next look even if a cancellation was
        # lost on the way (defence in depth: the package no longer uses Python 3.11's wait_for, which
        # dropped one, but a library it awaits may still)
        self._stopping = False
        self.catch_ups = 0  # catch-ups done (tests, metrics)
        self.seconds = 0.0  # spent in them
        self.folded = 0  # of them, those that folded full responses (no live memory given)
        self.missed = 0  # catch-ups whose live memory's entry was not in the store yet
        self.errors: list[str] = []  # the last failures (diagnostics)
        # catch-up engines kept between catch-ups (closed by `stop`): a running checkpointer's and
        # the catch-up process's; a one-off `catch_up` closes its engine
        self.keep_engines = keep_engines

    def start(self) -> None:
        self.keep_engines = True
        self._stopping = False
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        task, self._task = self._task, None
        self._stopping = True
        if task is not None:
            task.cancel()
            # (asyncio.wait: the task's cancellation is not raised here, a cancel of the caller is)
            await asyncio.wait([task])
        process, self._process = self._process, None
        if process is not None:
            await process.close()
        for followed in self._followed.values():
            _release_pace(followed)
            await _give_up_engine(followed)

    def failure(self, session_id: str) -> str | None:
        """Why the game cannot be checkpointed (its journal does not reproduce it), or None."""
        followed = self._followed.get(session_id)
        return followed.failed if followed else None

    def caught_up(self, session_id: str) -> int:
        """The journal seq the game's checkpoints reach."""
        followed = self._followed.get(session_id)
        return followed.seq if followed else 0

    async def _run(self) -> None:
        # a host restarted over kept checkpoints starts the WebAssembly engine now, so
        # the first resume or timeline does not wait for Node and the build to start
        with contextlib.suppress(StoreError, EngineError):
            if await self.games.store.has_checkpoints():
                prepare()
        caught_up = False
        while not self._stopping:
            # a pass that caught a game up looks again at once: a game played without pause is due
            # again by the time its catch-up ends, and each look waited for leaves its newest
            # checkpoint further behind (a resume after a kill replays the inputs in between)
            if not caught_up:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.interval):
                        await self._wake.wait()
            self._wake.clear()
            before = self.catch_ups
            live = {}
            for session in self.games.sessions():
                live[session.session_id] = session
                await self._guarded(session.session_id, self._look(session))
            for session_id in [known for known in self._followed if known not in live]:
                await self._guarded(session_id, self._finish(session_id))
            caught_up = self.catch_ups != before

    async def _guarded(self, session_id: str, work: Any) -> None:
        try:
            await work
        except (StoreError, EngineError, OSError) as exc:  # tried again at the next look
            self.errors.append(f"{session_id}: {exc}")
        except Exception as exc:  # best effort: a bug here must not stop the other games
            self._followed.setdefault(session_id, _Followed()).failed = repr(exc)
            self.errors.append(f"{session_id}: {exc!r}")
        del self.errors[:-20]

    async def _finish(self, session_id: str) -> None:
        """A game this host no longer holds (closed, ended, or taken over): its last inputs
        checkpointed once (a later resume replays nothing), then it is no longer followed."""
        followed = self._followed[session_id]
        if followed.seen > followed.seq and followed.seen >= self.min_inputs and not followed.failed:
            await self._catch_up(session_id)
        followed = self._followed.pop(session_id)
        _release_pace(followed)
        await _give_up_engine(followed)

    def _due(self, followed: _Followed, seq: int, now: float) -> bool:
        if seq != followed.seen:
            followed.seen, followed.seen_at = seq, now
        behind = seq - followed.seq
        if behind <= 0 or seq < self.min_inputs or followed.failed:
            return False
        return behind >= self.every or now - followed.seen_at >= self.idle

    async def _look(self, session: Any) -> None:
        if session.state.ended or session.lease is None:  # ended, or owned elsewhere (an observer)
            if session.session_id in self._followed:
                await self._finish(session.session_id)
            return
        followed = self._followed.get(session.session_id)
        if followed is None:
            followed = self._followed[session.session_id] = _Followed()
        if followed.pace is None and followed.failed is None:
            followed.pace = session.pace = Pace(wake=self._wake.set, budget=self.tail_budget, checkpointed=followed.seq)
        elif followed.failed is not None:
            _release_pace(followed)
        if (
            self.locator is not None
            and self._process is None
            and time.monotonic() >= self._process_retry_at
            and session.journal.seq >= self.min_inputs // 2
        ):
            # started half way to the first game's first catch-up: its engine compiles while the game
            # makes the rest of its first MIN_INPUTS inputs (a short game never starts one)
            self._process = await CatchUpProcess.start(self.locator)
        seq = int(session.journal.seq)
        paced_due = followed.pace is not None and followed.pace.due(seq) and seq > followed.seq
        if self._due(followed, seq, time.monotonic()) or (paced_due and not followed.failed):
            # a call or step holding the game (played without pause) gives the memory at the end of
            # its next input, a few milliseconds away; one that makes none that soon gives it at a
            # later look, and should none come, after a few looks the catch-up folds the responses
            # itself, as it must for a closed game
            point = (
                idle_point(session)
                or waiting_point(session)
                or take_step_point(session, followed.seq)
                or await wait_step_point(session, followed.seq, STEP_POINT_WAIT)
            )
            if point is not None:
                followed.busy_looks = 0
                await self._catch_up(session.session_id, (point.seq, point.navigation or b""))
                return
            followed.busy_looks += 1
            if followed.busy_looks >= FOLD_AFTER_BUSY_LOOKS:
                followed.busy_looks = 0
                await self._catch_up(session.session_id)

    async def _catch_up(self, session_id: str, given: tuple[int, bytes] | None = None) -> None:
        """One catch-up of a followed game, in the catch-up process when there is one."""
        if self.locator is None or time.monotonic() < self._process_retry_at:  # (the process failed lately)
            builder = await self.catch_up(session_id, given)
            if builder is not None:
                self._priced(session_id, builder.priced, builder.priced_seconds, folded=given is None)
            return
        followed = self._followed.setdefault(session_id, _Followed())
        started = time.perf_counter()
        try:
            if self._process is None or not self._process.alive:
                self._process = await CatchUpProcess.start(self.locator)
            reply = await self._process.catch_up(session_id, given)
        except StoreError:
            self._process_retry_at = time.monotonic() + PROCESS_RETRY
            raise
        if "error" in reply:
            raise StoreError(f"catch-up process: {reply['error']}")
        if "refused" in reply:
            followed.failed = str(reply["refused"])
            return
        if reply.get("missed"):
            self.missed += 1
        elif reply.get("seq") is not None:
            followed.seq = int(reply["seq"])
            self.folded += bool(reply.get("folded"))
            self.catch_ups += 1
            self.seconds += time.perf_counter() - started
            priced, seconds = int(reply.get("priced") or 0), float(reply.get("pricedSeconds") or 0.0)
            self._priced(session_id, priced, seconds, folded=bool(reply.get("pricedFolded")))

    def _priced(self, session_id: str, priced: int, seconds: float, *, folded: bool) -> None:
        """A catch-up ended: the game's pace learns a resume's price per input (`priced` inputs replayed
        with full responses in `seconds`, folded into a memory or not) and where its checkpoints are."""
        followed = self._followed.get(session_id)
        if followed is None or followed.pace is None:
            return
        if followed.failed is not None:
            _release_pace(followed)
            return
        followed.pace.measured(priced, seconds, folded=folded)
        followed.pace.advanced(followed.seq)

    async def catch_up(self, session_id: str, given: tuple[int, bytes] | None = None) -> persisted.Builder | None:
        """Checkpoint the game up to its stored journal's end now, with its navigation memory: the live
        session's at journal entry given[0] (session/idle_point.py; a quiet replay), else folded from
        the full responses of a replay from the newest checkpoint that keeps one."""
        followed = self._followed.setdefault(session_id, _Followed())
        store = self.games.store
        info = await store.get_session(session_id)
        if info is None:
            return None
        started = time.perf_counter()
        last = followed.entries[-1]["seq"] if followed.entries else 0
        followed.entries.extend(await store.journal(session_id, last))
        if followed.entries and followed.entries[-1]["state"] == "reserved":
            followed.entries.pop()  # in flight: read again once it is settled
        try:
            moves = journal_replay.plan(followed.entries)[0]
        except SessionError:
            return None  # a reservation in flight is the last entry; a torn journal is not ours to judge
        if not followed.digests:
            followed.digests = chain(info, moves)
        else:
            extend(followed.digests, moves[len(followed.digests) - 1 :])
        kept, followed.kept = followed.kept, None  # (the catch-up owns it now: kept again or closed)
        reuse = self._engine_to_reuse() if kept is None and self.keep_engines else None
        followed.used_at = time.monotonic()
        try:
            builder = await persisted.ensure(
                store,
                info,
                followed.entries,
                fold=given is None,
                given=given,
                spaced=False,
                digests=followed.digests,
                extra=level_changes(moves),
                kept=kept,
                keep=self.keep_engines,
                reuse=reuse,
                # with a live point the checkpoint that counts is the point's; the end is the next one's
                end=given is None,
                price_sample=PRICE_SAMPLE,
            )
        except ReplayRefused as refused:
            followed.failed = refused.message
            return None
        followed.kept = builder.kept
        await self._keep_few_engines()
        if given is not None and builder.given is None:
            # that entry was not settled in the store yet: no memory saved, tried again next look
            self.missed += 1
            return builder
        # caught up as far as its memory goes: with a live point, that point (the journal read may
        # reach further; the inputs after it are caught up again, with a later point)
        if given is not None:
            followed.seq = given[0]
            await self._drop_older_point(session_id, followed, builder)
        else:
            followed.seq = int(followed.entries[-1]["seq"]) if followed.entries else 0
        self.folded += builder.given is None
        self.catch_ups += 1
        self.seconds += time.perf_counter() - started
        return builder

    async def _drop_older_point(self, session_id: str, followed: _Followed, builder: persisted.Builder) -> None:
        """A live point's checkpoint is off the grid of every MAX_INPUTS inputs (which keeps seeks
        short by itself): once two newer points' are saved it only costs bytes, so it is dropped
        (not one at a level change: a level's start is often sought). The one before the newest
        stays for a resume whose newest checkpoint is refused (else it replays the whole journal)."""
        assert builder.given is not None
        points = [*followed.point_moves, builder.given[0]]
        followed.point_moves = points[-2:]
        aged = [move for move in points[:-2] if move % builder.max_inputs and move not in builder.extra]
        if aged:
            await self.games.store.drop_checkpoints(session_id, aged)

    def _engine_to_reuse(self) -> NodeWasmEngine | None:
        """With KEPT_ENGINES games holding one, the least recently caught-up game's engine: a game
        without one restores its checkpoint there instead of starting a Node (seconds of compilation)."""
        holding = [f for f in self._followed.values() if f.kept is not None]
        if len(holding) < KEPT_ENGINES:
            return None
        oldest = min(holding, key=lambda f: f.used_at)
        kept, oldest.kept = oldest.kept, None
        return kept.engine if kept is not None else None

    async def _keep_few_engines(self) -> None:
        """At most KEPT_ENGINES catch-up engines stay: the least recently caught-up games give theirs up."""
        holding = sorted((f for f in self._followed.values() if f.kept is not None), key=lambda f: f.used_at)
        for followed in holding[: max(0, len(holding) - KEPT_ENGINES)]:
            await _give_up_engine(followed)


def _release_pace(followed: _Followed) -> None:
    pace, followed.pace = followed.pace, None
    if pace is not None:
        pace.release()


async def _give_up_engine(followed: _Followed) -> None:
    kept, followed.kept = followed.kept, None
    if kept is not None:
        await kept.engine.close()


def level_changes(moves: list[JournalEntry]) -> list[int]:
    """Moves after an input that climbs (a checkpoint there: a level's start is often sought).
    The journal's boundaries carry no depth, so the climbing inputs stand for it."""
    found = []
    for k, entry in enumerate(moves, start=1):
        params = (entry["request"] or {}).get("params") or {}
        if entry["method"] == "game.climb" or params.get("direction") in ("up", "down"):
            found.append(k)
    return found


async def stop_all() -> None:
    """A host's exit: its checkpointers stopped (no catch-up made), their catch-up process and kept
    engines closed while the loop runs (a child left to the exit sweep is an asyncio warning on
    stderr, which a stdio client shows)."""
    for checkpointer in list(_running):
        _running.discard(checkpointer)
        await checkpointer.stop()


def enable(games: Any) -> Checkpointer | None:
    """The native hosts' persisted checkpoints on a registry: resumes start from them
    (native_resume.py) and a checkpointer keeps them. Off with NNH_CHECKPOINTS=0."""
    import os

    from .native_resume import native_restore_source

    if os.environ.get("NNH_CHECKPOINTS", "1") == "0":
        return None
    games.restore_source = native_restore_source(games.store)
    checkpointer = Checkpointer(games, locator=store_locator(games.store))
    checkpointer.start()
    _running.add(checkpointer)  # its task is referenced for as long as the host runs
    return checkpointer
