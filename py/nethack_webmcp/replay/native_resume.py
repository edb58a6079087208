"""native_resume.py - the native hosts' restore source: resume a stored game from its newest persisted checkpoint.

`NativeRestoreSource(store)` is a GameRegistry.restore_source
(session/checkpoint_resume.py) for the stdio server and the HTTP service.
`newest_seq` names the journal entry of the game's newest checkpoint that
keeps a navigation memory and is of this engine (build and base), so the
registry reads only the journal from that entry on; asked with that tail
(or the whole journal), the source restores the checkpoint into a
WebAssembly engine under Node (engine/wasm_node.py: the host checks the
bytes' sha256 again) and answers that engine with the restore point;
`Session.restore_from` then replays only the entries after it and checks
every boundary.

What binds a checkpoint to this journal: with the whole journal, its digest
is the journal's hash chain at its move (replay/digest.py); with a tail
(the prefix is not read: reading and hashing 50,000 entries is what a
resume from a checkpoint is there to avoid), the chain's last link - the
digest before its move, kept with it, and the journal entry at its seq
(request and receipt) must hash to its digest, so the checkpoint is of
that entry of this game; the boundary it claims must be the one the journal
recorded there (restore_point.check), and the replay of the tail must reach
every recorded boundary. A checkpoint refused on the way is dropped (the
checkpointer makes it again) and an older one tried; when none holds, the
registry reads the whole journal and replays it on a native engine, and the
resume report says why.

The resumed game then plays on the WebAssembly build under Node: its engine
state exists only as that build's memory image (no process image can be put
into a native process), and both builds answer byte for byte alike
(tests/engine/test_determinism.py), so the game is the same game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from ..engine import Engine, EngineError
from ..engine.wasm_node import NodeWasmEngine, take
from ..session import replay as journal_replay
from ..session.errors import SessionError
from ..session.restore_point import RestorePoint, point_of
from ..store import CheckpointIndex, JournalEntry, SessionInfo, Store
from . import persisted
from .digest import canonical, chain
from .errors import ReplayRefused


class NativeRestoreSource:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._key: str | None = None  # this host's engine (build and base), once known
        self._held: NodeWasmEngine | None = None  # taken to learn the key, kept for the restore
        self._named: tuple[str, list[CheckpointIndex]] | None = None  # what newest_seq read

    async def _engine_key(self) -> str:
        if self._key is None:
            if self._held is None or self._held.closed:
                self._held = await take()
            self._key = persisted.engine_key(await self._held.identity())
        return self._key

    async def _engine(self) -> NodeWasmEngine:
        held, self._held = self._held, None
        return held if held is not None and not held.closed else await take()

    async def _candidates(self, session_id: str) -> list[CheckpointIndex]:
        """The game's checkpoints that keep a navigation memory and are of this engine, oldest first."""
        index = await self.store.checkpoint_index(session_id)
        if not any(entry["meta"].get("navigationSha256") for entry in index):
            return []
        key = await self._engine_key()
        return [entry for entry in index if entry["meta"].get("navigationSha256") and entry["engine"] == key]

    async def newest_seq(self, info: SessionInfo) -> int | None:
        """The journal entry of the newest usable-looking checkpoint (checked when used), if any."""
        try:
            found = await self._candidates(info["sessionId"])
        except EngineError:
            return None
        self._named = (info["sessionId"], found)  # the call that follows reads no index again
        return found[-1]["seq"] if found and found[-1]["seq"] > 0 else None

    async def __call__(self, info: SessionInfo, entries: Sequence[JournalEntry]) -> tuple[Engine, RestorePoint] | None:
        session_id = info["sessionId"]
        named, self._named = self._named, None
        try:
            candidates = (
                named[1] if named is not None and named[0] == session_id else await self._candidates(session_id)
            )
        except EngineError:
            return None  # no Node or no WebAssembly build here: the journal path
        if not candidates or not entries:
            return None
        tail = entries[0]["seq"] > 1
        if tail:
            # only the checkpoint at the tail's first entry can be bound to it (its chain's last link)
            candidates = [entry for entry in candidates if entry["seq"] == entries[0]["seq"]]
            digests: list[str] | None = None
        else:
            try:
                digests = chain(info, journal_replay.plan(entries)[0])
            except SessionError:
                return None  # a torn journal is the whole replay's to refuse
        engine = await self._engine()
        refused: list[dict[str, Any]] = []
        for entry in reversed(candidates):
            move = entry["move"]
            try:
                expected = _linked_digest(info, entry, entries[0]) if digests is None else digests[move]
                if expected != entry["digest"]:
                    raise ReplayRefused(
                        "journalChanged",
                        f"the checkpoint at move {move} was made from a different journal than this game's",
                        move=move,
                    )
                # (last: the engine becomes the game's, which never restores again)
                checkpoint = await persisted.restore(engine, self.store, session_id, move, entry["digest"], last=True)
                memory = persisted.navigation_of(checkpoint)
                assert memory is not None
                point = point_of(info, entries, entry["seq"], memory)
            except ValueError as exc:  # a kept link that is not a digest
                refused.append({"code": "checkpointTampered", "message": str(exc), "move": move})
                await self.store.drop_checkpoints(session_id, [move])
                continue
            except (ReplayRefused, SessionError) as exc:
                refused.append({"code": exc.code, "message": exc.message, "move": move})
                await self.store.drop_checkpoints(session_id, [move])
                continue
            return engine, point
        await engine.close()
        if refused:
            raise SessionError("checkpointRefused", "every stored checkpoint of this game was refused", refused=refused)
        return None


def _linked_digest(info: SessionInfo, entry: CheckpointIndex, first: JournalEntry) -> str | None:
    """The chain digest the journal entry at the checkpoint's seq yields from the link kept before it."""
    previous = entry["meta"].get("previousDigest")
    if entry["move"] == 0:
        return chain(info, [])[0]
    if not isinstance(previous, str) or first["seq"] != entry["seq"] or first["state"] != "completed":
        return None
    return hashlib.sha256(
        bytes.fromhex(previous) + canonical({"request": first["request"], "receipt": first["receipt"]})
    ).hexdigest()


def native_restore_source(store: Store) -> NativeRestoreSource:
    return NativeRestoreSource(store)
