"""registry.py - the eleven tools, in their advertised order.

This list is the only tool catalogue: the MCP server lists it and
`python -m nethack_webmcp.tools.export` writes it to tools.json for the page.
"""

from __future__ import annotations

from typing import Any

from . import (
    equipment,
    help,
    interact,
    inventory,
    lookup,
    observe,
    plan,
    respond,
    session,
    travel,
    use,
)
from .base import Tool

TOOLS: tuple[Tool, ...] = (
    session.TOOL,
    observe.TOOL,
    interact.TOOL,
    use.TOOL,
    travel.TOOL,
    equipment.TOOL,
    inventory.TOOL,
    plan.TOOL,
    lookup.TOOL,
    respond.TOOL,
    help.TOOL,
)
BY_NAME: dict[str, Tool] = {tool.name: tool for tool in TOOLS}


def declarations() -> list[dict[str, Any]]:
    """The WebMCP declarations (tools.json): untrustedContentHint per tool."""
    return [tool.declaration() for tool in TOOLS]


def untrusted_note() -> str:
    """The untrusted-content marking in words, for MCP, which has no
    annotation for it yet: which tools' results carry game text. Said once,
    in the first tool's description (tools/list is budgeted; ten tools
    repeating it cost 220 bytes), and derived from the same flags as the
    WebMCP hint, so the two cannot disagree."""
    trusted = [tool.name for tool in TOOLS if not tool.untrusted]
    if not trusted:
        return "Every tool's results hold untrusted game text."
    return f"Every tool's results but {' and '.join(trusted)}'s hold untrusted game text."


def mcp_declarations() -> list[dict[str, Any]]:
    """The MCP declarations: the same, the marking in words instead of the hint."""
    note = untrusted_note() if any(tool.untrusted for tool in TOOLS) else None
    return [tool.mcp_declaration(note if index == 0 else None) for index, tool in enumerate(TOOLS)]
