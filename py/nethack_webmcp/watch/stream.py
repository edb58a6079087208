"""stream.py - a game's state as server-sent events, for spectators that keep one stream open.

Polling costs the server one parsed HTTP request per spectator per poll
(~170 µs of CPU with uvicorn's h11), a stream one chunk write per push
(~30 µs): docs/BENCHMARKS.md. Each event is the same JSON the state route
serves, with the same ETag as its id:

    retry: 2000
    id: "<sessionId>/<revision>"
    data: {...state...}

Pushes are coalesced: after a push the stream waits PUSH_INTERVAL_S, then
sends the newest state if the revision moved (intermediate revisions are
skipped, as a poll every PUSH_INTERVAL_S would skip them); otherwise it
waits for the end of the game's next call, looking again every
RECHECK_S (a long call moves the revision before it ends) and sending a
comment every KEEPALIVE_S of silence. `event: gone` ends the stream
when the game is no longer loaded (the state route then says why), and
every stream ends when the board closes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

from .board import Board

PUSH_INTERVAL_S = 0.25  # the page's poll interval: a stream is never fresher, nor staler
RECHECK_S = 1.0
KEEPALIVE_S = 15.0
RETRY_MS = 2000  # how soon a browser reconnects after losing the stream


async def state_events(board: Board, session_id: str) -> AsyncIterator[bytes]:
    yield b"retry: %d\n\n" % RETRY_MS
    sent: int | None = None
    quiet_since = time.monotonic()
    while not board.closing:
        session = board.live(session_id)
        if session is None:
            yield b"event: gone\ndata: {}\n\n"
            return
        if session.revision != sent:
            sent = session.revision
            await board.load_history(session)  # the first time: from the stored receipts
            yield b"id: " + board.etag(session).encode() + b"\ndata: " + board.state(session) + b"\n\n"
            quiet_since = time.monotonic()
            await asyncio.sleep(PUSH_INTERVAL_S)
            continue
        await board.changed(session_id, RECHECK_S)
        if time.monotonic() - quiet_since >= KEEPALIVE_S:
            yield b": keepalive\n\n"
            quiet_since = time.monotonic()
