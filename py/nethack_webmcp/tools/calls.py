"""calls.py - the tool call an acting operation's receipt keeps, for the move list.

A stored receipt names the call that made its inputs: the tool and the
arguments as the agent sent them (docs/REPLAY.md, the move list), so a
timeline can say `travel {"to":"downstairs"}` instead of the engine methods
the call became. What is left out: `sessionId` (the receipt is that game's
already) and anything secret - a control token (the HTTP service takes it
off before the tool runs; dropped here too, so no path can store one) and a
seed (no acting tool takes one; a live game's seed must never be stored
where a spectator reads).
"""

from __future__ import annotations

from typing import Any

#: arguments never kept in a receipt's call
SECRET_ARGUMENTS = frozenset({"controlToken", "controlTokens", "seed"})
IMPLIED_ARGUMENTS = frozenset({"sessionId"})


def recorded_call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """`{"tool", "arguments"}` for the receipt: the agent's arguments, minus the above."""
    dropped = SECRET_ARGUMENTS | IMPLIED_ARGUMENTS
    return {"tool": tool, "arguments": {key: value for key, value in arguments.items() if key not in dropped}}
