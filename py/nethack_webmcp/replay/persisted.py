"""persisted.py - engine checkpoints kept in the store, so they outlive the host (docs/REPLAY.md).

A persisted checkpoint is the WebAssembly engine's (engine/wasm_node.py: the
Asyncify build under Node, byte-identical to the native driver) at move k of
a game, stored beside the journal (store.put_checkpoint) with what it
claims: the journal's hash chain digest at k (digest.py), the engine build
and base it restores on, the sha256 of its bytes, the boundary the journal
recorded at k and, when the host's navigation memory was folded up to k,
that memory (navigation/snapshot.py) and its sha256.

Trusted only when checked, in this order:
- `usable`: its digest is this journal's at its move and its engine is this
  host's (another build or Node: stale, rebuilt); else it is not used;
- `restore`: the host checks its bytes' sha256, build, base and digest
  again before restoring (CheckpointRejected: refused, named);
- the replay after it must reach every boundary the journal recorded, and
  the final observation the one recorded at the move sought.

`Builder` makes them: a verified replay on an engine of its own (never a
live game's), a checkpoint every `max_inputs` inputs or `spacing` seconds of
replay (later inputs replay slower, so checkpoints densen in inputs), at the
moves in `extra` (level changes) and at the last move; with a `memory` it
sends the full requests and folds every response into it, exactly as an
exact resume does (session/replay.py apply_entries), and keeps the memory
with every checkpoint it saves (a resume then replays at most MAX_INPUTS
inputs beyond what the catch-ups covered). The memory is stored
zlib-compressed (`pack`: its canonical JSON shrinks 10-14x on the bench's
game, so a memory at every checkpoint stays within the size budget); `navigation_of` reads both that and the plain JSON
that checkpoints kept before.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.wasm_node import CheckpointRejected, NodeWasmEngine, take
from ..navigation import snapshot
from ..navigation.level import WorldTracker
from ..session import replay as journal_replay
from ..store import Checkpoint, CheckpointIndex, JournalEntry, SessionInfo, Store, Summary
from .errors import ReplayRefused

LOW_VERSION = 1
MAX_INPUTS = 128  # inputs between checkpoints at most: a seek replays no more than this
#: games shorter than this are not checkpointed: one replay of their journal takes milliseconds
MIN_INPUTS = 256
SPACING = 0.05  # seconds of replay between checkpoints at most
_locks: dict[str, asyncio.Lock] = {}  # one builder per game at a time in this process


@dataclass
class KeptEngine:
    """A catch-up's engine left at the last move it replayed, for the game's next catch-up: that
    one goes on from here instead of starting an engine and restoring a checkpoint (what made a
    catch-up cost seconds, docs/BENCHMARKS.md)."""

    engine: NodeWasmEngine
    move: int  # the move the engine is at (checkpointed only when that catch-up saved its end)
    digest: str  # the journal's chain digest there: the next journal must still have it
    memory: WorldTracker | None  # the folded memory at `move` (a fold catch-up), else None

    def usable(self, digests: Sequence[str], fold: bool, before: int | None) -> bool:
        """Whether the next catch-up can go on from here: the same journal up to `move`, the memory
        a fold needs, and not past the live point it must pass through (`before`)."""
        return (
            not self.engine.closed
            and self.move < len(digests)
            and digests[self.move] == self.digest
            and (self.memory is not None or not fold)
            and (before is None or self.move <= before)
        )


def engine_key(identity: dict[str, Any]) -> str:
    """What a checkpoint must have been made on: the build and its base memory."""
    return f"{identity['build']} {identity['baseHash']}"


def summary_at(info: SessionInfo, moves: Sequence[JournalEntry], move: int) -> Summary:
    if move == 0:
        return info["createdSummary"]
    receipt = moves[move - 1]["receipt"]
    assert receipt is not None
    return receipt  # type: ignore[return-value]


def move_of_seq(moves: Sequence[JournalEntry], seq: int) -> int | None:
    """The move whose input is journal entry `seq` (0: none yet), or None when the moves do not hold it."""
    if seq == 0 and not moves:
        return 0
    for move in range(len(moves), 0, -1):  # the entry sought is near the end
        if moves[move - 1]["seq"] == seq:
            return move
        if moves[move - 1]["seq"] < seq:
            break
    return None


def seq_at(moves: Sequence[JournalEntry], move: int) -> int:
    return 0 if move == 0 else int(moves[move - 1]["seq"])


def building(session_id: str) -> asyncio.Lock:
    lock = _locks.get(session_id)
    if lock is None:
        lock = _locks[session_id] = asyncio.Lock()
    return lock


def usable(index: Sequence[CheckpointIndex], digests: Sequence[str], key: str) -> tuple[list[int], list[int], bool]:
    """(moves usable, moves refused, stale): a checkpoint is usable when it
    is of this journal (its digest) and this engine; `stale` when any was
    made on another engine (then the whole set is rebuilt)."""
    good: list[int] = []
    refused: list[int] = []
    stale = False
    for entry in index:
        move = entry["move"]
        if entry["engine"] != key:
            stale = True
            refused.append(move)
        elif move < len(digests) and entry["digest"] == digests[move]:
            good.append(move)
        else:
            refused.append(move)
    return good, refused, stale


def record_of(checkpoint: Checkpoint) -> dict[str, Any]:
    """The engine record a stored checkpoint holds (what wasm-checkpoint-host.mjs restores)."""
    meta = checkpoint["meta"]
    return {
        "move": checkpoint["move"],
        "digest": checkpoint["digest"],
        "summary": meta.get("summary"),
        "format": meta.get("format"),
        "build": meta.get("build"),
        "baseHash": meta.get("baseHash"),
        "sha256": checkpoint["sha256"],
        "bytes": checkpoint["state"],
    }


def pack(memory: bytes) -> bytes:
    """A navigation memory (snapshot.dump's canonical JSON) as a checkpoint stores it."""
    return zlib.compress(memory, 6)


def navigation_of(checkpoint: Checkpoint) -> bytes | None:
    """The navigation memory kept with a checkpoint (snapshot.dump's bytes), checked against the
    sha256 it claims for the bytes stored."""
    data = checkpoint["navigation"]
    if data is None:
        return None
    refused = ReplayRefused(
        "checkpointTampered",
        f"the navigation memory of the checkpoint at move {checkpoint['move']} does not match its digest",
        move=checkpoint["move"],
    )
    if hashlib.sha256(data).hexdigest() != checkpoint["meta"].get("navigationSha256"):
        raise refused
    if data[:1] == b"{":  # kept before memories were compressed: the JSON itself
        return bytes(data)
    try:
        return zlib.decompress(data)
    except zlib.error:
        raise refused from None


async def restore(
    engine: NodeWasmEngine, store: Store, session_id: str, move: int, digest: str, *, last: bool = False
) -> Checkpoint:
    """Put the stored checkpoint at `move` into `engine`. Raises ReplayRefused:
    checkpointMissing (gone from the store), checkpointTampered /
    checkpointStale / journalChanged (refused; the engine is unchanged).
    `last`: the engine will not restore again (NodeWasmEngine.restore)."""
    checkpoint = await store.get_checkpoint(session_id, move)
    if checkpoint is None:
        raise ReplayRefused("checkpointMissing", f"the checkpoint at move {move} is gone from the store", move=move)
    try:
        await engine.restore(record_of(checkpoint), digest, last=last)
    except CheckpointRejected as refused:
        raise ReplayRefused(refused.code, refused.message, move=move) from None
    return checkpoint


def check_response(info: SessionInfo, moves: Sequence[JournalEntry], move: int, response: dict[str, Any]) -> None:
    """Refuse (replayDiverged) a response that is not the boundary the journal recorded at `move`."""
    entry = moves[move - 1]
    got = response.get("error") if "error" in response else journal_replay.summary_of(response)
    if "error" in response or got != entry["receipt"]:
        raise ReplayRefused(
            "replayDiverged",
            f"the replay reached a different boundary at move {move} (journal entry {entry['seq']}, "
            f"{entry['method']}) than the journal recorded; the journal or its checkpoint does not reproduce "
            "this game, so no frame is shown",
            move=move,
            expected=entry["receipt"],
            got=got,
        )


class Builder:
    """Checkpoints of one game taken as a verified replay goes (see the module)."""

    def __init__(
        self,
        store: Store,
        info: SessionInfo,
        moves: Sequence[JournalEntry],
        digests: Sequence[str],
        engine: NodeWasmEngine,
        *,
        memory: WorldTracker | None = None,
        extra: Iterable[int] = (),
        max_inputs: int = MAX_INPUTS,
        spacing: float | None = SPACING,
        given: tuple[int, bytes] | None = None,
        price_sample: int = 0,
    ) -> None:
        self.store, self.info, self.moves, self.digests, self.engine = store, info, moves, digests, engine
        self.memory = memory
        self.given = given  # (move, navigation/snapshot.py dump): the live session's memory at that move
        self.extra = sorted(set(extra))
        self.max_inputs = max_inputs
        self.spacing = spacing
        self.saved: list[int] = []
        self.bytes = 0
        self.kept: KeptEngine | None = None  # the engine at the last move, when `ensure` was asked to keep it
        # a resume's price per input (session/pacing.py): the inputs replayed with full responses (a quiet
        # replay's last few of each stretch, a fold's all) and the seconds those took, folding included
        self.price_sample = price_sample
        self.priced = 0
        self.priced_seconds = 0.0

    async def save(self, move: int) -> None:
        summary = summary_at(self.info, self.moves, move)
        record = await self.engine.save(move, self.digests[move], summary)
        navigation = None
        if self.given is not None and self.given[0] == move:
            navigation = pack(self.given[1])
        elif self.memory is not None:
            navigation = pack(snapshot.dump(self.memory))
        checkpoint: Checkpoint = {
            "sessionId": self.info["sessionId"],
            "move": move,
            "seq": seq_at(self.moves, move),
            "digest": self.digests[move],
            "engine": f"{record['build']} {record['baseHash']}",
            "sha256": str(record["sha256"]),
            "meta": {
                "format": record["format"],
                "build": record["build"],
                "baseHash": record["baseHash"],
                "summary": summary,
                "navigationSha256": hashlib.sha256(navigation).hexdigest() if navigation is not None else None,
                # the chain's link before this move: with the journal entry at `seq`, it yields
                # `digest` (a resume that reads only the journal's tail checks that link)
                "previousDigest": self.digests[move - 1] if move else None,
            },
            "createdAt": time.time(),
            "state": record["bytes"],
            "navigation": navigation,
        }
        await self.store.put_checkpoint(checkpoint)
        self.saved.append(move)
        self.bytes += len(record["bytes"]) + len(navigation or b"")

    async def advance(self, at: int, to: int) -> None:
        """Replay moves at+1..to on the engine (which is at `at`), each boundary compared."""
        todo = self.moves[at:to]
        memory = self.memory
        # a fold asks for full responses; a quiet replay for none but, with `price_sample`, its last few:
        # their time is what a resume (full responses, folded) pays per input in this stretch - a quiet
        # response skips the observation, whose cost varies most from one stretch to another
        full_from = 0 if memory is not None else max(0, len(todo) - self.price_sample)

        def check(index: int, response: dict[str, Any]) -> None:
            check_response(self.info, self.moves, at + index + 1, response)
            if memory is not None:
                memory.apply(response.get("observation"), searching=todo[index]["method"] == "game.search")

        def check_full(index: int, response: dict[str, Any]) -> None:
            check(full_from + index, response)

        window = journal_replay.PIPELINE_WINDOW
        if full_from:
            await self.engine.pipeline(
                [journal_replay.quiet(e["request"]) for e in todo[:full_from]], check, window=window
            )
        if full_from < len(todo):
            started = time.perf_counter()
            await self.engine.pipeline([entry["request"] for entry in todo[full_from:]], check_full, window=window)
            self.priced += len(todo) - full_from
            self.priced_seconds += time.perf_counter() - started

    async def run(self, at: int, to: int, *, first: bool, end: bool = True) -> None:
        """From `at` (where the engine is; saved first when `first`) to `to`, checkpoints as it goes:
        at every multiple of `max_inputs` (one grid whatever each run started from, so a later run's
        live points can be dropped as they age: checkpointer.py), at the `extra` moves and, with
        `end`, at `to`."""
        if first:
            await self.save(at)
        rate = 2000.0  # inputs per second until measured
        while at < to:
            upcoming = [move for move in self.extra if move > at]
            target = min(to, (at // self.max_inputs + 1) * self.max_inputs)
            if self.memory is None and self.spacing is not None:  # by the quiet replay's cost (a seek's)
                target = min(target, at + max(8, int(rate * self.spacing)))
            if upcoming:
                target = min(target, upcoming[0])
            started = time.perf_counter()
            await self.advance(at, target)
            rate = (target - at) / max(1e-4, time.perf_counter() - started)
            at = target
            if at != to or end or at in self.extra or at % self.max_inputs == 0:
                await self.save(at)


async def ensure(
    store: Store,
    info: SessionInfo,
    entries: Sequence[JournalEntry],
    *,
    extra: Iterable[int] = (),
    fold: bool = False,
    digests: list[str] | None = None,
    given: tuple[int, bytes] | None = None,
    spaced: bool = True,
    kept: KeptEngine | None = None,
    keep: bool = False,
    reuse: NodeWasmEngine | None = None,
    end: bool = True,
    price_sample: int = 0,
) -> Builder:
    """Make the game's stored checkpoints cover its whole journal: drop the
    ones not of this journal (and all when any is of another engine: stale),
    go on from the newest usable one (with `fold`, the newest that keeps its
    navigation memory) or from the creation, and checkpoint to the last move.
    `given` is (journal seq, memory) from the live session (session/idle_point.py):
    a quiet replay then checkpoints that entry's move with that memory, no
    response folded. On an engine of its own, closed at the end. Returns the
    builder (what it saved). `spaced`: a quiet replay also spaces them by its
    cost (a timeline's seeks), else only every `MAX_INPUTS` (the checkpointer:
    a size that does not grow with the machine's load). `kept`: the engine the
    game's last catch-up left (taken over: used when it still fits, else
    put to work as `reuse` is); `keep`: leave this one's engine in
    `builder.kept` instead of closing it; `reuse`: an engine another game's
    catch-up left (a restore starts a fresh instance in its Node process, so
    it serves any game's checkpoint; a replay from the creation takes a new
    engine); `end`: checkpoint the last move too (else only where the
    spacing, `extra` and `given` fall: a catch-up in the middle of play,
    whose end the next one passes). `price_sample`: a quiet replay's last
    inputs of each stretch ask for full responses and are timed, a resume's
    price (builder.priced, session/pacing.py). Raises ReplayRefused when the journal
    does not reproduce the game."""
    from .digest import chain

    session_id = info["sessionId"]
    moves = journal_replay.plan(entries)[0]
    if digests is None or len(digests) != len(moves) + 1:  # the follower's chain, extended as the game went on
        digests = chain(info, moves)
    async with building(session_id):
        given_seq = given[0] if given is not None else None
        given_at = move_of_seq(moves, given_seq) if given_seq is not None else None
        if kept is not None and not kept.usable(digests, fold, given_at if given is not None else None):
            reuse, kept = kept.engine, None  # good for a restore still
        if reuse is not None and reuse.closed:
            reuse = None
        engine = kept.engine if kept is not None else reuse if reuse is not None else await take()
        builder: Builder | None = None
        try:
            index = await store.checkpoint_index(session_id)
            good, refused, stale = usable(index, digests, engine_key(await engine.identity()))
            if stale:
                await store.drop_checkpoints(session_id)
                good = []
            elif refused:
                await store.drop_checkpoints(session_id, refused)
            # (an entry not settled in this read: no memory saved, the builder's `given` is None)
            given_move = move_of_seq(moves, given[0]) if given is not None else None
            if given_move is not None:  # the replay passes through it (its checkpoint gets the memory)
                extra = [*extra, given_move]
                good = [move for move in good if move < given_move or move == given_move == 0]
            keeps_memory = {entry["move"] for entry in index if entry["meta"].get("navigationSha256")}
            candidates = [move for move in good if move in keeps_memory] if fold else good
            builder = Builder(
                store,
                info,
                moves,
                digests,
                engine,
                extra=extra,
                given=(given_move, given[1]) if given is not None and given_move is not None else None,
                spacing=SPACING if spaced else None,
                price_sample=price_sample,
            )
            if kept is not None and 0 in good:  # the engine is there already (a set with its start)
                at = kept.move
                builder.memory = kept.memory if fold else None
            else:
                at = await _start(builder, candidates, fold, fresh=kept is None and reuse is None)
            await builder.run(at, len(moves), first=at == 0, end=end)
        except BaseException:
            await (builder.engine if builder is not None else engine).close()
            raise
        if keep:
            builder.kept = KeptEngine(builder.engine, len(moves), digests[len(moves)], builder.memory)
        else:
            await builder.engine.close()
        return builder


async def _start(builder: Builder, candidates: list[int], fold: bool, *, fresh: bool) -> int:
    """Put the builder's engine (and memory) at the newest candidate that
    restores, else at the creation (on a new engine unless it is `fresh`:
    one that played another game or moves cannot create this one); the
    move it is at."""
    info = builder.info
    for move in reversed(candidates):
        try:
            checkpoint = await restore(builder.engine, builder.store, info["sessionId"], move, builder.digests[move])
            memory = navigation_of(checkpoint) if fold else None
            builder.memory = snapshot.load(memory) if memory is not None else None
        except (ReplayRefused, ValueError):
            await builder.store.drop_checkpoints(info["sessionId"], [move])
            continue
        return move
    if not fresh:
        await builder.engine.close()
        builder.engine = await take()
    created = await builder.engine.request(
        {"version": LOW_VERSION, "method": "session.create", "params": info["create"]}
    )
    if "error" in created or journal_replay.summary_of(created) != info["createdSummary"]:
        raise ReplayRefused("replayDiverged", "the engine did not recreate this game as the journal recorded it")
    if fold:
        builder.memory = WorldTracker()
        builder.memory.apply(created.get("observation"))
    return 0
