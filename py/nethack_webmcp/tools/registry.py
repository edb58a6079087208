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
    return [tool.declaration() for tool in TOOLS]
