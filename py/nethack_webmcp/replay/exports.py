"""exports.py - an ended game as an asciinema v2 cast and as a dumplog-style summary.

The cast has one frame per move (journal input), each a full 80x24 screen
(tty.py) drawn from the top-left, 0.1 s apart; the header is asciinema's v2
format (https://docs.asciinema.org/manual/asciicast/v2/). The dumplog names
how the game ended and lists the end-of-game windows the driver recorded
(possessions as identified at the end, attributes, conduct, the dungeon
overview), then the final status.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import ReplayRefused
from .timeline import Timeline
from .tty import HEIGHT, WIDTH, screen, status_lines

FRAME_SECONDS = 0.1
HOME_AND_CLEAR = "\x1b[H\x1b[2J"


async def cast(timeline: Timeline, title: str) -> str:
    """The whole game, move 0 to the last, one verified frame per move."""
    header = {"version": 2, "width": WIDTH, "height": HEIGHT, "title": title, "env": {"TERM": "xterm-256color"}}
    name = str(timeline.info["metadata"].get("name", ""))
    rows: dict[int, str] = {}
    lines = [json.dumps(header)]
    for move in range(timeline.length + 1):
        observed = await timeline.seek(move)  # one input past the last seek: the cursor steps, no fork
        text = HOME_AND_CLEAR + "\r\n".join(line.rstrip() for line in screen(observed, rows, name))
        lines.append(json.dumps([round(move * FRAME_SECONDS, 3), "o", text]))
    return "\n".join(lines) + "\n"


def dumplog(final: dict[str, Any], name: str) -> str:
    """A dumplog-style summary from the final observe response of an ended game."""
    end = final.get("end")
    if not final.get("ended") or not end:
        raise ReplayRefused("gameNotEnded", "only an ended game has a dumplog")
    observation = final.get("observation") or {}
    out = [
        f"{name}: {end.get('death') or end.get('how')}",
        f"Cause of death: {end.get('death')} (how: {end.get('how')})",
        f"Score {end.get('score')}, turn {end.get('turn')}, Dlvl {end.get('depth')} (deepest {end.get('deepest')})",
        "",
    ]
    out.extend(status_lines(observation, name))
    for window in end.get("windows") or ():
        out.append("")
        if window.get("title"):
            out.append(str(window["title"]))
        out.extend(str(line) for line in window.get("lines", ()))
    conduct = (end.get("knowledge") or {}).get("conduct")
    if conduct:
        out += ["", "Conduct counters: " + ", ".join(f"{key} {value}" for key, value in sorted(conduct.items()))]
    return "\n".join(out) + "\n"
