"""test_wasm_checkpoints.py - Asyncify checkpoints restore exactly (docs/REPLAY.md, "Page checkpoints").

A real game is played natively (the session layer, the memory store), its
journal handed to scripts/wasm-checkpoints.mjs, which runs the Asyncify
WebAssembly build under Node: a checkpoint taken at move k (encoded,
gzip-compressed, decoded again) is restored into a fresh instance and the
next 100 inputs are sent to it; every response must equal, byte for byte,
what a straight run of the same journal answered. The same script refuses a
checkpoint with one byte changed, one made on another base and one claimed
for another journal. The seek path (checkpoint-replay.js) is held too:
random moves' observations equal a straight run's observation at that move.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.session import GameRegistry
from nethack_webmcp.store.memory import MemoryStore

from tests.support.wasm_builds import ROOT, WASM_ENGINE, node24

SCRIPT = ROOT / "scripts" / "wasm-checkpoints.mjs"
COMPASS = ["north", "east", "south", "west", "northeast", "southwest", "southeast", "northwest"]


async def play(inputs: int) -> dict[str, Any]:
    store = MemoryStore()
    games = GameRegistry(NativeEngine.start, store=store)
    session = await games.create({"seed": 19, "name": "Restore", "createdAt": 1700000000, "wizard": True})
    for sent in range(inputs):
        decision = session.decision
        if decision is not None:
            await session.step("decision.cancel", {"decisionId": decision["id"]}, request_id=f"r{sent}")
        elif sent % 3 == 2:
            await session.step("game.search", {"turns": 1}, request_id=f"r{sent}")
        else:
            await session.step("game.move", {"direction": COMPASS[(sent * 5) % 8]}, request_id=f"r{sent}")
    info = await store.get_session(session.session_id)
    entries = await store.journal(session.session_id)
    await games.close_all()
    return {"info": info, "entries": entries}


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (WASM_ENGINE / "asyncify" / "nethack.wasm").is_file():
        pytest.fail(f"the Asyncify build is missing in {WASM_ENGINE}; run ./scripts/build")
    path = tmp_path_factory.mktemp("checkpoints") / "game.json"
    path.write_text(json.dumps(asyncio.run(play(700))))
    return path


def run(*args: str) -> dict[str, Any]:
    done = subprocess.run([node24(), str(SCRIPT), *args], capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_restored_checkpoint_answers_byte_for_byte_like_a_straight_run(game_file: Path) -> None:
    report = run("check", str(game_file), "--at", "0,1,250,599", "--span", "100")
    assert [result["at"] for result in report["results"]] == [0, 1, 250, 599]
    for result in report["results"]:
        assert result["replayed"] == 100, result
        assert result["errors"] == 0, result  # real inputs of a live game, not refusals
        assert result["identical"], f"the restored engine answered differently from move {result['firstDifference']}"


def test_a_changed_stale_or_foreign_checkpoint_is_refused(game_file: Path) -> None:
    refusals = {refusal["what"]: refusal for refusal in run("check", str(game_file), "--at", "5")["refusals"]}
    assert refusals["tampered bytes"]["code"] == "checkpointTampered"
    assert refusals["another base"]["code"] == "checkpointStale"
    assert refusals["another journal"]["code"] == "journalChanged"
    assert all(refusal["refused"] and refusal["message"] for refusal in refusals.values())


def test_seeks_equal_a_straight_run_and_a_tampered_stored_checkpoint_is_rebuilt(game_file: Path) -> None:
    report = run("verify", str(game_file), "--seeks", "12")
    assert report["seeks"] == 12
    assert report["mismatches"] == [], report["mismatches"]
    # a stored checkpoint whose bytes were changed is not used at reopen: refused, then rebuilt
    assert report["reopenAfterTamper"]["rebuilt"] is True
    assert report["reopenAfterTamper"]["refused"], report
    assert report["seekAfterTamperEqual"] is True
