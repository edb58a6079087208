"""bench_site_resume.py - the measurements of scripts/bench-site-resume (run that, not this).

Journaled play, replay throughput and resume in the browser: the built site
in Chromium with a persistent profile (IndexedDB on the local disk, as a
person's browser keeps it; Playwright's default contexts keep storage in
memory), the site's test hooks on (the bench drives the worker's Python).

1. One game of --inputs inputs is played in the page's worker through the
   session layer, first with the memory store (no durability), then
   with the site's store (`Session.step`: every input reserved in IndexedDB before
   the WASM engine sees it and receipted after, each a strict-durability
   transaction), with scripts/bench-replay's fixture and mix: wizard mode
   (seed 7) so that it lasts, even inputs move in compass order, odd inputs
   search one turn, "Die?" is declined, any other question cancelled.
   The journal is generated in the browser because a natively generated one
   carries the native engine identity, which the WASM build refuses to
   resume (docs/DURABILITY.md, "Engine identity").
2. The page is reloaded (a new worker, a new Pyodide) and the game resumed
   the way a reload resumes it: read the journal from IndexedDB, a fresh
   WASM instance, quiet replay with every boundary checked, a full observe;
   then again with one request per crossing into JavaScript, and with full
   responses, each on a fresh engine.
3. The page-level resume: navigation to the game's page in a new tab (the
   worker boots, the page asks it to load the game) until its frame arrives.

    ./scripts/bench-site-resume [--inputs 10000] [--seed 7] [--runs 3]

prints Markdown; docs/BENCHMARKS.md records its output.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from e2e.durable_harness import HOOKS, wait_ready  # noqa: E402  (needs tests/ on the path)
from e2e.site_harness import CHROMIUM, FLAGS, serve, wait_until  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

PLAY = """
import json, time
from nethack_webmcp import worker
COMPASS = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
from nethack_webmcp.engine.wasm import WasmEngine
from nethack_webmcp.session import GameRegistry
games = {registry}
session = await games.create({{"seed": {seed}, "name": "Bench", "createdAt": 1700000000, "wizard": True}})
started = time.perf_counter()
sent = 0
while sent < {inputs}:
    decision = session.decision
    if decision is not None:
        if decision["kind"] == "confirmation" and decision["prompt"].startswith("Die?"):
            result = await session.step("decision.answer", {{"decisionId": decision["id"], "answer":
                                        {{"kind": "confirmation", "confirm": False}}}}, request_id=f"b{{sent}}")
        else:
            result = await session.step("decision.cancel", {{"decisionId": decision["id"]}}, request_id=f"b{{sent}}")
    elif sent % 2 == 0:
        result = await session.step("game.move", {{"direction": COMPASS[(sent // 2) % 8]}}, request_id=f"b{{sent}}")
    else:
        result = await session.step("game.search", {{"turns": 1}}, request_id=f"b{{sent}}")
    if result.submission != "accepted":
        raise SystemExit(f"input {{sent}} was not accepted: {{result.error}}")
    if session.state.ended:
        raise SystemExit(f"the game ended after {{sent}} inputs")
    sent += 1
seconds = time.perf_counter() - started
await session.observe()
json.dumps({{"sessionId": session.session_id, "seconds": seconds, "revision": session.revision,
            "stateHash": session.last_state_hash}})
"""

RESUME = """
import json, time
from nethack_webmcp import worker
from nethack_webmcp.session import replay as replay_module
replay_module.PIPELINE_WINDOW = {window}
replay_module.QUIET_REPLAY = {quiet}
games = worker._games()
await games.close({session_id!r})
started = time.perf_counter()
entries = await games.store.journal({session_id!r})
read = time.perf_counter() - started
await games.close({session_id!r})
started = time.perf_counter()
session = await games.resume({session_id!r})
total = time.perf_counter() - started
report = session.notes.get("resume", {{}})
replay_module.PIPELINE_WINDOW = 64
replay_module.QUIET_REPLAY = True
json.dumps({{"read": read, "entries": len(entries), "total": total, "replayed": report.get("replayed"),
            "replaySeconds": report.get("seconds"), "stateHash": session.last_state_hash,
            "revision": session.revision}})
"""


def python(page: Page, code: str) -> dict:
    return json.loads(page.evaluate("(code) => window.nethackTest.python(code)", code))


def storage_mb(page: Page) -> float:
    return page.evaluate("async () => (await navigator.storage.estimate()).usage") / 1e6


def main(inputs: int, seed: int, runs: int) -> None:
    profile = tempfile.mkdtemp(prefix="bench-site-resume-")
    with sync_playwright() as playwright, serve() as url:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=FLAGS, headless=True
        )
        context.set_default_timeout(600_000)
        context.add_init_script(HOOKS)
        page = context.new_page()
        page.goto(url)
        wait_ready(page)
        version = context.browser.version if context.browser else "?"
        memory = python(page, PLAY.format(seed=seed, inputs=inputs, registry="GameRegistry(WasmEngine.start)"))
        played = python(page, PLAY.format(seed=seed, inputs=inputs, registry="worker._games()"))
        assert memory["revision"] == played["revision"]
        game = played["sessionId"]
        usage = storage_mb(page)

        page.reload()  # a new worker: nothing of the game is in memory any more
        wait_ready(page)
        rows = []
        for window, quiet, label in (
            (64, True, f"quiet, batched ({1024} requests per crossing into JS)"),
            (1, True, "quiet, one request per crossing"),
            (64, False, "full responses, batched"),
        ):
            measured = [
                python(page, RESUME.format(window=window, quiet=quiet, session_id=game))
                for _ in range(runs if window == 64 and quiet else 1)
            ]
            for one in measured:
                assert one["revision"] == played["revision"] and one["replayed"] == inputs, one
            rows.append((label, measured))

        # the page-level resume: a new tab on the game's page (the worker boots, the page loads the game)
        page.close()
        loads = []
        for _ in range(runs):
            tab = context.new_page()
            started = time.perf_counter()
            tab.goto(f"{url}#/g/{game}")
            wait_until(tab, "(id) => (window.nethackSite.games[id] || {}).owner === true", 120, game)
            booted = tab.evaluate("() => window.nethackSite.timings.ready")
            loads.append((time.perf_counter() - started, booted / 1000))
            tab.close()
        context.close()

    print(
        f"Chromium {version}, persistent profile (IndexedDB on the local disk); game: seed {seed}, "
        f"wizard fixture, {inputs} inputs, revision {played['revision']}; origin storage after play "
        f"{usage:.1f} MB\n"
    )
    print("| what | inputs | seconds | inputs/s | same state hash |")
    print("| --- | ---: | ---: | ---: | --- |")
    print(
        f"| live play, memory store (no durability) | {inputs} | {memory['seconds']:.2f} | "
        f"{inputs / memory['seconds']:,.0f} | – |"
    )
    print(
        f"| live play, IndexedDB journal (reserve + receipt, strict durability each) | {inputs} | "
        f"{played['seconds']:.2f} | {inputs / played['seconds']:,.0f} | – |"
    )
    for label, measured in rows:
        replay = statistics.median(one["replaySeconds"] for one in measured)
        same = all(one["stateHash"] == played["stateHash"] for one in measured)
        print(f"| replay, {label} | {inputs} | {replay:.3f} | {inputs / replay:,.0f} | {'yes' if same else '**no**'} |")
    label, measured = rows[0]
    total = statistics.median(one["total"] for one in measured)
    read = statistics.median(one["read"] for one in measured)
    same = all(one["stateHash"] == played["stateHash"] for one in measured)
    print(
        f"| resume total in the worker (read journal, fresh engine, replay, observe), {label.split(' (')[0]} | "
        f"{inputs} | {total:.3f} | – | {'yes' if same else '**no**'} |"
    )
    print(f"| of which: read the journal from IndexedDB ({measured[0]['entries']} entries) | – | {read:.3f} | – | – |")
    runs_text = ", ".join(f"{one['total']:.3f}" for one in measured)
    print(f"\nResume runs (s): {runs_text}")
    print(
        f"New tab on the game's page → game loaded as owner (s): "
        f"{', '.join(f'{total:.2f} (boot {boot:.2f})' for total, boot in loads)}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    main(args.inputs, args.seed, args.runs)
