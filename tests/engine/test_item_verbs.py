"""test_item_verbs.py - arms, armour, potions, wands and missiles against the real engine.

Every new item method is driven through the native driver and asserts what
NetHack itself did: the message it printed, the inventory label it shows a
tty player ("(being worn)", "(weapon in hand)", "(at the ready)"), the
quantity and the turns spent. A wizard-mode fixture session creates the
objects by wishing; normal games never carry the fixture. Bad requests are
typed errors that send no input and leave the revision alone.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from engine_client import WASM_KINDS, DriverClient, Game, assert_rejected_without_effect, driver_command, start_game


def heard(response: dict) -> list[str]:
    return [event["text"] for event in response["events"] if event["type"] == "heard"]


def item(game: Game, item_id: str) -> dict:
    return next(entry for entry in game.last["observation"]["inventory"] if entry["id"] == item_id)


def wish(game: Game, text: str) -> str:
    """Wish for `text` in the fixture session; returns the new item's ID."""
    before = {entry["id"] for entry in game.last["observation"]["inventory"]}
    decision = game.wizard("wish")["decision"]
    response = game.answer(decision, {"kind": "text", "text": text})
    added = [entry["id"] for entry in response["observation"]["inventory"] if entry["id"] not in before]
    assert len(added) == 1, f"wish {text!r} added {added}; heard {heard(response)}"
    return added[0]


def fixture_game(client: DriverClient) -> Game:
    """A Valkyrie (a +1 long sword wielded, b dagger, c small shield worn, d food)."""
    return start_game(client, seed=7, wizard=True, role="valkyrie")


def completed(response: dict, action: str, turns: int) -> None:
    assert "error" not in response, response["error"]
    assert response["decision"] is None, response["decision"]
    assert response["outcome"]["action"] == action
    assert response["outcome"]["status"] == "completed"
    assert response["outcome"]["turnsElapsed"] == turns, response["outcome"]


