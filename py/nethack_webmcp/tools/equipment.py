"""equipment.py - the `equipment` tool: what is worn and wielded, and changing it.

Without `action` it is free: the inventory's observed equipmentSlots
(actual assignments, not places an item could go), slot by slot. With an
action it sends one NetHack command: wear and puton become `game.equip`
(W for armour, P for accessories), takeoff and remove become `game.remove`
(T and R), then wield, quiver, swap and twoWeapon. A `slot` names a
destination (wear/puton: one of the item's equipmentTargets; a ring hand
answers the finger question) or, without an item, what to take off.
"""

from __future__ import annotations

from typing import Any

from ..engine.vocabulary import words as engine_words
from ..projection import frame as frames
from ..session import Session, SessionError
from .actions import Action, ActionTable
from .base import (
    BINDING_FIELDS,
    TOKEN,
    Operation,
    Tool,
    ToolContext,
    mutate,
    query,
    table_tool,
)

# the weapon slots, the engine's equipment slots (game.equip's, in its order), then what else can be worn
SLOT_ORDER = [
    "weapon",
    "offhand",
    "alternateWeapon",
    "quiver",
    *engine_words("equipmentSlots"),
    "skin",
    "ball",
    "chain",
]
ARMOR_SLOTS = ("shirt", "bodyArmor", "cloak", "helmet", "gloves", "boots", "shield")
ACCESSORY_SLOTS = ("leftRing", "rightRing", "amulet", "eyewear")

#: action -> (low method, the slots its `slot` may name)
ACTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "wear": ("game.equip", ARMOR_SLOTS),
    "puton": ("game.equip", ACCESSORY_SLOTS),
    "takeoff": ("game.remove", ARMOR_SLOTS),
    "remove": ("game.remove", ACCESSORY_SLOTS),
    "wield": ("game.wield", ()),
    "quiver": ("game.quiver", ()),
    "swap": ("game.swap", ()),
    "twoWeapon": ("game.twoWeapon", ()),
}

TABLE = ActionTable(
    "action",
    (
        Action(None, "", binding="session"),
        Action("wear", "", optional=("itemId", "slot")),
        Action("puton", "", optional=("itemId", "slot")),
        Action("takeoff", "", optional=("itemId", "slot")),
        Action("remove", "", optional=("itemId", "slot")),
        Action("wield", "", optional=("itemId", "hands")),
        Action("quiver", "", optional=("itemId", "hands")),
        Action("swap", ""),
        Action("twoWeapon", ""),
    ),
    {
        **BINDING_FIELDS,
        "itemId": {**TOKEN, "description": "scene.inventory id"},
        "slot": {"type": "string", "enum": [*ARMOR_SLOTS, *ACCESSORY_SLOTS]},
        "hands": {"type": "boolean"},
    },
)


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


def low_params(action: str, args: dict[str, Any]) -> dict[str, Any]:
    """The low request's parameters, after the checks the schema cannot make."""
    _, slots = ACTIONS[action]
    if "slot" in args and args["slot"] not in slots:
        raise SessionError("invalidArguments", f"equipment {action}: slot is one of {', '.join(slots)}", field="slot")
    if action in ("puton", "remove") and "itemId" not in args and "slot" not in args:
        raise SessionError("invalidArguments", f"equipment {action} needs itemId or slot", field="slot")
    if args.get("hands") and "itemId" in args:
        raise SessionError("invalidArguments", f"equipment {action}: itemId or hands, not both", field="hands")
    return {key: args[key] for key in ("itemId", "slot", "hands") if key in args}


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    if "action" not in args:
        return await query(
            ctx, args, lambda session: frames.build(session, result=result(session), include_scene=False)
        )
    action = args["action"]
    params = low_params(action, args)

    async def perform(operation: Operation) -> dict[str, Any]:
        await operation.step(ACTIONS[action][0], params)
        return operation.frame()

    return await mutate(ctx, "equipment", args, perform)


TOOL: Tool = table_tool(
    "equipment",
    "Worn and wielded: without action list it (free), else change it.",
    TABLE,
    False,
    handle,
    "hands: bare/empty; slot: equipmentTargets or what to remove.",
)
