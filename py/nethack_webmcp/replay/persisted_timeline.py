"""persisted_timeline.py - a game's timeline on the checkpoints kept in the store: no replay at open.

What a restarted server opens instead of replaying the whole journal
(timeline.py's forks die with their process): the stored checkpoints
(persisted.py) that are this journal's and this engine's, on a WebAssembly
engine under Node of its own. `seek(k)` restores the nearest one at or
before k (or steps on from the previous seek), replays the inputs after it
with every boundary compared, observes and checks the observation's
boundary against the journal's at k - so a checkpoint is verified every
time it is used. A stored checkpoint the host refuses (its bytes changed:
checkpointTampered, named in `refusals`) is dropped, the seek goes on from
the one before it, and the refused one is rebuilt on the way (saved again
when the replay passes its move). Moves made after the last checkpoint are
checkpointed at open (`extend`).
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Sequence
from typing import Any

from ..engine.wasm_node import NodeWasmEngine, take
from ..store import JournalEntry, SessionInfo, Store
from . import persisted
from .errors import ReplayRefused
from .timeline import LOW_VERSION, Timeline, _refuse_mismatch


class PersistedTimeline(Timeline):
    """A Timeline whose checkpoints are rows of the store (see the module)."""

    def __init__(
        self,
        info: SessionInfo,
        moves: list[JournalEntry],
        store: Store,
        engine: NodeWasmEngine,
        stored: list[int],
    ) -> None:
        super().__init__(info, moves, None)
        self.store = store
        self.engine = engine
        self.stored = stored  # moves with a usable stored checkpoint, ascending (move 0 always)
        self.refusals: list[dict[str, Any]] = []  # {move, code, message}: refused when used, then rebuilt
        self._position: int | None = None  # the move the engine is at (None: unknown, restore first)

    @classmethod
    async def open_stored(
        cls, info: SessionInfo, moves: list[JournalEntry], store: Store, *, extra: Sequence[int] = ()
    ) -> PersistedTimeline | None:
        """The timeline on the stored checkpoints, or None when the store has
        no usable set (none, stale, or not of this journal at move 0): the
        caller then opens by a replay (and has them built)."""
        started = time.perf_counter()
        index = await store.checkpoint_index(info["sessionId"])
        if not index:
            return None
        engine = await take()
        try:
            key = persisted.engine_key(await engine.identity())
            timeline = cls(info, moves, store, engine, [])
            good, _refused, stale = persisted.usable(index, timeline.digests, key)
            if stale or 0 not in good:
                await engine.close()
                return None
            timeline.stored = good
            await timeline._extend(extra)
        except BaseException:
            await engine.close()
            raise
        timeline.open_seconds = time.perf_counter() - started
        return timeline

    async def _extend(self, extra: Sequence[int]) -> None:
        """Checkpoints for moves made after the last stored one (a game that went on)."""
        last = self.stored[-1]
        if last >= self.length:
            return
        async with persisted.building(self.info["sessionId"]):
            await self._restore_near(last)
            builder = persisted.Builder(
                self.store, self.info, self.moves, self.digests, self.engine, extra=[k for k in extra if k > last]
            )
            await builder.run(self._position or 0, self.length, first=False)
            self.stored = sorted({*self.stored, *builder.saved})
            self._position = self.length

    async def _restore_near(self, move: int) -> None:
        """Restore the nearest usable checkpoint at or before `move`; a refused
        one is dropped (and remembered for rebuilding) and the one before it tried."""
        while True:
            at = self.stored[bisect.bisect_right(self.stored, move) - 1]
            try:
                await persisted.restore(self.engine, self.store, self.info["sessionId"], at, self.digests[at])
            except ReplayRefused as refused:
                if at == 0 and refused.code not in ("checkpointTampered", "checkpointMissing"):
                    raise
                self.refusals.append({"move": at, "code": refused.code, "message": refused.message})
                self.stored.remove(at)
                await self.store.drop_checkpoints(self.info["sessionId"], [at])
                if at == 0:
                    await self._recreate()
                    return
                continue
            self._position = at
            return

    async def _recreate(self) -> None:
        """Move 0 itself refused: a fresh instance, the recorded creation (verified), saved again."""
        await self.engine.close()
        self.engine = await take()
        created = await self.engine.request(
            {"version": LOW_VERSION, "method": "session.create", "params": self.info["create"]}
        )
        if "error" in created or persisted.journal_replay.summary_of(created) != self.info["createdSummary"]:
            raise _refuse_mismatch(0, None, self.info["createdSummary"], created.get("error"))
        await persisted.Builder(self.store, self.info, self.moves, self.digests, self.engine).save(0)
        self.stored.insert(0, 0)
        self._position = 0

    async def seek(self, move: int) -> dict[str, Any]:
        if not 0 <= move <= self.length:
            raise ReplayRefused("moveOutOfRange", f"move {move} is outside this game's 0..{self.length}")
        nearest = self.stored[bisect.bisect_right(self.stored, move) - 1]
        if self._position is None or not nearest <= self._position <= move:
            self._position = None
            await self._restore_near(move)
        position = self._position
        assert position is not None
        try:
            await self._walk(position, move)
            observed = await self.engine.request(
                {"version": LOW_VERSION, "method": "session.observe", "params": {"sessionId": self.info["sessionId"]}}
            )
            if persisted.journal_replay.summary_of(observed) != self.summary_at(move):
                raise _refuse_mismatch(
                    move, self.moves[move - 1] if move else None, self.summary_at(move), observed.get("error")
                )
        except BaseException:
            self._position = None
            raise
        self._position = move
        return observed

    async def _walk(self, position: int, move: int) -> None:
        """Replay from `position` to `move`, saving again any refused checkpoint passed on the way."""
        builder = persisted.Builder(self.store, self.info, self.moves, self.digests, self.engine)
        rebuild = sorted(
            {r["move"] for r in self.refusals if position < r["move"] <= move and r["move"] not in self.stored}
        )
        for at in [*rebuild, move]:
            if at > position:
                await builder.advance(position, at)
                position = at
            if at in rebuild:
                await builder.save(at)
                bisect.insort(self.stored, at)

    async def resume(self) -> Any:
        """An engine of its own at the last move, boundaries verified (the caller closes it)."""
        await self.seek(self.length)
        engine, self.engine = self.engine, await take()
        self._position = None
        return engine

    async def close(self) -> None:
        await self.engine.close()


def checkpoint_moves(timeline: Timeline) -> list[int]:
    """The moves a timeline can restore from: its stored checkpoints, or its forks."""
    if isinstance(timeline, PersistedTimeline):
        return list(timeline.stored)
    return [checkpoint.move for checkpoint in timeline.checkpoints]
