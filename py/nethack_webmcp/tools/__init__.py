"""tools - the eleven tool families, each declared once with its handler."""

from .base import Tool, ToolContext
from .registry import BY_NAME, TOOLS, declarations, mcp_declarations

__all__ = ["BY_NAME", "TOOLS", "Tool", "ToolContext", "declarations", "mcp_declarations"]
