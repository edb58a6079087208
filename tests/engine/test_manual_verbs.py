"""test_manual_verbs.py - spells, skills, containers, manual interactions and the
encyclopedia against the real engine.

Each verb is driven through the native driver in a real game (a wizard-mode
fixture wishes for the box, the chest, the potion) and the test asserts what
NetHack did: energy spent, the item moved into and out of the box, the lock
forced, the engraving read back by the hero, the skill rank raised. Bad
requests are typed errors that send no input and leave the revision alone.
"""

from __future__ import annotations

import json

import pytest
from engine_client import (
    WASM_KINDS,
    DriverClient,
    Game,
    assert_rejected_without_effect,
    create_request,
    driver_command,
    start_game,
)
from test_item_verbs import completed, heard, wish

COMPASS = {
    (0, -1): "north",
    (0, 1): "south",
    (1, 0): "east",
    (-1, 0): "west",
    (1, -1): "northeast",
    (-1, -1): "northwest",
    (1, 1): "southeast",
    (-1, 1): "southwest",
}


def lookup(game: Game, name: str) -> dict:
    return game.client.request(
        {"version": 1, "method": "session.lookup", "params": {"sessionId": game.session_id, "name": name}}
    )


def knowledge(game: Game) -> dict:
    return game.last["observation"]["knowledge"]


def labels(game: Game) -> list[str]:
    return [entry["label"] for entry in game.last["observation"]["inventory"]]


def choose(game: Game, decision: dict, words: str) -> dict:
    """Answer a choice decision with the one option whose name contains `words`."""
    found = [option["id"] for option in decision["options"] if words in option["name"]]
    assert len(found) == 1, (words, decision)
    return game.answer(decision, {"kind": "choice", "choose": found})


def test_lookup_reads_the_encyclopedia(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=11)
    newt = lookup(game, "newt")
    assert newt["kind"] == "lore" and newt["found"] is True and newt["version"] == 1
    assert newt["sessionId"] == game.session_id and newt["name"] == "newt"
    assert any("Eye of newt" in line for line in newt["lines"])
    box = lookup(game, "a large box")  # the / command's rules drop the article
    assert box["found"] is True and box["lines"]
    missing = lookup(game, "xyzzy plugh")
    assert missing["found"] is False and missing["lines"] == []


def test_lookup_changes_nothing(native_client: DriverClient) -> None:
    """A lookup sends no input and draws no random number: a game that looks
    things up between its moves answers every move byte for byte like one
    that does not (the moves search, so the RNG decides what they find)."""

    def play(looking: bool) -> list[str]:
        with DriverClient(native_client.command) as client:
            game = start_game(client, seed=23)
            before = game.observe()
            if looking:
                lookup(game, "jackal")
                lookup(game, "no such entry")
                assert game.observe() == before
            raws = []
            for _ in range(6):
                if looking:
                    lookup(game, "newt")
                raw, response = client.send(
                    {
                        "version": 1,
                        "method": "game.search",
                        "params": {
                            "sessionId": game.session_id,
                            "requestId": game.next_request_id(),
                            "expectedRevision": game.revision,
                            "turns": 5,
                        },
                    }
                )
                game.revision = response["revision"]
                raws.append(raw)
            return raws

    assert play(True) == play(False)


def test_lookup_leaves_a_standing_decision_alone(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=11)
    decision = game.ok("game.engrave")["decision"]
    before = game.observe()
    assert lookup(game, "newt")["found"] is True
    after = game.observe()
    assert after == before and after["decision"] == decision
    game.cancel(decision)


def test_lookup_needs_a_name(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=11)
    for name, code in (("", "outOfRange"), ("x" * 121, "outOfRange"), ("a\u0007b", "outOfRange")):
        response = lookup(game, name)
        assert response["error"]["code"] == code, response


