"""recovery.py - how a session that cannot take input verifies the game before observe looks.

Three situations, all ending with the gate open again or a SessionError:
the engine failed during an input (replay the completed journal on a fresh
engine and settle the dangling reservation as not applied); a resume found
a reservation without a receipt (the resume already replayed; settle it);
another process owns the game (follow its completed journal read-only).
Failed store writes are retried after either. Input is never sent again on
anyone's behalf.

A session that lost ownership while it ran (the store's fence refused its
journal write) follows the new owner like any observer; if its engine took
an input that the journal will never record, it is first reloaded by replay
of the journal on a fresh engine, so it shows the game as the journal has
it, never its own unrecorded move.

`Recovery` owns the state of all this (is a replay required, which
reservation is unverified, how many entries the resume replayed). The
session it belongs to hands it the game's durable parts once (store,
journal, notes, how to start an engine, how to continue on a replayed one)
and, at each `verify`, the live engine's side (the engine, its boundary and
the navigation memory): this module never reads the session itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..engine import Engine, EngineError
from ..navigation.level import WorldTracker
from ..store import JournalEntry, OwnershipLost, SessionInfo, Store, StoreError, Summary
from .durability import Journal, brief
from .errors import SessionError
from .replay import ReplayResult, apply_entries, replay

EngineFactory = Callable[[], Awaitable[Engine]]
#: continue on a fresh engine that a replay brought to the given observation (the session's `replace_engine`)
Install = Callable[[Engine, dict[str, Any]], Awaitable[None]]


class Recovery:
    """One game's recovery state and the verification that clears it."""

    def __init__(
        self,
        *,
        session_id: str,
        info: SessionInfo,
        store: Store,
        journal: Journal,
        notes: dict[str, Any],
        engine_factory: EngineFactory | None,
        install: Install,
    ) -> None:
        self._session_id = session_id
        self._info = info
        self._store = store
        self._journal = journal
        self._notes = notes  # one-shot diagnostics for the next frame, shared with the session
        self._engine_factory = engine_factory
        self._install = install
        self.required = False  # the engine failed during an input: replay before any input
        # a reservation without a receipt found by a resume: the input died with
        # the previous host's engine; observe records it as not applied
        self.unverified: JournalEntry | None = None
        self.replayed = 0  # entries the resume that loaded this session replayed

    @property
    def blocked(self) -> bool:
        """True while input must wait for `verify`."""
        return self.required or self.unverified is not None

    def diagnostic(self) -> dict[str, Any] | None:
        """The frame's `recovery` report while a verification is due (None when none is)."""
        if self.required:
            return {
                "status": "required",
                "message": "the engine failed during an input; observe verifies what happened by replaying the journal",
            }
        if self.unverified is not None:
            return {
                "status": "required",
                "unverified": [brief(self.unverified)],
                "message": "the previous host stopped between journaling an input and its "
                "result; observe verifies what happened",
            }
        return None

    async def verify(self, *, following: bool, engine: Engine, summary: Summary, memory: WorldTracker) -> None:
        """Make failed writes durable, replay after an engine failure, or
        (read-only, `following` another owner) follow the owner's journal on
        `engine`, which stands at `summary` with `memory` its navigation memory.
        Raises SessionError when the game cannot be verified (input stays blocked)."""
        try:
            await self._verify(following, engine, summary, memory)
        except OwnershipLost as exc:  # a settling write found the game taken: from now on an observer
            raise SessionError("lostOwnership", f"the game cannot be verified here: {exc}") from exc

    async def _verify(self, following: bool, engine: Engine, summary: Summary, memory: WorldTracker) -> None:
        if following:
            await self._follow(engine, summary, memory)
            return
        if self.required:
            await self._recover_engine()
        elif self.unverified is not None:
            # the resume already replayed the completed journal on a fresh engine
            # and reached its recorded boundary; the dangling input is not in it
            entry, self.unverified = self.unverified, None
            self._notes["recovery"] = {
                "status": "verified",
                "replayed": self.replayed,
                "revision": summary["revision"],
                "notApplied": [brief(entry)],
            }
            await self._journal.settle_dangling(entry)
        if self._journal.pending:
            await self._journal.flush()

    async def _recover_engine(self) -> None:
        result = await self._replay_on_fresh_engine(
            "the engine failed and this host cannot start another one; resume the game in a new session host",
            "the journal cannot be read for recovery",
            "no engine could be started for recovery",
        )
        self.required = False
        report: dict[str, Any] = {
            "status": "verified",
            "replayed": result.replayed,
            "revision": int(result.observed["revision"]),
            "seconds": round(result.seconds, 3),
            "notApplied": [],
        }
        if result.dangling is not None:
            report["notApplied"].append(brief(result.dangling))
            await self._journal.settle_dangling(result.dangling)
        self._notes["recovery"] = report

    async def _follow(self, engine: Engine, summary: Summary, memory: WorldTracker) -> None:
        """An observer catches up with the owner's completed entries."""
        if self._journal.engine_ahead:
            await self._reload()
            return
        after = self._journal.seq
        try:
            entries = await self._store.journal(self._session_id, after_seq=after)
        except StoreError as exc:
            raise SessionError("storageFailed", f"the journal cannot be read: {exc}") from exc
        if not entries:
            return
        _, replayed, last_seq, _ = await apply_entries(
            engine, entries, after_seq=after, start_summary=summary, memory=memory
        )
        self._journal.seq = last_seq
        if replayed:
            self._notes["ownership"] = {"followed": replayed}

    async def _reload(self) -> None:
        """Replay the whole journal on a fresh engine (read-only): the session's
        own engine took an input the journal does not have."""
        result = await self._replay_on_fresh_engine(
            "this process lost the game and cannot start an engine to reload it; resume it in a new session host",
            "the journal cannot be read",
            "no engine could be started to reload the game",
        )
        self._journal.engine_ahead = False
        self._notes["ownership"] = {
            "status": "reloaded",
            "replayed": result.replayed,
            "revision": int(result.observed["revision"]),
            "message": "this process lost the game with an input in flight; it was reloaded by replay "
            "of the journal, which does not include that input",
        }

    async def _replay_on_fresh_engine(self, no_factory: str, unreadable: str, no_engine: str) -> ReplayResult:
        """The completed journal replayed on a fresh engine, which the session then continues on;
        the messages say, for the SessionError raised instead, what could not be done."""
        if self._engine_factory is None:
            raise SessionError("recoveryRequired", no_factory)
        try:
            entries = await self._store.journal(self._session_id)
        except StoreError as exc:
            raise SessionError("storageFailed", f"{unreadable}: {exc}") from exc
        try:
            engine = await self._engine_factory()
        except EngineError as exc:
            raise SessionError("engineUnavailable", f"{no_engine}: {exc}") from exc
        try:
            result = await replay(engine, self._info, entries)
        except BaseException:
            await engine.close()
            raise
        await self._install(engine, result.observed)
        self._journal.seq = result.last_seq
        return result
