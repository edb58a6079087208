"""cancel_storm.py - the cancel storm of issue 22: acting calls cancelled at random instants.

    played = await storm(call, created, rounds=100, extra={"controlToken": token})

`call(tool, arguments)` is one tool call through a real MCP client and
returns its frame (structuredContent, with "isError"); cancelling the task
that awaits it is how that client gives up - the SDK's clients then send
`notifications/cancelled`, or, for a 2026-07-28 HTTP client, close the
call's response stream. Each round sends `interact search` with its own
requestId, cancels it after a random delay (a seeded RNG; drawn up to 1.5
times the latency the retries have shown so far, so the cancels land
before, during and after the server's work on any machine and transport),
then retries it twice with the same requestId: the first retry must
be accepted exactly one revision on (the input acted once, whether the
cancelled call had reached the engine or not), the second must return that
same receipt again. The caller then checks that the server is still up and
that a restarted server resumes the final state.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

Call = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]


@dataclass
class Storm:
    final: dict[str, Any]
    cancelled: int  # rounds whose call was still unanswered when it was cancelled
    answered: int  # rounds whose answer came back before the cancel


def resumable(frame: dict[str, Any]) -> dict[str, Any]:
    """What a restarted server must show again (of two `observe` frames): the basis and the scene."""
    return {"basis": frame["basis"], "scene": frame["scene"]}


async def storm(
    call: Call, start: dict[str, Any], *, rounds: int = 100, extra: dict[str, Any] | None = None, seed: int = 22
) -> Storm:
    rng = random.Random(seed)
    frame = start
    cancelled = answered = 0
    latency = 0.01  # seconds a call takes, learnt from the retries
    for index in range(rounds):
        arguments = {
            "sessionId": frame["basis"]["sessionId"],
            "viewId": frame["basis"]["viewId"],
            "action": "search",
            "requestId": f"storm-{index}",
            **(extra or {}),
        }
        pending = asyncio.ensure_future(call("interact", arguments))
        await asyncio.sleep(rng.uniform(0, 1.5 * latency))
        if pending.done():
            answered += 1
        else:
            cancelled += 1
            pending.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pending
        began = time.monotonic()
        retried = await call("interact", arguments)
        latency = 0.8 * latency + 0.2 * (time.monotonic() - began)
        assert not retried["isError"], (index, retried.get("error"))
        assert retried["outcome"]["submission"] == "accepted", (index, retried["outcome"])
        assert retried["basis"]["revision"] == frame["basis"]["revision"] + 1, (index, retried["basis"])
        again = await call("interact", arguments)
        assert again["basis"] == retried["basis"] and again["outcome"] == retried["outcome"], index
        frame = retried
    return Storm(frame, cancelled, answered)
