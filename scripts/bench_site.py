"""bench_site.py - the measurements of scripts/bench-site (run that, not this).

Load → tools usable: navigation start to the first answer of the `help`
tool, called as soon as the page lists its eleven WebMCP tools (the call
waits for the game host to boot); then → first frame: the first
DecisionFrame of a `session create` right after. Cold = a fresh browser
context (empty HTTP cache, no service worker), warm = a reload in the same
context once its service worker has installed (the second visit: the
snapshot, the engine and Pyodide from the worker's cache). "site cold,
plain boot" refuses the snapshot's URL, so the worker boots Pyodide from
scratch (the fallback). The bare Pyodide boot is a page on the same origin
whose worker only runs loadPyodide() from the same vendored files (served
under /__bench/, outside web/dist), measured the same way. First-visit
bytes: the bodies the page and its worker fetched until the first frame (the
test server sends no Content-Encoding: these are the files' own sizes).

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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from e2e.site_harness import DIST, QuietHandler, launch, wait_until  # noqa: E402  (needs tests/ on the path)
from playwright.sync_api import Page, Request, sync_playwright  # noqa: E402

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
  let tools = await context.getTools();
  while (tools.length < 11) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    tools = await context.getTools();
  }
  const call = async (name, input) => {
    const tool = tools.find((candidate) => candidate.name === name);
    let result;
    try { result = await context.executeTool(tool, input); }
    catch (error) { result = await context.executeTool(tool, JSON.stringify(input)); }
    return typeof result === 'string' ? JSON.parse(result) : result;
  };
  const help = await call('help', {});
  if (help.error) throw new Error(JSON.stringify(help.error));
  const usable = performance.now();
  const frame = await call('session', { action: 'create', seed: 1 });
  return { usable, at: performance.now(), revision: frame.basis.revision, timings: window.nethackSite.timings };
}"""
SW_SETTLED = "() => window.nethackSite.offline && window.nethackSite.offline.serviceWorker !== 'installing'"
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
        wait_until(page, SW_SETTLED, 120)  # a second visit: after the first one's service worker installed
        page.reload()
    else:
        page.goto(url)
    return page.evaluate(FIRST_FRAME)


def recorder(into: list[Any]) -> Callable[[Request], None]:
    # a Python function: Playwright cannot attach its handler record to a builtin such as list.append
    return lambda request: into.append(request)


def body_bytes(requests: list[Any]) -> int:
    total = 0
    for request in requests:
        try:
            total += max(0, request.sizes()["responseBodySize"])
        except Exception:  # a request that never finished (or was refused) carried no body
            pass
    return total


def bare_boot(page: Page, url: str, reload: bool) -> float:
    if reload:
        page.reload()
    else:
        page.goto(url + "__bench/bare.html")
    return wait_until(page, "() => window.bareReady", 120)


def load_times(playwright: Any, url: str, loads: int) -> dict[str, list[Any]]:
    """Interleaved cold and warm loads of the site, the site's plain boot and bare Pyodide."""
    browser = launch(playwright, native=True)
    results: dict[str, list[Any]] = {key: [] for key in KEYS + ("stages cold", "stages warm", "bytes", "modes")}
    try:
        for _ in range(loads):
            for kind in ("site", "plain", "bare"):
                context = browser.new_context()
                requests: list[Any] = []
                context.on("requestfinished", recorder(requests))
                if kind == "plain":  # the fallback: the worker cannot have the snapshot
                    context.route("**/snapshot/*", lambda route: route.abort())
                page = context.new_page()
                if kind == "site":
                    cold = site_first_frame(page, url, reload=False)
                    results["bytes"].append(body_bytes(requests))
                    warm = site_first_frame(page, url, reload=True)
                    results["site cold"].append(cold["usable"])
                    results["site cold → first frame"].append(cold["at"])
                    results["site warm"].append(warm["usable"])
                    results["site warm → first frame"].append(warm["at"])
                    results["stages cold"].append(cold["timings"])
                    results["stages warm"].append(warm["timings"])
                    results["modes"].append((cold["timings"].get("boot"), warm["timings"].get("boot")))
                elif kind == "plain":
                    cold = site_first_frame(page, url, reload=False)
                    assert cold["timings"].get("boot") == "plain", cold["timings"]
                    results["site cold, plain boot"].append(cold["usable"])
                else:
                    results["bare cold"].append(bare_boot(page, url, reload=False))
                    results["bare warm"].append(bare_boot(page, url, reload=True))
                context.close()
    finally:
        browser.close()
    return results


KEYS = (
    "site cold",
    "site cold → first frame",
    "site cold, plain boot",
    "bare cold",
    "site warm",
    "site warm → first frame",
    "bare warm",
)


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
    print(f"Page load → the eleven tools usable (`help` answered), {options.loads} loads each (median ms; all runs):\n")
    print("| measurement | median ms | runs |\n| --- | ---: | --- |")
    for key in KEYS:
        runs = ", ".join(f"{value:.0f}" for value in loads[key])
        print(f"| {key} | {median(loads[key]):.0f} | {runs} |")
    bare_cold = median(loads["bare cold"])
    print(
        f"\nsite / bare Pyodide cold: cold {median(loads['site cold']) / bare_cold:.2f}× (goal ≤ 1.0), "
        f"warm {median(loads['site warm']) / bare_cold:.2f}× (goal ≤ 0.5), "
        f"plain boot cold {median(loads['site cold, plain boot']) / bare_cold:.2f}×"
    )
    print(f"\nBoot modes (cold, warm): {sorted(set(loads['modes']))}")
    print(f"First-visit bytes until the first frame: {median(loads['bytes']) / 1e6:.1f} MB (uncompressed bodies)")
    for which in ("cold", "warm"):
        stages = loads[f"stages {which}"][len(loads[f"stages {which}"]) // 2]
        print(f"\n{which.capitalize()} boot stages (ms since the worker started): {stages}")
    print()
    print(f"Tool calls on the {build} engine build the page picked, {options.calls} each (ms):\n")
    print("| call | page.webmcp median | p95 | in-page executeTool median | p95 |\n| --- | ---: | ---: | ---: | ---: |")
    for label, outside, inside in latency:
        inner = f"{median(inside):.2f} | {percentile(inside, 0.95):.2f}" if inside else "– | –"
        print(f"| {label} | {median(outside):.2f} | {percentile(outside, 0.95):.2f} | {inner} |")


if __name__ == "__main__":
    main()
