"""test_command_arguments.py - initial command arguments reach the engine prompt they
were meant for, and never surface as a stray decision.

A direction, count or item passed with the initial request must be consumed
by the engine's own reading of that argument. Each test here once pinned a
driver bug (an argument that reached the wrong prompt); they guard the fixes.
"""

from __future__ import annotations

from engine_client import DriverClient, Game, assert_rejected_without_effect, start_game


def heard(response: dict) -> list[str]:
    return [event["text"] for event in response["events"] if event["type"] == "heard"]


def no_stray_decision(response: dict) -> None:
    assert "error" not in response, response["error"]
    decision = response["decision"]
    assert decision is None, f"stray decision {decision} after {response['outcome']}"


def apples_game(client: DriverClient) -> tuple[Game, str]:
    game = start_game(client, seed=7, wizard=True, role="valkyrie")
    decision = game.wizard("wish")["decision"]
    response = game.answer(decision, {"kind": "text", "text": "3 apples"})
    apples = next(item for item in response["observation"]["inventory"] if item["label"] == "3 apples")
    return game, apples["id"]


def test_direction_argument_for_getdir_commands(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    for method in ("game.kick", "game.open", "game.close"):
        response = game.call(method, direction="north")
        no_stray_decision(response)
        assert response["outcome"]["action"] == method.split(".")[1]


def test_move_without_attack_and_run_modes(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    response = game.call("game.moveWithoutAttack", direction="west")
    no_stray_decision(response)
    assert response["outcome"]["positionChanged"] is True
    response = game.call("game.run", direction="west", mode="untilInteresting")
    no_stray_decision(response)
    assert response["outcome"]["positionChanged"] is True


def test_drop_whole_stack_by_id(native_client: DriverClient) -> None:
    game, apples = apples_game(native_client)
    response = game.call("game.drop", itemId=apples, quantity=3)
    no_stray_decision(response)
    assert [item["label"] for item in response["observation"]["here"]["items"]] == ["3 apples"]


def test_drop_partial_count_through_the_decision(native_client: DriverClient) -> None:
    game, apples = apples_game(native_client)
    decision = game.ok("game.drop")["decision"]
    assert decision["kind"] == "item"
    response = game.answer(decision, {"kind": "item", "item": {"id": apples}, "quantity": 2})
    no_stray_decision(response)
    assert "You drop 2 apples." in heard(response)
    assert [item["label"] for item in response["observation"]["here"]["items"]] == ["2 apples"]
    assert any(item["label"] == "an apple" for item in response["observation"]["inventory"])


def test_drop_partial_count_by_id(native_client: DriverClient) -> None:
    game, apples = apples_game(native_client)
    response = game.call("game.drop", itemId=apples, quantity=2)
    no_stray_decision(response)
    assert "You drop 2 apples." in heard(response)
    assert [item["label"] for item in response["observation"]["here"]["items"]] == ["2 apples"]


def test_attack_direction_argument(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    response = game.call("game.attack", direction="west")
    no_stray_decision(response)
    assert response["outcome"]["action"] == "attack"


def test_run_without_pickup(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    response = game.call("game.run", direction="west", noPickup=True)
    no_stray_decision(response)
    assert not any("Invalid direction" in text for text in heard(response)), heard(response)
    assert response["outcome"]["positionChanged"] is True


def test_quantity_refused_where_the_engine_takes_no_count(native_client: DriverClient) -> None:
    game, apples = apples_game(native_client)
    decision = game.ok("game.eat")["decision"]
    assert decision["kind"] == "item"
    response = game.call(
        "decision.answer", decisionId=decision["id"], answer={"kind": "item", "item": {"id": apples}, "quantity": 2}
    )
    assert "error" in response, f"accepted; heard {heard(response)}"
    assert response["error"]["code"] == "outOfRange"
    assert game.observe()["decision"] == decision


def test_run_without_pickup_other_modes_rejected(native_client: DriverClient) -> None:
    """NetHack 3.6.7 has no no-pickup variant of the g/G runs: a typed error, no input."""
    game = start_game(native_client, seed=42)
    for mode in ("untilInteresting", "pastBranches"):
        response = game.call("game.run", direction="west", mode=mode, noPickup=True)
        assert_rejected_without_effect(game, response, "outOfRange")


def test_counted_rest_is_one_occupation(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    turn = game.last["observation"]["turn"]
    response = game.call("game.rest", turns=5)
    no_stray_decision(response)
    assert response["revision"] == 1, "one input"
    assert response["outcome"]["action"] == "rest"
    assert response["observation"]["turn"] - turn == response["outcome"]["turnsElapsed"]
    assert response["outcome"]["status"] == "completed"  # seed 42: nothing interrupts
    assert response["outcome"]["turnsElapsed"] == 5
