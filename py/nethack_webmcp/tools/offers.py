"""offers.py - free discovery: executable calls for a square or an item.

An offer is a tool name plus arguments already bound to the session and
the returned viewId, chosen from the perceived scene only (terrain memory,
displayed occupants, perceived item categories). It is a candidate
attempt: it promises neither success nor safety, and making it sends no
input. `general` lists the supported commands that are always available
for that square regardless of what is perceived.
"""

from __future__ import annotations

from typing import Any

from ..navigation import neighborhood_cell
from ..navigation.terrain import WAYS_DOWN, WAYS_UP
from ..session import Session
from .targets import Square


class Offers:
    def __init__(self, session: Session) -> None:
        self.bound = {"sessionId": session.session_id, "viewId": session.view_id}
        self.attempts: list[dict[str, Any]] = []

    def add(self, tool: str, why: str, **arguments: Any) -> None:
        self.attempts.append({"tool": tool, "why": why, "arguments": {**self.bound, **arguments}})


def _creature_shown(cell: dict[str, Any]) -> bool:
    occupant = cell.get("occupant")
    return bool(occupant) and occupant.get("kind") != "ally"


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
        general.add("interact", "fight whatever is there, even if nothing is shown", action="attack",
                    target=target)
        general.add("interact", "step without fighting or picking up", action="moveWithoutAttack",
                    target=target)
        general.add("interact", "kick", action="kick", target=target)
    elif not _creature_shown(cell):
        # A route never ends on a displayed creature (targetOccupied), so
        # `to` is offered only where nothing but an ally stands.
        offers.add("travel", "walk there along a known route", mode="to", to={"x": where.x, "y": where.y})
    return {"kind": "squareOffers", "cell": cell, "attempts": offers.attempts, "general": general.attempts}


CATEGORY_ACTIONS = {"food": ("eat",), "tool": ("apply",), "scroll": ("read",), "spellbook": ("read",)}


def item(session: Session, entry: dict[str, Any]) -> dict[str, Any]:
    """Attempts for one carried item, from its perceived category."""
    offers = Offers(session)
    for action in CATEGORY_ACTIONS.get(entry.get("category", ""), ()):
        offers.add("use", f"perceived {entry['category']}", action=action, itemId=entry["id"])
    slots = entry.get("equipmentSlots") or []
    if not any(slot not in ("weapon", "alternateWeapon", "quiver", "offhand") for slot in slots):
        offers.add("use", "carried item", action="drop", itemId=entry["id"])
    return {"itemId": entry["id"], "label": entry["label"], "category": entry.get("category"),
            "quantity": entry.get("quantity"), "equipmentSlots": slots, "attempts": offers.attempts}


def items(session: Session, item_id: str | None) -> dict[str, Any]:
    """Offers for every carried item, or one. Withheld when inventory is unknown."""
    observation = session.observation
    if not observation.get("inventoryKnown"):
        return {"kind": "itemOffers", "available": False, "items": []}
    carried = observation.get("inventory", [])
    chosen = [entry for entry in carried if item_id is None or entry["id"] == item_id]
    general = Offers(session)
    for action in ("eat", "apply", "read"):
        general.add("use", f"{action} without choosing: the engine asks which item", action=action)
    return {"kind": "itemOffers", "available": True, "items": [item(session, entry) for entry in chosen],
            "general": general.attempts}