def test_cast_a_known_spell_spends_energy(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="wizard")
    spells = {spell["name"]: spell for spell in knowledge(game)["spells"]}
    assert spells["force bolt"] == {
        "name": "force bolt",
        "level": 1,
        "school": "attack",
        "failure": spells["force bolt"]["failure"],
        "retention": "100%",
    }
    energy = game.last["observation"]["vitals"]["energy"]
    response = game.call("game.cast", spell="force bolt", direction="east")
    completed(response, "cast", 1)
    assert response["observation"]["vitals"]["energy"] == energy - 5
    assert_rejected_without_effect(game, game.call("game.cast", spell="fireball"), "unknownSpell")
    # without a spell the real menu asks, one line per known spell
    decision = game.ok("game.cast")["decision"]
    assert decision["kind"] == "choice" and decision["prompt"].startswith("Choose which spell to cast")
    assert [option["name"].split()[0] for option in decision["options"]] == ["force", "charm"] or len(
        decision["options"]
    ) == len(spells)


def test_knowledge_lists_only_known_spells(native_client: DriverClient) -> None:
    """A Valkyrie knows no spell; the menu-only skills are the ones #enhance lists."""
    game = start_game(native_client, seed=7, role="valkyrie")
    known = knowledge(game)
    assert known["spells"] == []
    skills = {skill["name"]: skill for skill in known["skills"]}
    assert skills["long sword"]["rank"] == "Basic"
    assert "bow" not in skills  # restricted for a Valkyrie: #enhance does not list it
    assert set(known["conduct"]) >= {"food", "gnostic", "weaponHits", "kills", "literacy", "wishes"}
    assert known["achievements"] == []
    assert [level["levelId"] for level in known["levels"]] == ["d0-l1"]


