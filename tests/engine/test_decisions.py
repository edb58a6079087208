"""test_decisions.py - every decision kind, reached in a real game, answered and cancelled.

For each kind: the engine raises it from a genuine command; answering continues
the command, `decision.cancel` is reported as outcome action "cancel" (distinct
from a negative answer, which is action "answer"); a stale or wrong decision ID
is `decisionMismatch` and a wrong answer shape is `wrongAnswerKind`, neither of
which changes the revision or the standing decision.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from engine_client import DriverClient, Game, assert_rejected_without_effect, start_game

# ---- helpers -----------------------------------------------------------------


def standing(response: dict, kind: str) -> dict:
    """The response's decision, which must be of `kind`."""
    assert "error" not in response, response["error"]
    decision = response["decision"]
    assert decision is not None, f"expected a {kind} decision; events: {response['events']}"
    assert decision["kind"] == kind, decision
    assert decision["id"].startswith("decision-")
    assert decision["cancellable"] is True
    assert response["outcome"]["status"] == "decision"
    assert response["ended"] is False
    return decision


def heard(response: dict) -> list[str]:
    return [event["text"] for event in response["events"] if event["type"] == "heard"]


def item_labelled(items: list[dict], word: str) -> dict:
    matches = [item for item in items if word in item["label"]]
    assert matches, f"no item with {word!r} in {[item['label'] for item in items]}"
    return matches[0]


def wish(game: Game, text: str) -> dict:
    decision = standing(game.wizard("wish"), "text")
    assert decision["prompt"] == "For what do you wish?"
    response = game.answer(decision, {"kind": "text", "text": text})
    assert response["decision"] is None, response["decision"]
    return response


def known_floor_square(game: Game, away_from: dict) -> tuple[int, int]:
    """A remembered, currently displayed floor square ('.') other than the hero's."""
    rows = game.observe()["observation"]["world"]["rows"]
    squares = [
        (x, row["y"])
        for row in rows
        for x, mark in enumerate(row["terrain"])
        if mark == "."
        and row["marks"][x] == "."
        and row["kinds"][x] == "T"
        and (x, row["y"]) != (away_from["x"], away_from["y"])
    ]
    assert squares, "no known floor square on the map"
    # the farthest one, so a successful teleport is unmistakable
    return max(squares, key=lambda s: (abs(s[0] - away_from["x"]) + abs(s[1] - away_from["y"]), s))


# ---- reaching each kind ------------------------------------------------------
# Each returns (game, decision) with the decision standing.


def reach_confirmation(client: DriverClient) -> tuple[Game, dict]:
    game = start_game(client, seed=42)
    decision = standing(game.call("game.quit"), "confirmation")
    assert decision["prompt"] == "Really quit?"
    return game, decision


def reach_choice(client: DriverClient) -> tuple[Game, dict]:
    game = start_game(client, seed=7, wizard=True, role="valkyrie")
    wish(game, "2 apples")
    apples = item_labelled(game.last["observation"]["inventory"], "apples")
    game.ok("game.drop", itemId=apples["id"])
    dagger = item_labelled(game.last["observation"]["inventory"], "dagger")
    game.ok("game.drop", itemId=dagger["id"])
    assert len(game.last["observation"]["here"]["items"]) == 2
    decision = standing(game.call("game.pickup"), "choice")
    assert decision["prompt"] == "Pick up what?"
    return game, decision


def reach_text(client: DriverClient) -> tuple[Game, dict]:
    game = start_game(client, seed=42)
    item = standing(game.call("game.engrave"), "item")
    assert item["hands"] is True
    response = game.answer(item, {"kind": "item", "hands": True})
    assert "You write in the dust with your fingertip." in heard(response)
    decision = standing(response, "text")
    assert decision["prompt"] == "What do you want to write in the dust here?"
    assert decision["maxBytes"] == 128
    return game, decision


