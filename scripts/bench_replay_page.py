"""bench_replay_page.py - seek and resume in the page, from IndexedDB checkpoints (scripts/bench-replay --page).

The built site in Chromium (a persistent profile: IndexedDB on disk, as a
person's browser keeps it). For each size the first N inputs of the bench
game are stored in the page's journal database under a session ID of their
own, then through window.nethackReplay (worker/page-replay.js):

- open: the first open of the game - one verified quiet replay in the
  Asyncify build taking checkpoints (compressed into IndexedDB);
- reopen: after a page reload (a new worker, nothing in memory), the open
  that finds the stored checkpoints (digests and bytes checked);
- seek p50/p95: frames at random moves after the reload (restore the nearest
  checkpoint into a fresh instance, replay the rest verified, observe),
  timed in the page (the worker round trip included);
- resume: an engine at the last move, verified, after the reload;
- exact session resume, idle game: after another reload (a new worker, nothing
  warmed but what its boot warms) the game's session resumed as opening its
  view does (GameRegistry.resume in the worker's Python: the journal read
  from IndexedDB, the newest checkpoint with its navigation memory restored,
  the tail replayed, observed), timed in the worker's Python; the newest
  checkpoint is at the last move, as the background checkpointer leaves an
  idle game (worker/follower.js), so nothing is replayed;
- exact session resume, tail: the same after the checkpoints of the last
  --tail inputs (default 64: more than the follower lagged a live burst,
  `follower` below) were dropped - a reload in the middle of a burst, before
  the follower caught up; beside it what reading the whole journal costs
  (the checkpoint resume reads only the entries from its checkpoint on), and
  the whole-journal resume it replaces (the same resume without the restore
  source) at the sizes where that is affordable;
- checkpoint bytes per 10k inputs: what IndexedDB holds for the game (with
  the navigation memory each checkpoint now carries).

The open replays with full responses folded into the navigation memory (the
checkpoints carry it), so it costs more than the seeks' quiet replays.

`follower` (--follower CALLS): the background checkpointer on a live page
game. A game is created in the page and played by an agent loop inside the
page (WebMCP executeTool, each next call sent as soon as the last answered:
a burst), CALLS calls with the follower on and CALLS with it off (the same
game, alternating blocks of 20), each call timed in the page; the follower's
lag (live journal entry minus the follower's) sampled after each call; then,
with the follower on, a reload right after a burst (the tail case, live) and
one after the game was idle (no tail), each session resume timed.

`--long-burst INPUTS`: a reload in the middle of a burst on a long game
(the bench game's first INPUTS inputs, stored and checkpointed by one open
of its timeline): --bursts times, the game's view opened, --burst-calls
calls played without pause by the same agent loop, a reload at once, the
session resumed and timed, with the pace's holds and price
(session/page_pacing.py) and the follower's start steps.

    scripts/bench_replay_page.py [--sizes 1000,10000,50000] [--seeks 20] [--tail 64] [--follower 200]
        [--long-burst 50000 --bursts 5 --burst-calls 40] [--no-replays]
"""

from __future__ import annotations

import contextlib
import json
import random
import statistics
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from e2e.durable_harness import HOOKS, wait_ready  # noqa: E402  (needs tests/ on the path)
from e2e.page_replay_harness import OPEN_CHECKPOINTS, renamed, store_game, timed  # noqa: E402
from e2e.site_harness import CHROMIUM, FLAGS, serve  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


#: the whole-journal resume is measured up to this many inputs (at 50k it replays for minutes in the page)
WHOLE_REPLAY_UP_TO = 10_000

