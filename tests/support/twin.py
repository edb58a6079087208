"""twin.py - the fixed input script that crash tests replay against an uninterrupted twin.

Single-input operations, so a re-issued input after a crash is the same input
the twin sent; ("respond", value) answers the standing decision.
"""

from __future__ import annotations

from typing import Any

SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("travel", {"mode": "step", "target": {"direction": "west"}}),
    ("interact", {"action": "search", "turns": 2}),
    ("travel", {"mode": "step", "target": {"direction": "north"}}),
    ("interact", {"action": "kick"}),
    ("respond", {"value": "north"}),
    ("travel", {"mode": "step", "target": {"direction": "west"}}),
    ("travel", {"mode": "step", "target": {"direction": "south"}}),
    ("interact", {"action": "search", "turns": 3}),
    ("travel", {"mode": "step", "target": {"direction": "east"}}),
]
