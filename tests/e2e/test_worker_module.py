"""test_worker_module.py - py/nethack_webmcp/worker.py under CPython.

The browser worker calls these functions with JSON text; here the same
functions run against the native engine (the WASM host only exists in the
worker), so the boundary's contract is checked in a second: frames come
back as JSON, errors are frames, and spectate reads state without input.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from nethack_webmcp import worker
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.projection.world import rows as world_rows
from nethack_webmcp.session import GameRegistry
from nethack_webmcp.tools import ToolContext, declarations
from support.threads import run_in_thread

run = run_in_thread


@pytest.fixture
def native_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker, "_context", ToolContext(GameRegistry(NativeEngine.start)))


def test_declarations_are_the_exported_ones() -> None:
    assert json.loads(worker.declarations()) == declarations()


def test_calls_spectate_and_errors(native_worker: None) -> None:
    async def scenario() -> dict[str, Any]:
        created = json.loads(await worker.call("session", json.dumps({"action": "create", "seed": 9})))
        game = created["basis"]["sessionId"]
        before = json.loads(worker.spectate(game))
        again = json.loads(worker.spectate(game))
        observed = json.loads(await worker.call("observe", json.dumps({"sessionId": game})))
        unknown = json.loads(await worker.call("dance", "{}"))
        broken = json.loads(await worker.call("observe", "{not json"))
        listed = json.loads(await worker.call("observe", "[]"))
        missing = worker.spectate("no-such-game")
        await worker.close_all()
        return {
            "created": created,
            "before": before,
            "again": again,
            "observed": observed,
            "unknown": unknown,
            "broken": broken,
            "listed": listed,
            "missing": missing,
        }

    result = run(scenario())
    created, before, observed = result["created"], result["before"], result["observed"]
    assert before == result["again"], "spectate is a pure read"
    assert before["revision"] == created["basis"]["revision"] == observed["basis"]["revision"]
    # a live game's seed is sealed from spectators too, even one its creator chose
    assert "seed" not in before["session"] and before["gate"] == "ready"
    assert [row["marks"] for row in before["map"]["rows"]] == [
        row["marks"] for row in world_rows(observed["scene"]["world"])
    ]
    assert len(before["map"]["rows"]) == 21 and all(len(row["colors"]) == 80 for row in before["map"]["rows"])
    assert before["observation"]["turn"] == observed["basis"]["turn"]
    assert result["unknown"]["error"]["code"] == "unknownTool"
    assert result["broken"]["error"]["code"] == "invalidArguments"
    assert result["listed"]["error"]["code"] == "invalidArguments"
    assert result["missing"] == "null"