SESSION_RESUME = """
import json, time
from nethack_webmcp import worker
from nethack_webmcp.session import Session
games = worker._games()
source = games.restore_source
games.restore_source = source if CHECKPOINTED else None
profile = {}
def timing(name, call):
    # the resume's steps, each timed where the registry calls it (the profile below the table)
    async def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return await call(*args, **kwargs)
        finally:
            profile[name] = round(profile.get(name, 0) + (time.perf_counter() - started) * 1000, 1)
    return timed
store, ownership = games.store, games.ownership
patched = [(store, "get_session"), (store, "journal"), (ownership, "acquire")]
if CHECKPOINTED:
    patched += [(source, "newest_seq")]
saved = [(owner, name, getattr(owner, name)) for owner, name in patched]
for owner, name, call in saved:
    setattr(owner, name, timing(name, call))
restore_from = Session.__dict__["restore_from"]  # the classmethod itself, put back as it was
Session.restore_from = timing("restore_from", Session.restore_from)
if CHECKPOINTED:
    source_call = type(source).__call__
    type(source).__call__ = timing("restorePoint", source_call)
try:
    started = time.perf_counter()
    if CHECKPOINTED:
        source.prefetch(SESSION)  # as worker.open_game (opening the game's view) does before it resumes
    session = await games.resume(SESSION)
    seconds = time.perf_counter() - started
finally:
    games.restore_source = source
    for owner, name, call in saved:
        setattr(owner, name, call)
    Session.restore_from = restore_from
    if CHECKPOINTED:
        type(source).__call__ = source_call
if CHECKPOINTED:
    profile["worker"] = source.last_timings
report = dict(session.notes.get("resume") or {})
await games.close(SESSION)
started = time.perf_counter()
journal = await games.store.journal(SESSION)  # what reading the whole journal costs (a checkpoint resume does not)
read = time.perf_counter() - started
json.dumps({"ms": seconds * 1000, "journalMs": read * 1000, "entries": len(journal), "report": report,
            "profile": profile})
"""


#: the session resume starts this many inputs or more before the end (the later checkpoints are dropped first):
#: a game that went on after its newest checkpoint
TAIL = 64
DROP_LATE_CHECKPOINTS = (
    """async ({sessionId, after}) => {
"""
    + OPEN_CHECKPOINTS
    + """  const tx = db.transaction('checkpoints', 'readwrite');
  tx.objectStore('checkpoints').delete(IDBKeyRange.bound([sessionId, after], [sessionId, Infinity], true));
  await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
  db.close();
}"""
)


def session_resume(page: Any, session_id: str, checkpointed: bool) -> dict[str, Any]:
    """The game's session resumed in the page's worker (after the caller's reload)."""
    code = f"SESSION = {session_id!r}\nCHECKPOINTED = {checkpointed!r}\n" + SESSION_RESUME
    return dict(json.loads(page.evaluate("(code) => window.nethackTest.python(code)", code)))


@contextlib.contextmanager
def bench_page(prefix: str) -> Iterator[tuple[Any, Any]]:
    """The built site in Chromium with a persistent profile of its own (IndexedDB kept across
    reloads), its test hooks installed, ready: (context, page)."""
    profile = tempfile.mkdtemp(prefix=prefix)
    with sync_playwright() as playwright, serve() as url:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=FLAGS, headless=True
        )
        context.set_default_timeout(900_000)
        context.add_init_script(HOOKS)
        page = context.new_page()
        page.goto(url)
        wait_ready(page)
        yield context, page


