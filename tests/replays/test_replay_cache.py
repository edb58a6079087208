"""test_replay_cache.py - the spectator's replays of ended games (watch/replays.py): opened once per
game, bounded, never for a live game.

Three ended games and one live game in one store: frames of each ended game
come from one replay opened on its first request (later requests, of any
move, open nothing more); a third game closes the least recently used one
(at most OPEN_TIMELINES open: its driver processes end), which opens again
when asked, with the same frames; a live game is refused (`notEnded`)
without any engine being started for it.
"""

from __future__ import annotations

import asyncio
import os

import pytest
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.replay import ReplayRefused
from nethack_webmcp.session import GameRegistry
from nethack_webmcp.store.memory import MemoryStore
from nethack_webmcp.watch import replays as replays_module
from nethack_webmcp.watch.replays import OPEN_TIMELINES, Replays

COMPASS = ["north", "east", "south", "west"]


async def play(games: GameRegistry, seed: int, inputs: int, *, quit_at_end: bool) -> str:
    session = await games.create({"seed": seed, "name": "Cache", "createdAt": 1700000000, "wizard": True})
    for sent in range(inputs):
        if session.decision is not None:
            await session.step("decision.cancel", {"decisionId": session.decision["id"]}, request_id=f"r{sent}")
        else:
            await session.step("game.move", {"direction": COMPASS[sent % 4]}, request_id=f"r{sent}")
    while quit_at_end and not session.state.ended:
        decision = session.decision
        if decision is None:
            await session.step("game.quit", {}, request_id="quit")
            continue
        answer = (
            {"kind": "confirmation", "confirm": True}
            if decision["kind"] == "confirmation"
            else {"kind": "choice", "choose": [decision["options"][0]["id"]]}
        )
        await session.step(
            "decision.answer", {"decisionId": decision["id"], "answer": answer}, request_id=f"a{session.revision}"
        )
    return session.session_id


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_ended_games_are_replayed_once_bounded_and_a_live_game_never() -> None:
    assert OPEN_TIMELINES == 2

    async def run() -> None:
        store = MemoryStore()
        games = GameRegistry(NativeEngine.start, store=store)
        ended = [await play(games, seed, 30, quit_at_end=True) for seed in (3, 4, 5)]
        live = await play(games, 6, 10, quit_at_end=False)
        replays = Replays(store)
        try:
            first = await replays.frame(ended[0], 12)
            assert first["exact"] and first["move"] == 12 and "@" in "".join(first["rows"])
            for move in (0, 5, 12, 29):
                await replays.frame(ended[0], move)
            assert replays.opened == 1, "one replay per game, whatever is asked of it"
            timeline = replays._open[ended[0]].timeline
            assert timeline is not None
            pids = [checkpoint.connection.pid for checkpoint in timeline.checkpoints]

            await replays.frame(ended[1], 3)
            await replays.frame(ended[2], 3)
            assert replays.opened == 3 and list(replays._open) == ended[1:], "the least recently used closed"
            # a closed fork exits on its own once its socket closes: on a loaded machine that takes a while
            for _ in range(100):
                if not any(alive(pid) for pid in pids):
                    break
                await asyncio.sleep(0.1)
            assert not any(alive(pid) for pid in pids), "its paused forks ended with it"
            again = await replays.frame(ended[0], 12)
            assert again == first and replays.opened == 4

            started: list[int] = []
            original = replays_module.Timeline.open

            async def counting(*args: object, **kwargs: object) -> object:
                started.append(1)
                return await original(*args, **kwargs)  # type: ignore[arg-type]

            replays_module.Timeline.open = counting  # type: ignore[method-assign,assignment]
            try:
                with pytest.raises(ReplayRefused) as refused:
                    await replays.frame(live, 3)
            finally:
                replays_module.Timeline.open = original  # type: ignore[method-assign]
            assert refused.value.code == "notEnded" and not started, "a live game is never replayed"
        finally:
            await replays.close()
            await games.close_all()

    asyncio.run(run())
