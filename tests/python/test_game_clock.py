"""test_game_clock.py - a pinned game clock: every new game starts at that date.

NetHack reads the date when a game starts (moon phase, night), so a seed is
the same game on any day only with the clock pinned (bench-autopilot pins it).
"""

from __future__ import annotations

import pytest
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.mcp import options
from nethack_webmcp.session import GameRegistry
from support.client import require_driver

CLOCK = 1768046400  # 2026-01-10 12:00 UTC


@pytest.mark.asyncio
async def test_a_registry_with_a_game_clock_starts_every_game_at_that_date() -> None:
    require_driver()
    games = GameRegistry(NativeEngine.start, game_clock=CLOCK)
    try:
        first = await games.create({"seed": 3})
        second = await games.create({"seed": 3, "createdAt": 1})  # the pinned clock wins
        assert first.info["create"]["createdAt"] == CLOCK
        assert second.info["create"]["createdAt"] == CLOCK
        assert first.observation == second.observation  # same seed, same date: the same game
    finally:
        await games.close_all()


def test_the_server_takes_the_clock_from_a_flag_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NNH_GAME_CLOCK", raising=False)
    assert options([]).game_clock is None
    assert options(["--game-clock", str(CLOCK)]).game_clock == CLOCK
    monkeypatch.setenv("NNH_GAME_CLOCK", "1700000000")
    assert options([]).game_clock == 1700000000