def measure(game: dict[str, Any], sizes: list[int], seeks: int, tail: int = TAIL) -> tuple[str, list[dict[str, Any]]]:
    rows = []
    with bench_page("bench-replay-page-") as (context, page):
        version = context.browser.version if context.browser else "?"
        for size in sorted(sizes):
            session_id = f"bench-page-{size}"
            stored = renamed(game, session_id, size)
            # the page's game identity: the rules, which every build shares (the native build may be newer)
            stored["info"]["engineIdentity"] = page.evaluate("() => window.nethackSite.identity")
            inputs = store_game(page, stored)
            opened, open_ms = timed(page, "open", session_id)
            page.reload()
            wait_ready(page)
            reopened, reopen_ms = timed(page, "open", session_id)
            generator = random.Random(size)
            times = [timed(page, "frame", session_id, generator.randint(0, inputs))[1] for _ in range(seeks)]
            resumed, _ = timed(page, "resume", session_id)
            timed(page, "close", session_id)
            page.reload()  # the session resume of an idle game: a new worker, nothing warmed by the replay above
            wait_ready(page)
            idle = session_resume(page, session_id, True)
            page.evaluate(DROP_LATE_CHECKPOINTS, {"sessionId": session_id, "after": inputs - tail})
            page.reload()  # the tail case: a reload before the follower caught up
            wait_ready(page)
            exact = session_resume(page, session_id, True)
            whole = None
            if inputs <= WHOLE_REPLAY_UP_TO:
                page.reload()
                wait_ready(page)
                whole = session_resume(page, session_id, False)
            rows.append(
                {
                    "inputs": inputs,
                    "openMs": round(open_ms, 1),
                    "reopenMs": round(reopen_ms, 1),
                    "rebuiltAtReopen": reopened["rebuilt"],
                    "checkpoints": opened["checkpoints"],
                    "seekP50Ms": round(statistics.median(times), 1),
                    "seekP95Ms": round(percentile(times, 0.95), 1),
                    "resumeMs": round(resumed["ms"], 1),
                    "idleResumeMs": round(idle["ms"], 1),
                    "idleFrom": idle["report"].get("fromCheckpoint"),
                    "idleReplayed": idle["report"].get("replayed"),
                    "idleProfile": idle["profile"],
                    "tailProfile": exact["profile"],
                    "sessionResumeMs": round(exact["ms"], 1),
                    "journalReadMs": round(exact["journalMs"], 1),
                    "fromCheckpoint": exact["report"].get("fromCheckpoint"),
                    "tailReplayed": exact["report"].get("replayed"),
                    "wholeReplayMs": None if whole is None else round(whole["ms"], 1),
                    "checkpointBytesPer10k": round(opened["bytes"] * 10000 / max(1, inputs)),
                }
            )
        context.close()
    return version, rows


