"""process_agent.py - agents that are programs: the reference autopilot, and any MCP client (`--agent-cmd`).

The program gets the game through its environment and an MCP config file
(the `mcpServers` shape desktop agent CLIs read), never the seed:

    NNH_EVAL_MCP_URL        the game's MCP endpoint (Streamable HTTP)
    NNH_EVAL_SESSION_ID     the game's sessionId (pass it in every call)
    NNH_EVAL_CONTROL_TOKEN  its control token (pass it as controlToken in every call)
    NNH_EVAL_MCP_CONFIG     a JSON file: {"mcpServers": {"nethack": {"type": "http", "url": ...}},
                            "nethackGame": {"sessionId", "controlToken", "maxCalls", "maxTurns"}}
    NNH_EVAL_MAX_CALLS, NNH_EVAL_MAX_TURNS   the budgets (the proxy enforces them anyway)

`{url}`, `{session}`, `{token}` and `{config}` in the command line are
replaced by the same values. The program's working directory is a fresh
directory of its own. It runs until it exits, the game ends or a budget is
spent (then it gets SIGTERM, and SIGKILL 5 s later), or the wall-time budget
passes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import signal
from pathlib import Path
from typing import Any

from .base import AgentGame, AgentReport

REPOSITORY = Path(__file__).resolve().parents[4]
GRACE_S = 5


class ProcessAgent:
    sealed = True

    def __init__(self, command: list[str], harness: str, model: str, handed: list[bytes] | None = None) -> None:
        self.command = command
        self.harness = harness
        self.model = model
        self.handed = handed if handed is not None else []  # every byte given to a program (searched for seeds)
        self.last_stdout = b""

    def environment(self, game: AgentGame) -> tuple[dict[str, str], Path]:
        config = {
            "mcpServers": {"nethack": {"type": "http", "url": game.url}},
            "nethackGame": {
                "sessionId": game.session_id,
                "controlToken": game.control_token,
                "maxCalls": game.max_calls,
                "maxTurns": game.max_turns,
            },
        }
        path = game.workdir / "mcp.json"
        path.write_text(json.dumps(config, indent=1), encoding="utf-8")
        values = {
            "NNH_EVAL_MCP_URL": game.url,
            "NNH_EVAL_SESSION_ID": game.session_id,
            "NNH_EVAL_CONTROL_TOKEN": game.control_token,
            "NNH_EVAL_MCP_CONFIG": str(path),
            "NNH_EVAL_MAX_CALLS": "" if game.max_calls is None else str(game.max_calls),
            "NNH_EVAL_MAX_TURNS": "" if game.max_turns is None else str(game.max_turns),
        }
        return values, path

    def argv(self, game: AgentGame, config: Path) -> list[str]:
        fill = {"{url}": game.url, "{session}": game.session_id, "{token}": game.control_token, "{config}": str(config)}
        out = []
        for part in self.command:
            for key, value in fill.items():
                part = part.replace(key, value)
            out.append(part)
        return out

    async def play(self, game: AgentGame) -> AgentReport:
        values, config = self.environment(game)
        argv = self.argv(game, config)
        self.handed += [config.read_bytes(), json.dumps(values).encode(), json.dumps(argv).encode()]
        # the harness's own secrets never reach the program: no suite secret in its environment
        environment = {k: v for k, v in os.environ.items() if k != "NNH_EVAL_SECRET"} | values
        process = await asyncio.create_subprocess_exec(
            *argv,
            cwd=game.workdir,
            env=environment,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=(game.workdir / "stderr.txt").open("wb"),
            start_new_session=True,  # its own process group: ended as a whole
        )
        output = asyncio.create_task(process.stdout.read() if process.stdout else asyncio.sleep(0, b""))
        finished = asyncio.create_task(process.wait())
        budget = asyncio.create_task(game.meter.done.wait())
        try:
            await asyncio.wait({finished, budget}, return_when=asyncio.FIRST_COMPLETED)
            if not finished.done():
                await asyncio.sleep(0.5)  # the last answer in flight reaches the program
        finally:
            budget.cancel()
            await _end(process)
        self.last_stdout = await output
        stopped = None if process.returncode in (0, -signal.SIGTERM, None) else f"exit {process.returncode}"
        notes: dict[str, Any] = {"exitCode": process.returncode}
        if stopped:  # why a program failed is the first thing its author asks: the end of what it said
            notes["stderrTail"] = _tail(game.workdir / "stderr.txt")
        return AgentReport(stopped=stopped, notes=notes)


def _tail(path: Path, limit: int = 2000) -> str:
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    return data[-limit:].decode("utf-8", "replace")


async def _end(process: asyncio.subprocess.Process) -> None:
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        async with asyncio.timeout(GRACE_S):
            await process.wait()
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()


def command_agent(command: str, harness: str | None, model: str | None) -> ProcessAgent:
    argv = shlex.split(command)
    return ProcessAgent(argv, harness or Path(argv[0]).name, model or "unknown")


def autopilot_agent(max_calls: int | None) -> ProcessAgent:
    """The reference autopilot (webmcp/autopilot) headless in Node, over HTTP to the given game."""
    script = REPOSITORY / "scripts" / "autopilot-mcp.mjs"
    # "=" binds each value: a session ID may begin with "-", which a separate argument would read as an option
    argv = ["node", str(script), "--url={url}", "--session={session}", f"--max-calls={max_calls or 3000}"]
    return ProcessAgent(argv, "autopilot", "webmcp-autopilot")
