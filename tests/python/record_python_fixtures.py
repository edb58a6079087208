"""record_python_fixtures.py - record real driver responses for the projection tests.

    python tests/python/record_python_fixtures.py

Plays each scenario on build/native/nhdriver (or $NNH_DRIVER) through the
Session API and writes tests/python/fixtures/<scenario>.json with every
request/response pair. Re-run it whenever the driver's output changes.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the shared support package

from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.navigation import run_leg, step_outcome
from nethack_webmcp.session import Session
from replay import FIXTURES, RecordingEngine
from support.driver import CREATED_AT


class Recorder:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.count = 0

    async def do(self, method: str, **params: Any) -> dict[str, Any]:
        self.count += 1
        result = await self.session.step(method, params, request_id=f"rec-{self.count}")
        assert result.submission == "accepted", (method, params, result.error)
        assert result.response is not None
        return result.response

    def item(self, word: str) -> str:
        return next(i["id"] for i in self.session.observation["inventory"] if word in i["label"])


async def confirmation(r: Recorder) -> None:
    await r.do("game.quit")


async def choice(r: Recorder) -> None:
    wish = await r.do("debug.wizard", command="wish")
    await r.do("decision.answer", decisionId=wish["decision"]["id"], answer={"kind": "text", "text": "2 apples"})
    await r.do("game.drop", itemId=r.item("apples"))
    await r.do("game.drop", itemId=r.item("dagger"))
    await r.do("game.pickup")


async def text(r: Recorder) -> None:
    item = await r.do("game.engrave")
    await r.do("decision.answer", decisionId=item["decision"]["id"], answer={"kind": "item", "hands": True})


async def direction(r: Recorder) -> None:
    await r.do("game.kick")


async def item(r: Recorder) -> None:
    await r.do("game.eat")


async def position(r: Recorder) -> None:
    await r.do("debug.wizard", command="teleport")


async def walk(r: Recorder) -> None:
    """Routine play: explore legs of single moves, then one observe."""
    session = r.session

    async def step(direction: str) -> Any:
        before = session.observation
        return step_outcome(before, await r.do("game.move", direction=direction))

    for _ in range(6):
        if session.gate != "ready":
            break
        await run_leg("explore", step=step, view=session.level, max_actions=15, max_frontiers=3)
    await session.observe()


SCENARIOS: dict[str, tuple[dict[str, Any], Callable[[Recorder], Awaitable[None]]]] = {
    "decision_confirmation": ({"seed": 42}, confirmation),
    "decision_choice": ({"seed": 7, "wizard": True, "role": "valkyrie"}, choice),
    "decision_text": ({"seed": 42}, text),
    "decision_direction": ({"seed": 42}, direction),
    "decision_item": ({"seed": 42}, item),
    "decision_position": ({"seed": 7, "wizard": True, "role": "valkyrie"}, position),
    "walk": ({"seed": 42}, walk),
}


async def record(name: str) -> Path:
    create, play = SCENARIOS[name]
    engine = RecordingEngine(await NativeEngine.start())
    params = {"name": "Ada", "createdAt": CREATED_AT, "sessionId": f"fixture-{name}", **create}
    session = await Session.create(engine, params)
    try:
        await play(Recorder(session))
    finally:
        await engine.close()
    path = FIXTURES / f"{name}.json"
    FIXTURES.mkdir(exist_ok=True)
    body = ",\n".join(json.dumps(exchange, separators=(",", ":")) for exchange in engine.exchanges)
    path.write_text(f'{{"scenario":{json.dumps(name)},"exchanges":[\n{body}\n]}}\n')
    return path


async def main(names: list[str]) -> None:
    for name in names or list(SCENARIOS):
        path = await record(name)
        print(f"recorded {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
