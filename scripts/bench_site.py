"""bench_site.py - the measurements of scripts/bench-site (run that, not this).

Load → first frame: navigation start to the first DecisionFrame of a
`session create` issued as soon as the page has loaded (the call waits for
the game host to boot). Cold = a fresh browser context (empty HTTP cache),
warm = a reload in the same context. The bare Pyodide boot is a page on the
same origin whose worker only runs loadPyodide() from the same vendored
files (served under /__bench/, outside web/dist), measured the same way.

Tool latency: wall time of page.webmcp.call_tool() from Python (the
independent agent-side client), next to the same calls made inside the page
with document.modelContext.executeTool() (the site's own share), and
Playwright's own page.webmcp.tools() listing, which call_tool() performs
before every call.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from e2e.site_harness import DIST, QuietHandler, launch, wait_until  # noqa: E402  (needs tests/ on the path)
from playwright.sync_api import Page, sync_playwright  # noqa: E402

BENCH = ROOT / "build" / "bench-site"
BARE_WORKER = """import { loadPyodide } from 'pyodide';
const started = performance.now();
await loadPyodide({ indexURL: new URL('../pyodide/', self.location).href, stdout: () => {} });
self.postMessage(performance.now() - started);
"""
BARE_PAGE = """const worker = new Worker('bare-worker.js', { type: 'module' });
worker.onmessage = () => { window.bareReady = performance.now(); };
"""
BARE_HTML = """<!doctype html><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module" src="bare.js"></script>"""
FIRST_FRAME = """async () => {
  const context = document.modelContext;
  const tool = (await context.getTools()).find((candidate) => candidate.name === 'session');
  const input = { action: 'create', seed: 1 };
  let result;
  try { result = await context.executeTool(tool, input); }
  catch (error) { result = await context.executeTool(tool, JSON.stringify(input)); }
  const frame = typeof result === 'string' ? JSON.parse(result) : result;
  return { at: performance.now(), revision: frame.basis.revision, timings: window.nethackSite.timings };
}"""
IN_PAGE = """async ([name, args, count, stepping]) => {
  const context = document.modelContext;
  const tools = await context.getTools();
  const tool = tools.find((candidate) => candidate.name === name);
  const observe = tools.find((candidate) => candidate.name === 'observe');
  let view = stepping ? (await context.executeTool(observe, { sessionId: args.sessionId })) : null;
  view = view && (typeof view === 'string' ? JSON.parse(view) : view);
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const input = stepping
      ? { ...args, viewId: view.basis.viewId, target: { direction: i % 2 ? stepping[1] : stepping[0] } }
      : args;
    const started = performance.now();
    const result = await context.executeTool(tool, input);
    times.push(performance.now() - started);
    if (stepping) view = typeof result === 'string' ? JSON.parse(result) : result;
  }
  return times;
}"""


def prepare_bare() -> None:
    BENCH.mkdir(parents=True, exist_ok=True)
    (BENCH / "bare-worker.src.js").write_text(BARE_WORKER)
    (BENCH / "bare.js").write_text(BARE_PAGE)
    (BENCH / "bare.html").write_text(BARE_HTML)
    subprocess.run(
        [
            str(ROOT / "node_modules" / ".bin" / "esbuild"),
            str(BENCH / "bare-worker.src.js"),
            "--bundle",
            "--format=esm",
            "--log-level=warning",
            "--external:node:*",
            "--external:ws",
            f"--outfile={BENCH / 'bare-worker.js'}",
        ],
        check=True,
        cwd=ROOT,
    )


class BenchHandler(QuietHandler):
    """web/dist, plus build/bench-site under /__bench/ (same origin, same cache)."""

    def translate_path(self, path: str) -> str:
        if path.startswith("/__bench/"):
            return str(BENCH / path[len("/__bench/") :].split("?")[0])
        return super().translate_path(path)


