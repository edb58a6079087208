"""lookup.py - the `lookup` tool: what a displayed mark or a square shows, or
the encyclopedia entry for a name.

symbol and position answer only from the perceived scene: the legend
meaning of a mark, the glyph class, remembered terrain and a displayed
creature's disclosed appearance. name reads NetHack's own data.base the way
its / command finds a typed name (`session.lookup`): reference text that
identifies nothing on the map. All three are free: no input, no journal
entry, no turn, no revision change.
"""

from __future__ import annotations

from typing import Any

from ..geometry import MAP_ROWS, MAX_X, MIN_X
from ..navigation.terrain import TERRAIN_TYPES, freshness
from ..projection import frame as frames
from ..projection.mapview import cell_meaning
from ..projection.vocabulary import KIND_NAMES, OBJECT_CLASS_MARKS
from ..session import Session, SessionError
from .base import MARK, POSITION, SESSION_ID, Tool, ToolContext, plain_schema, query

POSITIONS_SHOWN = 40
SCHEMA = plain_schema(
    {
        "sessionId": SESSION_ID,
        "symbol": MARK,
        "position": POSITION,
        "name": {"type": "string", "maxLength": 120, "description": "encyclopedia entry"},
    },
    ("sessionId",),
)
DESCRIPTION = "What a mark or square is, or an encyclopedia entry (free): symbol, position or name."


def by_symbol(session: Session, symbol: str) -> dict[str, Any]:
    level = session.level()
    positions, meanings = [], []
    for y in range(MAP_ROWS):
        for x in range(MIN_X, MAX_X + 1):
            if level.mark(x, y) == symbol:
                positions.append([x, y])
                meaning = cell_meaning(level, x, y)
                if meaning not in meanings:
                    meanings.append(meaning)
    result: dict[str, Any] = {
        "kind": "lookup",
        "symbol": symbol,
        "shown": bool(positions),
        "meanings": meanings,
        "positions": positions[:POSITIONS_SHOWN],
        "count": len(positions),
    }
    if symbol in OBJECT_CLASS_MARKS:
        result["objectClass"] = OBJECT_CLASS_MARKS[symbol]
    return result


def by_position(session: Session, x: int, y: int) -> dict[str, Any]:
    level = session.level()
    mark = level.mark(x, y)
    result: dict[str, Any] = {
        "kind": "lookup",
        "position": {"x": x, "y": y},
        "mark": mark,
        "visible": level.visible(x, y),
        "terrain": TERRAIN_TYPES.get(level.feature(x, y), "unknown"),
        "terrainFreshness": freshness(level, x, y),
    }
    if mark != " ":
        result["shows"] = cell_meaning(level, x, y)
        result["glyphClass"] = KIND_NAMES.get(level.kind(x, y), "unknown")
    entity = level.entity_at(x, y)
    if entity is not None:
        result["creature"] = dict(entity)
    return result


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    if sum(key in args for key in ("symbol", "position", "name")) != 1:
        raise SessionError("invalidArguments", "lookup takes exactly one of symbol, position or name")
    if "name" in args:

        async def lore(session: Session) -> dict[str, Any]:
            return frames.build(session, result=await session.lookup(args["name"]), include_scene=False)

        return await query(ctx, args, lore)

    def build(session: Session) -> dict[str, Any]:
        if "symbol" in args:
            found = by_symbol(session, args["symbol"])
        else:
            found = by_position(session, args["position"]["x"], args["position"]["y"])
        return frames.build(session, result=found, include_scene=False)

    return await query(ctx, args, build)


TOOL = Tool("lookup", DESCRIPTION, SCHEMA, True, handle)
