"""operations.py - acting operations that run to their boundary whatever their caller does.

A caller that is cancelled (an MCP client pressed Stop, a WebMCP
AbortSignal fired, a transport dropped its stream) or that stops waiting
(the operation deadline) must not interrupt an input the journal already
holds: the engine would have taken it while the session never recorded
what it did, and every later reply would be read against the wrong
boundary. So the session runs each acting operation as its own task -
owned by the session, not by the caller - and callers only *wait* for it
(`wait`, which never cancels the task). The task records the receipt; a
retry with the same requestId waits for the same task, or reads the
receipt once it is done.

`finish` is the same guarantee for one awaitable (a single engine
exchange, a single journaled step): it runs to its end even when the
awaiting caller is cancelled.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)
#: the operation whose task (or a task it started) is running the current code:
#: that operation is not "busy" to itself
current: contextvars.ContextVar[RunningOperation | None] = contextvars.ContextVar("operation", default=None)


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Read a detached task's exception, so nothing is left 'never retrieved'
    (the work that awaited it reported it already, or nobody waits any more)."""
    if not task.cancelled():
        task.exception()


async def finish(work: Coroutine[Any, Any, T]) -> T:
    """Await `work` as a task of its own: a cancelled caller stops waiting,
    the work runs on to its end (its result or exception is then dropped).
    Re-raises the caller's CancelledError."""
    task: asyncio.Future[T] = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.add_done_callback(_retrieve)
        raise


@dataclass
class Finished:
    """What a finished operation produced: its frame, and whether that frame
    is a stored receipt returned for an exact retry (history, not news)."""

    frame: dict[str, Any]
    historical: bool = False


@dataclass
class RunningOperation:
    """One acting operation of a game, running in a session-owned task."""

    operation_id: str
    request_id: str | None
    payload_hash: str | None
    task: asyncio.Task[Finished] = field(repr=False)
    #: set by the operation once it is admitted: the inputs it has sent so far
    progress: Any = None

    @property
    def done(self) -> bool:
        return self.task.done()

    @property
    def waits_for_others(self) -> bool:
        """True while it runs and the current code is not part of it."""
        return not self.task.done() and current.get() is not self


def start(
    operation_id: str,
    request_id: str | None,
    payload_hash: str | None,
    work: Callable[[], Awaitable[Finished]],
    on_done: Callable[[RunningOperation], None],
) -> RunningOperation:
    """Start `work` as a task nobody but the session can cancel; `on_done`
    runs inside the task as its last step (so a caller that waited sees the
    session idle again when it resumes)."""
    holder: list[RunningOperation] = []

    async def run() -> Finished:
        current.set(holder[0])  # this task's own context: the tasks it starts inherit it
        try:
            return await work()
        except Exception:
            log.exception("operation %s failed", operation_id)
            raise
        finally:
            on_done(holder[0])

    task = asyncio.ensure_future(run())
    task.add_done_callback(_retrieve)
    running = RunningOperation(operation_id, request_id, payload_hash, task)
    holder.append(running)
    return running


async def until_done(running: RunningOperation, deadline: float | None) -> bool:
    """Wait at most `deadline` seconds (None: until done); True when it is done.
    Cancelling the waiter (or the deadline passing) never cancels the operation."""
    if not running.task.done():
        await asyncio.wait({running.task}, timeout=deadline)
    return running.task.done()


async def wait(running: RunningOperation, deadline: float | None) -> Finished | None:
    """`until_done`, then the operation's result (None: still running).
    Re-raises what a failed operation raised (a bug: it turns every refusal
    into a frame)."""
    if not await until_done(running, deadline):
        return None
    return running.task.result()
