"""test_cross_build_resume.py - one stored game, played on every engine build in turn.

The game identity names the rules, so a game journaled on the native twin
resumes on the WASM JSPI build, goes on there, resumes on the Asyncify
build, and comes back to native - through the real session, replay and
SQLite code, each resume replaying and checking every recorded boundary.
The WASM builds run as NDJSON processes (scripts/wasm-driver.mjs under the
test extra's Node 24), which the native engine host drives like nhdriver.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from durable_support import SCRIPT, apply_input
from nethack_webmcp.engine.native import NativeEngine, native_build_identity, native_identity
from nethack_webmcp.session import GameRegistry
from nethack_webmcp.session.session import EngineFactory
from nethack_webmcp.store.sqlite import FileOwnership, SqliteStore
from support.client import Client
from support.wasm_builds import JSPI_FLAG, ROOT, WASM_ENGINE, WASM_SCRIPT, node24, wasm_command

pytestmark = pytest.mark.asyncio

CREATE = {"seed": 42, "name": "Ada", "role": "valkyrie", "createdAt": 1700000000}


def launcher(directory: Path, build: str) -> Path:
    """An executable that runs one WASM build as a driver process."""
    wasm_command(build)  # fails with instructions when the build is missing
    path = directory / f"wasm-{build}"
    path.write_text(
        f"#!/bin/sh\ncd {str(ROOT)!r} && exec {node24()!r} {JSPI_FLAG} {str(WASM_SCRIPT)!r} --build {build}\n"
    )
    path.chmod(0o755)
    return path


def registry(state_dir: Path, build: str, launchers: Path) -> GameRegistry:
    factory: EngineFactory
    if build == "native":
        factory, identity, build_identity = NativeEngine.start, native_identity(), native_build_identity()
    else:
        executable = launcher(launchers, build)

        async def start_launcher() -> NativeEngine:
            return await NativeEngine.start(executable)

        factory = start_launcher

        web = json.loads((WASM_ENGINE / "identity.json").read_text())
        identity, build_identity = web["gameIdentity"], web["builds"][build]["buildIdentity"]
    return GameRegistry(
        factory,
        store=SqliteStore.in_state_dir(state_dir),
        ownership=FileOwnership.in_state_dir(state_dir),
        identity=identity,
        build=build_identity,
    )


async def play_on(
    state_dir: Path, build: str, launchers: Path, session_id: str | None, steps: list[tuple[str, dict[str, Any]]]
) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Resume (or create) the game on `build`, check the resume, play `steps`;
    returns (sessionId, the resumed observe frame, the final observe frame)."""
    client = Client(registry(state_dir, build, launchers))
    try:
        if session_id is None:
            session_id = (await client.games.create(dict(CREATE))).session_id
        resumed = await client.ok("observe", sessionId=session_id)
        frame = resumed
        for step in steps:
            frame = await apply_input(client, frame, step)
            assert "error" not in frame, frame["error"]
        return session_id, resumed, await client.ok("observe", sessionId=session_id)
    finally:
        await client.close()


async def test_a_game_resumes_on_every_build_in_turn(state_dir: Path, tmp_path: Path) -> None:
    sid, _, native = await play_on(state_dir, "native", tmp_path, None, SCRIPT[:3])
    expected = native
    for build, steps in (("jspi", SCRIPT[3:6]), ("asyncify", SCRIPT[6:8]), ("native", SCRIPT[8:])):
        _, resumed, after = await play_on(state_dir, build, tmp_path, sid, steps)
        report = resumed["diagnostics"]["resume"]
        assert report["replayed"] == expected["basis"]["revision"], (build, report)
        assert report["engineBuild"].startswith(f"{build}-sha256:")
        # the resumed game is the one left by the previous build, boundary and state
        assert resumed["result"]["stateHash"] == expected["result"]["stateHash"], build
        assert resumed["basis"]["revision"] == expected["basis"]["revision"]
        assert resumed["decision"] == expected["decision"] and resumed["scene"] == expected["scene"]
        expected = after
    assert expected["basis"]["revision"] == len(SCRIPT)


async def test_a_journal_whose_boundaries_disagree_is_refused_on_every_build(state_dir: Path, tmp_path: Path) -> None:
    import sqlite3

    sid, _, _ = await play_on(state_dir, "native", tmp_path, None, SCRIPT[:3])
    with sqlite3.connect(state_dir / "games.sqlite3") as db:  # history no engine reproduces
        db.execute("UPDATE journal SET receipt_json = json_set(receipt_json, '$.revision', 9) WHERE seq = 2")
    for build in ("jspi", "asyncify", "native"):
        client = Client(registry(state_dir, build, tmp_path))
        try:
            refused = await client.call("observe", sessionId=sid)
        finally:
            await client.close()
        error = refused["error"]
        assert error["code"] == "replayDiverged" and error["seq"] == 2, (build, error)
        assert error["expected"]["revision"] == 9 and error["got"]["revision"] == 2
        assert "replay diverged at journal entry 2" in error["message"]
    assert os.path.exists(state_dir / "games.sqlite3")
