"""The stdio/HTTP server hands the SDK each tool result as its wire dict
(mcp.tool_result), not a CallToolResult model, to save one dump of the
frame per call. What reaches the wire must be what the model gave, in every
protocol era the SDK speaks."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import types
from mcp.server.runner import _dump_result
from mcp_types import methods
from nethack_webmcp.mcp import tool_result

ERAS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
FRAMES: list[dict[str, Any]] = [
    {"version": 1, "basis": {"sessionId": "s", "viewId": "v"}, "scene": {"map": ["é", None, 2.5, True]}},
    {"version": 1, "error": {"code": "staleView", "message": "x"}, "outcome": None},
    {"version": 1, "error": {"code": "x"}, "outcome": {"submission": "accepted"}},  # progress: no tool error
]


def via_model(frame: dict[str, Any], rendered: str) -> dict[str, Any]:
    error = "error" in frame and (frame.get("outcome") or {}).get("submission") != "accepted"
    model = types.CallToolResult(
        content=[types.TextContent(type="text", text=rendered)], structured_content=frame, is_error=error
    )
    return _dump_result(model)


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("frame", FRAMES)
def test_the_wire_dict_serialises_as_the_model_did(era: str, frame: dict[str, Any]) -> None:
    rendered = "a text\nwith lines"
    old = methods.serialize_server_result("tools/call", era, via_model(frame, rendered))
    new = methods.serialize_server_result("tools/call", era, _dump_result(tool_result(frame, rendered)))
    assert json.dumps(new) == json.dumps(old)
    assert new["structuredContent"] == frame