def test_wear_and_take_off_armour(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    helmet = wish(game, "uncursed helmet")
    assert {"slot": "helmet", "action": "equip"} in item(game, helmet)["equipmentTargets"]
    response = game.call("game.equip", itemId=helmet)
    completed(response, "equip", 1)
    assert "You finish your dressing maneuver." in heard(response)
    worn = item(game, helmet)
    assert worn["label"].endswith("(being worn)")
    assert worn["equipmentSlots"] == ["helmet"] and worn["usage"] == ["worn"]
    assert worn["equipmentTargets"] == [] and "remove" in worn["actions"]
    response = game.call("game.remove", itemId=helmet)
    completed(response, "remove", 1)
    assert "You finish taking off your helm." in heard(response)
    assert not item(game, helmet)["label"].endswith("(being worn)")
    assert item(game, helmet)["equipmentSlots"] == []


def test_put_on_a_ring_in_the_chosen_hand_and_remove_it_by_slot(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    ring = wish(game, "uncursed ring of adornment")
    targets = item(game, ring)["equipmentTargets"]
    assert {"slot": "leftRing", "action": "equip"} in targets
    assert {"slot": "rightRing", "action": "equip"} in targets
    response = game.call("game.equip", itemId=ring, slot="rightRing")
    completed(response, "equip", 1)
    assert item(game, ring)["label"].endswith("(on right hand)")
    assert item(game, ring)["equipmentSlots"] == ["rightRing"]
    second = wish(game, "uncursed ring of adornment")
    # the occupied hand is no destination, and a request for it is refused
    assert [t["slot"] for t in item(game, second)["equipmentTargets"]] == ["leftRing"]
    assert_rejected_without_effect(game, game.call("game.equip", itemId=second, slot="rightRing"), "outOfRange")
    response = game.call("game.remove", slot="rightRing")
    completed(response, "remove", 1)
    assert item(game, ring)["equipmentSlots"] == []


def test_blindfold_is_eyewear(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    blindfold = wish(game, "uncursed blindfold")
    response = game.call("game.equip", itemId=blindfold, slot="eyewear")
    completed(response, "equip", 1)
    assert "You are now wearing a blindfold." in heard(response)
    assert item(game, blindfold)["equipmentSlots"] == ["eyewear"]
    assert "blind" in game.last["observation"]["vitals"]["condition"]
    response = game.call("game.remove", itemId=blindfold)
    completed(response, "remove", 1)
    assert "You can see again." in heard(response)


def test_equip_without_an_item_asks_the_engine(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    helmet = wish(game, "uncursed helmet")
    ring = wish(game, "uncursed ring of adornment")
    decision = game.ok("game.equip")["decision"]
    assert decision["kind"] == "item" and decision["prompt"].startswith("What do you want to wear?")
    assert helmet in decision["suggested"] and ring not in decision["suggested"]
    game.cancel(decision)
    decision = game.ok("game.equip", slot="leftRing")["decision"]
    assert decision["prompt"].startswith("What do you want to put on?")
    assert ring in decision["suggested"] and helmet not in decision["suggested"]


def test_drink_a_potion(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    water = wish(game, "2 uncursed potions of water")
    assert item(game, water)["quantity"] == 2
    response = game.call("game.drink", itemId=water)
    completed(response, "drink", 1)
    assert "This tastes like water." in heard(response)
    assert item(game, water)["quantity"] == 1


def test_drink_without_an_item_is_the_engines_question(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    water = wish(game, "uncursed potion of water")
    decision = game.ok("game.drink")["decision"]
    assert decision["kind"] == "item" and decision["prompt"].startswith("What do you want to drink?")
    assert decision["suggested"] == [water]
    response = game.answer(decision, {"kind": "item", "item": {"id": water}})
    assert "This tastes like water." in heard(response)
    assert water not in {entry["id"] for entry in response["observation"]["inventory"]}


def test_wield_swap_and_bare_hands(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    sword, dagger = "item-1", "item-2"
    assert item(game, sword)["label"].endswith("(weapon in hand)")
    response = game.call("game.wield", itemId=dagger)
    completed(response, "wield", 1)
    assert "b - a +0 dagger (weapon in hand)." in heard(response)
    assert item(game, dagger)["equipmentSlots"] == ["weapon"]
    assert item(game, sword)["equipmentSlots"] == ["alternateWeapon"]
    response = game.call("game.swap")
    completed(response, "swap", 1)
    assert "a - a +1 long sword (weapon in hand)." in heard(response)
    response = game.call("game.twoWeapon")
    completed(response, "twoWeapon", 0)
    assert "You can't use two weapons while wearing a shield." in heard(response)
    response = game.call("game.wield", hands=True)
    completed(response, "wield", 1)
    assert "You are empty handed." in heard(response)
    assert "weapon" not in item(game, sword)["equipmentSlots"]


def test_two_weapon_combat(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    completed(game.call("game.remove", itemId="item-3"), "remove", 1)  # the shield
    response = game.call("game.twoWeapon")
    completed(response, "twoWeapon", 1)
    assert "You begin two-weapon combat." in heard(response)
    assert item(game, "item-2")["equipmentSlots"] == ["offhand"]
    assert item(game, "item-2")["usage"] == ["wielded"]


def test_dragon_scales_merge_into_skin(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    mail = wish(game, "uncursed gray dragon scale mail")
    completed(game.call("game.equip", itemId=mail), "equip", 5)
    assert item(game, mail)["equipmentSlots"] == ["bodyArmor"]
    potion = wish(game, "uncursed potion of polymorph")
    response = game.call("game.drink", itemId=potion)
    assert "You turn into a gray dragon!" in heard(response)
    scales = item(game, mail)
    assert scales["label"].endswith("(embedded in your skin)")
    assert scales["equipmentSlots"] == ["skin"] and scales["usage"] == ["worn"]
    assert "remove" not in scales["actions"]
    assert_rejected_without_effect(game, game.call("game.remove", itemId=mail), "outOfRange")


def test_quiver_fire_and_empty_the_quiver(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    darts = wish(game, "6 uncursed darts")
    response = game.call("game.quiver", itemId=darts)
    completed(response, "quiver", 0)
    assert item(game, darts)["label"].endswith("(at the ready)")
    assert item(game, darts)["equipmentSlots"] == ["quiver"]
    assert "fire" in item(game, darts)["actions"]
    response = game.call("game.fire", direction="south")
    completed(response, "fire", 1)
    assert 0 < item(game, darts)["quantity"] < 6  # one command; NetHack chose the multishot
    response = game.call("game.quiver", hands=True)
    completed(response, "quiver", 0)
    assert "You now have no ammunition readied." in heard(response)
    assert item(game, darts)["equipmentSlots"] == []


def test_throw_upwards(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    darts = wish(game, "3 uncursed darts")
    response = game.call("game.throw", itemId=darts, direction="up")
    completed(response, "throw", 1)
    assert any(
        re.fullmatch(r"A dart (almost )?hits the ceiling, then falls back on top of your head\.", text)
        for text in heard(response)
    ), heard(response)
    assert item(game, darts)["quantity"] == 2


def test_fire_with_an_empty_quiver_asks(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    response = game.ok("game.fire", direction="east")
    assert "You have no ammunition readied." in heard(response)
    assert response["decision"]["kind"] == "item"


def test_zap_at_self_and_down(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    striking = wish(game, "wand of striking")
    assert item(game, striking)["known"].get("identity") is None
    response = game.call("game.zap", itemId=striking, direction="self")
    completed(response, "zap", 1)
    assert "You bash yourself!" in heard(response)
    digging = wish(game, "wand of digging")
    level = game.last["observation"]["levelId"]
    response = game.call("game.zap", itemId=digging, direction="down")
    # the hero starts on the up stairs: NetHack's own answer to digging there
    assert "The beam bounces off the stairs and hits the ceiling." in heard(response)
    for direction in ("east", "west", "north", "south"):
        if game.call("game.move", direction=direction)["outcome"]["positionChanged"]:
            break
    response = game.call("game.zap", itemId=digging, direction="down")
    assert "error" not in response
    assert any("dig a hole through the floor" in text for text in heard(response)), heard(response)
    assert game.last["observation"]["levelId"] != level


def test_read_and_apply(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    scroll = wish(game, "uncursed scroll of light")
    response = game.call("game.read", itemId=scroll)
    completed(response, "read", 1)
    assert heard(response) == ["As you read the scroll, it disappears.", "A lit field surrounds you!"]
    assert scroll not in {entry["id"] for entry in response["observation"]["inventory"]}
    whistle = wish(game, "tin whistle")
    assert "apply" in item(game, whistle)["actions"]
    response = game.call("game.apply", itemId=whistle)
    completed(response, "apply", 1)
    assert "You produce a high whistling sound." in heard(response)


def test_item_question_letter_ranges_expand(native_client: DriverClient) -> None:
    """Seven or more candidates are compacted ("[a-k or ?*]"): every letter is suggested."""
    game = fixture_game(native_client)
    for text in ("helmet", "blindfold", "apple", "dart", "potion of water", "wand of light"):
        wish(game, text)
    inventory = [entry["id"] for entry in game.last["observation"]["inventory"]]
    decision = game.ok("game.drop")["decision"]
    assert re.search(r"\[[a-z]-[a-z]", decision["prompt"]), decision["prompt"]
    assert decision["suggested"] == inventory and decision["hands"] is False
    game.cancel(decision)
    decision = game.ok("game.wield")["decision"]
    assert decision["prompt"].startswith("What do you want to wield? [- ")
    assert decision["hands"] is True


def test_item_question_ranges_with_gaps_and_gold(native_client: DriverClient) -> None:
    """`[e-km or ?*]`-style prompts: ranges, single letters and gold, exactly the offered items."""
    game = fixture_game(native_client)
    potions = [
        wish(game, f"uncursed potion of {kind}")
        for kind in ("water", "sleeping", "healing", "blindness", "confusion", "booze", "sickness")
    ]
    darts = wish(game, "5 uncursed darts")
    potions.append(wish(game, "uncursed potion of see invisible"))
    gold = wish(game, "9 gold pieces")
    decision = game.ok("game.drink")["decision"]
    assert re.search(r"\[[a-z]-[a-z][a-z]+ or \?\*\]", decision["prompt"]), decision["prompt"]
    assert decision["suggested"] == potions
    game.cancel(decision)
    decision = game.ok("game.throw")["decision"]
    assert decision["prompt"].startswith("What do you want to throw? [$"), decision["prompt"]
    assert decision["suggested"] == [gold, "item-1", "item-2", darts]


def test_gold_keeps_its_item_id_across_merges(native_client: DriverClient) -> None:
    """NetHack hands a merged stack the o_id of the pile merged into it when that
    keeps a shop price (obfree): the fourth merge here does so. The ID stays."""
    game = fixture_game(native_client)
    gold = wish(game, "7 gold pieces")
    for total in range(14, 64, 7):
        decision = game.wizard("wish")["decision"]
        response = game.answer(decision, {"kind": "text", "text": "7 gold pieces"})
        purse = [entry for entry in response["observation"]["inventory"] if entry["category"] == "gold"]
        assert [(entry["id"], entry["quantity"]) for entry in purse] == [(gold, total)]


def test_bad_item_requests_change_nothing(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    potion = wish(game, "potion of water")
    light = wish(game, "wand of light")
    apple = wish(game, "apple")
    game.ok("game.drop", itemId=apple)
    floor_apple = game.last["observation"]["here"]["items"][0]["id"]
    cases = [
        ("game.drink", {"itemId": "item-999"}, "unknownItem"),  # never published
        ("game.wield", {"itemId": floor_apple}, "unknownItem"),  # not carried
        ("game.drink", {"itemId": potion, "quantity": 1}, "unknownField"),  # no count here
        ("game.throw", {"itemId": potion, "quantity": 2}, "unknownField"),
        ("game.drink", {"itemId": potion, "direction": "east"}, "unknownField"),  # no aim
        ("game.equip", {"itemId": "item-3", "direction": "up"}, "unknownField"),
        ("game.wield", {"itemId": "item-2", "hands": True}, "outOfRange"),
        ("game.equip", {"itemId": potion}, "outOfRange"),  # not wearable
        ("game.equip", {"itemId": "item-3", "slot": "helmet"}, "outOfRange"),
        ("game.remove", {"itemId": potion}, "outOfRange"),  # not worn
        ("game.remove", {"slot": "helmet"}, "outOfRange"),  # nothing there
        ("game.zap", {"direction": "sideways"}, "outOfRange"),
        ("game.equip", {"slot": "tail"}, "outOfRange"),
    ]
    for method, params, code in cases:
        assert_rejected_without_effect(game, game.call(method, **params), code)
    # a wand the player knows needs no direction takes none
    decision = game.wizard("identify")["decision"]
    game.answer(decision, {"kind": "choice", "choose": [o["id"] for o in decision["options"]]})
    assert item(game, light)["known"]["identity"] == "wand of light"
    assert_rejected_without_effect(game, game.call("game.zap", itemId=light, direction="east"), "outOfRange")
    completed(game.call("game.zap", itemId=light), "zap", 1)


def test_item_names_resolve_against_what_the_player_sees(native_client: DriverClient) -> None:
    game = fixture_game(native_client)
    water = wish(game, "2 uncursed potions of water")
    sleeping = wish(game, "uncursed potion of sleeping")
    appearance = item(game, sleeping)["known"]["appearance"]
    # the hidden identity names nothing; the appearance the player sees does
    assert_rejected_without_effect(game, game.call("game.drink", itemName="potion of sleeping"), "unknownItem")
    decision = game.ok("game.drop", itemName=f"{appearance} potion")
    assert decision["decision"] is None and sleeping not in {e["id"] for e in decision["observation"]["inventory"]}
    # the label, and NetHack's singular name, name the stack
    assert item(game, water)["label"] == "2 clear potions"  # a wish does not identify water
    response = game.call("game.drink", itemName="2 clear potions")  # the whole label
    completed(response, "drink", 1)
    assert "This tastes like water." in heard(response)
    assert item(game, water)["label"] == "a potion of water"  # now the player knows it
    assert_rejected_without_effect(game, game.call("game.drink", itemName="clear potion"), "unknownItem")
    completed(game.call("game.drink", itemName="POTION OF WATER"), "drink", 1)  # NetHack's name, any case
    assert water not in {e["id"] for e in game.last["observation"]["inventory"]}
    wish(game, "cursed dagger")  # a second, separate dagger stack
    assert_rejected_without_effect(game, game.call("game.wield", itemName="dagger"), "ambiguousItem")
    assert_rejected_without_effect(game, game.call("game.wield", itemName="dagger", itemId="item-2"), "outOfRange")
    completed(game.call("game.wield", itemName="+0 dagger"), "wield", 1)
    assert item(game, "item-2")["equipmentSlots"] == ["weapon"]


ITEM_SCRIPT: list[tuple[str, Any]] = [
    ("wish", "uncursed helmet"),
    ("game.equip", {"item": 0}),
    ("wish", "2 uncursed potions of water"),
    ("game.drink", {"item": 1}),
    ("wish", "4 uncursed darts"),
    ("game.quiver", {"item": 2}),
    ("game.fire", {"direction": "west"}),
    ("game.throw", {"item": 2, "direction": "up"}),
    ("wish", "wand of striking"),
    ("game.zap", {"item": 3, "direction": "east"}),
    ("game.wield", {"itemId": "item-2"}),
    ("game.swap", {}),
    ("game.remove", {"item": 0}),
    ("wish", "ring of adornment"),
    ("game.equip", {"item": 4, "slot": "leftRing"}),
    ("game.wield", {"hands": True}),
    ("game.quiver", {"hands": True}),
]


def play_item_script(client: DriverClient) -> list[bytes]:
    game = fixture_game(client)
    wished: list[str] = []
    for step, argument in ITEM_SCRIPT:
        if step == "wish":
            wished.append(wish(game, argument))
            continue
        params = {
            ("itemId" if key == "item" else key): (wished[value] if key == "item" else value)
            for key, value in argument.items()
        }
        response = game.call(step, **params)
        assert "error" not in response, (step, response["error"])
    game.observe()
    return client.transcript


@pytest.mark.wasm
@pytest.mark.parametrize("kind", WASM_KINDS)
def test_item_verbs_wasm_matches_native_byte_for_byte(kind: str) -> None:
    native = DriverClient(driver_command("native"))
    wasm = DriverClient(driver_command(kind))
    try:
        expected = play_item_script(native)
        actual = play_item_script(wasm)
    finally:
        native.close()
        wasm.close()
    assert len(actual) == len(expected)
    for index, (left, right) in enumerate(zip(expected, actual, strict=True)):
        assert left == right, f"response {index} differs:\nnative {left[:300]!r}\nwasm   {right[:300]!r}"