def table(version: str, rows: list[dict[str, Any]], seeks: int) -> str:
    lines = [
        f"page (Chromium {version}, Asyncify build, checkpoints in IndexedDB; {seeks} seeks after a reload):\n",
        "| inputs | open ms | reopen ms (after reload) | checkpoints | seek p50 ms | seek p95 ms | resume ms | "
        "exact session resume ms, idle (after reload) | exact session resume ms, tail (after reload) | "
        "whole journal read ms | whole-journal session resume ms | checkpoint bytes / 10k inputs |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        whole = "–" if row["wholeReplayMs"] is None else row["wholeReplayMs"]
        lines.append(
            f"| {row['inputs']} | {row['openMs']} | {row['reopenMs']}"
            f"{'' if not row['rebuiltAtReopen'] else ' (rebuilt)'} | {row['checkpoints']} | {row['seekP50Ms']} | "
            f"{row['seekP95Ms']} | {row['resumeMs']} | {row['idleResumeMs']} (from entry {row['idleFrom']} + "
            f"{row['idleReplayed']}) | {row['sessionResumeMs']} (from entry "
            f"{row['fromCheckpoint']} + {row['tailReplayed']}) | {row['journalReadMs']} | {whole} | "
            f"{row['checkpointBytesPer10k'] / 1e6:.2f} MB |"
        )
    return "\n".join(lines)


AGENT = """async ({sessionId, calls, follower}) => {
  // an agent inside the page: each next call as soon as the last one answered (a burst)
  const context = document.modelContext;
  const tools = await context.getTools();
  const tool = (name) => tools.find((candidate) => candidate.name === name);
  const run = async (name, input) => {
    const result = await context.executeTool(tool(name), JSON.stringify(input));
    return typeof result === 'string' ? JSON.parse(result) : result;
  };
  const times = [];
  let frame = await run('observe', { sessionId });
  for (let index = 0; index < calls; index++) {
    if (!frame.basis) throw new Error(`call ${index} answered an error: ${JSON.stringify(frame.error)}`);
    const decision = frame.decision;
    let name;
    let input;
    if (decision && frame.control.gate === 'decision') {
      name = 'respond';
      input = decision.cancel ? decision.cancel.arguments : { ...decision.reply.arguments, value: false };
    } else {
      const bound = { sessionId, viewId: frame.basis.viewId };
      const slot = index % 4;
      name = slot === 0 ? 'travel' : slot === 2 ? 'interact' : 'travel';
      input = slot === 0 ? { ...bound, mode: 'explore', maxActions: 8 }
        : slot === 2 ? { ...bound, action: 'search', turns: 2 }
          : { ...bound, mode: 'step', target: { direction: ['north', 'east', 'south', 'west'][(index >> 2) % 4] } };
    }
    const started = performance.now();
    frame = await run(name, input);
    times.push(performance.now() - started);
  }
  return { times, revision: frame.basis ? frame.basis.revision : null };
}"""

FOLLOWER_STATE = """
import json, js
from nethack_webmcp import worker
state = json.loads(js.JSON.stringify(js.nethackCheckpointer.describe(SESSION)))
session = next((s for s in worker._games().sessions() if s.session_id == SESSION), None)
state["liveSeq"] = session.journal.seq if session else None
pace = session.pace if session else None  # (session/page_pacing.py)
state["pace"] = None if pace is None else {"perInputMs": round(pace.per_input * 1000, 2), "holds": pace.holds,
    "heldSeconds": round(pace.held_seconds, 2), "checkpointed": pace.checkpointed, "stalled": pace.stalled}
json.dumps(state)
"""

# on again: poked after this code returns (as a call's end pokes it), so it catches up with what it missed
SWITCH = """
import js
js.nethackCheckpointer.enabled = ENABLED
if ENABLED:
    js.eval(f"setTimeout(() => nethackCheckpointer.called({SESSION!r}), 0)")
'null'
"""


def follower_state(page: Any, session_id: str) -> dict[str, Any]:
    code = f"SESSION = {session_id!r}\n" + FOLLOWER_STATE
    return dict(json.loads(page.evaluate("(code) => window.nethackTest.python(code)", code)))


def switch(page: Any, session_id: str, enabled: bool) -> None:
    code = f"SESSION = {session_id!r}\nENABLED = {enabled!r}\n" + SWITCH
    page.evaluate("(code) => window.nethackTest.python(code)", code)


def idle_until_caught_up(page: Any, session_id: str) -> float:
    """Seconds until the follower's newest checkpoint is at the live game's last entry."""
    import time

    started = time.monotonic()
    while time.monotonic() - started < 120:
        state = follower_state(page, session_id)
        caught_up = state["journalSeq"] == state["liveSeq"] and state["at"] == state["moves"]
        if caught_up and not state["held"] and state["at"] in state["checkpointed"]:
            return time.monotonic() - started
        time.sleep(0.1)
    raise SystemExit(f"the follower did not catch up: {state}")


def measure_follower(calls: int) -> dict[str, Any]:
    """The follower on a live game played in a burst: call latency with and without it, its lag, resumes."""
    block = 20
    with bench_page("bench-follower-") as (context, page):
        created = page.evaluate(
            """async () => {
              const context = document.modelContext;
              const tool = (await context.getTools()).find((candidate) => candidate.name === 'session');
              const result = await context.executeTool(tool, JSON.stringify(
                {action: 'create', seed: 11, name: 'Bench', role: 'valkyrie', harness_name: 'bench follower'}));
              return typeof result === 'string' ? JSON.parse(result) : result;
            }"""
        )
        session_id = created["basis"]["sessionId"]
        # one block first, not counted: the follower's start (the replay build fetched and compiled, its base
        # captured, the first instance) is paid once per worker; its longest slice is reported as the start's
        page.evaluate(AGENT, {"sessionId": session_id, "calls": block, "follower": True})
        start = follower_state(page, session_id)
        idle_until_caught_up(page, session_id)
        reset = "import js\njs.nethackCheckpointer.stats.longestSliceMs = 0\n'null'"
        page.evaluate("(code) => window.nethackTest.python(code)", reset)  # from here on: the steady work
        on: list[float] = []
        off: list[float] = []
        lags: list[int] = []  # live journal entry - the follower's, right after a block (a burst) ends
        tails: list[int] = []  # live journal entry - the follower's newest checkpoint's: a reload's tail then
        for round_index in range(2 * calls // block):
            enabled = round_index % 2 == 0
            switch(page, session_id, enabled)
            answer = page.evaluate(AGENT, {"sessionId": session_id, "calls": block, "follower": enabled})
            (on if enabled else off).extend(answer["times"])
            if enabled:
                state = follower_state(page, session_id)
                if state["atSeq"] is not None:
                    lags.append(int(state["liveSeq"]) - int(state["atSeq"]))
                    tails.append(int(state["liveSeq"]) - int(state["checkpointSeq"]))
            else:
                switch(page, session_id, True)
                idle_until_caught_up(page, session_id)  # the next block starts with the follower caught up
        switch(page, session_id, True)
        # a reload right after a burst: the follower has not caught up (the tail case, live)
        page.evaluate(AGENT, {"sessionId": session_id, "calls": block, "follower": True})
        burst = follower_state(page, session_id)
        page.reload()
        wait_ready(page)
        mid_burst = session_resume(page, session_id, True)
        # ... and after the game was idle: the newest checkpoint at the last move (the resume above closed the
        # game: opening its view resumes it again and clears the close mark)
        page.evaluate(
            "(code) => window.nethackTest.python(code)",
            f"from nethack_webmcp import worker\nawait worker.open_game({session_id!r})\n'null'",
        )
        page.evaluate(AGENT, {"sessionId": session_id, "calls": block, "follower": True})
        caught_up = idle_until_caught_up(page, session_id)
        page.reload()
        wait_ready(page)
        idle = session_resume(page, session_id, True)
        context.close()
    return {
        "calls": len(on),
        "withFollowerP50Ms": round(statistics.median(on), 1),
        "withFollowerP95Ms": round(percentile(on, 0.95), 1),
        "withFollowerMaxMs": round(max(on), 1),
        "withoutP50Ms": round(statistics.median(off), 1),
        "withoutP95Ms": round(percentile(off, 0.95), 1),
        "withoutMaxMs": round(max(off), 1),
        "lagMaxEntries": max(lags) if lags else None,
        "lagMedianEntries": statistics.median(lags) if lags else None,
        "tailMaxEntries": max(tails) if tails else None,
        "tailMedianEntries": statistics.median(tails) if tails else None,
        "burstTail": None if burst["checkpointSeq"] is None else int(burst["liveSeq"]) - int(burst["checkpointSeq"]),
        "burstLag": None if burst["atSeq"] is None else int(burst["liveSeq"]) - int(burst["atSeq"]),
        "startSliceMs": round(float(start["longestSliceMs"]), 1),
        "startSlice": start["longestSlice"],
        "longestSliceMs": round(float(burst["longestSliceMs"]), 1),
        "longestSlice": burst["longestSlice"],
        "midBurstResume": {key: mid_burst["report"].get(key) for key in ("fromCheckpoint", "replayed")}
        | {"ms": round(mid_burst["ms"], 1)},
        "caughtUpSeconds": round(caught_up, 2),
        "idleResume": {key: idle["report"].get(key) for key in ("fromCheckpoint", "replayed")}
        | {"ms": round(idle["ms"], 1)},
    }


OPEN_GAME = "from nethack_webmcp import worker\nawait worker.open_game({session_id!r})\n'null'"


def measure_long_burst(game: dict[str, Any], size: int, bursts: int, calls: int) -> dict[str, Any]:
    """A reload in the middle of a burst, on a long game: the bench game's first `size` inputs stored and
    checkpointed (one open of its timeline), then `bursts` times: the game's view opened (a resume), `calls`
    calls played without pause by the agent loop inside the page, a reload at once, the session resumed
    and timed (session/page_pacing.py holds inputs so that this tail stays within its budget)."""
    with bench_page("bench-long-burst-") as (context, page):
        session_id = f"bench-burst-{size}"
        stored = renamed(game, session_id, size)
        stored["info"]["engineIdentity"] = page.evaluate("() => window.nethackSite.identity")
        store_game(page, stored)
        timed(page, "open", session_id)
        timed(page, "close", session_id)
        runs = []
        for _ in range(bursts):
            page.reload()
            wait_ready(page)
            python = "(code) => window.nethackTest.python(code)"
            page.evaluate(python, OPEN_GAME.format(session_id=session_id))
            answer = page.evaluate(AGENT, {"sessionId": session_id, "calls": calls, "follower": True})
            state = follower_state(page, session_id)
            page.reload()
            wait_ready(page)
            resumed = session_resume(page, session_id, True)
            pace = state["pace"] or {}
            runs.append(
                {
                    "ms": round(resumed["ms"], 1),
                    "replayed": resumed["report"].get("replayed"),
                    "callP50Ms": round(statistics.median(answer["times"]), 1),
                    "callMaxMs": round(max(answer["times"]), 1),
                    "burstTail": None
                    if state["checkpointSeq"] is None
                    else int(state["liveSeq"]) - int(state["checkpointSeq"]),
                    "holds": pace.get("holds"),
                    "heldSeconds": pace.get("heldSeconds"),
                    "perInputMs": pace.get("perInputMs"),
                    "restoreFromMs": resumed["profile"].get("restore_from"),
                    "followerFailed": state["failed"],
                    "checkpoints": len(state["checkpointed"]),
                    "startStepsMs": state["startSteps"],
                    "longestSlice": [round(float(state["longestSliceMs"]), 1), state["longestSlice"]],
                }
            )
            print(json.dumps({"longBurst": runs[-1]}), flush=True)
        context.close()
    times = [run["ms"] for run in runs]
    return {
        "size": size,
        "calls": calls,
        "runs": runs,
        "resumeP50Ms": statistics.median(times),
        "resumeMaxMs": max(times),
    }


async def bench_game(inputs: int, seed: int) -> dict[str, Any]:
    """bench-replay's game (wizard fixture, its input mix), played natively into the memory store."""
    from importlib.machinery import SourceFileLoader

    from nethack_webmcp.engine.native import NativeEngine
    from nethack_webmcp.session import GameRegistry
    from nethack_webmcp.store.memory import MemoryStore

    bench = SourceFileLoader("bench_replay_script", str(ROOT / "scripts" / "bench-replay")).load_module()
    store = MemoryStore()
    games = GameRegistry(NativeEngine.start, store=store)
    session = await games.create({"seed": seed, "name": "Bench", "createdAt": bench.CREATED_AT, "wizard": True})
    await bench.play(session, inputs)
    info = await store.get_session(session.session_id)
    entries = await store.journal(session.session_id)
    await games.close_all()
    return {"info": info, "entries": entries}


if __name__ == "__main__":
    import argparse
    import asyncio

    parser = argparse.ArgumentParser(
        prog="scripts/bench_replay_page.py",
        description="the page half of ./scripts/bench-replay alone (no native half), and the background "
        "checkpointer on a live page game",
    )
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--seeks", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--tail", type=int, default=TAIL, help="inputs after the newest checkpoint (tail case)")
    parser.add_argument("--follower", type=int, default=200, help="calls per arm of the follower bench (0: skip)")
    parser.add_argument("--no-replays", action="store_true", help="only the follower bench")
    parser.add_argument(
        "--long-burst",
        type=int,
        default=0,
        metavar="INPUTS",
        help="also reload in the middle of bursts on a game of this many inputs (0: skip)",
    )
    parser.add_argument("--bursts", type=int, default=5, help="reloads of --long-burst")
    parser.add_argument("--burst-calls", type=int, default=40, help="calls of each --long-burst burst")
    args = parser.parse_args()
    if args.long_burst:
        long_game = asyncio.run(bench_game(args.long_burst, args.seed))
        print(json.dumps({"longBurst": measure_long_burst(long_game, args.long_burst, args.bursts, args.burst_calls)}))
    if args.follower:
        print(json.dumps({"follower": measure_follower(args.follower)}))
    if not args.no_replays:
        wanted = [int(size) for size in args.sizes.split(",")]
        bench = asyncio.run(bench_game(max(wanted), args.seed))
        version, found = measure(bench, wanted, args.seeks, args.tail)
        print(table(version, found, args.seeks))
        print(json.dumps(found[-1]))
