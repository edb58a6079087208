"""outcome.py - what one ordinary step did, as the Navigator needs to know it.

The Navigator (navigator.py) is independent of the session: its caller sends
each move and reports back a StepOutcome. The stop rules of the seed's
bounded navigation ("Real decisions, interruptions, damage, newly perceived
creatures and a door attempt stop the call ... condition and hunger changes
also stop continued navigation") are judged from these fields alone.

step_outcome() fills a StepOutcome from two driver observations (before and
after) and the step's response, so every caller judges "new creature" and
"door attempt" the same way. Both are perceived judgements:

* a new creature is a displayed creature (any entity but a tame ally)
  whose kind and appearance (or mark, when no appearance is disclosed)
  were displayed fewer times before the step and in the recent sighting
  (Sightings: the most shown at once on this level while it stayed in view
  or out of view for at most SIGHTING_GAP turns) - creatures have no
  perceived identity, so a multiset of appearances is what can be compared;
  a bat that flits out of view and back is one sighting, not several;
* a door attempt is a message NetHack prints when the hero's own move
  bumps into or opens a door (autoopen and its failures).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: Messages that only the hero's own move into a door produces (lock.c, hack.c).
DOOR_ATTEMPT_PHRASES = (
    "The door opens.",
    "This door is locked.",
    "The door resists!",
    "That door is closed.",
    "You bump into a door.",
    "through that closed door",
    "You're too small to pull the door open.",
    "ooze under the door",
)


@dataclass(frozen=True)
class HeroState:
    """The vitals a leg compares step by step: a drop or a change stops it."""

    level_id: str
    hp: int | None = None
    conditions: tuple[str, ...] = ()
    hunger: str = "unknown"

    @classmethod
    def from_observation(cls, observation: Mapping[str, Any]) -> HeroState:
        """Read level, hp, conditions and hunger from a driver observation."""
        vitals = observation.get("vitals") or {}
        hp = vitals.get("hp")
        return cls(
            level_id=str(observation.get("levelId", "")),
            hp=hp if isinstance(hp, int) else None,
            conditions=tuple(vitals.get("condition") or ()),
            hunger=str(vitals.get("hunger") or "unknown"),
        )


@dataclass(frozen=True)
class StepOutcome:
    """The caller's report after one ordinary move in a compass direction."""

    position_changed: bool
    level_id: str
    hp: int | None = None
    conditions: tuple[str, ...] | list[str] = ()
    hunger: str = "unknown"
    decision: bool = False
    interrupted: bool = False
    new_creatures: bool = False
    door_attempt: bool = False
    attacked: bool = False
    ended: bool = False
    events: list[Any] = field(default_factory=list)

    def hero_state(self) -> HeroState:
        """The vitals after this step, for comparison with the next one."""
        return HeroState(self.level_id, self.hp, tuple(self.conditions), self.hunger)


#: Turns a creature may stay out of view and still belong to the same sighting.
SIGHTING_GAP = 20
Census = Counter[tuple[str, str]]


class Sightings:
    """The creatures recently displayed on each level, as a census with the
    turn each kind/appearance was last shown. Fed every observation in order
    (WorldTracker does); asked before a step what counts as already seen."""

    def __init__(self) -> None:
        self._levels: dict[str, dict[tuple[str, str], tuple[int, int]]] = {}

    def remember(self, level_id: str, entities: Iterable[Mapping[str, Any]], turn: int) -> None:
        memory = self._levels.setdefault(level_id, {})
        for key, count in _creature_census(entities).items():
            shown, last = memory.get(key, (0, turn))
            memory[key] = (max(count, shown) if turn - last <= SIGHTING_GAP else count, turn)

    def memory(self) -> dict[str, list[tuple[tuple[str, str], tuple[int, int]]]]:
        """The census per level as plain sorted data (for comparisons)."""
        return {level_id: sorted(memory.items()) for level_id, memory in sorted(self._levels.items())}

    def recent(self, level_id: str, turn: int) -> Census:
        """The census of creatures still in their sighting at turn."""
        memory = self._levels.get(level_id, {})
        return Counter({key: shown for key, (shown, last) in memory.items() if turn - last <= SIGHTING_GAP})


def _creature_census(entities: Iterable[Mapping[str, Any]]) -> Counter[tuple[str, str]]:
    census: Counter[tuple[str, str]] = Counter()
    for entity in entities:
        kind = str(entity.get("kind", ""))
        if kind == "ally":
            continue
        census[(kind, str(entity.get("appearance") or entity.get("mark") or ""))] += 1
    return census


def _already_seen(before: Iterable[Mapping[str, Any]], recent: Census | None) -> Census:
    old = _creature_census(before)
    return old | recent if recent else old


def new_creatures_perceived(
    before: Iterable[Mapping[str, Any]], after: Iterable[Mapping[str, Any]], recent: Census | None = None
) -> bool:
    """True when after displays a creature kind/appearance more often than
    before and than its recent sighting (Sightings.recent)."""
    old, new = _already_seen(before, recent), _creature_census(after)
    return any(count > old[key] for key, count in new.items())


def newly_displayed(
    before: Iterable[Mapping[str, Any]], after: Iterable[Mapping[str, Any]], recent: Census | None = None
) -> list[Mapping[str, Any]]:
    """The displayed creatures of after whose kind/appearance shows more often
    than before and its recent sighting (all of that kind/appearance: which
    one is new is not known)."""
    old, new = _already_seen(before, recent), _creature_census(after)
    risen = {key for key, count in new.items() if count > old[key]}
    return [
        entity
        for entity in after
        if (str(entity.get("kind", "")), str(entity.get("appearance") or entity.get("mark") or "")) in risen
    ]


def door_attempted(events: Iterable[Mapping[str, Any]]) -> bool:
    """True when the step bumped into or opened a door: the driver's
    doorWitness event, or (for older recordings) the engine's door messages."""
    for event in events:
        if isinstance(event, Mapping) and event.get("type") == "doorWitness":
            return True
        text = event.get("text") if isinstance(event, Mapping) else None
        if isinstance(text, str) and any(phrase in text for phrase in DOOR_ATTEMPT_PHRASES):
            return True
    return False


def step_outcome(before: Mapping[str, Any], response: Mapping[str, Any], recent: Census | None = None) -> StepOutcome:
    """A StepOutcome from the observation before a move and the move's driver
    response; recent is the level's sighting census before the move."""
    after = response.get("observation") or {}
    outcome = response.get("outcome") or {}
    events = list(response.get("events") or [])
    state = HeroState.from_observation(after) if after else HeroState.from_observation(before)
    return StepOutcome(
        position_changed=bool(outcome.get("positionChanged")),
        level_id=state.level_id,
        hp=state.hp,
        conditions=state.conditions,
        hunger=state.hunger,
        decision=response.get("decision") is not None,
        interrupted=outcome.get("status") == "interrupted",
        new_creatures=new_creatures_perceived(before.get("entities") or (), after.get("entities") or (), recent),
        door_attempt=door_attempted(events),
        attacked=any(isinstance(e, Mapping) and e.get("type") == "attacked" for e in events),
        ended=bool(response.get("ended")),
        events=events,
    )
