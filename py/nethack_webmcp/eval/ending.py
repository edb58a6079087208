"""ending.py - the harness ends a suite game the agent left unfinished (budget spent, agent stopped).

The game is quit in the game (the tool that declares the `quit` action:
`session quit` now, `interact quit` on older servers, read from the declared
tools), answering NetHack's confirmations, so it gets its record, its seed is
published, and nobody can go on playing it after the run. Its progression is
what it reached before: quitting moves the hero nowhere.
"""

from __future__ import annotations

from typing import Any

from .client import ToolClient

MAX_STEPS = 12  # "Really quit?", the possessions and the attributes questions, and a margin


def quit_tool(tools: list[dict[str, Any]]) -> str:
    """The name of the tool whose `action` enum offers "quit" (session first)."""
    offering = [
        tool["name"]
        for tool in tools
        if "quit" in ((tool.get("inputSchema") or {}).get("properties", {}).get("action", {}).get("enum") or [])
    ]
    if not offering:
        raise RuntimeError("no declared tool offers a quit action")
    return "session" if "session" in offering else offering[0]


def _answer(decision: dict[str, Any]) -> dict[str, Any]:
    """Yes to a confirmation; else the first option; else cancel (ending questions have defaults)."""
    reply = dict((decision.get("reply") or {}).get("arguments") or {})
    schema = (decision.get("reply") or {}).get("valueSchema") or {}
    options = decision.get("options") or []
    if schema.get("type") == "boolean":
        return {**reply, "value": True}
    if options and isinstance(options[0], dict) and "value" in options[0]:
        return {**reply, "value": options[0]["value"]}
    cancel = (decision.get("cancel") or {}).get("arguments")
    return dict(cancel) if cancel else {**reply, "value": True}


async def end_game(client: ToolClient, tool: str, session_id: str, token: str) -> dict[str, Any]:
    """Quit the game if it is not over; returns the last frame (gate `ended` when it worked)."""
    binding = {"sessionId": session_id, "controlToken": token}
    frame = await client.call("observe", binding)
    for _ in range(MAX_STEPS):
        control = frame.get("control") or {}
        if control.get("gate") == "ended":
            return frame
        decision = frame.get("decision")
        if decision:
            frame = await client.call("respond", {**_answer(decision), "controlToken": token})
        else:
            view = (frame.get("basis") or {}).get("viewId")
            try:
                frame = await client.call(tool, {**binding, "action": "quit", **({"viewId": view} if view else {})})
            except Exception:
                frame = {"error": {"code": "quitUnanswered"}}
        if frame.get("error") and not frame.get("decision"):
            frame = await client.call("observe", binding)
    return frame
