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
The native host's persisted checkpoints (the same records in files) are
reused by a new process, show the native engine's frames, and a changed
file is refused and rebuilt.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.wandering_game import native_rows, wandering_game
from tests.support.wasm_builds import ROOT, WASM_ENGINE, node24

SCRIPT = ROOT / "scripts" / "wasm-checkpoints.mjs"


async def play(inputs: int) -> dict[str, Any]:
    return await wandering_game(inputs, seed=19, name="Restore", stride=5, prefix="r")


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


def test_persisted_checkpoints_outlive_the_process_and_a_changed_file_is_rebuilt(
    game_file: Path, tmp_path: Path
) -> None:
    """The native host's persisted format: the same records in files, reused by a new process."""
    directory = str(tmp_path / "checkpoints")
    first = run("persisted", str(game_file), "--dir", directory, "--seeks", "6")
    assert first["rebuilt"] is True and first["checkpoints"] >= 3
    again = run("persisted", str(game_file), "--dir", directory, "--seeks", "6")
    assert again["rebuilt"] is False and again["refused"] == [], again
    game = json.loads(game_file.read_text())
    for move, rows in again["frames"].items():
        assert rows == asyncio.run(native_rows(game, int(move))), f"move {move}"
    victim = sorted(int(path.stem) for path in (tmp_path / "checkpoints").glob("*.ckpt"))[1]
    path = tmp_path / "checkpoints" / f"{victim}.ckpt"
    data = bytearray(path.read_bytes())
    data[-10] ^= 1
    path.write_bytes(bytes(data))
    refused = run("persisted", str(game_file), "--dir", directory, "--seeks", "3")
    assert refused["refused"] == [victim] and refused["rebuilt"] is True, refused
