#!/usr/bin/env python3
"""bench_page_tools.py - the page's own share of a WebMCP tool call (issue 27 item 2, in the browser).

The built site in Chromium (as scripts/bench-site serves it), one game
(seed 42). Every call is timed inside the page with performance.now()
around `document.modelContext.executeTool()`: WebMCP's dispatch, the
postMessage to the core worker, the Python tool call in Pyodide, the engine
(WebAssembly), the IndexedDB journal of an acting call, and the frame back;
no Playwright in the timed path. The same kinds as ./scripts/bench-tools,
in a rotating order per round:

  help                no game work
  observe             the full world, a state an observe already saw
  search              interact {action: search}: one acting call (journal:
                      a reservation, then the completion with the receipt)
  observeAfterSearch  an observe right after an (untimed) search

Then what one strict IndexedDB commit costs the page (a scratch database).
Prints a Markdown table and, last, one JSON object (docs/BENCHMARKS.md,
"The stdio tool path", in the page).

    ./scripts/bench-page-tools [--rounds 6] [--calls 30]
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from e2e.site_harness import DIST, QuietHandler, launch, wait_until  # noqa: E402  (needs tests/ on the path)
from playwright.sync_api import sync_playwright  # noqa: E402

KINDS = ("help", "observe", "search", "observeAfterSearch")

#: one round in the page: `calls` of each kind in `order`; only executeTool is timed
ROUND = """async ([sessionId, order, calls]) => {
  const context = document.modelContext;
  const tools = await context.getTools();
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  const run = async (name, input) => {
    const started = performance.now();
    const result = await context.executeTool(byName[name], input);
    const spent = performance.now() - started;
    return [typeof result === 'string' ? JSON.parse(result) : result, spent];
  };
  let [frame] = await run('observe', { sessionId });
  const settle = async () => {
    while (frame.decision) {
      const cancel = frame.decision.cancel || frame.decision.reply;
      [frame] = await run('respond', cancel.arguments);
    }
    if (frame.control.gate === 'ended') throw new Error('the game ended');
  };
  const search = () => run('interact', { sessionId, viewId: frame.basis.viewId, action: 'search' });
  const times = {};
  for (const kind of order) {
    times[kind] = [];
    for (let i = 0; i < calls; i += 1) {
      await settle();
      let spent;
      let result;
      if (kind === 'help') [result, spent] = await run('help', {});
      else if (kind === 'observe') [result, spent] = await run('observe', { sessionId });
      else if (kind === 'search') [frame, spent] = await search();
      else {
        [frame] = await search();
        await settle();
        [result, spent] = await run('observe', { sessionId });
      }
      const answer = result || frame;
      if (answer.error) throw new Error(`${kind}: ${JSON.stringify(answer.error)}`);
      times[kind].push(spent);
    }
  }
  return times;
}"""


@contextmanager
def serve() -> Iterator[str]:
    """web/dist on a loopback port, as scripts/bench-site serves it."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(DIST)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


#: what one journal write costs the page: a small put in a readwrite transaction with strict
#: durability (as idb-store.js writes), on a scratch database, resolved on `complete`
STRICT_COMMIT = """async (count) => {
  const db = await new Promise((resolve, reject) => {
    const opening = indexedDB.open('bench-strict-commit', 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore('rows');
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await new Promise((resolve, reject) => {
      const tx = db.transaction(['rows'], 'readwrite', { durability: 'strict' });
      tx.objectStore('rows').put({ i, text: 'x'.repeat(3000) }, i);
      tx.oncomplete = resolve;
      tx.onabort = () => reject(tx.error);
    });
    times.push(performance.now() - started);
  }
  db.close();
  indexedDB.deleteDatabase('bench-strict-commit');
  return times;
}"""


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--calls", type=int, default=30, help="calls of each kind per round")
    opts = parser.parse_args()
    timed: dict[str, list[float]] = {kind: [] for kind in KINDS}
    with serve() as url, sync_playwright() as playwright:
        browser = launch(playwright, native=True)
        try:
            page = browser.new_context().new_page()
            page.goto(url)
            wait_until(page, "() => window.nethackSite && window.nethackSite.status === 'ready'", 180)
            build = page.evaluate("() => window.nethackSite.engine.build")
            frame = page.webmcp.call_tool("session", {"action": "create", "seed": 42})
            game = frame["basis"]["sessionId"]
            page.evaluate(ROUND, [game, list(KINDS), 10])  # warm-up: imports, caches, the first frames
            for number in range(opts.rounds):
                turn = number % len(KINDS)
                order = KINDS[turn:] + KINDS[:turn]
                for kind, values in page.evaluate(ROUND, [game, list(order), opts.calls]).items():
                    timed[kind].extend(values)
            commits = page.evaluate(STRICT_COMMIT, opts.calls * 2)
        finally:
            browser.close()
    floor = statistics.median(timed["help"])
    print(f"In-page executeTool, {build} engine build, {opts.rounds} rounds x {opts.calls} calls (ms):\n")
    print("| call (in the page) | calls | median ms | p95 ms | ÷ help |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind in KINDS:
        values = timed[kind]
        print(
            f"| {kind} | {len(values)} | {statistics.median(values):.2f} | {percentile(values, 0.95):.2f} | "
            f"{statistics.median(values) / floor:.2f}× |"
        )
    print(
        f"\nOne strict IndexedDB commit (a scratch database, {len(commits)} puts): median "
        f"{statistics.median(commits):.2f} ms, p95 {percentile(commits, 0.95):.2f} ms"
    )
    summary = {
        "build": build,
        "rounds": opts.rounds,
        "callsPerRound": opts.calls,
        "medianMs": {kind: round(statistics.median(v), 3) for kind, v in timed.items()},
        "p95Ms": {kind: round(percentile(v, 0.95), 3) for kind, v in timed.items()},
        "strictCommitMs": round(statistics.median(commits), 3),
    }
    print(json.dumps(summary, separators=(",", ":")))


if __name__ == "__main__":
    main()
