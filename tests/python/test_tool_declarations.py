"""test_tool_declarations.py - the eleven tools, declared once, strict, exported verbatim."""
from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from agent_support import ROOT
from nethack_webmcp.tools import TOOLS, declarations
from nethack_webmcp.tools.schema import unsupported_keywords

NAMES = ["session", "observe", "interact", "use", "travel", "equipment", "inventory", "plan", "lookup",
         "respond", "help"]
READ_ONLY = {"observe", "equipment", "inventory", "plan", "lookup", "help"}


def objects(schema: Any) -> list[dict[str, Any]]:
    """Every object schema with properties, anywhere in schema."""
    found = []
    if isinstance(schema, dict):
        if "properties" in schema:
            found.append(schema)
        for value in schema.values():
            found.extend(objects(value))
    elif isinstance(schema, list):
        for value in schema:
            found.extend(objects(value))
    return found


def variants(tool: dict[str, Any]) -> list[dict[str, Any]]:
    schema = tool["inputSchema"]
    return schema.get("oneOf", [schema])


def test_eleven_tools_in_order() -> None:
    assert [tool.name for tool in TOOLS] == NAMES
    for declared in declarations():
        assert declared["inputSchema"]["type"] == "object"
        assert len(declared["description"]) > 80
        assert declared["annotations"]["readOnlyHint"] is (declared["name"] in READ_ONLY)


def test_schemas_are_strict_and_enforceable() -> None:
    for declared in declarations():
        schema = declared["inputSchema"]
        assert not unsupported_keywords(schema), (declared["name"], unsupported_keywords(schema))
        for obj in objects(schema):
            assert obj.get("additionalProperties") is False, (declared["name"], obj)
            assert set(obj.get("required", [])) <= set(obj["properties"])


def test_mutations_bind_to_a_view_and_debug_is_not_offered() -> None:
    for declared in declarations():
        for variant in variants(declared):
            props = variant["properties"]
            if "requestId" in props and declared["name"] != "respond":
                assert "viewId" in variant["required"], (declared["name"], variant)
        names = {name for obj in objects(declared["inputSchema"]) for name in obj["properties"]}
        assert not names & {"wizard", "debug", "command", "createdAt"}, "fixture-only parameters"


def test_export_writes_the_same_declarations() -> None:
    done = subprocess.run([sys.executable, "-m", "nethack_webmcp.tools.export"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {"tools": declarations()}
