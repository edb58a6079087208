"""offers.py - free discovery: executable calls for a square or an item.

An offer is a tool name plus arguments already bound to the session and
the returned viewId, chosen from the perceived scene only (terrain memory,
displayed occupants, and for items the verbs NetHack's own prompts offer
them, which the driver computes with the resolver its boundary uses). It is a candidate
attempt: it promises neither success nor safety, and making it sends no
input. `general` lists the supported commands that are always available
for that square regardless of what is perceived.
"""

from __future__ import annotations

from typing import Any

from ..navigation import neighborhood_cell
from ..navigation.terrain import WAYS_DOWN, WAYS_UP
from ..session import Session
from .equipment import ARMOR_SLOTS
from .targets import Square


class Offers:
    def __init__(self, session: Session) -> None:
        self.bound = {"sessionId": session.session_id, "viewId": session.view_id}
        self.attempts: list[dict[str, Any]] = []

    def add(self, tool: str, why: str, **arguments: Any) -> None:
        self.attempts.append({"tool": tool, "why": why, "arguments": {**self.bound, **arguments}})


def _creature_shown(cell: dict[str, Any]) -> bool:
    occupant = cell.get("occupant")
    return occupant is not None and occupant.get("kind") != "ally"


def square(session: Session, where: Square) -> dict[str, Any]:
    """Cell facts and attempts for one square (the hero's own when `self`)."""
    level = session.level()
    cell = neighborhood_cell(level, where.x, where.y)
    offers, general = Offers(session), Offers(session)
    if where.direction == "self":
        here = session.observation.get("here") or {}
        if not here.get("known"):
            offers.add("interact", "the floor here cannot be seen; there may be items", action="pickup")
        elif here.get("items"):
            offers.add("interact", "items are here", action="pickup")
        feature = level.feature(*level.hero)
        if feature in WAYS_DOWN:
            offers.add("travel", "a way down is here", mode="climb", direction="down")
        if feature in WAYS_UP:
            offers.add("travel", "a way up is here", mode="climb", direction="up")
        general.add("interact", "search adjacent squares for hidden things", action="search")
        general.add("interact", "rest in place", action="rest")
        general.add("interact", "ask your god for help (the engine asks to confirm)", action="pray")
        general.add("travel", "climb stairs or a ladder, if one is here", mode="climb", direction="down")
        general.add("travel", "climb stairs or a ladder, if one is here", mode="climb", direction="up")
    elif where.direction is not None:
        target = {"direction": where.direction}
        intent = (cell.get("movement") or {}).get("intent")
        terrain = (cell.get("terrain") or {}).get("type")
        if _creature_shown(cell):
            offers.add("interact", "a creature is displayed there", action="attack", target=target)
        if terrain == "closedDoor":
            offers.add("interact", "a closed door is remembered there", action="open", target=target)
            offers.add("interact", "a closed door is remembered there", action="kick", target=target)
        elif terrain == "openDoor":
            offers.add("interact", "an open door is remembered there", action="close", target=target)
        if not (cell.get("movement") or {}).get("blocked"):
            offers.add("travel", f"ordinary move ({intent})", mode="step", target=target)
        general.add("travel", "ordinary move", mode="step", target=target)
        general.add("interact", "fight whatever is there, even if nothing is shown", action="attack", target=target)
        general.add("interact", "step without fighting or picking up", action="moveWithoutAttack", target=target)
        general.add("interact", "kick", action="kick", target=target)
    elif not _creature_shown(cell):
        # A route never ends on a displayed creature (targetOccupied), so
        # `to` is offered only where nothing but an ally stands.
        offers.add("travel", "walk there along a known route", mode="to", to={"x": where.x, "y": where.y})
    return {"kind": "squareOffers", "cell": cell, "attempts": offers.attempts, "general": general.attempts}


#: the engine's item verbs (observation inventory `actions`, computed by the
#: driver's resolver) as tool calls; equip/remove split by the slot family
USE_VERBS = ("eat", "apply", "read", "drink", "zap", "throw", "fire", "drop")
EQUIPMENT_VERBS = {"wield": "wield", "quiver": "quiver"}


def item(session: Session, entry: dict[str, Any]) -> dict[str, Any]:
    """Attempts for one carried item: the verbs NetHack's own prompts offer it."""
    offers = Offers(session)
    item_id = entry["id"]
    for verb in entry.get("actions") or ():
        if verb in USE_VERBS:
            offers.add(
                "use",
                "the game offers this item for it",
                action=verb,
                **({} if verb == "fire" else {"itemId": item_id}),
            )
        elif verb in EQUIPMENT_VERBS:
            offers.add("equipment", "the game offers this item for it", action=EQUIPMENT_VERBS[verb], itemId=item_id)
        elif verb == "equip":
            for target in entry.get("equipmentTargets") or ():
                if target.get("action") == "equip":
                    action = "wear" if target["slot"] in ARMOR_SLOTS else "puton"
                    offers.add(
                        "equipment", f"free {target['slot']}", action=action, itemId=item_id, slot=target["slot"]
                    )
        elif verb == "remove":
            worn = [slot for slot in entry.get("equipmentSlots") or () if slot != "skin"]
            action = "takeoff" if any(slot in ARMOR_SLOTS for slot in worn) else "remove"
            offers.add("equipment", "worn now", action=action, itemId=item_id)
    return {
        "itemId": item_id,
        "label": entry["label"],
        "category": entry.get("category"),
        "quantity": entry.get("quantity"),
        "equipmentSlots": entry.get("equipmentSlots") or [],
        "known": entry.get("known", {}),
        "attempts": offers.attempts,
    }


def items(session: Session, item_id: str | None) -> dict[str, Any]:
    """Offers for every carried item, or one. Withheld when inventory is unknown."""
    observation = session.observation
    if not observation.get("inventoryKnown"):
        return {"kind": "itemOffers", "available": False, "items": []}
    carried = observation.get("inventory", [])
    chosen = [entry for entry in carried if item_id is None or entry["id"] == item_id]
    general = Offers(session)
    for action in ("eat", "apply", "read", "drink", "zap", "throw"):
        general.add("use", f"{action} without choosing: the engine asks which item", action=action)
    general.add("use", "fire the quiver (the engine asks a direction)", action="fire")
    for action in ("wear", "takeoff", "wield", "quiver"):
        general.add("equipment", f"{action} without choosing: the engine asks which item", action=action)
    general.add("equipment", "swap primary and alternate weapons", action="swap")
    return {
        "kind": "itemOffers",
        "available": True,
        "items": [item(session, entry) for entry in chosen],
        "general": general.attempts,
    }
