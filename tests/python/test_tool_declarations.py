"""test_tool_declarations.py - the eleven tools, declared once, strict, flat, small, exported verbatim."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

from nethack_webmcp.tools import BY_NAME, TOOLS, ToolContext, declarations
from nethack_webmcp.tools.schema import unsupported_keywords
from support.client import ROOT
from support.tool_compat import BUDGET_BYTES, compact_size, problems

NAMES = [
    "session",
    "observe",
    "interact",
    "use",
    "travel",
    "equipment",
    "inventory",
    "plan",
    "lookup",
    "respond",
    "help",
]
READ_ONLY = {"observe", "inventory", "plan", "lookup", "help"}  # equipment also changes what is worn


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


def test_eleven_tools_in_order() -> None:
    assert [tool.name for tool in TOOLS] == NAMES
    for declared in declarations():
        assert declared["inputSchema"]["type"] == "object"
        assert len(declared["description"]) > 40
        assert declared["annotations"]["readOnlyHint"] is (declared["name"] in READ_ONLY)


def test_every_model_api_accepts_the_schemas() -> None:
    assert problems(declarations()) == []


def test_the_compatibility_rules_catch_what_model_apis_refuse() -> None:
    """The checker itself: each rule fires on the shape a model API refuses."""

    def tool(schema: dict[str, Any], name: str = "t") -> dict[str, Any]:
        return {"name": name, "description": "d", "inputSchema": schema}

    flat = {
        "type": "object",
        "properties": {"a": {"type": "string", "description": "a"}},
        "additionalProperties": False,
    }
    assert problems([tool(flat)]) == []
    assert problems([tool({**flat, "oneOf": [flat]})])
    assert problems([tool({**flat, "allOf": [flat]})])
    assert problems([tool(flat, name="bad name")])
    assert problems([tool({**flat, "properties": {"a b": {"type": "string", "description": "a"}}})])
    assert problems([tool({**flat, "properties": {"a": {"type": "string"}}})]), "undescribed"
    assert problems([tool({**flat, "properties": {"a": {"type": "array", "description": "a"}}})]), "no items"
    assert problems([tool({**flat, "properties": {"a": {"$ref": "#/$defs/a"}}})])
    assert problems([tool({**flat, "properties": {"a": {"anyOf": [{"type": "string"}], "description": "a"}}})])


def test_the_tool_list_fits_its_budget() -> None:
    """Every model turn pays for tools/list: 12 KB of compact JSON at most."""
    size = compact_size(declarations())
    assert size <= BUDGET_BYTES, f"tools/list is {size} bytes; the budget is {BUDGET_BYTES}"


def test_every_action_is_declared_once_and_listed_in_help() -> None:
    import asyncio

    frame = asyncio.run(BY_NAME["help"].call(ToolContext(games=None), {"topic": "tools"}))  # type: ignore[arg-type]
    listed = frame["result"]["text"]
    for tool in TOOLS:
        assert tool.description in listed
        if tool.actions is None:
            continue
        selector = tool.input_schema["properties"].get(tool.actions.selector or "", {})
        names = [action.name for action in tool.actions.actions if action.name is not None]
        assert selector.get("enum", []) == names
        for name in names:
            assert re.search(rf"(^|\|){name}[(|]", tool.description, re.M), (tool.name, name)


def test_schemas_are_strict_and_enforceable() -> None:
    for declared in declarations():
        schema = declared["inputSchema"]
        assert not unsupported_keywords(schema), (declared["name"], unsupported_keywords(schema))
        for obj in objects(schema):
            assert obj.get("additionalProperties") is False, (declared["name"], obj)
            assert set(obj.get("required", [])) <= set(obj["properties"])


def test_mutations_bind_to_a_view_and_debug_is_not_offered() -> None:
    for tool in TOOLS:
        for action in tool.actions.actions if tool.actions is not None else ():
            if "requestId" in action.accepted_fields():
                bound = "decisionId" if tool.name == "respond" else "viewId"
                assert bound in action.required_fields(), (tool.name, action.name)
        names = {name for obj in objects(tool.input_schema) for name in obj["properties"]}
        assert not names & {"wizard", "debug", "command", "createdAt"}, "fixture-only parameters"


def test_export_writes_the_same_declarations() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nethack_webmcp.tools.export"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == {"tools": declarations()}
