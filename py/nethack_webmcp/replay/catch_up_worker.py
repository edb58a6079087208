"""catch_up_worker.py - the checkpointer's catch-ups in a process of their own.

    python -m nethack_webmcp.replay.catch_up_worker --store LOCATOR

A catch-up replays a game's journal tail on a WebAssembly engine and folds
every full response into a navigation memory (checkpointer.py). Run in the
host, that fold shares the event loop with the live games' tool calls and
their tail latency grows while it runs (docs/BENCHMARKS.md, "Live calls and
the checkpointer"). This process does the same catch-up on its own store
connection, its own engines (kept between a game's catch-ups; no spare is
started) and its own CPU time, at the priority NNH_CATCH_UP_NICENESS names
(see NICENESS; its Node engines inherit it).

LOCATOR is `sqlite:PATH` (the state directory's database: WAL lets this
process read and write beside the host) or a `postgresql://` URL. Requests
are NDJSON lines on stdin, answered in order on stdout. `at` is the live
session's navigation memory at journal entry S0 (session/idle_point.py): a
quiet replay saves it with that entry's checkpoint; without it the replay's
full responses are folded into a memory, as an exact resume does.

    {"id": N, "catchUp": SESSION_ID[, "at": {"seq": S0, "navigation": TEXT}]}
                                      ->  {"id": N, "seq": S, "saved": [moves], "folded": BOOL, "missed": BOOL,
                                           "priced": INPUTS, "pricedSeconds": SECONDS, "pricedFolded": BOOL}
                                          (priced: inputs replayed with full responses, as a resume does,
                                          and their time, folding included when pricedFolded)
                                          (missed: entry S0 was not settled in the store yet, no memory saved)
                                          {"id": N, "seq": null}       (nothing to replay yet)
                                          {"id": N, "refused": MESSAGE} (the journal does not reproduce the game)
                                          {"id": N, "error": MESSAGE}   (a store or engine failure: try later)

EOF on stdin (the host exited, or closed it) ends the process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from types import SimpleNamespace
from typing import Any

from ..engine import EngineError, wasm_node
from ..store import Store, StoreError
from .checkpointer import Checkpointer

#: the catch-ups' priority: the host's own by default. At a lower one (10 was tried) a game that
#: saturates the machine (a client with no think time) outran its checkpoints, and a host killed then
#: resumed by replaying thousands of inputs (1-2 s) instead of a catch-up's few hundred, for 9% more
#: of its inputs per second (docs/BENCHMARKS.md). NNH_CATCH_UP_NICENESS=10 puts live calls first.
NICENESS = 0


async def open_store(locator: str) -> Store:
    """The store LOCATOR names (the host's own, opened again here)."""
    if locator.startswith("sqlite:"):
        from ..store.sqlite import SqliteStore

        return SqliteStore(locator.removeprefix("sqlite:"))
    if locator.startswith(("postgresql://", "postgres://")):
        from ..store.postgres import PostgresStore

        return await PostgresStore.connect(locator, pool_size=1)
    raise SystemExit(f"catch_up_worker: --store wants sqlite:PATH or a postgresql:// URL, not {locator!r}")


async def answer(checkpointer: Checkpointer, request: dict[str, Any]) -> dict[str, Any]:
    reply: dict[str, Any] = {"id": request.get("id")}
    session_id, at = request.get("catchUp"), request.get("at")
    given = None
    if isinstance(at, dict) and isinstance(at.get("seq"), int) and isinstance(at.get("navigation"), str):
        given = (at["seq"], at["navigation"].encode("utf-8"))
    if not isinstance(session_id, str) or (at is not None and given is None):
        return {**reply, "error": "a request is {id, catchUp: sessionId[, at: {seq, navigation}]}"}
    try:
        builder = await checkpointer.catch_up(session_id, given)
    except (StoreError, EngineError, OSError) as exc:
        return {**reply, "error": str(exc)}
    failed = checkpointer.failure(session_id)
    if failed is not None:
        return {**reply, "refused": failed}
    if builder is None:
        return {**reply, "seq": None}
    missed = given is not None and builder.given is None  # that entry not settled yet: try again
    return {
        **reply,
        "seq": checkpointer.caught_up(session_id),
        "saved": builder.saved,
        "folded": given is None,
        "missed": missed,
        "priced": builder.priced,
        "pricedSeconds": builder.priced_seconds,
        "pricedFolded": given is None,
    }


async def serve(locator: str) -> None:
    store = await open_store(locator)
    wasm_node.spares = False  # its engines are kept between catch-ups (checkpointer.KEPT_ENGINES)
    wasm_node.prepare()  # the first catch-up's engine, compiling while that game makes its first inputs
    # the store is all a catch-up uses; no game of this process is live
    checkpointer = Checkpointer(SimpleNamespace(store=store, sessions=list), keep_engines=True)
    loop = asyncio.get_running_loop()
    try:
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                return
            try:
                request = json.loads(line)
            except json.JSONDecodeError:
                request = {}
            reply = await answer(checkpointer, request if isinstance(request, dict) else {})
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
    finally:
        await checkpointer.stop()  # its kept catch-up engines
        await wasm_node.discard_spare()  # (one not taken yet: closed on this loop, not left to the exit)
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m nethack_webmcp.replay.catch_up_worker",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--store", required=True, help="sqlite:PATH or a postgresql:// URL")
    opts = parser.parse_args()
    os.nice(int(os.environ.get("NNH_CATCH_UP_NICENESS", NICENESS)))
    asyncio.run(serve(opts.store))


if __name__ == "__main__":
    main()
