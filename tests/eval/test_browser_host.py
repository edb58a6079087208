"""`--host browser`: suite games played in headless Chromium through the page's own WebMCP tools.

The issue's command, for both built-in agents: `--host browser --agent random|autopilot --suite smoke
--games 2 --max-calls 40`, end to end (the built site, real Chromium, the WebAssembly engine in the
page's worker, the agent over MCP through the harness's proxy). The results file has the native run's
shape (the same keys in the file, its summary and each game), says `host: browser` and `sealed: false`
(the page keeps the seed in its IndexedDB), and each game's record and replay are the page's own export.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.eval_runs import expected_seed, run_eval
from support.static_site import DIST

from .test_suite_runs import by_hand

AGENTS = ("random", "autopilot")
CALLS = 40


@pytest.fixture(scope="module")
def browser_runs(tmp_path_factory: pytest.TempPathFactory, secret_file: Path) -> dict[str, Any]:
    if not (DIST / "index.html").exists():
        pytest.fail(f"{DIST}/index.html is missing: build the site with ./scripts/build")
    out = tmp_path_factory.mktemp("browser-runs")
    runs: dict[str, Any] = {}
    for agent in AGENTS:
        path = out / f"{agent}.json"
        done = run_eval(["--host", "browser", "--agent", agent, "--suite", "smoke", "--games", "2", "--max-calls",
                         str(CALLS), "--out", str(path)], secret_file)  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        runs[agent] = json.loads(path.read_text())
    return runs


def test_the_results_have_the_native_shape_and_say_browser_unsealed(
    browser_runs: dict[str, Any], smoke_runs: dict[str, Any]
) -> None:
    native = smoke_runs["random"]["results"]
    for agent, results in browser_runs.items():
        assert results["host"] == "browser" and results["sealed"] is False, agent
        assert set(results) == set(native), agent
        assert set(results["summary"]) == set(native["summary"]), agent
        assert results["agent"]["kind"] == agent and results["suite"]["games"] == 2
        for game, twin in zip(results["games"], native["games"], strict=False):
            assert set(game) == set(twin), (agent, set(game) ^ set(twin))
            assert set(game["record"]) == set(twin["record"]), agent


def test_each_browser_game_is_played_counted_and_exported_by_the_page(
    browser_runs: dict[str, Any], secret_file: Path
) -> None:
    secret = secret_file.read_bytes().strip()
    for agent, results in browser_runs.items():
        assert [g["index"] for g in results["games"]] == [0, 1]
        for game in results["games"]:
            record = game["record"]
            assert game["seed"] == expected_seed(secret, "smoke", 1, game["index"]) == record["seed"]
            assert record["harnessName"] == results["agent"]["harness"]
            assert game["toolCalls"] == CALLS or game["cause"].startswith(("died", "agent:")), (agent, game["cause"])
            assert game["maxXL"] == record["maxLevel"] >= 1 and game["deepestDlvl"] == record["deepestDepth"]
            assert abs(game["progression"] - by_hand(record["deepestDepth"], record["maxLevel"])) < 1e-9
            replay = game["replay"]
            assert replay["format"] == "nethack-webmcp-game" and replay["record"] == record
            assert replay["session"]["sessionId"] == game["sessionId"] and len(replay["journal"]) >= 1
        assert results["seedSearch"]["found"] == 0 and results["seedSearch"]["bytesSearched"] > 10_000


def test_the_autopilot_plays_on_the_page_without_error_frames(browser_runs: dict[str, Any]) -> None:
    """The reference agent's code drives the page's tools as it drives the native server's: no refusals."""
    games = browser_runs["autopilot"]["games"]
    assert all(g["invalidCalls"] == 0 and g["agent"]["exitCode"] == 0 for g in games), games
    assert max(g["turns"] for g in games) > 20  # it travelled (40 calls of legs, not single steps)
