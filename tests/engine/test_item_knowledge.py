"""test_item_knowledge.py - item facts say no more than the tty inventory shows.

A differential check: every `known` field of a carried item is compared with
NetHack's own inventory text for that item (the label is doname(), what the
tty inventory prints). Unidentified potions, wands and rings carry only
their appearance; once the player learns more (here the wizard-mode
identify fixture), the fields appear exactly when the text shows them.
"""

from __future__ import annotations

import re

from engine_client import DriverClient, Game, start_game

HIDDEN = ("identity", "called", "beatitude", "enchantment", "charges", "recharges", "erosionProof")


def wish(game: Game, text: str) -> str:
    before = {entry["id"] for entry in game.last["observation"]["inventory"]}
    decision = game.wizard("wish")["decision"]
    response = game.answer(decision, {"kind": "text", "text": text})
    return next(entry["id"] for entry in response["observation"]["inventory"] if entry["id"] not in before)


def item(game: Game, item_id: str) -> dict:
    return next(entry for entry in game.last["observation"]["inventory"] if entry["id"] == item_id)


def agrees_with_label(entry: dict) -> None:
    """Each known field is backed by the label, and each fact the label states is known."""
    label, known = entry["label"], entry["known"]
    if "identity" in known:
        assert known["identity"] in label, entry
    charges = re.search(r"\((\d+):(-?\d+)\)", label)
    assert ("charges" in known) == bool(charges), entry
    if charges:
        assert (known["recharges"], known["charges"]) == (int(charges[1]), int(charges[2])), entry
    enchantment = re.search(r"(?:^|\s)([+-]\d+) ", label)
    assert ("enchantment" in known) == bool(enchantment), entry
    if enchantment:
        assert known["enchantment"] == int(enchantment[1]), entry
    words = {"rust": "rusty", "burn": "burnt", "corrode": "corroded", "rot": "rotted"}
    degrees = {1: "", 2: "very ", 3: "thoroughly "}
    for erosion in known.get("erosion", ()):
        assert f"{degrees[erosion['level']]}{words[erosion['kind']]}" in label, entry
    if "erosion" not in known:
        assert not re.search(r"\b(rusty|burnt|corroded|rotted)\b", label), entry
    assert ("erosionProof" in known) == bool(re.search(r"\b(\w+proof|fixed)\b", label)), entry
    if "name" in known:
        assert f"named {known['name']}" in label, entry
    stated = re.search(r"\b(blessed|uncursed|cursed)\b", label)
    if stated:
        assert known.get("beatitude") == stated[1], entry
    elif "beatitude" in known:
        # implicit_uncursed: the tty omits "uncursed" once other facts make it plain
        assert known["beatitude"] == "uncursed", entry


def test_unidentified_magic_shows_only_its_appearance(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    names = {"potion of sleeping": "sleeping", "wand of striking": "striking", "ring of adornment": "adornment"}
    wished = {text: wish(game, text) for text in names}
    for text, item_id in wished.items():
        entry = item(game, item_id)
        assert names[text] not in entry["label"]
        assert set(entry["known"]) == {"appearance"}, entry
        assert entry["known"]["appearance"] in entry["label"], entry
        for field in HIDDEN:
            assert field not in entry["known"]
        agrees_with_label(entry)
    for entry in game.last["observation"]["inventory"]:
        agrees_with_label(entry)

    decision = game.wizard("identify")["decision"]
    game.answer(decision, {"kind": "choice", "choose": [option["id"] for option in decision["options"]]})
    for text, item_id in wished.items():
        entry = item(game, item_id)
        assert entry["known"]["identity"] == text, entry
        assert "beatitude" in entry["known"]
    assert "charges" in item(game, wished["wand of striking"])["known"]
    for entry in game.last["observation"]["inventory"]:
        agrees_with_label(entry)


def test_erosion_proofing_and_names_follow_the_label(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    sting = wish(game, "very rusty dagger named Sting")
    armor = wish(game, "burnt corroded leather armor")
    proof = wish(game, "rustproof dagger")
    assert item(game, sting)["known"]["name"] == "Sting"
    assert item(game, sting)["known"]["erosion"] == [{"kind": "rust", "level": 2}]
    # leather rots rather than corrodes: the kind is the one NetHack names
    assert item(game, armor)["known"]["erosion"] == [{"kind": "burn", "level": 1}, {"kind": "rot", "level": 1}]
    assert "erosionProof" not in item(game, proof)["known"]  # not yet known
    for entry in game.last["observation"]["inventory"]:
        agrees_with_label(entry)
    decision = game.wizard("identify")["decision"]
    game.answer(decision, {"kind": "choice", "choose": [option["id"] for option in decision["options"]]})
    assert item(game, proof)["known"]["erosionProof"] is True
    assert "rustproof" in item(game, proof)["label"]
    for entry in game.last["observation"]["inventory"]:
        agrees_with_label(entry)


def test_hallucination_withholds_item_facts(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    potion = wish(game, "blessed potion of hallucination")
    assert item(game, potion)["known"]
    response = game.ok("game.drink", itemId=potion)
    assert "hallucinating" in response["observation"]["vitals"]["condition"], response["events"]
    for entry in response["observation"]["inventory"]:
        assert entry["known"] == {}, entry
        assert entry["equipmentSlots"] is not None  # placement stays known


def test_called_names_are_the_players_own(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    potion = wish(game, "2 uncursed potions of see invisible")
    response = game.ok("game.drink", itemId=potion)
    decision = response["decision"]
    assert decision["kind"] == "text" and decision["prompt"].startswith("Call a "), decision
    game.answer(decision, {"kind": "text", "text": "snooze"})
    entry = item(game, potion)
    assert entry["known"].get("called") == "snooze" and "identity" not in entry["known"]
    assert "called snooze" in entry["label"]
    agrees_with_label(entry)
