"""cli.py - `python -m nethack_webmcp.eval`: run a suite, compare two results files, or build the board."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from . import board, compare, results
from .agents.base import Agent
from .suites import SUITES, load_secret

EPILOG = """examples:
  python -m nethack_webmcp.eval --agent autopilot --suite smoke --games 3 --max-calls 300 --out r.json
  python -m nethack_webmcp.eval --agent-cmd 'python my_agent.py' --suite standard --out mine.json
  python -m nethack_webmcp.eval --agent llm --provider anthropic --model claude-sonnet-4-5 --out llm.json
  python -m nethack_webmcp.eval --compare a.json b.json
  python -m nethack_webmcp.eval board results/*.json -o site/"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m nethack_webmcp.eval", description=__doc__, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    who = p.add_mutually_exclusive_group()
    who.add_argument("--agent", choices=["autopilot", "random", "llm"], help="a built-in agent")
    who.add_argument("--agent-cmd", metavar="CMD", help="any MCP client program (docs/EVALUATION.md, Agents)")
    who.add_argument("--compare", nargs=2, metavar=("A", "B"), type=Path, help="compare two results files")
    p.add_argument("--suite", choices=sorted(SUITES), default="smoke")
    p.add_argument("--games", type=int, help="play the suite's first N games")
    p.add_argument("--max-calls", type=int, help="tool calls per game")
    p.add_argument("--max-turns", type=int, help="game turns per game")
    p.add_argument("--max-seconds", type=float, help="wall time per game")
    p.add_argument("--max-tokens", type=int, help="model tokens (in + out) per game (llm)")
    p.add_argument("--jobs", type=int, default=1, help="games played at once")
    p.add_argument("--server", help="play on this running HTTP service instead of a private local one")
    p.add_argument("--store", help="with --server: its store (state dir or postgresql://...) for records and replays")
    p.add_argument("--suite-secret-file", type=Path, help="the suite secret (else $NNH_EVAL_SECRET, else a file)")
    p.add_argument("--out", type=Path, help="the results file to write (default: stdout)")
    p.add_argument(
        "--host",
        choices=["native", "browser"],
        default="native",
        help="where games run: the native engine, or the site in headless Chromium (unsealed)",
    )
    p.add_argument("--harness-name", help="label for --agent-cmd runs")
    p.add_argument("--model-name", help="label for --agent-cmd runs")
    p.add_argument("--agent-seed", type=int, default=0, help="the random agent's seed")
    llm = p.add_argument_group("--agent llm")
    llm.add_argument("--provider", choices=["anthropic", "openai"])
    llm.add_argument("--model")
    llm.add_argument("--base-url", help="an OpenAI-compatible (or Anthropic-compatible) API base URL")
    llm.add_argument("--context", type=int, default=16, help="exchanges the model sees (the last K)")
    llm.add_argument("--system-prompt", type=Path)
    llm.add_argument("--prices", type=Path, help="a price table file (default: the package's prices.json)")
    return p


def _agent(args: argparse.Namespace, p: argparse.ArgumentParser) -> tuple[Agent, dict[str, Any]]:
    from .agents import process_agent

    if args.agent_cmd:
        agent: Agent = process_agent.command_agent(args.agent_cmd, args.harness_name, args.model_name)
        return agent, {"kind": "command", "command": args.agent_cmd, "harness": agent.harness, "model": agent.model}
    if args.agent == "autopilot":
        agent = process_agent.autopilot_agent(args.max_calls)
        return agent, {"kind": "autopilot", "harness": agent.harness, "model": agent.model}
    if args.agent == "random":
        from .agents.random_agent import RandomAgent

        agent = RandomAgent(args.agent_seed)
        return agent, {"kind": "random", "harness": "random", "model": "random", "agentSeed": args.agent_seed}
    if args.agent == "llm":
        if not args.provider or not args.model:
            p.error("--agent llm needs --provider and --model")
        from .agents.llm_agent import PRICES_FILE, PROMPT_FILE, LlmAgent
        from .agents.providers import provider

        llm = LlmAgent(provider(args.provider, args.model, base_url=args.base_url), args.model, context=args.context,
                       system_prompt=args.system_prompt or PROMPT_FILE, prices=args.prices or PRICES_FILE)  # fmt: skip
        label = {"kind": "llm", "harness": llm.harness, "model": args.model, "provider": args.provider,
                 "context": args.context, "baseUrl": args.base_url}  # fmt: skip
        return llm, label
    p.error("say which agent: --agent autopilot|random|llm or --agent-cmd CMD (or --compare A B)")
    raise AssertionError


def work_dir() -> Path | None:
    """$NNH_EVAL_WORK_DIR keeps the run's directories (service state, each agent's working directory);
    by default they are temporary."""
    value = os.environ.get("NNH_EVAL_WORK_DIR")
    return Path(value) if value else None


def _write(document: dict[str, Any], out: Path | None) -> None:
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    if out is None:
        sys.stdout.write(text + "\n")
    else:
        out.write_text(text + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["board"]:
        b = argparse.ArgumentParser(prog="python -m nethack_webmcp.eval board")
        b.add_argument("results", nargs="+", type=Path)
        b.add_argument("-o", "--out", type=Path, required=True)
        wanted = b.parse_args(argv[1:])
        try:
            print(board.build(wanted.results, wanted.out))
        except (ValueError, OSError) as exc:
            print(f"board: {exc}", file=sys.stderr)
            return 2
        return 0
    p = parser()
    args = p.parse_args(argv)
    if args.compare:
        try:
            a, b_ = (results.check(json.loads(path.read_text(encoding="utf-8")), str(path)) for path in args.compare)
            print(compare.render(a, b_, compare.compare(a, b_)))
        except (ValueError, OSError, KeyError) as exc:
            print(f"compare: {exc}", file=sys.stderr)
            return 2
        return 0
    for name in ("games", "max_calls", "max_turns", "max_tokens", "jobs"):
        value = getattr(args, name)
        if value is not None and value < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.store and not args.server:
        p.error("--store goes with --server (a local run reads its own store)")
    if args.host == "browser" and args.server:
        p.error("--host browser plays in a local page, not on --server")
    agent, label = _agent(args, p)
    from .runner import RunOptions, run_suite

    suite = SUITES[args.suite]
    if args.games is not None and args.games > len(suite):
        p.error(f"--games must be at most {len(suite)} for suite {suite.name}")
    options = RunOptions(suite, load_secret(args.suite_secret_file), args.games, args.max_calls, args.max_turns,
                         args.max_seconds, args.max_tokens, args.jobs, args.server, args.store, work_dir(),
                         args.host)  # fmt: skip
    document = asyncio.run(run_suite(agent, options, label))
    _write(document, args.out)
    s = document["summary"]
    ci = s["progressionCI95"] or [0, 0]
    print(f"{label['harness']} / {label['model']}: {s['games']} games, mean progression {s['meanProgression']:.3f}% "
          f"[{ci[0]:.3f}, {ci[1]:.3f}], mean deepest Dlvl {s['meanDeepestDlvl']}, seeds found in "
          f"{document['seedSearch']['bytesSearched']} bytes the agent got: {document['seedSearch']['found']}",
          file=sys.stderr)  # fmt: skip
    return 0 if document["seedSearch"]["found"] == 0 else 3


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
