"""targets.py - the shared operation target grammar, resolved in the captured view.

    {direction}                      compass word (or "self" where permitted)
    {position: {x, y}}               a square; actions need it adjacent
    {symbol, scope: adjacent|level}  a displayed mark, which must be unique

Symbols resolve only among the marks of the current perceived view and the
explicit scope: no match is `notFound`, several are `ambiguous` with every
candidate listed. Nothing is guessed: not the nearest match, not by
discarding a tame ally, and the hero's own square is never a symbol match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..geometry import COMPASS_NAMES, DELTAS, MAP_ROWS, MAX_X, MIN_X, direction_between, in_bounds
from ..navigation.level import LevelView
from ..session import SessionError
from .base import MARK, POSITION


@dataclass(frozen=True)
class Square:
    x: int
    y: int
    direction: str | None  # compass word, "self", or None when not adjacent


#: One flat object (no `oneOf`: some clients cannot load one); `resolve`
#: checks that exactly one form is used.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "direction": {"type": "string", "enum": [*COMPASS_NAMES, "self"]},
        "position": POSITION,
        "symbol": MARK,
        "scope": {"type": "string", "enum": ["adjacent", "level"]},
    },
    "additionalProperties": False,
}
FORMS = ("direction", "position", "symbol")


def _form(target: dict[str, Any]) -> str:
    """Which of the three forms target uses. Raises SessionError invalidTarget."""
    used = [form for form in FORMS if form in target]
    if len(used) != 1:
        raise SessionError(
            "invalidTarget",
            f"target takes exactly one of direction, position or symbol (got {', '.join(used) or 'none'})",
            field="target",
        )
    if ("scope" in target) != (used[0] == "symbol"):
        raise SessionError(
            "invalidTarget", "scope goes with symbol, and symbol needs scope (adjacent or level)", field="target"
        )
    return used[0]


def resolve(level: LevelView, target: dict[str, Any], *, allow_self: bool = False) -> Square:
    """The square a target names. Raises SessionError invalidTarget (not
    exactly one form, or "self" where the action does not take it),
    notFound or ambiguous."""
    hero = level.hero
    form = _form(target)
    if form == "direction":
        word = target["direction"]
        if word == "self":
            if not allow_self:
                raise SessionError("invalidTarget", "this action does not take the hero's own square", field="target")
            return Square(hero[0], hero[1], "self")
        dx, dy = DELTAS[word]
        return Square(hero[0] + dx, hero[1] + dy, word)
    if form == "position":
        x, y = target["position"]["x"], target["position"]["y"]
        if (x, y) == hero:
            return Square(x, y, "self")
        return Square(x, y, direction_between(hero, (x, y)))
    symbol, scope = target["symbol"], target["scope"]
    if scope == "adjacent":
        squares = [(hero[0] + dx, hero[1] + dy) for dx, dy in DELTAS.values()]
    else:
        squares = [(x, y) for y in range(MAP_ROWS) for x in range(MIN_X, MAX_X + 1)]
    matches = [(x, y) for x, y in squares if in_bounds(x, y) and (x, y) != hero and level.mark(x, y) == symbol]
    if not matches:
        raise SessionError("notFound", f"no {symbol!r} is displayed {_scope_words(scope)}", field="target")
    if len(matches) > 1:
        candidates = [
            {"x": x, "y": y, **({"direction": d} if (d := direction_between(hero, (x, y))) else {})} for x, y in matches
        ]
        raise SessionError(
            "ambiguous",
            f"{len(matches)} squares show {symbol!r} {_scope_words(scope)}; name one by direction or position",
            field="target",
            candidates=candidates,
        )
    x, y = matches[0]
    return Square(x, y, direction_between(hero, (x, y)))


def adjacent(square: Square) -> str:
    """The compass word of an adjacent square, else SessionError notAdjacent."""
    if square.direction is None or square.direction == "self":
        raise SessionError(
            "notAdjacent",
            f"({square.x},{square.y}) is not next to the hero; this action needs an adjacent "
            "square (travel there first)",
            field="target",
        )
    return square.direction


def _scope_words(scope: str) -> str:
    return "next to the hero" if scope == "adjacent" else "on this level"
