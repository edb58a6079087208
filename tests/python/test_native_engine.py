"""test_native_engine.py - one driver process per game, serialised, and always reaped."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from nethack_webmcp.engine import EngineClosed, EngineError
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.session import Session
from support.client import CREATED_AT, ROOT, require_driver


def state(pid: int) -> str | None:
    """The process state letter from /proc (Z = zombie), or None when gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return None


@pytest.mark.asyncio
async def test_close_reaps_the_driver() -> None:
    require_driver()
    engine = await NativeEngine.start()
    pid = engine.pid
    assert state(pid) not in (None, "Z")
    created = await engine.request({"version": 1, "method": "session.create", "params": {"seed": 1}})
    assert "error" not in created
    await engine.close()
    await engine.close()  # idempotent
    assert state(pid) is None, "closed engines leave neither a process nor a zombie"
    with pytest.raises(EngineClosed):
        await engine.request({"version": 1, "method": "protocol.describe"})


@pytest.mark.asyncio
async def test_requests_are_serialised() -> None:
    require_driver()
    engine = await NativeEngine.start()
    try:
        session = await Session.create(engine, {"seed": 42, "createdAt": CREATED_AT})
        message = {"version": 1, "method": "session.observe", "params": {"sessionId": session.session_id}}
        replies = await asyncio.gather(
            *(engine.request(message) for _ in range(8)), engine.request({"version": 1, "method": "protocol.describe"})
        )
        assert all(reply["sessionId"] == session.session_id for reply in replies[:8])
        assert "methods" in replies[8]
    finally:
        await engine.close()


@pytest.mark.asyncio
async def test_driver_path_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NNH_DRIVER", "/nonexistent/nhdriver")
    with pytest.raises(EngineError, match="NNH_DRIVER"):
        await NativeEngine.start()


@pytest.mark.asyncio
async def test_engine_death_makes_the_operation_uncertain() -> None:
    require_driver()
    engine = await NativeEngine.start()
    session = await Session.create(engine, {"seed": 42, "createdAt": CREATED_AT})
    os.kill(engine.pid, 9)
    await asyncio.sleep(0.1)
    result = await session.step("game.search", {}, request_id="r1")
    assert result.submission in ("uncertain", "rejected") and result.error is not None
    assert session.gate == "recoveryRequired"
    await session.close()
    assert state(engine.pid) is None


def test_interpreter_exit_reaps_unclosed_engines() -> None:
    """A program that never closes its engines leaves no driver behind."""
    require_driver()
    program = textwrap.dedent("""
        import asyncio
        from nethack_webmcp.engine.native import NativeEngine
        engines = []
        async def main():
            for _ in range(2):
                engine = await NativeEngine.start()
                await engine.request({"version": 1, "method": "session.create", "params": {"seed": 3}})
                engines.append(engine)
            print(" ".join(str(e.pid) for e in engines), flush=True)
        loop = asyncio.new_event_loop()
        loop.run_until_complete(main())
        # exit with the loop still open and the engines never closed
    """)
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 2
    for pid in pids:
        assert state(pid) is None, f"driver {pid} outlived its host ({state(pid)})"
