"""test_describe_vocabulary.py - protocol.describe's `vocabulary` is the driver's own.

Every word list the driver validates against or writes is published once in
`vocabulary` (wasm/driver/nnh_vocabulary.c). These tests hold it to the two
sides that use it: the validation table (each enum parameter's values are a
vocabulary list, in order) and the responses of a real game (every word a
response carries is in its list).
"""

from __future__ import annotations

from typing import Any

from engine_client import DriverClient, start_game


def described(client: DriverClient) -> dict[str, Any]:
    _, response = client.send({"version": 1, "method": "protocol.describe"})
    return response


def enum_values(response: dict[str, Any], method: str, field: str) -> list[str]:
    params = next(m for m in response["methods"] if m["name"] == method)["params"]
    return next(p for p in params if p["name"] == field)["values"]


def test_every_enum_parameter_is_a_vocabulary_list(native_client: DriverClient) -> None:
    response = described(native_client)
    words = response["vocabulary"]
    compass = [entry["name"] for entry in words["compass"]]
    assert compass == words["directions"][:8]
    assert words["vertical"] == words["directions"][-2:] == ["up", "down"]
    expected = {
        ("game.move", "direction"): compass,
        ("game.climb", "direction"): words["vertical"],
        ("game.zap", "direction"): words["directions"],
        ("game.run", "mode"): words["runModes"],
        ("game.equip", "slot"): words["equipmentSlots"],
        ("game.configurePickup", "itemTypes"): words["pickupTypes"],
        ("session.create", "role"): words["roles"],
        ("session.create", "race"): words["races"],
        ("session.create", "gender"): words["genders"],
        ("session.create", "alignment"): words["alignments"],
        ("debug.wizard", "command"): words["wizardCommands"],
    }
    for (method, field), values in expected.items():
        assert enum_values(response, method, field) == values, (method, field)
    # every enum the validation table has is one of the vocabulary's lists
    lists = [value for value in words.values() if value and isinstance(value[0], str)] + [compass]
    for method in response["methods"]:
        for param in method["params"]:
            if param["type"] in ("enum", "enumList"):
                assert param["values"] in lists, (method["name"], param["name"])
    assert response["capabilities"]["statuses"] == words["statuses"]
    assert response["capabilities"]["events"] == words["events"]


def test_compass_steps_are_the_maps(native_client: DriverClient) -> None:
    """Each compass word's published step is where a step that way takes the hero."""
    words = described(native_client)["vocabulary"]
    game = start_game(native_client, seed=42)
    moved = 0
    for entry in words["compass"]:
        before = game.observe()["observation"]["position"]
        response = game.call("game.moveWithoutAttack", direction=entry["name"])
        if response.get("decision"):
            break
        after = response["observation"]["position"]
        if after != before:
            assert (after["x"] - before["x"], after["y"] - before["y"]) == (entry["dx"], entry["dy"]), entry
            moved += 1
    assert moved >= 4, "too few steps succeeded to check the compass"


def test_responses_use_the_vocabulary(native_client: DriverClient) -> None:
    """A real game's vitals, items, creatures and statuses use the published words."""
    words = described(native_client)["vocabulary"]
    game = start_game(native_client, seed=7)
    responses = [game.observe()]
    for direction in ("east", "west", "north", "south") * 3:
        responses.append(game.call("game.move", direction=direction))
        if responses[-1].get("decision"):
            break
    responses.append(game.call("game.search", turns=3))
    seen: dict[str, set[str]] = {name: set() for name in ("hunger", "burden", "itemCategories", "attitudes", "events")}
    for response in responses:
        observation = response.get("observation")
        if response.get("outcome"):
            assert response["outcome"]["status"] in words["statuses"]
        if not observation:
            continue
        vitals = observation["vitals"]
        seen["hunger"].add(vitals["hunger"])
        seen["burden"].add(vitals["burden"])
        seen["itemCategories"].update(item["category"] for item in observation["inventory"])
        seen["attitudes"].update(e["attitude"] for e in observation["entities"] if "attitude" in e)
        seen["events"].update(event["type"] for event in response.get("events", []))
    for name, values in seen.items():
        assert values <= set(words[name]), (name, values)
    assert seen["itemCategories"] and seen["hunger"], "the game showed items and vitals"
