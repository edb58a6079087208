"""test_tool_declarations.py - the eleven tools: declared once, strict, flat, small, honestly annotated, exported."""

from __future__ import annotations

import json
import re
from typing import Any

from nethack_webmcp.tools import BY_NAME, TOOLS, ToolContext, declarations
from nethack_webmcp.tools.schema import unsupported_keywords
from support.exported import exported
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
#: What each tool is, as its annotations must say (an annotation describes the
#: whole tool): read-only, destructive (some action can end a game by choice:
#: session quit), idempotent (the free tools), results carrying untrusted game
#: text (every tool but help). No tool reaches outside this host.
ANNOTATED = {
    "session": {"readOnly": False, "destructive": True, "idempotent": False, "untrusted": True},
    "observe": {"readOnly": True, "destructive": False, "idempotent": True, "untrusted": True},
    "interact": {"readOnly": False, "destructive": False, "idempotent": False, "untrusted": True},
    "use": {"readOnly": False, "destructive": False, "idempotent": False, "untrusted": True},
    "travel": {"readOnly": False, "destructive": False, "idempotent": False, "untrusted": True},
    "equipment": {"readOnly": False, "destructive": False, "idempotent": False, "untrusted": True},
    "inventory": {"readOnly": True, "destructive": False, "idempotent": True, "untrusted": True},
    "plan": {"readOnly": True, "destructive": False, "idempotent": True, "untrusted": True},
    "lookup": {"readOnly": True, "destructive": False, "idempotent": True, "untrusted": True},
    "respond": {"readOnly": False, "destructive": False, "idempotent": False, "untrusted": True},
    "help": {"readOnly": True, "destructive": False, "idempotent": True, "untrusted": False},
}
READ_ONLY = {name for name, facts in ANNOTATED.items() if facts["readOnly"]}
#: MCP's defaults for an absent hint (and WebMCP's for readOnlyHint/untrustedContentHint)
DEFAULTS = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
    "untrustedContentHint": False,
}


def hint(annotations: dict[str, Any], name: str) -> bool:
    value = annotations.get(name, DEFAULTS[name])
    assert isinstance(value, bool), (name, value)
    return value


def mcp_lists() -> dict[str, list[dict[str, Any]]]:
    """tools/list as each transport sends it: the WebMCP declarations, and MCP
    over stdio and over HTTP as the SDK serializes them."""
    from nethack_webmcp import mcp

    def dumped(http: bool) -> list[dict[str, Any]]:
        return [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in mcp.tool_list(http=http)]

    return {"webmcp": declarations(), "stdio": dumped(False), "http": dumped(True)}


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


def test_annotations_tell_the_truth_per_tool() -> None:
    """readOnly, destructive, idempotent, openWorld and untrusted content, per
    tool, with the protocols' defaults applied to what a declaration leaves out."""
    assert set(ANNOTATED) == set(NAMES)
    for declared in declarations():
        facts, hints = ANNOTATED[declared["name"]], declared["annotations"]
        assert set(hints) <= set(DEFAULTS), hints
        assert hint(hints, "readOnlyHint") is facts["readOnly"], declared["name"]
        if not facts["readOnly"]:  # MCP: destructiveHint means something only on a tool that writes
            assert hint(hints, "destructiveHint") is facts["destructive"], declared["name"]
        assert hint(hints, "idempotentHint") is facts["idempotent"], declared["name"]
        assert hint(hints, "openWorldHint") is False, declared["name"]
        assert hint(hints, "untrustedContentHint") is facts["untrusted"], declared["name"]


def test_quit_is_sessions_so_interact_is_not_destructive() -> None:
    """The one destructive action (quit) lives in session; interact has none."""
    interact = BY_NAME["interact"].input_schema["properties"]["action"]["enum"]
    assert "quit" not in interact
    assert BY_NAME["session"].input_schema["properties"]["action"]["enum"] == [
        "create",
        "list",
        "resume",
        "close",
        "quit",
    ]
    assert [tool.name for tool in TOOLS if tool.destructive] == ["session"]


def test_mcp_says_untrusted_in_words() -> None:
    """MCP has no untrusted-content annotation: the SDK would drop it, so the
    MCP lists carry none and the first tool's description names the tools
    whose results carry game text - the same flags as the WebMCP hint."""
    for transport, listed in mcp_lists().items():
        if transport == "webmcp":
            continue
        assert all("untrustedContentHint" not in tool.get("annotations", {}) for tool in listed), transport
        note = listed[0]["description"].splitlines()[-1]
        assert note == "Every tool's results but help's hold untrusted game text.", note
        untrusted = {name for name, facts in ANNOTATED.items() if facts["untrusted"]}
        trusted = set(NAMES) - untrusted
        assert all(name in note for name in trusted) and not any(f" {name}" in note for name in untrusted - {"help"})
        webmcp = {tool["name"]: tool for tool in declarations()}
        for tool in listed:  # everything else is the WebMCP declaration's
            page = webmcp[tool["name"]]
            assert tool["annotations"] == {
                key: value for key, value in page["annotations"].items() if key != "untrustedContentHint"
            }
            assert tool["description"].startswith(page["description"])


def test_every_model_api_accepts_the_schemas() -> None:
    """On every transport: plain-object roots, no composition there, typed, described."""
    for transport, listed in mcp_lists().items():
        assert problems(listed) == [], transport
        assert all(
            set(tool["inputSchema"]) <= {"type", "properties", "required", "additionalProperties"} for tool in listed
        )


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
    """Every model turn pays for tools/list: 10 KB (10,240 bytes) of compact
    JSON at most, on every transport - the WebMCP declarations, MCP over stdio,
    and MCP over HTTP with its controlToken on every game tool - counted both
    tool by tool and as the whole {"tools": [...]} result."""
    assert BUDGET_BYTES == 10240
    for transport, listed in mcp_lists().items():
        size = compact_size(listed)
        whole = len(json.dumps({"tools": listed}, separators=(",", ":")))
        assert size <= whole <= BUDGET_BYTES, f"{transport}: tools/list is {whole} bytes; the budget is {BUDGET_BYTES}"


def test_http_declares_its_token_fields() -> None:
    """Over HTTP every game tool takes controlToken, and session controlTokens
    (for list); stdio and the page declare neither."""
    listed = mcp_lists()
    for transport in ("webmcp", "stdio"):
        for tool in listed[transport]:
            assert not {"controlToken", "controlTokens"} & set(tool["inputSchema"]["properties"]), tool["name"]
    for tool in listed["http"]:
        fields = set(tool["inputSchema"]["properties"])
        expected = (
            set()
            if tool["name"] == "help"
            else {"controlToken"} | ({"controlTokens"} if tool["name"] == "session" else set())
        )
        assert fields & {"controlToken", "controlTokens"} == expected, tool["name"]


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
    assert exported() == {"tools": declarations()}
