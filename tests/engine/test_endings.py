"""test_endings.py - games that really end: quitting, dying, petrification.

The end arrives through the engine's own questions (quit confirmation, the
wizard-mode "Die?" fixture question, the disclosure questions), each answered
as a genuine decision. The final response carries ended:true and an
authoritative `end`; afterwards observe still works, gameplay is refused with
gameEnded, and session.close retires the engine.
"""

from __future__ import annotations

import pytest
from engine_client import DriverClient, Game, assert_rejected_without_effect, start_game

DISCLOSURE_PROMPTS = [
    "Do you want your possessions identified?",
    "Do you want to see your attributes?",
    "Do you want to see your conduct?",
    "Do you want to see the dungeon overview?",
]


def heard(response: dict) -> list[str]:
    return [event["text"] for event in response["events"] if event["type"] == "heard"]


def passages(response: dict) -> list[list[str]]:
    return [event["lines"] for event in response["events"] if event["type"] == "passage"]


def answer_disclosure(game: Game, reveal: bool) -> dict:
    """Answer the end-of-game questions until the game has ended; returns the final
    response. With reveal, say yes to each and pick from the identified-inventory menu."""
    prompts = []
    for _ in range(20):
        decision = game.last["decision"]
        if decision is None:
            break
        assert game.last["ended"] is False, "a decision stands in an ended game"
        if decision["kind"] == "confirmation":
            prompts.append(decision["prompt"])
            game.answer(decision, {"kind": "confirmation", "confirm": reveal})
        elif decision["kind"] == "choice":
            # The engine shows the identified inventory as a pick-one menu.
            assert reveal, decision
            assert decision["select"] == "one" and decision["options"], decision
            game.answer(decision, {"kind": "choice", "choose": [decision["options"][0]["id"]]})
        else:
            pytest.fail(f"unexpected {decision['kind']} decision at game end: {decision}")
    assert prompts == DISCLOSURE_PROMPTS
    return game.last


def check_ended(game: Game, final: dict, how: str) -> dict:
    assert final["ended"] is True
    assert final["decision"] is None
    assert final["outcome"]["status"] == "ended"
    end = final["end"]
    assert end["how"] == how, end
    assert isinstance(end["score"], int) and end["score"] >= 0
    assert isinstance(end["turn"], int) and end["turn"] == final["observation"]["turn"]
    assert isinstance(end["depth"], int) and end["depth"] >= 1
    assert end["deepest"] >= end["depth"]
    assert isinstance(end["death"], str) and end["death"]

    # observe still works and reports the same authoritative result
    observed = game.observe()
    assert observed["ended"] is True
    assert observed["end"] == end
    assert observed["revision"] == final["revision"]
    assert observed["decision"] is None

    # every gameplay or continuation request is refused, revision unchanged
    for method, params in (
        ("game.wait", {}),
        ("game.move", {"direction": "east"}),
        ("game.quit", {}),
        ("decision.cancel", {"decisionId": "decision-1"}),
    ):
        response = game.call(method, **params)
        assert response["error"]["code"] == "gameEnded", response
        assert response["revision"] == final["revision"]
        assert game.observe()["end"] == end

    # closing retires the engine: the process exits cleanly
    client = game.client
    closed = client.request({"version": 1, "method": "session.close", "params": {"sessionId": game.session_id}})
    assert closed == {"version": 1, "sessionId": game.session_id, "closed": True}
    assert client.proc.wait(timeout=10) == 0
    return end


