"""tty.py - one move as an 80x24 terminal screen: message line, map, two status lines.

The screen a tty NetHack would show at that boundary, built only from what
the observation carries (the map rows the player saw, the last message, the
status vitals), so an exported cast shows nothing the player did not see.
"""

from __future__ import annotations

from typing import Any

WIDTH, HEIGHT, MAP_ROWS = 80, 24, 21


def _fit(text: str) -> str:
    return text[:WIDTH].ljust(WIDTH)


def status_lines(observation: dict[str, Any], name: str) -> tuple[str, str]:
    v = observation.get("vitals") or {}
    first = (
        f"{name} St:{v.get('strength', '?')} Dx:{v.get('dexterity', '?')} Co:{v.get('constitution', '?')} "
        f"In:{v.get('intelligence', '?')} Wi:{v.get('wisdom', '?')} Ch:{v.get('charisma', '?')} "
        f"{str(v.get('alignment', '')).capitalize()}"
    )
    second = (
        f"{observation.get('levelLabel', 'Dlvl:?')} $:{v.get('gold', 0)} HP:{v.get('hp', '?')}({v.get('hpMax', '?')}) "
        f"Pw:{v.get('energy', '?')}({v.get('energyMax', '?')}) AC:{v.get('ac', '?')} "
        f"Xp:{v.get('level', '?')}/{v.get('experience', 0)} T:{observation.get('turn', '?')} "
        f"{v.get('hungerLabel') or ''}"
    )
    return first.rstrip(), second.rstrip()


def screen(observed: dict[str, Any], rows: dict[int, str], name: str) -> list[str]:
    """24 lines of 80 characters. `rows` is the map so far (y -> marks),
    updated in place from this response's changed rows."""
    observation = observed.get("observation") or {}
    for row in (observation.get("world") or {}).get("rows") or ():
        rows[int(row["y"])] = str(row.get("marks", ""))
    messages = observation.get("recentMessages") or []
    lines = [_fit(messages[-1] if messages else "")]
    lines.extend(_fit(rows.get(y, "")) for y in range(MAP_ROWS))
    lines.extend(_fit(line) for line in status_lines(observation, name))
    return lines
