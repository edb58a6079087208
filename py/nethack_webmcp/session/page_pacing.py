"""page_pacing.py - the page's games wait for their checkpoints as the native service's do.

A page reloaded in the middle of a burst resumes a game from its newest
checkpoint and replays the journal entries after it (session-resume.js, then
Session.restore_from). The page's background checkpointer
(web/src/worker/follower.js) keeps checkpoints behind the live game, but it
took one only every 128 journal entries, so a reload mid-burst of a long
game replayed up to that many inputs at ~4 ms each in the page (a restored
Asyncify instance's full responses, then the fold into the navigation
memory in Pyodide): over half a second at 50,000 inputs.

So every game the follower follows gets the same `Pace` the native
checkpointer gives its games (pacing.py): the live session times its folds,
the follower times the full responses of the last inputs before each
checkpoint (its engine is the Asyncify build a resume restores into) and
says where its checkpoints reach. A checkpoint is due once the tail costs
half the budget (`due` in worker.live_memory), and an input waits (at most
pacing.MAX_HOLD) while the tail is over the budget. While it waits its call
is in flight but holds nothing the follower needs: the follower is told
(`waiting`), works as if no call were in flight, and takes the waiting
point's memory (pacing.waiting_point).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .pacing import Pace

#: seconds of tail replay a page resume may face. The rest of a resume after a reload (the stored
#: game, the ownership, the newest checkpoint read and restored, the two observes) measured 45-92 ms
#: at 50,000 inputs on a quiet machine, and a tail's real cost was up to 2x its price (an estimate
#: from the last stretches): at 70 ms the worst of six resumes mid-burst was 193.5 ms, at 45 ms 147.6
#: (docs/BENCHMARKS.md)
PAGE_TAIL_BUDGET = 0.045
#: a page resume's tail costs this many times the two shares the page can time (the follower's full
#: responses, the live folds): besides them it parses each full response in Pyodide, checks its boundary,
#: and runs on an instance restored after a reload. On the bench's 50,000-input game the resumes' tails
#: cost 0.8-1.35 ms an input against a price of 0.34-0.39 (2.3-3.9x; docs/BENCHMARKS.md)
PAGE_PRICE_SCALE = 3.0


def progress(
    session: Any,
    checkpointed: int,
    priced: int,
    priced_seconds: float,
    *,
    wake: Callable[[], None],
    waiting: Callable[[bool], None],
) -> None:
    """The follower checkpointed `session`'s game at journal entry `checkpointed`, having replayed its
    last `priced` inputs with full responses in `priced_seconds` (the engine's share: nothing folded).
    The game is paced from its first report on (the follower's first is its start's prior: the price
    its newest checkpoint was taken at, follower.js)."""
    pace: Pace | None = session.pace
    if pace is None:
        pace = session.pace = Pace(
            wake=wake, on_waiting=waiting, budget=PAGE_TAIL_BUDGET, checkpointed=checkpointed, scale=PAGE_PRICE_SCALE
        )
    pace.measured(priced, priced_seconds, folded=False)
    pace.advanced(checkpointed)


def follower_hooks(session_id: str) -> dict[str, Callable[..., None]]:
    """progress()'s `wake` and `waiting` for a game of this worker: the page's follower (follower.js,
    published as the worker's nethackCheckpointer)."""
    import js  # Pyodide only: the worker's globals

    return {
        "wake": lambda: js.nethackCheckpointer.wake(session_id),
        "waiting": lambda waiting: js.nethackCheckpointer.waiting(session_id, waiting),
    }


def release(session: Any) -> None:
    """The follower stopped following the game (closed, failed, its timeline opened): unpaced."""
    pace, session.pace = session.pace, None
    if pace is not None:
        pace.release()


def due(session: Any) -> bool:
    """Whether the game's tail is worth a checkpoint now (half the budget), whatever the spacing."""
    pace: Pace | None = session.pace
    return pace is not None and pace.due(int(session.journal.seq))
