"""Quiet responses (the replay path) change what is reported, never the game.

A resume replays the journal with `quiet: true`: each response then carries
only revision, outcome, decision and end. The game must be exactly the one a
full-response run reaches: the final session.observe is byte-identical.
"""
from __future__ import annotations

from engine_client import DriverClient, start_game

STEPS = [("game.move", {"direction": d}) for d in ("west", "north", "east", "south")] * 10 + \
        [("game.search", {"turns": 5}), ("game.eat", {})]


def play(client: DriverClient, quiet: bool) -> tuple[list[dict], str]:
    game = start_game(client, seed=4242, session_id="quiet-test")
    responses = []
    for method, params in STEPS:
        response = game.ok(method, **({"quiet": True} if quiet else {}), **params)
        responses.append(response)
        if response["decision"]:
            responses.append(game.ok("decision.cancel", decisionId=response["decision"]["id"],
                                     **({"quiet": True} if quiet else {})))
    raw, _ = client.send({"version": 1, "method": "session.observe", "params": {"sessionId": "quiet-test"}})
    return responses, raw


def test_quiet_responses_reach_the_same_game(native_client_factory) -> None:
    full, full_observe = play(native_client_factory(), quiet=False)
    quiet, quiet_observe = play(native_client_factory(), quiet=True)
    assert quiet_observe == full_observe
    for loud, hushed in zip(full, quiet, strict=True):
        assert "observation" not in hushed and "events" not in hushed
        for key in ("revision", "outcome", "decision", "ended", "end"):
            assert hushed[key] == loud[key]
