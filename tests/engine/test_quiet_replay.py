"""Quiet responses (the replay path) change what is reported, never the game.

A resume replays the journal with `quiet: true`: each response then carries
only revision, outcome, decision and end. The game must be exactly the one a
full-response run reaches: the final session.observe is byte-identical.
"""

from __future__ import annotations

from engine_client import DriverClient, start_game

STEPS = [("game.move", {"direction": d}) for d in ("west", "north", "east", "south")] * 10 + [
    ("game.search", {"turns": 5}),
    ("game.eat", {}),
]


def play(client: DriverClient, quiet: bool) -> tuple[list[dict], str]:
    game = start_game(client, seed=4242, session_id="quiet-test")
    responses = []
    for method, params in STEPS:
        response = game.ok(method, **({"quiet": True} if quiet else {}), **params)
        responses.append(response)
        if response["decision"]:
            responses.append(
                game.ok("decision.cancel", decisionId=response["decision"]["id"], **({"quiet": True} if quiet else {}))
            )
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


# Seed 5, wizard fixture: walk past a potion, then eat a bat corpse (stunned:
# no #terrain view from then on). The terrain under the potion must be known
# whether the walk's responses were quiet or full, because the driver fills
# covered terrain when the square is drawn, not when a response is written.
WALK = (
    ["east", "northeast", "northeast", "northeast"]
    + ["north"] * 7
    + ["northwest", "west", "northwest"]
    + ["north"] * 4
    + ["east"] * 6
)


def stunned_walk(client: DriverClient, quiet: bool) -> str:
    game = start_game(client, seed=5, session_id="quiet-stun", wizard=True)
    wish = game.ok("debug.wizard", command="wish")["decision"]
    answered = game.answer(wish, {"kind": "text", "text": "bat corpse"})
    corpse = next(i["id"] for i in answered["observation"]["inventory"] if "bat corpse" in i["label"])
    flag = {"quiet": True} if quiet else {}
    for direction in WALK:
        game.ok("game.move", direction=direction, **flag)
    game.ok("game.eat", itemId=corpse, **flag)
    raw, observed = client.send({"version": 1, "method": "session.observe", "params": {"sessionId": "quiet-stun"}})
    assert "stunned" in observed["observation"]["vitals"]["condition"]
    return raw


def test_terrain_memory_does_not_depend_on_quiet_responses(native_client_factory) -> None:
    assert stunned_walk(native_client_factory(), quiet=True) == stunned_walk(native_client_factory(), quiet=False)
