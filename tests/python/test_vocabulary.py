"""test_vocabulary.py - the Python vocabulary equals the driver's own description of it.

`protocol.describe` is the driver's table of every method and parameter
(the C validation table itself). The map vocabulary (nethack_webmcp.geometry)
and the character choices the `session` tool offers are typed again in
Python for the tool schemas; these tests hold each copy equal to the
driver's, value for value and in order, so neither side can drift.
"""

from __future__ import annotations

from typing import Any

import pytest
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.geometry import AIMS, COMPASS, COMPASS_NAMES, DELTAS, MAP_ROWS, MAP_WIDTH, POSITION_BOUNDS, VERTICAL
from nethack_webmcp.tools import session as session_tool
from support.client import CREATED_AT, require_driver

pytestmark = pytest.mark.asyncio


async def described() -> dict[str, dict[str, dict[str, Any]]]:
    """method name -> parameter name -> its description, from the real driver."""
    require_driver()
    engine = await NativeEngine.start()
    try:
        response = await engine.request({"version": 1, "method": "protocol.describe"})
    finally:
        await engine.close()
    return {method["name"]: {param["name"]: param for param in method["params"]} for method in response["methods"]}


async def test_every_direction_enum_is_a_python_vocabulary() -> None:
    found = {
        name: tuple(params["direction"]["values"])
        for name, params in (await described()).items()
        if "direction" in params
    }
    assert found["game.move"] == COMPASS_NAMES, "the compass, in the driver's order (the tie-break order)"
    assert found["game.climb"] == VERTICAL
    assert found["game.zap"] == AIMS
    unknown = {name: values for name, values in found.items() if values not in (COMPASS_NAMES, VERTICAL, AIMS)}
    assert not unknown, f"direction enums Python does not know: {unknown}"
    assert set(found.values()) == {COMPASS_NAMES, VERTICAL, AIMS}


async def test_compass_deltas_are_the_maps_own() -> None:
    """Each compass step moves the hero by its delta on the real map (y grows southward)."""
    require_driver()
    engine = await NativeEngine.start()
    try:
        created = await engine.request(
            {"version": 1, "method": "session.create", "params": {"seed": 42, "createdAt": CREATED_AT}}
        )
        sid, revision = created["sessionId"], created["revision"]
        position = created["observation"]["position"]
        moved: dict[str, tuple[int, int]] = {}
        for name, _, _ in COMPASS:
            reply = await engine.request(
                {
                    "version": 1,
                    "method": "game.moveWithoutAttack",
                    "params": {
                        "sessionId": sid,
                        "requestId": f"r-{name}",
                        "expectedRevision": revision,
                        "direction": name,
                    },
                }
            )
            assert "error" not in reply, reply
            if reply.get("decision") is not None:
                break  # a question (none expected here) would hold every further move
            revision = reply["revision"]
            after = reply["observation"]["position"]
            if after != position:
                moved[name] = (after["x"] - position["x"], after["y"] - position["y"])
            position = after
    finally:
        await engine.close()
    assert len(moved) >= 4, f"the hero moved in too few directions to check the compass: {moved}"
    assert all(moved[name] == DELTAS[name] for name in moved), moved


async def test_map_bounds_are_the_worlds_rows() -> None:
    """The world rows-v1 encoding has MAP_ROWS rows of MAP_WIDTH columns, and the
    hero stands inside POSITION_BOUNDS."""
    require_driver()
    engine = await NativeEngine.start()
    try:
        created = await engine.request(
            {"version": 1, "method": "session.create", "params": {"seed": 7, "createdAt": CREATED_AT}}
        )
        observed = await engine.request(
            {"version": 1, "method": "session.observe", "params": {"sessionId": created["sessionId"]}}
        )
    finally:
        await engine.close()
    rows = observed["observation"]["world"]["rows"]
    assert sorted(int(row["y"]) for row in rows) == list(range(MAP_ROWS))
    assert {len(row["marks"]) for row in rows} == {MAP_WIDTH}
    hero = observed["observation"]["position"]
    assert all(low <= hero[axis] <= high for axis, (low, high) in POSITION_BOUNDS.items()), hero


async def test_character_choices_equal_the_drivers() -> None:
    create = (await described())["session.create"]
    offered = session_tool.CREATE_FIELDS
    for field in ("role", "race", "gender", "alignment"):
        assert offered[field]["enum"] == create[field]["values"], field
    seed = create["seed"]
    assert (offered["seed"]["minimum"], offered["seed"]["maximum"]) == (seed["minimum"], seed["maximum"])
    for field, limit in session_tool.BYTE_LIMITS.items():
        assert create[field]["maxBytes"] == limit, field
        assert offered[field]["maxLength"] == limit, field
