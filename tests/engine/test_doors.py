"""Door lock knowledge comes only from what NetHack tells the player.

Seed 42: the hero walks to the closed door at (48,7) and bumps it; NetHack's
door-opening code discloses that it is not locked (it opens or resists).
The driver emits a doorWitness event and keeps the fact in
observation.doors; the navigation layer reports it as remembered later.
"""

from __future__ import annotations

from engine_client import DriverClient, start_game
from nethack_webmcp.navigation import WorldTracker, navigation


def test_a_door_bump_discloses_its_lock(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    tracker = WorldTracker()
    tracker.apply(game.last["observation"])
    assert game.last["observation"]["doors"] == []
    witnessed = []
    for direction in ["west"] * 10 + ["southwest"]:
        response = game.ok("game.move", direction=direction)
        tracker.apply(response["observation"])
        witnessed += [e for e in response["events"] if e["type"] == "doorWitness"]
    assert witnessed == [
        {"type": "doorWitness", "levelId": "d0-l1", "x": 48, "y": 7, "fact": "unlocked", "turn": witnessed[0]["turn"]}
    ]
    assert response["observation"]["doors"] == [{"x": 48, "y": 7, "lock": "unlocked", "turn": witnessed[0]["turn"]}]
    later = game.ok("game.search")
    tracker.apply(later["observation"])
    door = next(d for d in navigation(tracker.view())["doors"] if (d["x"], d["y"]) == (48, 7))
    assert door["lock"] == {"state": "unlocked", "freshness": "remembered", "observedTurn": witnessed[0]["turn"]}
