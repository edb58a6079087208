"""test_engine_pipeline.py - `Engine.pipeline` has one signature and one meaning on every host.

A replay sends requests known in advance through `pipeline`: the native host
keeps up to `window` in flight, the base Engine (any other host) sends them
one at a time. Both must hand `check` the same responses in the same order,
and a malformed reply is a transport failure (codec) on every host.
"""

from __future__ import annotations

from typing import Any

import pytest
from nethack_webmcp.engine import Engine, EngineError
from nethack_webmcp.engine.codec import decode, encode, encode_lines
from nethack_webmcp.engine.native import NativeEngine
from replay import RecordingEngine
from support.client import CREATED_AT, require_driver

SESSION = "pipeline-game"
SEARCHES = 24


def requests() -> list[dict[str, Any]]:
    """A game's creation and searches at their expected revisions (each search takes one)."""
    found: list[dict[str, Any]] = [
        {
            "version": 1,
            "method": "session.create",
            "params": {"sessionId": SESSION, "seed": 42, "createdAt": CREATED_AT},
        }
    ]
    for index in range(SEARCHES):
        found.append(
            {
                "version": 1,
                "method": "game.search",
                "params": {"sessionId": SESSION, "requestId": f"r{index}", "expectedRevision": index},
            }
        )
    found.append({"version": 1, "method": "session.observe", "params": {"sessionId": SESSION}})
    return found


async def answers(engine: Engine, window: int) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []

    def check(index: int, response: dict[str, Any]) -> None:
        assert index == len(seen), "responses arrive in request order"
        seen.append(response)

    try:
        await engine.pipeline(requests(), check, window=window)
    finally:
        await engine.close()
    return seen


@pytest.mark.asyncio
async def test_pipelined_and_sequential_hosts_answer_alike() -> None:
    require_driver()
    pipelined = await answers(await NativeEngine.start(), window=8)
    sequential = await answers(RecordingEngine(await NativeEngine.start()), window=8)  # the base Engine's pipeline
    assert all("error" not in response for response in pipelined), pipelined[-1]
    assert pipelined[-1]["revision"] == SEARCHES
    assert pipelined == sequential


@pytest.mark.asyncio
async def test_a_failing_check_propagates() -> None:
    require_driver()
    engine = await NativeEngine.start()

    def refuse(index: int, response: dict[str, Any]) -> None:
        if index == 2:
            raise ValueError("diverged")

    with pytest.raises(ValueError, match="diverged"):
        await engine.pipeline(requests(), refuse, window=8)
    assert engine.closed, "in-flight replies would answer later requests: the engine is retired"


def test_codec_round_trip_and_refusals() -> None:
    message = {"version": 1, "method": "session.lookup", "params": {"name": "élan"}}
    assert encode(message) == '{"version":1,"method":"session.lookup","params":{"name":"élan"}}'
    assert decode(encode(message).encode("utf-8")) == message
    assert encode_lines([message, message]).split("\n") == [encode(message)] * 2
    for bad in ("nope", "[1, 2]", b"\xff{}"):
        with pytest.raises(EngineError):
            decode(bad)
