"""replay.py - record real driver exchanges, and replay them into a Session.

Fixtures are never written by hand: record_python_fixtures.py plays scenarios on
the real native driver through a RecordingEngine, and the projection tests
replay those exact responses through a ReplayEngine, which also checks that
the Session sends byte-for-byte the recorded requests.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nethack_webmcp.engine import Engine
from nethack_webmcp.session import Session

FIXTURES = Path(__file__).resolve().parent / "fixtures"


class RecordingEngine(Engine):
    """Forwards to a real engine and keeps every request/response pair."""

    def __init__(self, inner: Engine) -> None:
        super().__init__()
        self.inner = inner
        self.exchanges: list[dict[str, Any]] = []

    async def _exchange(self, message: dict[str, Any]) -> dict[str, Any]:
        response = await self.inner.request(message)
        self.exchanges.append({"request": message, "response": response})
        return response

    async def _shutdown(self) -> None:
        await self.inner.close()


class ReplayEngine(Engine):
    """Answers with recorded responses, asserting each request matches."""

    def __init__(self, exchanges: list[dict[str, Any]]) -> None:
        super().__init__()
        self.pending = list(exchanges)

    async def _exchange(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self.pending, f"no recorded response left for {message}"
        recorded = self.pending.pop(0)
        assert message == recorded["request"], (message, recorded["request"])
        return recorded["response"]

    async def _shutdown(self) -> None:
        pass


def load(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.json").read_text())


Visit = Callable[[Session, Any], None]


async def replay(name: str, each: Visit | None = None) -> Session:
    """A Session driven through all of the fixture's exchanges. `each` is
    called after every gameplay step with the session and its StepResult."""
    exchanges = load(name)["exchanges"]
    session = await Session.create(ReplayEngine(exchanges), exchanges[0]["request"]["params"])
    for exchange in exchanges[1:]:
        request = exchange["request"]
        if request["method"] == "session.observe":
            await session.observe()
            continue
        params = {k: v for k, v in request["params"].items() if k not in ("sessionId", "requestId", "expectedRevision")}
        result = await session.step(request["method"], params, request_id=request["params"]["requestId"])
        if each is not None:
            each(session, result)
    return session
