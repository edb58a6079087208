"""page_checkpoints.py - the page's checkpoints, for Python: the memory its replays fold, and a restore source.

Runs inside Pyodide, in the browser's core worker (like engine/wasm.py, the
`js`/`pyodide` imports are inside the functions, so CPython can import it).

* `MemoryFold` - the navigation memory a page replay that takes checkpoints
  (web/src/worker/checkpoint-replay.js) folds its full responses into, so
  each checkpoint record carries the navigation snapshot at its move
  (navigation/snapshot.py). The replay's own responses are folded, not the
  live session's tracker: checkpoints are made wherever the replay's cost
  says (and for games played elsewhere, imported, or before this existed),
  and a replay with full responses rebuilds exactly the memory the live game
  had (docs/DURABILITY.md, "Exact resume").
* `page_restore_source()` - the registry's RestoreSource in the page: asks
  the worker's `nethackSessionCheckpoints` (web/src/worker/session-resume.js)
  for the newest verified checkpoint at or before the game's last move, as
  an Asyncify instance already restored to it plus its navigation snapshot,
  and makes the RestorePoint; the registry then replays only the tail
  (checkpoint_resume.py).

Only text crosses between JavaScript and Python (responses, the snapshot's
ASCII JSON), as everywhere in the worker.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..engine import Engine
from ..navigation import snapshot
from ..navigation.level import WorldTracker
from ..store import JournalEntry, SessionInfo
from .errors import SessionError
from .restore_point import RestorePoint, point_of

HOST_GLOBAL = "nethackSessionCheckpoints"


class MemoryFold:
    """One replay's navigation memory: begun at the creation or loaded from a
    checkpoint's snapshot, then fed every response in order."""

    def __init__(self) -> None:
        self.tracker = WorldTracker()
        self._level: str | None = None

    def begin(self, created_text: str) -> None:
        """A new memory from the session.create response text."""
        self.tracker = WorldTracker()
        self.tracker.apply(json.loads(created_text).get("observation"))
        self._level = self.tracker.level_id

    def restore(self, snapshot_text: str) -> None:
        """The memory a checkpoint holds (its snapshot text; ValueError when it does not load)."""
        self.tracker = snapshot.load(snapshot_text.encode("ascii"))
        self._level = self.tracker.level_id

    def fold(self, responses_text: str, searching: str) -> str:
        """Fold response texts (one per line); `searching` has one '1' or '0'
        per response: whether it answered a game.search. Returns a JSON list
        of the offsets whose response arrived on another level (level changes)."""
        lines = responses_text.split("\n") if responses_text else []
        if len(lines) != len(searching):
            raise ValueError(f"{len(lines)} responses but {len(searching)} search flags")
        changes = []
        for offset, (line, flag) in enumerate(zip(lines, searching, strict=True)):
            self.tracker.apply(json.loads(line).get("observation"), searching=flag == "1")
            level = self.tracker.level_id
            if level != self._level:
                changes.append(offset)
                self._level = level
        return json.dumps(changes)

    def dump(self) -> str:
        """The navigation snapshot now (ASCII JSON text)."""
        return snapshot.dump(self.tracker).decode("ascii")


def memory_fold() -> MemoryFold:
    return MemoryFold()


def page_restore_source(host_name: str = HOST_GLOBAL) -> Any:
    """The RestoreSource of the page's checkpoints (None from the source when the worker has none)."""

    async def source(info: SessionInfo, entries: Sequence[JournalEntry]) -> tuple[Engine, RestorePoint] | None:
        import js  # Pyodide only
        from pyodide.ffi import JsException

        from ..engine.wasm import WasmEngine

        host = getattr(js, host_name, None)
        if host is None:
            return None
        moves = [entry for entry in entries if entry["state"] == "completed"]
        try:
            found = json.loads(str(await host.restorePoint(info["sessionId"], len(moves))))
        except JsException as exc:
            raise SessionError("checkpointRefused", f"the page's checkpoints cannot be read: {exc}") from None
        refused = found.get("refused") or []
        if found.get("move") is None:
            if refused:  # there were checkpoints, and none held
                raise SessionError("checkpointRefused", refused[-1]["message"], refused=refused)
            return None
        engine = WasmEngine(host.take(found["handle"]))
        move = int(found["move"])
        try:
            point = point_of(info, entries, moves[move - 1]["seq"] if move else 0, found["navigation"].encode("utf-8"))
        except SessionError as exc:
            await engine.close()
            raise SessionError(
                exc.code, exc.message, refused=[*refused, {"move": move, "message": exc.message}]
            ) from None
        point.report = {"move": move, "refused": refused} if refused else {"move": move}
        return engine, point

    return source
