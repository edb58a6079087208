"""equipment.py - the `equipment` tool: what is worn and wielded, free.

Built from the inventory's observed equipmentSlots (actual assignments,
not places an item could go). The driver cannot yet wear, wield or remove,
so this tool only reports; those actions are not advertised.
"""

from __future__ import annotations

from typing import Any

from ..projection import frame as frames
from ..session import Session
from .base import SESSION_ID, Tool, ToolContext, query, plain_schema

SLOT_ORDER = ["weapon", "offhand", "alternateWeapon", "quiver", "shirt", "bodyArmor", "cloak", "helmet",
              "gloves", "boots", "shield", "leftRing", "rightRing", "amulet", "eyewear", "skin", "ball",
              "chain"]

SCHEMA = plain_schema({"sessionId": SESSION_ID}, ("sessionId",))

DESCRIPTION = "What the hero wears and wields, slot by slot (free)."


def result(session: Session) -> dict[str, Any]:
    observation = session.observation
    if not observation.get("inventoryKnown"):
        return {"kind": "equipment", "known": False}
    worn: dict[str, dict[str, Any]] = {}
    for item in observation.get("inventory", []):
        for slot in item.get("equipmentSlots") or []:
            worn[slot] = {"itemId": item["id"], "label": item["label"]}
    slots = [{"slot": slot, **worn[slot]} for slot in SLOT_ORDER if slot in worn]
    empty = [slot for slot in SLOT_ORDER[:15] if slot not in worn]
    return {"kind": "equipment", "known": True, "slots": slots, "empty": empty}


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await query(ctx, args, lambda session: frames.build(session, result=result(session),
                                                               include_scene=False))


TOOL = Tool("equipment", "Equipment", DESCRIPTION, SCHEMA, True, handle)
