"""every_tool.py - one call of each tool that reads or offers on a game, for tests that must
see every channel a secret could leave by (a sealed seed, a control token).

One list, so a test that sweeps the tools gains a new reading tool in one place."""

from __future__ import annotations

from typing import Any


def reading_calls(view_id: str) -> list[tuple[str, dict[str, Any]]]:
    """(tool, arguments) without sessionId or token; `view_id` is the game's current view
    (interact without an action lists what it offers on that view)."""
    return [
        ("observe", {}),
        ("plan", {"query": "navigation"}),
        ("inventory", {}),
        ("equipment", {}),
        ("lookup", {"symbol": "@"}),
        ("use", {}),
        ("interact", {"viewId": view_id}),
    ]