def test_enhance_raises_a_skill(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    rank = {skill["name"]: skill["rank"] for skill in knowledge(game)["skills"]}
    assert rank["bare handed combat"] == "Unskilled"
    decision = game.ok("game.enhance")["decision"]
    # wizard mode asks first whether practice is needed; a real game goes straight to the menu
    assert decision["prompt"] == "Advance skills without practice?"
    menu = game.answer(decision, {"kind": "confirmation", "confirm": True})["decision"]
    response = choose(game, menu, "bare handed combat")
    assert "You are now more skilled in bare handed combat." in heard(response)
    game.cancel(response["decision"])
    rank = {skill["name"]: skill["rank"] for skill in knowledge(game)["skills"]}
    assert rank["bare handed combat"] == "Basic"


def test_loot_puts_in_and_takes_out(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    assert_rejected_without_effect(game, game.call("game.loot"), "noContainer")
    box = wish(game, "unlocked large box")
    game.ok("game.drop", itemId=box)
    ration = next(entry for entry in game.last["observation"]["inventory"] if "food ration" in entry["label"])
    decision = game.ok("game.loot")["decision"]
    assert decision["prompt"] == "There is a large box here, loot it?"
    menu = game.answer(decision, {"kind": "confirmation", "confirm": True})["decision"]
    assert menu["prompt"] == "Do what with the large box?"
    kinds = choose(game, menu, "put something in")["decision"]
    what = choose(game, kinds, "All types")["decision"]
    response = choose(game, what, "food ration")
    assert ration["id"] not in [entry["id"] for entry in response["observation"]["inventory"]]
    assert not any("food ration" in label for label in labels(game))
    menu = game.answer(game.ok("game.loot")["decision"], {"kind": "confirmation", "confirm": True})["decision"]
    taken = choose(game, menu, "take something out")
    if taken["decision"] is not None and taken["decision"]["prompt"].startswith("Take out what type"):
        taken = choose(game, taken["decision"], "All types")
    response = choose(game, taken["decision"], "food ration")
    assert any("food ration" in label for label in labels(game)), heard(response)


def test_force_a_locked_chest(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    chest = wish(game, "locked chest")
    game.ok("game.drop", itemId=chest)
    looted = game.answer(game.ok("game.loot")["decision"], {"kind": "confirmation", "confirm": True})
    assert "Hmmm, it turns out to be locked." in heard(looted)
    # the lock the hero found is part of the chest's name from now on
    assert [item["label"] for item in looted["observation"]["here"]["items"]] == ["a locked chest"]
    decision = game.ok("game.force")["decision"]
    assert decision["prompt"] == "There is a locked chest here; force its lock?"
    response = game.answer(decision, {"kind": "confirmation", "confirm": True})
    assert "You succeed in forcing the lock." in heard(response)
    assert [item["label"] for item in response["observation"]["here"]["items"]] == ["a broken chest"]
    assert response["outcome"]["turnsElapsed"] > 1  # prying is an occupation
    opened = game.answer(game.ok("game.loot")["decision"], {"kind": "confirmation", "confirm": True})
    assert "You carefully open the chest..." in heard(opened)


def test_an_unlocking_tool_discloses_and_changes_a_lock(native_client: DriverClient) -> None:
    """A chest of unknown lock state: applying a skeleton key to it asks to
    unlock it (so the hero now knows it is locked, and so does its name), and
    unlocking it is NetHack's outcome, named "unlocked" afterwards."""
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    chest = wish(game, "chest")
    dropped = game.ok("game.drop", itemId=chest)
    assert [item["label"] for item in dropped["observation"]["here"]["items"]] == ["a chest"]
    key = wish(game, "skeleton key")
    where = game.ok("game.apply", itemId=key)["decision"]
    assert where["kind"] == "direction"
    asked = game.answer(where, {"kind": "direction", "direction": "self"})
    assert asked["decision"]["prompt"] == "There is a chest here; unlock it?"
    assert [item["label"] for item in asked["observation"]["here"]["items"]] == ["a locked chest"]
    unlocked = game.answer(asked["decision"], {"kind": "confirmation", "confirm": True})
    assert "You succeed in unlocking the chest." in heard(unlocked), heard(unlocked)
    assert [item["label"] for item in unlocked["observation"]["here"]["items"]] == ["an unlocked chest"]


def test_engrave_with_fingers_and_text_is_read_back(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    response = game.call("game.engrave", hands=True, text="Elbereth")
    completed(response, "engrave", 1)
    assert "You write in the dust with your fingertip." in heard(response)
    start = game.last["observation"]["position"]
    for direction in ("east", "west", "north", "south"):
        step = game.ok("game.move", direction=direction)
        if step["observation"]["position"] != start:
            back = {"east": "west", "west": "east", "north": "south", "south": "north"}[direction]
            returned = game.ok("game.move", direction=back)
            # walking over dust smudges it: NetHack shows what is left of the text
            read = [text[11:-2] for text in heard(returned) if text.startswith('You read: "')]
            assert len(read) == 1 and len(read[0]) == 8, heard(returned)
            assert sum(a == b for a, b in zip(read[0], "Elbereth", strict=True)) >= 5, read
            break
    else:
        raise AssertionError("the hero could not step off the engraving")
    dagger = next(entry["id"] for entry in game.last["observation"]["inventory"] if "dagger" in entry["label"])
    assert_rejected_without_effect(game, game.call("game.engrave", itemId=dagger, hands=True), "outOfRange")
    assert_rejected_without_effect(game, game.call("game.engrave", text="E" * 129), "outOfRange")


def test_chat_pay_offer_dip_rub_invoke(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    here = game.last["observation"]["position"]
    pet = next(entity for entity in game.last["observation"]["entities"] if entity.get("attitude") == "tame")
    direction = COMPASS[(pet["x"] - here["x"], pet["y"] - here["y"])]
    chatted = game.ok("game.chat", direction=direction)
    assert any(text.startswith("The kitten") for text in heard(chatted)), heard(chatted)
    assert "There appears to be no shopkeeper here to receive your payment." in heard(game.ok("game.pay"))
    assert "You are not standing on an altar." in heard(game.ok("game.offer"))
    water = wish(game, "uncursed potion of water")
    dagger = next(entry["id"] for entry in game.last["observation"]["inventory"] if "dagger" in entry["label"])
    decision = game.ok("game.dip", itemId=dagger)["decision"]
    assert decision["kind"] == "item" and water in decision["suggested"]
    dipped = game.answer(decision, {"kind": "item", "item": {"id": water}})
    assert "Your dagger rusts!" in heard(dipped)
    game.cancel(dipped["decision"])  # naming the potion type is optional
    lamp = wish(game, "oil lamp")
    rubbed = game.ok("game.rub", itemId=lamp)
    assert "You are now wielding the oil lamp." in heard(rubbed) or "Nothing happens." in heard(rubbed), heard(rubbed)
    invoked = game.ok("game.invoke", itemId=lamp)
    assert "Nothing happens." in heard(invoked), heard(invoked)


def test_a_witnessed_death_is_a_creature_died_event(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    created = game.answer(game.wizard("createMonster")["decision"], {"kind": "text", "text": "newt"})
    newt = next(entity for entity in created["observation"]["entities"] if entity.get("appearance") == "newt")
    here = created["observation"]["position"]
    direction = COMPASS[(newt["x"] - here["x"], newt["y"] - here["y"])]
    for _ in range(20):
        response = game.ok("game.attack", direction=direction)
        died = [event for event in response["events"] if event["type"] == "creatureDied"]
        if died:
            break
    else:
        raise AssertionError("the newt did not die in 20 attacks")
    assert {"levelId": "d0-l1", "x": newt["x"], "y": newt["y"], "appearance": "newt"}.items() <= died[0].items()
    assert died[0]["turn"] <= response["observation"]["turn"]
    assert response["observation"]["knowledge"]["conduct"]["kills"] >= 1


def test_a_fast_hero_completes_a_counted_search_in_fewer_turns(native_client: DriverClient) -> None:
    """A Samurai is intrinsically fast: 30 searches take fewer than 30 turns, and
    with nothing interrupting them the outcome is completed, not interrupted."""
    game = start_game(native_client, seed=5, role="samurai")
    response = game.ok("game.search", turns=30)
    assert response["outcome"]["status"] == "completed", heard(response)
    assert 0 < response["outcome"]["turnsElapsed"] < 30


def test_a_hostile_interrupts_a_counted_search_and_a_meal(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    game.answer(game.wizard("createMonster")["decision"], {"kind": "text", "text": "jackal"})
    searched = game.ok("game.search", turns=20)
    assert searched["outcome"]["status"] == "interrupted", heard(searched)
    assert searched["outcome"]["turnsElapsed"] < 20
    ration = next(entry["id"] for entry in game.last["observation"]["inventory"] if "food ration" in entry["label"])
    eaten = game.ok("game.eat", itemId=ration)
    assert "You stop eating the food ration." in heard(eaten), heard(eaten)
    assert eaten["outcome"]["status"] == "interrupted"
    # a meal nothing interrupts is completed
    with DriverClient(native_client.command) as client:
        fresh = start_game(client, seed=7, role="valkyrie")
        ration = next(
            entry["id"] for entry in fresh.last["observation"]["inventory"] if "food ration" in entry["label"]
        )
        meal = fresh.ok("game.eat", itemId=ration)
        assert "You're finally finished." in heard(meal), heard(meal)
        assert meal["outcome"]["status"] == "completed"


def pickup_settings(**changes: object) -> dict:
    settings = {"enabled": True, "itemTypes": ["gold"], "arrows": True, "leaveCorpses": True, "leaveKnownCursed": True}
    settings.update(changes)
    return settings


def step_off_and_back(game: Game) -> dict:
    """Step to a free neighbouring square and back; the response of the step back."""
    start = game.last["observation"]["position"]
    for direction, back in (("east", "west"), ("west", "east"), ("north", "south"), ("south", "north")):
        step = game.ok("game.move", direction=direction)
        if step["observation"]["position"] != start:
            return game.ok("game.move", direction=back)
    raise AssertionError("the hero could not step off")


def test_automatic_pickup_of_gold_on_and_off(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    # the default: off, with gold and arrows ready to enable
    assert game.last["observation"]["automaticPickup"] == pickup_settings(enabled=False)
    gold = wish(game, "20 gold pieces")
    game.ok("game.drop", itemId=gold)
    assert game.last["observation"]["vitals"]["gold"] == 0
    back = step_off_and_back(game)
    assert back["observation"]["vitals"]["gold"] == 0, "automatic pickup is off"
    turn = game.last["observation"]["turn"]
    configured = game.ok("game.configurePickup", **pickup_settings())
    assert configured["outcome"]["turnsElapsed"] == 0 and configured["observation"]["turn"] == turn
    assert configured["revision"] == back["revision"] + 1
    assert configured["observation"]["automaticPickup"] == pickup_settings()
    back = step_off_and_back(game)
    assert back["observation"]["vitals"]["gold"] == 20, heard(back)  # picked up in the step itself
    assert any("gold pieces" in text for text in heard(back)), heard(back)


def test_pickup_patterns_and_bad_settings(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    dagger = next(entry["id"] for entry in game.last["observation"]["inventory"] if "dagger" in entry["label"])
    game.ok("game.drop", itemId=dagger)
    # no types at all: only a loot pattern selects (case ignored, literal text)
    game.ok("game.configurePickup", **pickup_settings(itemTypes=[], arrows=False, lootPatterns=["DAGGER"]))
    back = step_off_and_back(game)
    assert any("dagger" in label for label in labels(game)), heard(back)
    assert game.last["observation"]["automaticPickup"]["lootPatterns"] == ["DAGGER"]
    for bad, code in (
        (pickup_settings(lootPatterns=["x" * 65]), "outOfRange"),
        (pickup_settings(ignorePatterns=["   "]), "outOfRange"),
        (pickup_settings(itemTypes=["gold", "gold"]), "outOfRange"),
        (pickup_settings(itemTypes=["jewels"]), "outOfRange"),
        (pickup_settings(lootPatterns=["a"] * 17), "outOfRange"),
        # NetHack 3.6.7 has no review of automatic pickup (docs/DECISIONS.md)
        (pickup_settings(review=True), "unknownField"),
        ({"enabled": True}, "missingField"),
    ):
        assert_rejected_without_effect(game, game.call("game.configurePickup", **bad), code)


def test_an_unread_spellbook_discloses_no_spell(native_client: DriverClient) -> None:
    """Fairness: carrying an unidentified spellbook teaches nothing; neither the
    knowledge nor any other part of the observation names its spell."""
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    book = wish(game, "uncursed spellbook of sleep")
    entry = next(item for item in game.last["observation"]["inventory"] if item["id"] == book)
    assert "sleep" not in entry["label"] and "identity" not in entry["known"]
    observed = game.observe()
    assert observed["observation"]["knowledge"]["spells"] == []
    assert "sleep" not in json.dumps(observed["observation"]).lower()


def test_offer_a_corpse_at_an_altar(native_client: DriverClient) -> None:
    """Seed 2 has an altar on level 2: the fixture level-teleports there, maps the
    level, teleports onto the altar and sacrifices a wished-for newt corpse."""
    game = start_game(native_client, seed=2, wizard=True, role="valkyrie")
    game.answer(game.wizard("levelTeleport")["decision"], {"kind": "text", "text": "2"})
    game.wizard("map")
    rows = game.observe()["observation"]["world"]["rows"]
    altar = next((x, row["y"]) for row in rows for x, mark in enumerate(row["features"]) if mark == "_")
    arrived = game.answer(
        game.wizard("teleport")["decision"], {"kind": "position", "position": {"x": altar[0], "y": altar[1]}}
    )
    assert arrived["observation"]["position"] == {"x": altar[0], "y": altar[1]}
    corpse = wish(game, "newt corpse")
    gnostic = knowledge(game)["conduct"]["gnostic"]
    response = game.ok("game.offer", itemId=corpse)
    assert "Your sacrifice is consumed in a flash of light!" in heard(response), heard(response)
    assert corpse not in [entry["id"] for entry in response["observation"]["inventory"]]
    assert response["observation"]["knowledge"]["conduct"]["gnostic"] == gnostic + 1
    # the level's altar is remembered once the hero has left it
    game.answer(game.wizard("levelTeleport")["decision"], {"kind": "text", "text": "1"})
    levels = {level["levelId"]: level for level in knowledge(game)["levels"]}
    assert levels["d0-l2"]["altars"] == 1


def test_an_amulet_of_life_saving_is_a_life_saved_event(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    game.ok("game.equip", itemId=wish(game, "uncursed amulet of life saving"))
    response = game.ok("game.zap", itemId=wish(game, "wand of death"), direction="self")
    assert "You die." in heard(response) and "You survived that attempt on your life." in heard(response)
    assert {"type": "lifeSaved", "who": "hero"} in response["events"]
    assert response["ended"] is False


def test_buy_in_a_shop_and_pay(native_client: DriverClient) -> None:
    """Seed 2's level 2 has a general store; the fixture teleports into it onto
    a tin for sale. The price is on the label as NetHack shows it underfoot and
    in the inventory, and paying moves real gold to the shopkeeper."""
    game = start_game(native_client, seed=2, wizard=True, role="valkyrie")
    game.answer(game.wizard("levelTeleport")["decision"], {"kind": "text", "text": "2"})
    arrived = game.answer(game.wizard("teleport")["decision"], {"kind": "position", "position": {"x": 68, "y": 12}})
    assert "You see here a tin (for sale, 7 zorkmids)." in heard(arrived), heard(arrived)
    assert [entry["label"] for entry in arrived["observation"]["here"]["items"]] == ["a tin (for sale, 7 zorkmids)"]
    wish(game, "100 gold pieces")
    assert game.last["observation"]["vitals"]["gold"] == 100
    picked = game.ok("game.pickup")
    assert '"For you, esteemed lady; only 7 zorkmids for this tin."' in heard(picked), heard(picked)
    assert "a tin (unpaid, 7 zorkmids)" in labels(game)
    asked = game.ok("game.pay")
    assert (
        asked["decision"]["kind"] == "confirmation" and asked["decision"]["prompt"] == "A tin for 7 zorkmids.  Pay?"
    ), asked["decision"]
    paid = game.answer(asked["decision"], {"kind": "confirmation", "confirm": True})
    assert "You bought a tin for 7 gold pieces." in heard(paid), heard(paid)
    assert paid["observation"]["vitals"]["gold"] == 93
    assert "93 gold pieces" in labels(game) and "a tin" in labels(game)
    # nothing left to pay: NetHack says so and no gold moves
    again = game.ok("game.pay")
    assert any("do not owe" in text for text in heard(again)), heard(again)
    assert again["observation"]["vitals"]["gold"] == 93


def test_a_price_outside_a_shop_is_not_shown(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    dagger = next(entry["id"] for entry in game.last["observation"]["inventory"] if "dagger" in entry["label"])
    dropped = game.ok("game.drop", itemId=dagger)
    assert [entry["label"] for entry in dropped["observation"]["here"]["items"]] == ["a +0 dagger"]


def test_automatic_pickup_set_at_creation(native_client: DriverClient) -> None:
    """session.create's automaticPickup is the game's configuration from the
    first turn: gold dropped and walked onto again comes back in that step."""
    for bad, code, field in (
        ({"enabled": True}, "missingField", "itemTypes"),
        ("$", "wrongType", "automaticPickup"),
        (pickup_settings(types=["gold"]), "unknownField", "types"),
        (pickup_settings(itemTypes=["jewels"]), "outOfRange", "itemTypes"),
        (pickup_settings(lootPatterns=["x" * 65]), "outOfRange", "lootPatterns"),
    ):
        refused = native_client.request(create_request("test-1", 7, wizard=True, automaticPickup=bad))
        assert refused["error"]["code"] == code and refused["error"]["field"] == field, refused
    game = start_game(
        native_client, seed=7, wizard=True, role="valkyrie", automaticPickup=pickup_settings(ignorePatterns=["cursed"])
    )
    assert game.last["observation"]["automaticPickup"] == pickup_settings(ignorePatterns=["cursed"])
    assert game.last["revision"] == 0
    gold = wish(game, "20 gold pieces")
    game.ok("game.drop", itemId=gold)
    assert game.last["observation"]["vitals"]["gold"] == 0
    back = step_off_and_back(game)
    assert back["observation"]["vitals"]["gold"] == 20, heard(back)  # picked up in the step itself
    assert any("gold pieces" in text for text in heard(back)), heard(back)


def test_automatic_pickup_off_at_creation(native_client: DriverClient) -> None:
    game = start_game(
        native_client,
        seed=7,
        wizard=True,
        role="valkyrie",
        automaticPickup=pickup_settings(enabled=False, itemTypes=["gold", "scrolls"]),
    )
    assert game.last["observation"]["automaticPickup"] == pickup_settings(enabled=False, itemTypes=["gold", "scrolls"])
    gold = wish(game, "20 gold pieces")
    game.ok("game.drop", itemId=gold)
    back = step_off_and_back(game)
    assert back["observation"]["vitals"]["gold"] == 0, heard(back)


def test_rub_a_touchstone_and_invoke_an_artifact(native_client: DriverClient) -> None:
    """Real outcomes: glass rubbed on a touchstone leaves scratch marks (the
    stone asks what to rub); the Valkyrie's Orb of Fate, wished for by the
    fixture, level-teleports when invoked (wizard mode asks where to) and then
    ignores a second invocation while it recharges."""
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    stone = wish(game, "uncursed touchstone")
    glass = wish(game, "worthless piece of blue glass")
    asked = game.ok("game.rub", itemId=stone)["decision"]
    assert asked["kind"] == "item" and asked["prompt"].startswith("What do you want to rub on the stone?")
    assert glass in asked["suggested"]
    rubbed = game.answer(asked, {"kind": "item", "item": {"id": glass}})
    assert heard(rubbed) == ["You make scratch marks on the stone."], heard(rubbed)

    orb = wish(game, "Orb of Fate")
    assert game.last["observation"]["depth"] == 1
    asked = game.ok("game.invoke", itemId=orb)["decision"]
    assert asked["kind"] == "text" and asked["prompt"] == "To what level do you want to teleport?", asked
    arrived = game.answer(asked, {"kind": "text", "text": "3"})
    assert arrived["observation"]["depth"] == 3 and arrived["outcome"]["positionChanged"]
    ignored = game.ok("game.invoke", itemId=orb)
    assert "You feel that the glass orb named The Orb of Fate is ignoring you." in heard(ignored), heard(ignored)
    assert ignored["observation"]["depth"] == 3


@pytest.mark.wasm
@pytest.mark.parametrize("kind", WASM_KINDS)
def test_wasm_shop_pickup_and_artifact_scenes_match_native(kind: str) -> None:
    """The shop purchase, creation-time automatic pickup and the touchstone and
    artifact scenes give byte-identical response streams natively and in each
    WASM build."""
    scenes = (
        test_buy_in_a_shop_and_pay,
        test_automatic_pickup_set_at_creation,
        test_rub_a_touchstone_and_invoke_an_artifact,
    )
    streams: list[list[bytes]] = []
    for command in (driver_command("native"), driver_command(kind)):
        streams.append([])
        for scene in scenes:  # one driver process per game
            with DriverClient(command) as client:
                scene(client)
                streams[-1].extend(client.transcript)
    assert len(streams[0]) == len(streams[1]) > 20
    for index, (native, wasm) in enumerate(zip(*streams, strict=True)):
        assert native == wasm, f"response {index} differs"
