"""test_crash.py - crashes: the MCP server SIGKILLed mid-game, and crashes between
a journal reservation and its receipt. Nothing is applied twice or lost: the
final state equals an uninterrupted twin run of the same seed and inputs.
"""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest
from durable_support import (
    PYTHON,
    SCRIPT,
    TWIN_PARAMS,
    Client,
    FaultyStore,
    StdioServer,
    apply_input,
    bound,
    drivers,
    registry,
    standing,
    twin_hash,
    wait_until,
)
from nethack_webmcp.store.sqlite import SqliteStore

pytestmark = pytest.mark.asyncio
HERE = Path(__file__).resolve().parent


async def test_sigkill_the_mcp_server_and_resume(state_dir: Path) -> None:
    before_drivers = drivers()
    server = StdioServer(state_dir)
    try:
        frame = server.ok("session", action="create", seed=42, name="Ada", harness_name="pytest", model_name="none")
        sid = frame["basis"]["sessionId"]
        for direction in ("west", "north", "west"):
            frame = server.ok("travel", **bound(frame), mode="step", target={"direction": direction})
        frame = server.ok("interact", **bound(frame), action="kick")
        question = frame["decision"]
        before = server.ok("observe", sessionId=sid)
        server.kill()
        # the killed server's driver sees EOF and exits by itself
        assert wait_until(lambda: not (drivers() - before_drivers)), "no driver outlives its server"

        server = StdioServer(state_dir)
        after = server.ok("observe", sessionId=sid)
        assert after["result"]["stateHash"] == before["result"]["stateHash"]
        assert after["basis"] == before["basis"]
        assert after["control"]["gate"] == "decision" and standing(after) == standing(before)
        answered = server.ok("respond", **question["reply"]["arguments"], value="north")
        assert answered["basis"]["revision"] == before["basis"]["revision"] + 1
    finally:
        server.close()


@pytest.mark.parametrize("crash_at", [0, 4], ids=["move", "answer"])
async def test_engine_killed_after_reservation(state_dir: Path, tmp_path: Path, crash_at: int) -> None:
    """The driver dies after the input is journaled and before it answers:
    recoveryRequired, observe verifies by replay, the input is recorded as not
    applied, and re-issuing it reaches the twin's state."""
    client: Client
    killed: list[int] = []

    def kill_engine(entry: dict) -> None:
        if entry["seq"] == crash_at + 1 and not killed:
            session = client.games.get(str(TWIN_PARAMS["sessionId"]))
            killed.append(session.engine.pid)  # type: ignore[attr-defined]
            # killed, not yet reaped: the request is written and its answer never comes
            session.engine._process.kill()  # type: ignore[attr-defined]

    store = FaultyStore(SqliteStore.in_state_dir(state_dir), after_reserve=kill_engine)
    client = Client(registry(state_dir, store=store))
    try:
        session = await client.games.create(dict(TWIN_PARAMS))
        frame = await client.ok("observe", sessionId=session.session_id)
        for index, step in enumerate(SCRIPT):
            result = await apply_input(client, frame, step)
            if index == crash_at:
                assert killed and result["outcome"]["submission"] == "uncertain"
                assert result["control"]["gate"] == "recoveryRequired"
                assert result["diagnostics"]["recovery"]["status"] == "required"
                refused = await apply_input(client, frame, step)
                assert refused["error"]["code"] == "recoveryRequired"
                verified = await client.ok("observe", sessionId=session.session_id)
                report = verified["diagnostics"]["recovery"]
                assert report["status"] == "verified" and report["replayed"] == crash_at
                assert [e["seq"] for e in report["notApplied"]] == [crash_at + 1]
                assert verified["basis"]["revision"] == crash_at, "the dangling input was not applied"
                assert verified["basis"]["viewId"] == frame["basis"]["viewId"]
                assert standing(verified) == standing(frame), "the standing question is back"
                result = await apply_input(client, verified, step)  # the caller's explicit re-issue
            assert "error" not in result, result.get("error")
            frame = result
        final = await client.ok("observe", sessionId=session.session_id)
    finally:
        await client.close()
    twin = await twin_hash(tmp_path / "twin")
    assert (final["result"]["stateHash"], final["basis"]["revision"]) == twin
    with sqlite3.connect(state_dir / "games.sqlite3") as db:
        states = [row[0] for row in db.execute("SELECT state FROM journal ORDER BY seq")]
    assert states.count("notApplied") == 1 and states.count("completed") == len(SCRIPT)


@pytest.mark.parametrize("crash_at", [2, 4], ids=["search", "answer"])
async def test_process_killed_after_reservation(state_dir: Path, tmp_path: Path, crash_at: int) -> None:
    """The whole host process is SIGKILLed between reservation and receipt;
    a new process resumes: the dangling input is not applied, and the game
    continues to the twin's state."""
    run = subprocess.run(
        [PYTHON, str(HERE / "crash_player.py"), str(state_dir), str(crash_at)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == -9, run.stderr
    with sqlite3.connect(state_dir / "games.sqlite3") as db:
        assert db.execute("SELECT seq, state FROM journal ORDER BY seq DESC LIMIT 1").fetchone() == (
            crash_at + 1,
            "reserved",
        )

    client = Client(registry(state_dir))
    try:
        # any call resumes the game; until observe has verified the dangling input, no input is sent
        with sqlite3.connect(state_dir / "games.sqlite3") as db:
            nonce = db.execute("SELECT view_nonce FROM sessions").fetchone()[0]
        last_view = {
            "basis": {"sessionId": TWIN_PARAMS["sessionId"], "viewId": f"v{crash_at}-{nonce}"},
            "decision": {
                "reply": {
                    "arguments": {"action": "answer", "sessionId": TWIN_PARAMS["sessionId"], "decisionId": "decision-1"}
                }
            },
        }
        early = await apply_input(client, last_view, SCRIPT[crash_at])
        assert early["error"]["code"] == "recoveryRequired"
        assert early["control"]["gate"] == "recoveryRequired"
        resume = early["diagnostics"]["resume"]
        assert resume["replayed"] == crash_at and [e["seq"] for e in resume["unverified"]] == [crash_at + 1]
        assert early["diagnostics"]["recovery"]["status"] == "required"
        frame = await client.ok("observe", sessionId=TWIN_PARAMS["sessionId"])
        recovery = frame["diagnostics"]["recovery"]
        assert recovery["status"] == "verified" and recovery["replayed"] == crash_at
        assert [e["seq"] for e in recovery["notApplied"]] == [crash_at + 1]
        assert frame["control"]["gate"] in ("ready", "decision")
        with sqlite3.connect(state_dir / "games.sqlite3") as db:
            assert db.execute("SELECT state FROM journal WHERE seq = ?", (crash_at + 1,)).fetchone() == ("notApplied",)
        for step in SCRIPT[crash_at:]:
            frame = await apply_input(client, frame, step)
            assert "error" not in frame, frame["error"]
        final = await client.ok("observe", sessionId=TWIN_PARAMS["sessionId"])
    finally:
        await client.close()
    assert (final["result"]["stateHash"], final["basis"]["revision"]) == await twin_hash(tmp_path / "twin")
