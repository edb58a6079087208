"""test_autopilot_stdio.py - the reference autopilot plays through the stdio MCP server.

The same policy the page runs (webmcp/autopilot) is driven by Node with the
official MCP TypeScript SDK client against `python -m nethack_webmcp.mcp`:
one short game must make real progress (turns pass, new squares are stood
on) and every decision it answered must have been the standing one (the
server accepts an answer only for the decision standing now).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from support.client import ROOT, require_driver

SEED = 5  # a Priest: questions to answer (corpses to eat) and a descent within the budget
MAX_CALLS = 120


def test_the_autopilot_plays_through_the_stdio_server() -> None:
    require_driver()
    finished = subprocess.run(
        ["node", "scripts/autopilot-mcp.mjs", "--seed", str(SEED), "--max-calls", str(MAX_CALLS)],
        cwd=ROOT,
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr[-2000:]
    game = json.loads(finished.stdout.strip().splitlines()[-1])
    assert game["endReason"] in ("maxCalls", "died", "quit"), game
    assert game["calls"] >= 50 if game["endReason"] == "maxCalls" else game["calls"] > 0
    assert game["turns"] - game["firstTurn"] >= 100, game  # turns advanced
    assert game["squares"] >= 60, game  # squares explored (stood on)
    assert game["decisions"] >= 1 and game["answersAccepted"] == game["decisions"], game
    assert game["notStanding"] == 0, game
