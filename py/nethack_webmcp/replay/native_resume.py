"""native_resume.py - the native hosts' restore source: resume a stored game from its newest persisted checkpoint.

`native_restore_source(store)` is a GameRegistry.restore_source
(session/checkpoint_resume.py) for the stdio server and the HTTP service:
asked with a stored game and its journal, it takes the newest checkpoint the
store keeps that is of this journal (digest), of this engine (build and
base) and carries the navigation memory (the background checkpointer's,
checkpointer.py), restores it into a WebAssembly engine under Node
(engine/wasm_node.py: the host checks its bytes' sha256 again) and answers
that engine with the restore point; `Session.restore_from` then replays
only the entries after it and checks every boundary. A checkpoint refused
on the way is dropped (the checkpointer makes it again) and the next older
one tried; when every one is refused the refusals are named in the resume
report (checkpointRefused, and the whole journal is replayed).

The resumed game then plays on the WebAssembly build under Node: its engine
state exists only as that build's memory image (there is no way to put it
into a native process), and both builds answer byte for byte alike
(tests/engine/test_determinism.py), so the game is the same game. No
checkpoint (a short game, or none made yet), no Node, or every one refused:
None, and the registry replays the whole journal on a native engine.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..engine import Engine, EngineError
from ..engine.wasm_node import take
from ..session import replay as journal_replay
from ..session.errors import SessionError
from ..session.restore_point import RestorePoint, point_of
from ..store import JournalEntry, SessionInfo, Store
from . import persisted
from .digest import chain
from .errors import ReplayRefused

NativeRestoreSource = Callable[[SessionInfo, Sequence[JournalEntry]], Awaitable[tuple[Engine, RestorePoint] | None]]


def native_restore_source(store: Store) -> NativeRestoreSource:
    async def source(info: SessionInfo, entries: Sequence[JournalEntry]) -> tuple[Engine, RestorePoint] | None:
        session_id = info["sessionId"]
        index = await store.checkpoint_index(session_id)
        if not any(entry["meta"].get("navigationSha256") for entry in index):
            return None
        try:
            moves = journal_replay.plan(entries)[0]
        except SessionError:
            return None  # a torn journal is the whole replay's to refuse
        digests = chain(info, moves)
        try:
            engine = await take()
            key = persisted.engine_key(await engine.identity())
        except EngineError:
            return None  # no Node or no WebAssembly build here: the journal path
        good, _, _ = persisted.usable(index, digests, key)
        with_memory = {entry["move"] for entry in index if entry["meta"].get("navigationSha256")}
        refused: list[dict[str, Any]] = []
        for move in reversed([move for move in good if move in with_memory]):
            try:
                checkpoint = await persisted.restore(engine, store, session_id, move, digests[move])
                memory = persisted.navigation_of(checkpoint)
                assert memory is not None
                point = point_of(info, entries, persisted.seq_at(moves, move), memory)
            except (ReplayRefused, SessionError) as exc:
                refused.append({"code": exc.code, "message": exc.message, "move": move})
                await store.drop_checkpoints(session_id, [move])
                continue
            return engine, point
        await engine.close()
        if refused:
            raise SessionError("checkpointRefused", "every stored checkpoint of this game was refused", refused=refused)
        return None

    return source
