"""test_reused_sections.py - a section reused while its inputs are unchanged is
never stale (wasm/driver/obs_reuse.h).

The driver copies the previous inventory and knowledge texts when nothing
they are read from changed. These cases change an input that is not an
item: praying changes conduct, two-weapon combat changes how the
off-hand weapon is labelled. A copy keyed on the items alone would keep the
old text. The whole suite also runs every native engine with
NNH_CHECK_REUSE set (tests/conftest.py), so each reuse is checked against
a fresh write.
"""

from __future__ import annotations

from engine_client import DriverClient, start_game


def inventory_labels(response: dict) -> list[str]:
    return [entry["label"] for entry in response["observation"]["inventory"]]


def test_unchanged_steps_repeat_the_same_sections(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    first = game.ok("game.search")["observation"]
    for _ in range(3):
        later = game.ok("game.search")["observation"]
        assert later["inventory"] == first["inventory"]
        assert later["knowledge"] == first["knowledge"]
    assert later["turn"] > first["turn"]


def test_prayer_updates_conduct_while_the_inventory_is_unchanged(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    before = game.ok("game.search")
    assert before["observation"]["knowledge"]["conduct"]["gnostic"] == 0
    decision = game.ok("game.pray")["decision"]
    prayed = game.answer(decision, {"kind": "confirmation", "confirm": True})
    while prayed["decision"]:  # --More-- pages of the prayer's messages
        prayed = game.cancel(prayed["decision"])
    assert prayed["observation"]["knowledge"]["conduct"]["gnostic"] == 1
    assert inventory_labels(prayed) == inventory_labels(before)


def test_two_weapon_combat_relabels_the_off_hand_weapon(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=7, wizard=True, role="valkyrie")
    game.ok("game.remove", itemId="item-3")  # the shield
    dagger = next(entry for entry in game.ok("game.search")["observation"]["inventory"] if entry["id"] == "item-2")
    assert dagger["label"].endswith("(alternate weapon; not wielded)"), dagger
    response = game.ok("game.twoWeapon")
    dagger = next(entry for entry in response["observation"]["inventory"] if entry["id"] == "item-2")
    assert dagger["label"].endswith("(wielded in other hand)"), dagger
