"""timeline.py - open a stored game once, then seek to any input in milliseconds.

Move k is the game after its k-th completed journal input (move 0: just
created). `Timeline.open` replays the journal once on a forkable driver of
its own (forks.py) with every recorded boundary compared, and leaves a paused
fork - a checkpoint - behind at move 0, wherever the replay has cost
`spacing` seconds since the last one, at every move in `extra` (level
changes) and at the last move. `seek(k)` forks the nearest checkpoint at or
before k, replays the inputs after it (each boundary compared again) and
observes: the checkpoint is verified every time it is used, because the
inputs after it must reach exactly the journal's boundaries and the final
observation must report the boundary the journal recorded at k. A mismatch
raises ReplayRefused and no frame is returned.
"""

from __future__ import annotations

import asyncio
import bisect
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.codec import encode
from ..session import replay as journal_replay
from ..session.errors import SessionError
from ..store import JournalEntry, SessionInfo, Store, Summary
from .digest import chain
from .errors import ReplayRefused
from .forks import Connection, ForkHub

LOW_VERSION = 1
DEFAULT_SPACING = 0.04  # seconds of replay between checkpoints: a seek replays at most this much


@dataclass
class Checkpoint:
    move: int
    digest: str  # the journal's chain digest at `move` when the checkpoint was made
    summary: Summary  # the boundary the journal recorded at `move`
    connection: Connection


def _refuse_mismatch(move: int, entry: JournalEntry | None, expected: Any, got: Any) -> ReplayRefused:
    where = f"move {move}" + (f" (journal entry {entry['seq']}, {entry['method']})" if entry else " (the creation)")
    return ReplayRefused(
        "replayDiverged",
        f"the replay reached a different boundary at {where} than the journal recorded; "
        "the journal or its checkpoint does not reproduce this game, so no frame is shown",
        move=move,
        expected=expected,
        got=got,
    )


