"""test_replay_cli.py - python -m nethack_webmcp.replay cast|dumplog|verify on a real exported game file.

A real ended game (seed 11, quit at the end) is exported exactly as
`python -m nethack_webmcp.export` does (exchange.export_game, state hash
included) and handed to the CLI in a subprocess: `verify` reports every move
replayed and the exported state hash matched; `cast -o` writes the same cast
replay/exports.py makes (one frame per move); `dumplog` names the end. A file
with one move changed is refused with the replay's typed message (the move
named) and nothing written; a wrong state hash, a non-game file and a live
game's dumplog are refused too. Each command answers --help.
"""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.engine.native import NativeEngine, native_identity
from nethack_webmcp.exchange import export_game
from nethack_webmcp.session import GameRegistry
from nethack_webmcp.store.memory import MemoryStore

CLI = [sys.executable, "-m", "nethack_webmcp.replay"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


async def exported(inputs: int, *, quit_at_end: bool) -> dict[str, Any]:
    """A game played as the stdio server plays it (the native identity recorded), exported as the CLI does."""
    store = MemoryStore()
    games = GameRegistry(NativeEngine.start, store=store, identity=native_identity())
    session = await games.create({"seed": 11, "name": "Scrub", "createdAt": 1700000000, "wizard": True})
    for sent in range(inputs):
        if session.decision is not None:
            await session.step("decision.cancel", {"decisionId": session.decision["id"]}, request_id=f"r{sent}")
        else:
            await session.step(
                "game.move", {"direction": ["north", "east", "south", "west"][sent % 4]}, request_id=f"r{sent}"
            )
    if quit_at_end:
        await session.step("game.quit", {}, request_id="quit")
        while not session.state.ended:
            decision = session.decision
            assert decision is not None
            answer = (
                {"kind": "confirmation", "confirm": True}
                if decision["kind"] == "confirmation"
                else {"kind": "choice", "choose": [decision["options"][0]["id"]]}
            )
            await session.step(
                "decision.answer", {"decisionId": decision["id"], "answer": answer}, request_id=f"a{session.revision}"
            )
    await games.close_all()
    document = await export_game(store, session.session_id, engine_factory=NativeEngine.start)
    return json.loads(json.dumps(document))  # as a file holds it


@pytest.fixture(scope="module")
def ended_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    document = asyncio.run(exported(20, quit_at_end=True))
    path = tmp_path_factory.mktemp("cli") / "game.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path, document


def refusal(run: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert run.returncode == 1 and run.stdout == "", (run.returncode, run.stdout[:200])
    assert "Traceback" not in run.stderr, run.stderr
    error: dict[str, Any] = json.loads(run.stderr)["error"]
    return error


def test_verify_cast_and_dumplog_of_an_exported_game(ended_game: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    path, document = ended_game
    verified = cli("verify", str(path))
    assert verified.returncode == 0, verified.stderr
    report = json.loads(verified.stdout)
    assert report["verified"] and report["ended"] and report["stateHashChecked"]
    assert report["stateHash"] == document["stateHash"] and report["sessionId"] == document["session"]["sessionId"]

    out = tmp_path / "game.cast"
    made = cli("cast", str(path), "-o", str(out))
    assert made.returncode == 0 and made.stdout == "", made.stderr
    header, *events = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert header["version"] == 2 and header["title"] == "Scrub"
    assert len(events) == report["moves"] + 1 and "Dlvl:1" in events[0][2]

    summary = cli("dumplog", str(path))
    assert summary.returncode == 0, summary.stderr
    assert summary.stdout.startswith("Scrub: quit") and "Cause of death: quit" in summary.stdout


def test_a_tampered_file_is_refused_with_the_replay_message(
    ended_game: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    path, document = ended_game
    # a receipt that is not what the move reached: refused at that move's boundary
    bumped = copy.deepcopy(document)
    bumped["journal"][5]["receipt"]["revision"] += 3
    # a move turned into a five-turn search: the boundaries may agree, the final state cannot
    searched = copy.deepcopy(document)
    move = next(entry for entry in searched["journal"][4:] if entry["method"] == "game.move")
    move["method"] = move["request"]["method"] = "game.search"
    move["request"]["params"] = {"turns": 5}
    out = tmp_path / "never.cast"
    for changed, codes in ((bumped, {"replayDiverged"}), (searched, {"replayDiverged", "stateMismatch"})):
        tampered = tmp_path / "tampered.json"
        tampered.write_text(json.dumps(changed), encoding="utf-8")
        for command in (["cast", str(tampered), "-o", str(out)], ["verify", str(tampered)], ["dumplog", str(tampered)]):
            error = refusal(cli(*command))
            assert error["code"] in codes, error
            if error["code"] == "replayDiverged":
                assert "different boundary at move" in error["message"], error
        assert not out.exists(), "a refused cast writes nothing"

    wrong_hash = copy.deepcopy(document) | {"stateHash": "0" * 64}
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(wrong_hash), encoding="utf-8")
    assert refusal(cli("verify", str(forged)))["code"] == "stateMismatch"

    junk = tmp_path / "junk.json"
    junk.write_text('{"hello": 1}', encoding="utf-8")
    assert refusal(cli("cast", str(junk)))["code"] == "invalidDocument"
    assert refusal(cli("verify", str(tmp_path / "missing.json")))["code"] == "invalidDocument"


def test_a_live_game_has_no_dumplog(tmp_path: Path) -> None:
    live = tmp_path / "live.json"
    live.write_text(json.dumps(asyncio.run(exported(6, quit_at_end=False))), encoding="utf-8")
    assert refusal(cli("dumplog", str(live)))["code"] == "gameNotEnded"
    assert cli("verify", str(live)).returncode == 0


@pytest.mark.parametrize("command", [[], ["cast"], ["dumplog"], ["verify"]])
def test_answers_help(command: list[str]) -> None:
    run = cli(*command, "--help")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("usage: python -m nethack_webmcp.replay"), run.stdout
    assert "file" in run.stdout
