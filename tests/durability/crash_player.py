"""crash_player.py - plays SCRIPT on a stored game and SIGKILLs its own process
right after the journal reservation of input CRASH_AT (before the engine sees
it). Run by test_crash.py: `python crash_player.py STATE_DIR CRASH_AT`."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the shared support package

from durable_support import (
    SCRIPT,
    TWIN_PARAMS,
    FaultyStore,
    apply_input,
    registry,
)
from nethack_webmcp.store.sqlite import SqliteStore
from support.client import Client


async def main(state_dir: Path, crash_at: int) -> None:
    def die(entry: dict) -> None:
        if entry["seq"] == crash_at + 1:  # journal entries are 1-based
            os.kill(os.getpid(), signal.SIGKILL)

    store = FaultyStore(SqliteStore.in_state_dir(state_dir), after_reserve=die)
    client = Client(registry(state_dir, store=store))
    session = await client.games.create(dict(TWIN_PARAMS))
    frame = await client.ok("observe", sessionId=session.session_id)
    for step in SCRIPT:
        frame = await apply_input(client, frame, step)
    raise SystemExit("the crash point was never reached")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
