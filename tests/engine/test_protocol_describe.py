"""test_protocol_describe.py - protocol.describe lists every method, and the list is
the one validation actually uses."""

from __future__ import annotations

import pytest
from engine_client import WASM_KINDS, DriverClient, driver_command, dumps, start_game

EXPECTED_METHODS = {
    "protocol.describe": "lifecycle",
    "session.create": "lifecycle",
    "session.observe": "lifecycle",
    "session.lookup": "lifecycle",
    "session.close": "lifecycle",
    "game.move": "gameplay",
    "game.run": "gameplay",
    "game.moveWithoutAttack": "gameplay",
    "game.attack": "gameplay",
    "game.wait": "gameplay",
    "game.search": "gameplay",
    "game.rest": "gameplay",
    "game.climb": "gameplay",
    "game.pickup": "gameplay",
    "game.drop": "gameplay",
    "game.eat": "gameplay",
    "game.apply": "gameplay",
    "game.read": "gameplay",
    "game.drink": "gameplay",
    "game.wield": "gameplay",
    "game.equip": "gameplay",
    "game.remove": "gameplay",
    "game.zap": "gameplay",
    "game.throw": "gameplay",
    "game.fire": "gameplay",
    "game.quiver": "gameplay",
    "game.swap": "gameplay",
    "game.twoWeapon": "gameplay",
    "game.open": "gameplay",
    "game.close": "gameplay",
    "game.kick": "gameplay",
    "game.engrave": "gameplay",
    "game.chat": "gameplay",
    "game.pay": "gameplay",
    "game.offer": "gameplay",
    "game.dip": "gameplay",
    "game.rub": "gameplay",
    "game.invoke": "gameplay",
    "game.loot": "gameplay",
    "game.force": "gameplay",
    "game.cast": "gameplay",
    "game.enhance": "gameplay",
    "game.configurePickup": "gameplay",
    "game.pray": "gameplay",
    "game.quit": "gameplay",
    "decision.answer": "continuation",
    "decision.cancel": "continuation",
    "debug.wizard": "gameplay",
}

GAME_INPUT = {"sessionId", "requestId", "expectedRevision"}


def describe(client: DriverClient) -> tuple[str, dict]:
    raw, response = client.send({"version": 1, "method": "protocol.describe"})
    assert "error" not in response, raw
    return raw, response


def test_describe_lists_every_method(native_client: DriverClient) -> None:
    _, response = describe(native_client)
    assert response["version"] == 1
    protocol = response["protocol"]
    assert protocol["version"] == 1
    assert protocol["engine"] == "NetHack 3.6.7"
    assert protocol["maxRequestBytes"] == 4096
    capabilities = response["capabilities"]
    assert capabilities["encyclopedia"] == "session.lookup"
    assert capabilities["knowledge"] == ["spells", "skills", "levels", "conduct", "achievements"]
    assert set(capabilities["events"]) >= {"heard", "passage", "creatureDied", "lifeSaved"}
    assert "interrupted" in capabilities["statuses"]

    names = [method["name"] for method in response["methods"]]
    assert len(names) == len(set(names)), "a method is listed twice"
    assert set(names) == set(EXPECTED_METHODS), (
        f"missing {sorted(set(EXPECTED_METHODS) - set(names))}, unexpected {sorted(set(names) - set(EXPECTED_METHODS))}"
    )
    for method in response["methods"]:
        assert method["class"] == EXPECTED_METHODS[method["name"]], method
        assert isinstance(method["summary"], str) and method["summary"], method
        params = {param["name"]: param for param in method["params"]}
        assert len(params) == len(method["params"])
        for param in method["params"]:
            assert param["type"] in {
                "string",
                "token",
                "integer",
                "boolean",
                "enum",
                "answer",
                "enumList",
                "stringList",
                "object",
            }, param
            assert isinstance(param["required"], bool)
            if param["type"] in ("enum", "enumList"):
                assert param["values"], param
        if method["class"] in ("gameplay", "continuation"):
            assert {n for n, p in params.items() if p["required"]} >= GAME_INPUT, method
    by_name = {method["name"]: method for method in response["methods"]}
    move_directions = next(p for p in by_name["game.move"]["params"] if p["name"] == "direction")["values"]
    assert set(move_directions) == {
        "north",
        "south",
        "east",
        "west",
        "northeast",
        "northwest",
        "southeast",
        "southwest",
    }
    for method in ("game.zap", "game.throw", "game.fire"):
        aims = next(p for p in by_name[method]["params"] if p["name"] == "direction")["values"]
        assert set(aims) == set(move_directions) | {"self", "up", "down"}, method
    for method in ("game.wield", "game.quiver"):
        assert {p["name"] for p in by_name[method]["params"]} >= {"itemId", "hands"}, method
    # creation takes the same automatic pickup settings as game.configurePickup
    create = next(p for p in by_name["session.create"]["params"] if p["name"] == "automaticPickup")
    assert create["type"] == "object" and not create["required"]
    flags = GAME_INPUT | {"quiet", "delta"}  # every input method's own parameters
    configure = [p for p in by_name["game.configurePickup"]["params"] if p["name"] not in flags]
    assert create["params"] == configure
    slots = next(p for p in by_name["game.equip"]["params"] if p["name"] == "slot")["values"]
    assert "skin" not in slots and {"helmet", "leftRing", "rightRing", "eyewear"} <= set(slots)
    wizard = next(p for p in by_name["debug.wizard"]["params"] if p["name"] == "command")["values"]
    assert set(wizard) == {"wish", "teleport", "map", "identify", "levelTeleport", "createMonster"}


def test_describe_is_the_validation_table(native_client: DriverClient) -> None:
    """Every described method is known to validation (an extra field is unknownField,
    never unknownMethod), and each described required parameter really is required."""
    _, response = describe(native_client)
    for method in response["methods"]:
        name = method["name"]
        raw, reply = native_client.send({"version": 1, "method": name, "params": {"zzUndeclared": 1}})
        assert reply["error"]["code"] == "unknownField", raw
        assert reply["error"]["field"] == "zzUndeclared"
        required = [p["name"] for p in method["params"] if p["required"]]
        if required:
            raw, reply = native_client.send({"version": 1, "method": name, "params": {}})
            assert reply["error"]["code"] == "missingField", raw
            assert reply["error"]["field"] in required, raw
    raw, reply = native_client.send({"version": 1, "method": "game.undescribed", "params": {}})
    assert reply["error"]["code"] == "unknownMethod", raw


def test_describe_is_free_and_stable_during_a_game(native_client: DriverClient) -> None:
    before_raw, _ = describe(native_client)
    game = start_game(native_client, seed=42)
    game.ok("game.search")
    observed = game.observe()
    during_raw, _ = describe(native_client)
    assert during_raw == before_raw
    assert game.observe() == observed  # describing spent nothing


@pytest.mark.wasm
@pytest.mark.parametrize("kind", WASM_KINDS)
def test_wasm_describe_matches_native(native_client: DriverClient, kind: str) -> None:
    native_raw, _ = describe(native_client)
    with DriverClient(driver_command(kind)) as wasm:
        wasm_raw, _ = wasm.send_raw(dumps({"version": 1, "method": "protocol.describe"}).encode())
    assert wasm_raw == native_raw
