"""runner.py - play a suite for one agent: create each game sealed, hand it over, end it, collect it.

Per game: the harness creates it on the service (straight, not through the
proxy) with the suite's seed and role, opens a proxy endpoint for it, hands
the agent that URL, the sessionId and the control token, and waits for the
game to end, a budget to be spent or the agent to stop (the wall-time budget
cancels the agent). A game left unfinished is quit by the harness
(ending.py), so it has a record, its seed is published and nobody plays it
on. Then its record and journal are read from the store. `--jobs N` plays N
games at once.

With `host="browser"` the "service" is the site in headless Chromium
(browser_host.py): the same proxy, agents and ending, the page's tools, and
each game's record and journal from the page's own export.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..store import Store
from .agents.base import Agent, AgentGame, AgentReport
from .client import ToolClient
from .collect import exported, game_entry
from .ending import end_game, quit_tool
from .proxy import AgentProxy, Budget
from .results import document
from .service import LocalService
from .suites import Suite, SuiteGame, fingerprint, games


@dataclass
class RunOptions:
    suite: Suite
    secret: bytes
    count: int | None = None
    max_calls: int | None = None
    max_turns: int | None = None
    max_seconds: float | None = None
    max_tokens: int | None = None
    jobs: int = 1
    server: str | None = None  # a running service's URL instead of a local one
    store_url: str | None = None  # with --server: its store, for records and replays
    work_dir: Path | None = None
    host: str = "native"  # or "browser": each game in headless Chromium through the page's tools


async def _open_store(options: RunOptions, local: LocalService | None) -> Store | None:
    from ..store.sqlite import SqliteStore

    if local is not None:
        return SqliteStore.in_state_dir(local.state_dir)
    if options.store_url is None:
        return None
    if options.store_url.startswith("postgres"):
        from ..store.postgres import PostgresStore

        return await PostgresStore.connect(options.store_url)
    return SqliteStore.in_state_dir(options.store_url)


def _mcp_url(server: str) -> str:
    server = server.rstrip("/")
    return server if server.endswith("/mcp") else f"{server}/mcp"


async def run_suite(agent: Agent, options: RunOptions, agent_label: dict[str, Any]) -> dict[str, Any]:
    played = games(options.suite, options.secret, options.count)
    created_at = time.time()
    with contextlib.ExitStack() as cleanup:
        work = options.work_dir or Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="nnh-eval-")))
        browser = None
        if options.host == "browser":
            from .browser_host import BrowserHost

            browser = BrowserHost()
            await browser.start()
        local = None if options.server or browser else LocalService(work / "service", options.jobs)
        if local is not None:
            await local.start()
        service_url = browser.mcp_url if browser else local.mcp_url if local else _mcp_url(options.server or "")
        proxy = AgentProxy(service_url, [g.seed for g in played])
        await proxy.start()
        store = None if browser else await _open_store(options, local)

        async def export(session_id: str) -> dict[str, Any] | None:
            return await browser.export(session_id) if browser else await exported(store, session_id)

        try:
            async with ToolClient(service_url) as harness:
                tool = quit_tool(await harness.tools())
            gate = asyncio.Semaphore(options.jobs)

            async def one(game: SuiteGame) -> dict[str, Any]:
                async with gate:
                    return await _play(agent, options, game, service_url, proxy, export, tool, work)

            entries = await asyncio.gather(*(one(game) for game in played))
        finally:
            await proxy.stop()
            if store is not None:
                await store.close()
            if local is not None:
                await local.stop()
            if browser is not None:
                await browser.stop()
    handed = getattr(agent, "handed", [])
    for data in handed:
        proxy.note_handed(data)
    seed_search = {
        "seeds": len(played),
        "bytesSearched": sum(e["bytesReceived"] for e in entries) + proxy.handed_bytes,
        "handedBytes": proxy.handed_bytes,
        "found": sum(e["seedHits"] for e in entries) + proxy.handed_hits,
    }
    suite = {"name": options.suite.name, "version": options.suite.version, "games": len(played),
             "fingerprint": fingerprint(options.suite, played)}  # fmt: skip
    budgets = {"maxCalls": options.max_calls, "maxTurns": options.max_turns, "maxSeconds": options.max_seconds,
               "maxTokens": options.max_tokens}  # fmt: skip
    host = "browser" if browser else "native-http" if local is not None else "server"
    sealed = agent.sealed and browser is None  # the page keeps the seed in the profile's IndexedDB
    return document(agent_label, suite, budgets, host, sealed, seed_search, list(entries), created_at)


async def _play(
    agent: Agent,
    options: RunOptions,
    game: SuiteGame,
    service_url: str,
    proxy: AgentProxy,
    export: Callable[[str], Awaitable[dict[str, Any] | None]],
    tool: str,
    work: Path,
) -> dict[str, Any]:
    async with ToolClient(service_url) as harness:
        created = await harness.call(
            "session",
            {"action": "create", "seed": game.seed, "role": game.role, "name": "Agent",
             "harness_name": agent.harness[:120], "model_name": agent.model[:120]},
        )  # fmt: skip
        if created.get("error"):
            raise RuntimeError(f"game {game.index}: the service refused to create it: {created['error']}")
        session_id = created["basis"]["sessionId"]
        token = created["result"].get("controlToken", "")  # the page has none: its tab controls the game
        url, meter = proxy.open(session_id, Budget(options.max_calls, options.max_turns))
        workdir = work / f"game-{game.index}"
        workdir.mkdir(parents=True, exist_ok=True)
        handed = AgentGame(game.index, game.role, url, session_id, token, meter, options.max_calls,
                           options.max_turns, options.max_tokens, workdir)  # fmt: skip
        started = time.monotonic()
        budget_cause = None
        try:
            async with asyncio.timeout(options.max_seconds):
                report = await agent.play(handed)
        except TimeoutError:
            report, budget_cause = AgentReport(stopped="maxSeconds"), "budget:maxSeconds"
        except Exception as exc:
            report = AgentReport(stopped=f"error: {type(exc).__name__}: {exc}"[:300])
        seconds = time.monotonic() - started
        proxy.close(url)
        final = await harness.call("observe", {"sessionId": session_id, "controlToken": token})
        harness_quit = (final.get("control") or {}).get("gate") != "ended"
        if harness_quit:
            final = await end_game(harness, tool, session_id, token)
        with contextlib.suppress(Exception):
            await harness.call("session", {"action": "close", "sessionId": session_id, "controlToken": token})
    if budget_cause is None and meter.exhausted:
        budget_cause = f"budget:{meter.exhausted}"
    if budget_cause is None and report.stopped:
        budget_cause = f"agent:{report.stopped}"
    accounting = {"tokensIn": report.tokens_in, "tokensOut": report.tokens_out, "costUsd": report.cost_usd,
                  "stopped": report.stopped, **report.notes}  # fmt: skip
    return game_entry(game, session_id, meter, await export(session_id), final, harness_quit,
                      budget_cause, accounting, seconds)  # fmt: skip
