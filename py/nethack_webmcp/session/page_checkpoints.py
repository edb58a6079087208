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
  for the newest verified checkpoint at or before the journal's last entry,
  as an Asyncify instance already restored to it plus its navigation
  snapshot, and makes the RestorePoint; the registry then replays only the
  tail (checkpoint_resume.py). Its `newest_seq` names the newest
  checkpoint's journal entry first, so the registry reads only the journal
  from that entry on (a 50,000-input journal is not read to resume at its end).

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


class PageRestoreSource:
    """The RestoreSource of the page's checkpoints (checkpoint_resume.py), with
    `newest_seq`: the registry then reads only the journal from there on."""

    def __init__(self, host_name: str = HOST_GLOBAL) -> None:
        self.host_name = host_name
        #: ms per step of the last restore in the worker (session-resume.js), for the bench's profile
        self.last_timings: dict[str, float] | None = None

    def _host(self) -> Any:
        import js  # Pyodide only

        return getattr(js, self.host_name, None)

    def prefetch(self, session_id: str) -> None:
        """Start reading the game's newest checkpoint in the worker now, while the
        registry reads the stored game and takes its ownership (worker.open_game)."""
        from pyodide.ffi import JsException

        host = self._host()
        if host is not None:
            try:
                host.prefetch(session_id)
            except JsException:
                pass  # newest_seq then reads it itself

    async def newest_seq(self, info: SessionInfo) -> int | None:
        """The journal entry of the game's newest checkpoint with a navigation memory (not verified yet)."""
        from pyodide.ffi import JsException

        host = self._host()
        if host is None:
            return None
        try:
            seq = json.loads(str(await host.newest(info["sessionId"])))["seq"]
        except JsException:
            return None  # then the whole journal is read, and the source asked with it
        return int(seq) if isinstance(seq, int) else None

    async def __call__(self, info: SessionInfo, entries: Sequence[JournalEntry]) -> tuple[Engine, RestorePoint] | None:
        from pyodide.ffi import JsException

        from ..engine.wasm import WasmEngine

        host = self._host()
        settled = [entry["seq"] for entry in entries if entry["state"] != "reserved"]
        if host is None or not settled:
            return None
        try:
            # a tail of the journal (read from the newest checkpoint's entry) can only start at its first entry
            first = entries[0]["seq"] if entries[0]["seq"] > 1 else 0
            found = json.loads(str(await host.restorePoint(info["sessionId"], max(settled), first)))
        except JsException as exc:
            raise SessionError("checkpointRefused", f"the page's checkpoints cannot be read: {exc}") from None
        refused = found.get("refused") or []
        self.last_timings = found.get("timings")
        if found.get("move") is None:
            if refused:  # there were checkpoints, and none held
                raise SessionError("checkpointRefused", refused[-1]["message"], refused=refused)
            return None
        engine = WasmEngine(host.take(found["handle"]))
        move = int(found["move"])
        try:
            point = point_of(info, entries, int(found["seq"]), str(found["navigation"]).encode("utf-8"))
        except SessionError as exc:
            await engine.close()
            raise SessionError(
                exc.code, exc.message, refused=[*refused, {"move": move, "message": exc.message}]
            ) from None
        # the game now plays on that instance: the Asyncify build, whatever `engineBuild` new games run
        point.report = {"move": move, "engine": "asyncify"}
        if refused:
            point.report["refused"] = refused
        return engine, point


def page_restore_source(host_name: str = HOST_GLOBAL) -> PageRestoreSource:
    """The registry's restore source in the page (worker.start sets it)."""
    return PageRestoreSource(host_name)