class Timeline:
    def __init__(self, info: SessionInfo, moves: list[JournalEntry], hub: ForkHub | None) -> None:
        self.info = info
        self.moves = moves  # completed inputs in order; move k follows moves[k-1]
        self.digests = chain(info, moves)
        self._hub = hub
        self.checkpoints: list[Checkpoint] = []
        self.open_seconds = 0.0
        self._cursor: tuple[int, Connection] | None = None
        #: the stored checkpoints being built in the background (open with a store and none usable)
        self.persisting: asyncio.Task[Any] | None = None

    @property
    def length(self) -> int:
        return len(self.moves)

    def summary_at(self, move: int) -> Summary:
        if move == 0:
            return self.info["createdSummary"]
        receipt = self.moves[move - 1]["receipt"]
        assert receipt is not None
        return receipt  # type: ignore[return-value]

    @classmethod
    async def open(
        cls,
        info: SessionInfo,
        entries: Sequence[JournalEntry],
        *,
        spacing: float = DEFAULT_SPACING,
        extra: Iterable[int] = (),
        store: Store | None = None,
    ) -> Timeline:
        """With a `store`, its persisted checkpoints (persisted_timeline.py)
        when it keeps a usable set - no replay at open, what a restarted
        server needs; else forks, and (for a game of persisted.MIN_INPUTS
        inputs or more) the persisted set is built in the background
        (`persisting`) for the next open."""
        started = time.perf_counter()
        try:
            todo, _, _, _ = journal_replay.plan(entries)
        except SessionError as exc:
            raise ReplayRefused("journalTampered", f"the journal cannot be replayed: {exc.message}") from exc
        extra = list(extra)
        if store is not None:
            from .persisted_timeline import PersistedTimeline

            stored = await PersistedTimeline.open_stored(info, todo, store, extra=extra)
            if stored is not None:
                return stored
        hub = ForkHub()
        timeline = cls(info, todo, hub)
        try:
            root = await hub.start()
            await timeline._create(root)
            await timeline._replay_all(root, spacing, set(extra))
        except BaseException:
            await timeline.close()
            raise
        timeline.open_seconds = time.perf_counter() - started
        if store is not None and len(todo) >= _persisted_minimum():
            from . import persisted

            timeline.persisting = asyncio.ensure_future(persisted.ensure(store, info, entries, extra=extra))
            timeline.persisting.add_done_callback(_drop_outcome)
        return timeline

    async def _create(self, root: Connection) -> None:
        created = await root.request(
            {"version": LOW_VERSION, "method": "session.create", "params": self.info["create"]}
        )
        if "error" in created:
            raise ReplayRefused("replayDiverged", f"the engine refused the recorded creation: {created['error']}")
        got = journal_replay.summary_of(created)
        if created.get("session") != self.info["metadata"] or got != self.info["createdSummary"]:
            raise _refuse_mismatch(0, None, self.info["createdSummary"], got)

    async def _replay_all(self, root: Connection, spacing: float, extra: set[int]) -> None:
        """One verified quiet pass over the journal, forking checkpoints in
        the stream (a fork line is answered in order, so the pipeline never
        drains for one)."""
        hub = self._hub
        assert hub is not None
        self.checkpoints.append(Checkpoint(0, self.digests[0], self.summary_at(0), await root.fork()))
        requests = [journal_replay.quiet(entry["request"]) for entry in self.moves]
        forked_after: list[int] = []  # moves after which a fork line was sent, in order
        last_fork = time.perf_counter()
        sent = 0
        window = journal_replay.PIPELINE_WINDOW
        for index in range(len(requests)):
            while sent < len(requests) and sent - index < window:
                root.writer.write(encode(requests[sent]).encode("utf-8") + b"\n")
                sent += 1
                now = time.perf_counter()
                if now - last_fork >= spacing or sent in extra or sent == len(requests):
                    forked_after.append(sent)
                    last_fork = now
                    root.writer.write(hub.fork_line())
            await root.writer.drain()
            response = await root._read()
            move = index + 1
            self._check(move, response)
            if forked_after and forked_after[0] == move:
                forked_after.pop(0)
                connection = await hub.forked(root)
                self.checkpoints.append(Checkpoint(move, self.digests[move], self.summary_at(move), connection))

    def _check(self, move: int, response: dict[str, Any]) -> None:
        entry = self.moves[move - 1]
        expected = entry["receipt"]
        if "error" in response:
            raise _refuse_mismatch(move, entry, expected, response["error"])
        got = journal_replay.summary_of(response)
        if got != expected:
            raise _refuse_mismatch(move, entry, expected, got)

    def verify_journal(self, entries: Sequence[JournalEntry]) -> None:
        """Refuse when the stored journal no longer is the one this timeline
        (and so each checkpoint) was made from."""
        todo, _, _, _ = journal_replay.plan(entries)
        digests = chain(self.info, todo)
        for checkpoint in self.checkpoints:
            if checkpoint.move >= len(digests) or digests[checkpoint.move] != checkpoint.digest:
                raise ReplayRefused(
                    "journalTampered",
                    f"the journal changed at or before move {checkpoint.move}: its digest there is not the one "
                    "the checkpoint was made from, so the replay is refused",
                    move=checkpoint.move,
                )

    async def seek(self, move: int) -> dict[str, Any]:
        """The verified session.observe response at `move`."""
        if not 0 <= move <= self.length:
            raise ReplayRefused("moveOutOfRange", f"move {move} is outside this game's 0..{self.length}")
        start = self.checkpoints[bisect.bisect_right([c.move for c in self.checkpoints], move) - 1]
        if self._cursor is not None and start.move <= self._cursor[0] <= move:
            position, connection = self._cursor  # stepping forward from the last seek: no fork needed
        else:
            if self._cursor is not None:
                self._cursor[1].close()
            if start.digest != self.digests[start.move]:
                raise ReplayRefused("checkpointTampered", f"checkpoint {start.move} does not match this journal")
            position, connection = start.move, await start.connection.fork()
        self._cursor = None
        try:
            requests = [journal_replay.quiet(entry["request"]) for entry in self.moves[position:move]]
            await connection.pipeline(requests, lambda index, response: self._check(position + index + 1, response))
            observed = await connection.request(
                {"version": LOW_VERSION, "method": "session.observe", "params": {"sessionId": self.info["sessionId"]}}
            )
            got = journal_replay.summary_of(observed)
            if got != self.summary_at(move):
                raise _refuse_mismatch(move, self.moves[move - 1] if move else None, self.summary_at(move), got)
        except BaseException:
            connection.close()
            raise
        self._cursor = (move, connection)
        return observed

    async def resume(self) -> Connection:
        """An engine of its own at the game's last move, boundaries verified:
        the caller owns (and closes) it."""
        last = self.checkpoints[-1]
        connection = await last.connection.fork()
        requests = [journal_replay.quiet(entry["request"]) for entry in self.moves[last.move :]]
        await connection.pipeline(requests, lambda index, response: self._check(last.move + index + 1, response))
        return connection

    async def close(self) -> None:
        """Close the forks; a background build of stored checkpoints goes on
        (they are for the next open, wherever it happens)."""
        if self._cursor is not None:
            self._cursor[1].close()
        for checkpoint in self.checkpoints:
            checkpoint.connection.close()
        if self._hub is not None:
            await self._hub.close()


def _persisted_minimum() -> int:
    from .persisted import MIN_INPUTS

    return MIN_INPUTS


def _drop_outcome(task: asyncio.Future[Any]) -> None:
    """A background build's outcome is read (a refusal there was already the replay's to report)."""
    if not task.cancelled():
        task.exception()