def reach_direction(client: DriverClient) -> tuple[Game, dict]:
    game = start_game(client, seed=42)
    decision = standing(game.call("game.kick"), "direction")
    assert decision["prompt"] == "In what direction?"
    return game, decision


def reach_item(client: DriverClient) -> tuple[Game, dict]:
    game = start_game(client, seed=42)
    decision = standing(game.call("game.eat"), "item")
    assert decision["prompt"].startswith("What do you want to eat?")
    ration = item_labelled(game.last["observation"]["inventory"], "food ration")
    assert decision["suggested"] == [ration["id"]]
    assert decision["hands"] is False
    return game, decision


def reach_position(client: DriverClient) -> tuple[Game, dict]:
    game = start_game(client, seed=7, wizard=True, role="valkyrie")
    response = game.wizard("teleport")
    decision = standing(response, "position")
    assert "Where do you want to be teleported?" in heard(response)
    assert decision["mode"] == "select"
    assert decision["cursor"] == game.last["observation"]["position"]
    return game, decision


REACH: dict[str, Callable[[DriverClient], tuple[Game, dict]]] = {
    "confirmation": reach_confirmation,
    "choice": reach_choice,
    "text": reach_text,
    "direction": reach_direction,
    "item": reach_item,
    "position": reach_position,
}

# A well-formed answer of some OTHER kind than the key.
WRONG_KIND_ANSWER = {
    "confirmation": {"kind": "text", "text": "y"},
    "choice": {"kind": "confirmation", "confirm": True},
    "text": {"kind": "choice", "choose": [0]},
    "direction": {"kind": "position", "position": "finish"},
    "item": {"kind": "direction", "direction": "east"},
    "position": {"kind": "item", "hands": True},
}

# A well-formed answer of the RIGHT kind, used with a wrong decision ID.
RIGHT_KIND_ANSWER = {
    "confirmation": {"kind": "confirmation", "confirm": True},
    "choice": {"kind": "choice", "choose": [0]},
    "text": {"kind": "text", "text": "Elbereth"},
    "direction": {"kind": "direction", "direction": "east"},
    "item": {"kind": "item", "item": {"id": "item-4"}},
    "position": {"kind": "position", "position": "finish"},
}


# ---- rules shared by every kind ------------------------------------------------


@pytest.mark.parametrize("kind", list(REACH))
def test_wrong_decision_id_and_wrong_kind_do_not_advance(kind: str, native_client: DriverClient) -> None:
    game, decision = REACH[kind](native_client)
    serial = int(decision["id"].split("-")[1])

    for wrong_id in (f"decision-{serial - 1}", f"decision-{serial + 1}", "decision-0", "d"):
        response = game.call("decision.answer", decisionId=wrong_id, answer=RIGHT_KIND_ANSWER[kind])
        assert_rejected_without_effect(game, response, "decisionMismatch")
        assert response["revision"] == game.revision
        response = game.call("decision.cancel", decisionId=wrong_id)
        assert_rejected_without_effect(game, response, "decisionMismatch")

    response = game.call("decision.answer", decisionId=decision["id"], answer=WRONG_KIND_ANSWER[kind])
    assert_rejected_without_effect(game, response, "wrongAnswerKind")

    # Gameplay cannot jump the queue either.
    response = game.call("game.search")
    assert_rejected_without_effect(game, response, "decisionStanding")

    # The very same decision is still answerable by its ID: cancel it.
    response = game.cancel(decision)
    assert response["outcome"]["action"] == "cancel"
    assert response["revision"] == game.revision

    # ...after which the old ID is stale, whether or not a follow-up question stands.
    expected = "noDecision" if game.last["decision"] is None else "decisionMismatch"
    response = game.call("decision.answer", decisionId=decision["id"], answer=RIGHT_KIND_ANSWER[kind])
    assert_rejected_without_effect(game, response, expected)


# ---- confirmation ---------------------------------------------------------------


