"""--agent-cmd: a small real MCP client program plays suite games sealed, over HTTP, within its budget."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from support.eval_runs import expected_seed, run_eval

AGENT = Path(__file__).with_name("tiny_agent.py")


def test_an_mcp_client_program_plays_sealed_over_http_within_its_budget(secret_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "cmd.json"
    work = tmp_path / "work"
    done = run_eval(
        ["--agent-cmd", f"{sys.executable} {AGENT}", "--suite", "standard", "--games", "2", "--max-calls", "12",
         "--out", str(out), "--model-name", "tiny"],
        secret_file,
        extra_env={"NNH_EVAL_WORK_DIR": str(work)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(out.read_text())
    assert results["sealed"] is True and results["agent"]["kind"] == "command"
    assert results["agent"]["model"] == "tiny"
    secret = secret_file.read_bytes().strip()
    seeds = [expected_seed(secret, "standard", 1, i) for i in range(2)]
    assert [g["seed"] for g in results["games"]] == seeds
    for game in results["games"]:
        assert game["toolCalls"] == 12  # the create refused and the calls past the budget are not forwarded
        assert game["refusedAfterBudget"] >= 1
        assert game["cause"] == "budget:maxCalls" and game["endedByHarness"]
        assert game["deepestDlvl"] >= 1 and game["record"]["endReason"] == "quit"
    assert results["seedSearch"]["found"] == 0 and results["seedSearch"]["handedBytes"] > 0
    # the program's own copy of everything it received holds no seed either
    received = b"".join(p.read_bytes() for p in work.glob("game-*/received.bin"))
    assert len(received) > 10_000
    assert b"suiteGame" in received  # its own session create was refused
    for seed in seeds:
        assert not re.search(rb"(?<![0-9])" + str(seed).encode() + rb"(?![0-9])", received)