@contextmanager
def serve() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(BenchHandler, directory=str(DIST)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def site_first_frame(page: Page, url: str, reload: bool) -> dict[str, Any]:
    if reload:
        page.reload()
    else:
        page.goto(url)
    return page.evaluate(FIRST_FRAME)


def bare_boot(page: Page, url: str, reload: bool) -> float:
    if reload:
        page.reload()
    else:
        page.goto(url + "__bench/bare.html")
    return wait_until(page, "() => window.bareReady", 120)


def load_times(playwright: Any, url: str, loads: int) -> dict[str, list[float]]:
    """Interleaved cold and warm loads of the site and of bare Pyodide."""
    browser = launch(playwright, native=True)
    results: dict[str, list[float]] = {
        "site cold": [],
        "site warm": [],
        "bare cold": [],
        "bare warm": [],
        "stages warm": [],
    }
    try:
        for _ in range(loads):
            for kind in ("site", "bare"):
                context = browser.new_context()
                page = context.new_page()
                if kind == "site":
                    cold = site_first_frame(page, url, reload=False)
                    warm = site_first_frame(page, url, reload=True)
                    results["site cold"].append(cold["at"])
                    results["site warm"].append(warm["at"])
                    results["stages warm"].append(warm["timings"])
                else:
                    results["bare cold"].append(bare_boot(page, url, reload=False))
                    results["bare warm"].append(bare_boot(page, url, reload=True))
                context.close()
    finally:
        browser.close()
    return results


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def call_latency(
    playwright: Any, url: str, calls: int, without_jspi: bool
) -> tuple[str, list[tuple[str, list[float], list[float]]]]:
    """(the engine build the page picked, the latency rows)."""
    browser = launch(playwright, native=True)
    rows = []
    try:
        context = browser.new_context()
        if without_jspi:  # the page's test hooks stand in for a browser without JSPI
            context.add_init_script(
                "globalThis.__NETHACK_TEST_HOOKS__ = true; globalThis.__NETHACK_TEST_WITHOUT_JSPI__ = true;"
            )
        page = context.new_page()
        page.goto(url)
        wait_until(page, "() => window.nethackSite && window.nethackSite.status === 'ready'", 120)
        build = page.evaluate("() => window.nethackSite.engine.build")
        frame = page.webmcp.call_tool("session", {"action": "create", "seed": 42})
        game = frame["basis"]["sessionId"]
        pair = None
        for square in frame["scene"]["nearby"]:
            opposite = {"east": "west", "west": "east", "north": "south", "south": "north"}.get(square["direction"])
            if square.get("walkable") and opposite and "occupant" not in square:
                pair = (square["direction"], opposite)
                break
        assert pair, "no free square to step to and back"

        cases: list[tuple[str, str, dict[str, Any], tuple[str, str] | None]] = [
            ("help {}", "help", {}, None),
            ("observe", "observe", {"sessionId": game}, None),
            ("interact (discover, free)", "interact", {"sessionId": game}, None),
            ("travel step (one move)", "travel", {"sessionId": game, "mode": "step"}, pair),
        ]
        for label, name, args, stepping in cases:
            via_playwright = []
            view = page.webmcp.call_tool("observe", {"sessionId": game}) if stepping else None
            for i in range(calls):
                arguments = dict(args)
                if stepping:
                    assert view is not None
                    arguments.update(viewId=view["basis"]["viewId"], target={"direction": stepping[i % 2]})
                started = time.perf_counter()
                result = page.webmcp.call_tool(name, arguments)
                via_playwright.append((time.perf_counter() - started) * 1000)
                assert "error" not in result, result
                if stepping:
                    view = result
            in_page = page.evaluate(IN_PAGE, [name, args, calls, list(stepping) if stepping else None])
            rows.append((label, via_playwright, in_page))
        listing = []
        for _ in range(calls):
            started = time.perf_counter()
            page.webmcp.tools()
            listing.append((time.perf_counter() - started) * 1000)
        rows.append(("page.webmcp.tools() alone (Playwright's listing)", listing, []))
    finally:
        browser.close()
    return build, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument(
        "--without-jspi",
        action="store_true",
        help="tool calls on the Asyncify fallback (the page as in a browser without JSPI)",
    )
    options = parser.parse_args()
    prepare_bare()
    with serve() as url, sync_playwright() as playwright:
        loads = load_times(playwright, url, options.loads)
        build, latency = call_latency(playwright, url, options.calls, options.without_jspi)

    median = statistics.median
    print(f"Page load → first frame, {options.loads} loads each (median ms; all runs in brackets):\n")
    print("| measurement | median ms | runs |\n| --- | ---: | --- |")
    for key in ("site cold", "bare cold", "site warm", "bare warm"):
        runs = ", ".join(f"{value:.0f}" for value in loads[key])
        print(f"| {key} | {median(loads[key]):.0f} | {runs} |")
    warm_ratio = median(loads["site warm"]) / median(loads["bare warm"])
    cold_ratio = median(loads["site cold"]) / median(loads["bare cold"])
    print(f"\nsite / bare Pyodide: warm {warm_ratio:.2f}×, cold {cold_ratio:.2f}×")
    stages = loads["stages warm"][len(loads["stages warm"]) // 2]
    print(f"\nWarm boot stages (ms since the worker started): {stages}\n")
    print(f"Tool calls on the {build} engine build the page picked, {options.calls} each (ms):\n")
    print("| call | page.webmcp median | p95 | in-page executeTool median | p95 |\n| --- | ---: | ---: | ---: | ---: |")
    for label, outside, inside in latency:
        inner = f"{median(inside):.2f} | {percentile(inside, 0.95):.2f}" if inside else "– | –"
        print(f"| {label} | {median(outside):.2f} | {percentile(outside, 0.95):.2f} | {inner} |")


if __name__ == "__main__":
    main()