def test_quit_ends_the_game(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    game.ok("game.search", turns=3)
    decision = game.ok("game.quit")["decision"]
    assert decision["kind"] == "confirmation" and decision["prompt"] == "Really quit?"
    response = game.answer(decision, {"kind": "confirmation", "confirm": True})
    assert response["outcome"]["action"] == "answer"
    assert response["ended"] is False, "the disclosure questions come before the end"

    final = answer_disclosure(game, reveal=False)
    end = check_ended(game, final, "quit")
    assert end["death"] == "quit"
    assert end["turn"] == 4
    # the score comes with what the player knows: conduct, achievements, remembered levels
    assert end["knowledge"]["conduct"]["food"] == 0 and end["knowledge"]["achievements"] == []
    assert [level["levelId"] for level in end["knowledge"]["levels"]] == ["d0-l1"]
    assert any(any("You quit in The Dungeons of Doom" in line for line in lines) for lines in passages(final))


def test_quit_with_full_disclosure(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    decision = game.ok("game.quit")["decision"]
    game.answer(decision, {"kind": "confirmation", "confirm": True})
    final = answer_disclosure(game, reveal=True)
    check_ended(game, final, "quit")
    assert any(lines and lines[0] == "The Dungeons of Doom:" for lines in passages(final)), passages(final)


def test_state_error_before_end_is_not_game_ended(native_client: DriverClient) -> None:
    """While the disclosure questions stand the game is not over yet."""
    game = start_game(native_client, seed=42)
    decision = game.ok("game.quit")["decision"]
    response = game.answer(decision, {"kind": "confirmation", "confirm": True})
    assert response["decision"]["prompt"] == DISCLOSURE_PROMPTS[0]
    response = game.call("game.wait")
    assert_rejected_without_effect(game, response, "decisionStanding")


def fight_until_death_question(game: Game, limit: int = 60) -> dict:
    """Search in place until the engine asks the wizard-mode "Die?" question."""
    for _ in range(limit):
        decision = game.last["decision"]
        if decision is not None:
            assert decision["kind"] == "confirmation", decision
            if decision["prompt"] == "Die?":
                return decision
            game.cancel(decision)  # e.g. an interrupted occupation question
            continue
        game.ok("game.search", turns=5)
    pytest.fail(f"no 'Die?' question within {limit} requests; hp {game.last['observation']['vitals']['hp']}")


def test_death_by_monsters(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    for _ in range(3):
        decision = game.wizard("createMonster")["decision"]
        assert decision["kind"] == "text"
        assert decision["prompt"].startswith("Create what kind of monster?")
        game.answer(decision, {"kind": "text", "text": "soldier ant"})

    # Declining "Die?" is a real answer: the hero is saved and play goes on
    # (three soldier ants may well kill the hero again in the same turn).
    decision = fight_until_death_question(game)
    assert "You die..." in heard(game.last)
    assert game.last["observation"]["vitals"]["hp"] <= 0
    response = game.answer(decision, {"kind": "confirmation", "confirm": False})
    assert response["outcome"]["action"] == "answer"
    assert response["ended"] is False and response["end"] is None
    assert heard(response)[0] == "OK, so you don't die."

    # Next time, accept.
    decision = fight_until_death_question(game)
    response = game.answer(decision, {"kind": "confirmation", "confirm": True})
    assert response["ended"] is False
    final = answer_disclosure(game, reveal=False)
    end = check_ended(game, final, "died")
    # savelife() leaves the hero helpless for a moment: ", while helpless" may follow
    assert end["death"].startswith("killed by a soldier ant"), end


def test_death_by_petrification(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    decision = game.wizard("wish")["decision"]
    response = game.answer(decision, {"kind": "text", "text": "cockatrice corpse"})
    corpse = next(item for item in response["observation"]["inventory"] if "cockatrice corpse" in item["label"])
    response = game.ok("game.eat", itemId=corpse["id"])
    assert "You turn to stone." in heard(response)
    decision = response["decision"]
    assert decision["kind"] == "confirmation" and decision["prompt"] == "Die?"
    game.answer(decision, {"kind": "confirmation", "confirm": True})
    final = answer_disclosure(game, reveal=False)
    end = check_ended(game, final, "stoned")
    assert end["death"] == "petrified by tasting cockatrice meat"
