"""frames.py - one timeline frame (docs/REPLAY.md, "The timeline widget") from what a game showed.

Two origins, one shape ({move, exact, rows[21], message, status[2], turn,
depth, hp, hpMax, decision, ended}):

- `from_observation`: an ended game's verified replay at that move
  (replay.Timeline.seek's session.observe response): the 21 map rows the
  engine's display holds, exact;
- `from_receipt`: a live game's stored receipt of the call that made the
  move (its agent frame: `scene.map` is the map text the agent was shown,
  bounded to the known part of the level). Exact at the call's last move;
  the moves inside a call show the frame the call ended with.

Only what the player saw is taken: map marks, the last message, the status
vitals, the standing question's kind and prompt, whether the game ended.
"""

from __future__ import annotations

import re
from typing import Any

from ..replay.tty import MAP_ROWS, status_lines

ROW_LINE = re.compile(r"^\s*(\d+) (.*)$")  # scene.map.text: "<y right-aligned> <marks from x0>"


def _question(decision: Any) -> dict[str, str] | None:
    if not isinstance(decision, dict):
        return None
    return {"kind": str(decision.get("kind", "")), "prompt": str(decision.get("prompt") or "")}


def _frame(move: int, exact: bool, rows: list[str], observation: dict[str, Any], name: str) -> dict[str, Any]:
    vitals = observation.get("vitals") or {}
    messages = observation.get("recentMessages") or []
    return {
        "move": move,
        "exact": exact,
        "rows": rows,
        "message": str(messages[-1]) if messages else "",
        "status": list(status_lines(observation, name)),
        "turn": observation.get("turn"),
        "depth": observation.get("depth"),
        "hp": vitals.get("hp"),
        "hpMax": vitals.get("hpMax"),
    }


def from_observation(move: int, observed: dict[str, Any], name: str) -> dict[str, Any]:
    observation = observed.get("observation") or {}
    rows = [""] * MAP_ROWS
    for row in (observation.get("world") or {}).get("rows") or ():
        y = int(row["y"])
        if 0 <= y < MAP_ROWS:
            rows[y] = str(row.get("marks", "")).rstrip()
    frame = _frame(move, True, rows, observation, name)
    frame.update(decision=_question(observed.get("decision")), ended=bool(observed.get("ended")))
    return frame


def map_rows(scene_map: dict[str, Any]) -> list[str]:
    """The 21 rows of a frame's `scene.map` text, each from column 0."""
    rows = [""] * MAP_ROWS
    x0 = int((scene_map.get("bounds") or {}).get("x0", 0))
    for line in str(scene_map.get("text", "")).splitlines():
        found = ROW_LINE.match(line)
        if found and 0 <= int(found.group(1)) < MAP_ROWS:
            rows[int(found.group(1))] = (" " * x0 + found.group(2)).rstrip()
    return rows


def from_receipt(move: int, exact: bool, frame: dict[str, Any], messages: list[str]) -> dict[str, Any]:
    """`messages`: the call's messages (the receipt's events, as text)."""
    scene = frame.get("scene") or {}
    me = scene.get("self") or {}
    level = me.get("level") or {}
    observation = {
        "vitals": me.get("vitals") or {},
        "levelLabel": level.get("label") or "Dlvl:?",
        "depth": level.get("depth"),
        "turn": (frame.get("basis") or {}).get("turn"),
        "recentMessages": messages,
    }
    shown = _frame(move, exact, map_rows(scene.get("map") or {}), observation, str(me.get("name", "")))
    gate = (frame.get("control") or {}).get("gate")
    shown.update(decision=_question(frame.get("decision")), ended=gate == "ended" or "end" in scene)
    return shown