def test_confirmation_quit_declined_keeps_playing(native_client: DriverClient) -> None:
    game, decision = reach_confirmation(native_client)
    turn = game.last["observation"]["turn"]
    response = game.answer(decision, {"kind": "confirmation", "confirm": False})
    assert response["outcome"]["action"] == "answer"
    assert response["outcome"]["turnsElapsed"] == 0
    assert response["decision"] is None
    assert response["ended"] is False and response["end"] is None
    # still playing: a search spends a turn
    response = game.ok("game.search")
    assert response["outcome"]["action"] == "search"
    assert response["observation"]["turn"] == turn + 1
    assert response["ended"] is False


def test_confirmation_quit_cancelled_is_not_an_answer(native_client: DriverClient) -> None:
    game, decision = reach_confirmation(native_client)
    response = game.cancel(decision)
    assert response["outcome"]["action"] == "cancel"
    assert response["decision"] is None
    assert response["ended"] is False
    assert game.ok("game.wait")["ended"] is False


def test_confirmation_pray_cancel_then_confirm(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    decision = standing(game.call("game.pray"), "confirmation")
    assert decision["prompt"] == "Are you sure you want to pray?"
    turn = game.last["observation"]["turn"]

    response = game.cancel(decision)
    assert response["outcome"]["action"] == "cancel"
    assert response["outcome"]["turnsElapsed"] == 0
    assert not any("praying" in text for text in heard(response))

    again = standing(game.call("game.pray"), "confirmation")
    assert again["id"] != decision["id"], "a new question gets a new ID"
    response = game.answer(again, {"kind": "confirmation", "confirm": True})
    assert response["outcome"]["action"] == "answer"
    assert response["outcome"]["turnsElapsed"] > 0
    assert response["observation"]["turn"] > turn
    assert any(text.startswith("You begin praying to") for text in heard(response)), heard(response)


def test_confirmation_decline_differs_from_cancel_on_ynq(native_client: DriverClient) -> None:
    """'Do you want to add to the current engraving?' is a [ynq] question: the engine
    treats 'n' (write afresh) and escape (abandon) differently, so must the driver."""

    def engrave_again(game: Game) -> dict:
        item = standing(game.call("game.engrave"), "item")
        decision = standing(game.answer(item, {"kind": "item", "hands": True}), "confirmation")
        assert decision["prompt"] == "Do you want to add to the current engraving?"
        return decision

    game, text = reach_text(native_client)
    game.answer(text, {"kind": "text", "text": "Elbereth"})

    cancelled = game.cancel(engrave_again(game))
    assert cancelled["outcome"]["action"] == "cancel"
    assert cancelled["decision"] is None
    assert "Never mind." in heard(cancelled)

    declined = game.answer(engrave_again(game), {"kind": "confirmation", "confirm": False})
    assert declined["outcome"]["action"] == "answer"
    assert "You wipe out the message that was written in the dust here." in heard(declined)
    follow_up = standing(declined, "text")  # the engine goes on to ask for new text
    assert game.cancel(follow_up)["outcome"]["action"] == "cancel"


# ---- choice -----------------------------------------------------------------------


def test_choice_pickup_cancel_then_choose_one(native_client: DriverClient) -> None:
    game, decision = reach_choice(native_client)
    assert decision["select"] == "any"
    names = {option["name"]: option for option in decision["options"]}
    assert set(names) == {"a +0 dagger", "2 apples"}, decision["options"]
    assert [option["id"] for option in decision["options"]] == list(range(len(decision["options"])))
    assert {option["group"] for option in decision["options"]} == {"Weapons", "Comestibles"}
    inventory_before = [item["id"] for item in game.last["observation"]["inventory"]]

    response = game.cancel(decision)
    assert response["outcome"]["action"] == "cancel"
    assert response["outcome"]["turnsElapsed"] == 0
    assert [item["id"] for item in response["observation"]["inventory"]] == inventory_before
    assert len(response["observation"]["here"]["items"]) == 2

    decision = standing(game.call("game.pickup"), "choice")
    # an ID the question does not offer is refused without effect
    response = game.call(
        "decision.answer", decisionId=decision["id"], answer={"kind": "choice", "choose": [len(decision["options"])]}
    )
    assert_rejected_without_effect(game, response, "unknownChoice")

    dagger = next(o for o in decision["options"] if o["name"] == "a +0 dagger")
    response = game.answer(decision, {"kind": "choice", "choose": [dagger["id"]]})
    assert response["outcome"]["action"] == "answer"
    assert response["outcome"]["turnsElapsed"] == 1
    assert response["decision"] is None
    assert any(text.endswith("a +0 dagger.") for text in heard(response)), heard(response)
    assert [item["label"] for item in response["observation"]["here"]["items"]] == ["2 apples"]
    item_labelled(response["observation"]["inventory"], "+0 dagger")


def test_choice_pickup_several_at_once(native_client: DriverClient) -> None:
    game, decision = reach_choice(native_client)
    response = game.answer(decision, {"kind": "choice", "choose": [o["id"] for o in decision["options"]]})
    assert response["outcome"]["action"] == "answer"
    assert response["observation"]["here"]["items"] == []
    labels = [item["label"] for item in response["observation"]["inventory"]]
    assert any("2 apples" in label for label in labels), labels


# ---- text ---------------------------------------------------------------------------


def test_text_engrave_cancel_then_answer(native_client: DriverClient) -> None:
    game, decision = reach_text(native_client)
    turn = game.last["observation"]["turn"]
    response = game.cancel(decision)
    assert response["outcome"]["action"] == "cancel"
    assert response["outcome"]["turnsElapsed"] == 0
    assert "Never mind." in heard(response)

    # Nothing was written: a fresh engrave does not offer to add to an engraving.
    item = standing(game.call("game.engrave"), "item")
    decision = standing(game.answer(item, {"kind": "item", "hands": True}), "text")
    response = game.answer(decision, {"kind": "text", "text": "Elbereth"})
    assert response["outcome"]["action"] == "answer"
    assert response["outcome"]["turnsElapsed"] == 1
    assert response["observation"]["turn"] == turn + 1
    assert response["decision"] is None

    # Now something is written here: the engine asks about adding to it.
    item = standing(game.call("game.engrave"), "item")
    follow = standing(game.answer(item, {"kind": "item", "hands": True}), "confirmation")
    assert follow["prompt"] == "Do you want to add to the current engraving?"
    game.cancel(follow)


def test_text_wish_answer_creates_the_object(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    response = wish(game, "2 daggers")
    assert response["outcome"]["action"] == "answer"
    assert any(text.endswith("2 daggers.") for text in heard(response)), heard(response)
    assert item_labelled(response["observation"]["inventory"], "2 daggers")["quantity"] == 2


def test_text_answer_limits(native_client: DriverClient) -> None:
    game, decision = reach_text(native_client)
    for text, code in (("x" * 129, "outOfRange"), ("tab\there", "outOfRange"), (7, "wrongType")):
        response = game.call("decision.answer", decisionId=decision["id"], answer={"kind": "text", "text": text})
        assert response["error"]["code"] == code, response
        observed = game.observe()
        assert observed["revision"] == game.revision
        assert observed["decision"] == decision


# ---- direction ---------------------------------------------------------------------------


def test_direction_kick_cancel_then_answer(native_client: DriverClient) -> None:
    game, decision = reach_direction(native_client)
    turn = game.last["observation"]["turn"]
    response = game.cancel(decision)
    assert response["outcome"]["action"] == "cancel"
    assert response["outcome"]["turnsElapsed"] == 0
    assert response["observation"]["turn"] == turn

    decision = standing(game.call("game.kick"), "direction")
    response = game.call(
        "decision.answer", decisionId=decision["id"], answer={"kind": "direction", "direction": "sideways"}
    )
    assert response["error"]["code"] == "outOfRange"
    assert game.observe()["decision"] == decision

    # seed 42's Barbarian starts with a wall to the east
    response = game.answer(decision, {"kind": "direction", "direction": "east"})
    assert response["outcome"]["action"] == "answer"
    assert response["outcome"]["turnsElapsed"] == 1
    assert "Ouch!  That hurts!" in heard(response)


def test_direction_open_without_direction_asks(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    decision = standing(game.call("game.open"), "direction")
    response = game.cancel(decision)
    assert response["outcome"]["action"] == "cancel"
    assert response["decision"] is None


# ---- item --------------------------------------------------------------------------------


def test_item_eat_cancel_then_answer(native_client: DriverClient) -> None:
    game, decision = reach_item(native_client)
    ration_id = decision["suggested"][0]
    response = game.cancel(decision)
    assert response["outcome"]["action"] == "cancel"
    assert response["outcome"]["turnsElapsed"] == 0
    assert "Never mind." in heard(response)
    assert any(item["id"] == ration_id for item in response["observation"]["inventory"])

    decision = standing(game.call("game.eat"), "item")
    for answer, code in (
        ({"kind": "item", "item": {"id": "item-999"}}, "unknownItem"),
        ({"kind": "item", "hands": True}, "outOfRange"),
        ({"kind": "item", "item": {"id": ration_id}, "quantity": 2}, "outOfRange"),
    ):
        response = game.call("decision.answer", decisionId=decision["id"], answer=answer)
        assert_rejected_without_effect(game, response, code)

    response = game.answer(decision, {"kind": "item", "item": {"id": ration_id}})
    assert response["outcome"]["action"] == "answer"
    assert response["outcome"]["turnsElapsed"] > 1  # a food ration is a multi-turn meal
    assert "You're finally finished." in heard(response)
    assert all(item["id"] != ration_id for item in response["observation"]["inventory"])


# ---- position ------------------------------------------------------------------------------


def test_position_teleport_cancel_then_select(native_client: DriverClient) -> None:
    game, decision = reach_position(native_client)
    start = dict(game.last["observation"]["position"])

    response = game.cancel(decision)
    assert response["outcome"]["action"] == "cancel"
    assert response["decision"] is None
    assert response["observation"]["position"] == start
    assert response["outcome"]["positionChanged"] is False

    target_x, target_y = known_floor_square(game, start)
    decision = standing(game.wizard("teleport"), "position")
    response = game.call(
        "decision.answer", decisionId=decision["id"], answer={"kind": "position", "position": {"x": 0, "y": target_y}}
    )
    assert response["error"]["code"] == "outOfRange"
    assert game.observe()["decision"] == decision

    response = game.answer(decision, {"kind": "position", "position": {"x": target_x, "y": target_y}})
    assert response["outcome"]["action"] == "answer"
    assert response["decision"] is None
    assert response["observation"]["position"] == {"x": target_x, "y": target_y}
    assert response["outcome"]["positionChanged"] is True


def test_position_cursor_commands(native_client: DriverClient) -> None:
    game, decision = reach_position(native_client)
    cursor = decision["cursor"]
    response = game.answer(decision, {"kind": "position", "position": "help"})
    decision = standing(response, "position")
    assert any(event["type"] == "passage" for event in response["events"])
    assert decision["cursor"] == cursor

    response = game.answer(decision, {"kind": "position", "position": "west"})
    decision = standing(response, "position")
    assert decision["cursor"] == {"x": cursor["x"] - 1, "y": cursor["y"]}
    response = game.answer(decision, {"kind": "position", "position": "east"})
    decision = standing(response, "position")
    assert decision["cursor"] == cursor

    # finishing on the hero's own square is a valid (if pointless) teleport
    response = game.answer(decision, {"kind": "position", "position": "finish"})
    assert response["decision"] is None
    assert response["outcome"]["action"] == "answer"
