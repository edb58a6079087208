"""vocabulary.py - the engine's words: protocol.describe's `vocabulary`, copied once.

The driver writes every word list of the protocol from one table
(wasm/driver/nnh_vocabulary.c) and publishes all of them in
protocol.describe as `vocabulary`. This module is the package's one copy of
that object, so the browser (which cannot ask a driver before a game starts)
and the native hosts read the same words. Python literals that name engine
words are built from it (tools/frame_schema.py) or checked against it, and
the build exports it, with the adapter's own words, as the site's
vocabulary.json (`python -m nethack_webmcp.tools.export --vocabulary`) for
the page's JavaScript.

tests/python/test_vocabulary_copies.py holds this copy equal to the running
driver's, value for value and in order, and every other copy equal to this
one; when the driver's words change, that test fails and prints the object
to paste here.
"""

from __future__ import annotations

from typing import Any, Final

ENGINE: Final[dict[str, Any]] = {
    "decisionKinds": ["confirmation", "choice", "text", "direction", "item", "position"],
    "directions": [
        "north",
        "south",
        "east",
        "west",
        "northeast",
        "northwest",
        "southeast",
        "southwest",
        "self",
        "up",
        "down",
    ],
    "compass": [
        {"name": "north", "dx": 0, "dy": -1},
        {"name": "south", "dx": 0, "dy": 1},
        {"name": "east", "dx": 1, "dy": 0},
        {"name": "west", "dx": -1, "dy": 0},
        {"name": "northeast", "dx": 1, "dy": -1},
        {"name": "northwest", "dx": -1, "dy": -1},
        {"name": "southeast", "dx": 1, "dy": 1},
        {"name": "southwest", "dx": -1, "dy": 1},
    ],
    "vertical": ["up", "down"],
    "runModes": ["normal", "untilInteresting", "pastBranches"],
    "equipmentSlots": [
        "shirt",
        "bodyArmor",
        "cloak",
        "helmet",
        "gloves",
        "boots",
        "shield",
        "leftRing",
        "rightRing",
        "amulet",
        "eyewear",
    ],
    "pickupTypes": [
        "gold",
        "food",
        "potions",
        "scrolls",
        "weapons",
        "armor",
        "rings",
        "amulets",
        "tools",
        "spellbooks",
        "wands",
        "gems",
        "rocks",
        "balls",
        "chains",
    ],
    "itemCategories": [
        "weapon",
        "armor",
        "ring",
        "amulet",
        "tool",
        "food",
        "potion",
        "scroll",
        "spellbook",
        "wand",
        "gold",
        "gem",
        "rock",
        "ball",
        "chain",
        "venom",
        "other",
    ],
    "hunger": ["satiated", "not_hungry", "hungry", "weak", "fainting", "fainted", "starved", "unknown"],
    "burden": ["unencumbered", "burdened", "stressed", "strained", "overtaxed", "overloaded", "unknown"],
    "endReasons": [
        "died",
        "choked",
        "poisoned",
        "starved",
        "drowned",
        "burned",
        "dissolved",
        "crushed",
        "stoned",
        "slimed",
        "genocided",
        "panicked",
        "trickery",
        "quit",
        "escaped",
        "ascended",
        "unknown",
    ],
    "statuses": ["completed", "decision", "blocked", "interrupted", "ended"],
    "events": ["heard", "passage", "creatureDied", "lifeSaved", "attacked"],
    "attackKinds": ["melee", "missile", "launched"],
    "attitudes": ["hostile", "peaceful", "tame"],
    "choiceSelect": ["one", "any"],
    "positionWords": ["help", "finish"],
    "roles": [
        "archeologist",
        "barbarian",
        "caveman",
        "healer",
        "knight",
        "monk",
        "priest",
        "rogue",
        "ranger",
        "samurai",
        "tourist",
        "valkyrie",
        "wizard",
    ],
    "races": ["human", "elf", "dwarf", "gnome", "orc"],
    "genders": ["male", "female"],
    "alignments": ["lawful", "neutral", "chaotic"],
    "wizardCommands": ["wish", "teleport", "map", "identify", "levelTeleport", "createMonster"],
}


def words(name: str) -> tuple[str, ...]:
    """One word list of the engine's vocabulary, in the driver's order."""
    return tuple(ENGINE[name])


#: The compass in the driver's order, each word with its map step (y grows southward).
COMPASS_STEPS: Final[tuple[tuple[str, int, int], ...]] = tuple(
    (entry["name"], entry["dx"], entry["dy"]) for entry in ENGINE["compass"]
)
