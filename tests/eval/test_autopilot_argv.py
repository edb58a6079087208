"""The autopilot agent's command line: a session ID that begins with "-" is still the session's value."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from nethack_webmcp.eval.agents.base import AgentGame
from nethack_webmcp.eval.agents.process_agent import REPOSITORY, autopilot_agent


class _NoMeter:
    pass


def test_a_session_id_beginning_with_a_dash_reaches_the_autopilot_as_its_value() -> None:
    agent = autopilot_agent(5)
    with tempfile.TemporaryDirectory() as work:
        game = AgentGame(0, "valkyrie", "http://127.0.0.1:9/mcp", "-Xq3v", "-tok", _NoMeter(), 5, None, None,  # type: ignore[arg-type]
                         Path(work))  # fmt: skip
        argv = agent.argv(game, Path(work) / "mcp.json")
        # nothing listens on port 9: the program gets as far as connecting, past its argument parsing
        done = subprocess.run(argv, cwd=REPOSITORY, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "ERR_PARSE_ARGS" not in done.stderr, done.stderr[-2000:]
    assert "ECONNREFUSED" in done.stderr or "fetch failed" in done.stderr, done.stderr[-2000:]
