"""tool_compat.py - what the strictest mainstream tool consumers accept, as checks.

Model APIs (Anthropic Messages, OpenAI function calling, Gemini/Vertex,
Bedrock) refuse a tool whose input schema root carries a composition
keyword, and Claude Code drops such tools silently; Gemini wants a type on
every property and string enums; every one limits names to
[a-zA-Z0-9_.-]{1,64}. `problems` lists every violation in a tool list as
any client listed it (MCP `tools/list`, WebMCP, tools.json), so the same
rules hold the declarations, the stdio server and the page to account.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

NAME = re.compile(r"[a-zA-Z0-9_.-]{1,64}")
ROOT_FORBIDDEN = {"oneOf", "anyOf", "allOf", "not", "if", "then", "else", "$ref", "$defs", "definitions"}
#: Where a composition keyword may stand inside a property: the one field
#: whose shape depends on the question being answered.
COMPOSED_PROPERTIES = {("respond", "value")}
#: Property names that explain themselves without a description: map
#: coordinates; the binding fields, named after the frame's basis (session's
#: description says once what they bind, help's overview says more); the
#: labels a game record keeps; and the HTTP control tokens, which session
#: create's result tells the agent to pass as controlToken.
SELF_EVIDENT = {
    "x",
    "y",
    "sessionId",
    "viewId",
    "requestId",
    "expectedRevision",
    "operationId",
    "harness_name",
    "model_name",
    "controlToken",
    "controlTokens",
}
#: tools/list as compact JSON, over every transport (the WebMCP declarations,
#: MCP over stdio, MCP over HTTP with its control-token fields): 10 KB.
BUDGET_BYTES = 10 * 1024


def compact_size(tools: Iterable[Mapping[str, Any]]) -> int:
    """Bytes of the tool list as compact JSON, one object per tool."""
    return sum(len(json.dumps(tool, separators=(",", ":"))) for tool in tools)


def _evident(name: str, schema: Mapping[str, Any]) -> bool:
    if "description" in schema or "enum" in schema or name in SELF_EVIDENT or schema.get("type") == "boolean":
        return True
    properties = schema.get("properties") or {}
    return bool(properties) and all(_evident(key, value) for key, value in properties.items())


def _property_problems(tool: str, path: str, name: str, schema: Mapping[str, Any]) -> list[str]:
    where = f"{tool}: {path}"
    found: list[str] = []
    if not NAME.fullmatch(name):
        found.append(f"{where}: property name breaks [a-zA-Z0-9_.-]{{1,64}}")
    composed = set(schema) & ROOT_FORBIDDEN
    if composed and (tool, path) not in COMPOSED_PROPERTIES:
        found.append(f"{where}: composition {sorted(composed)} inside a property")
    if "type" not in schema and not composed:
        found.append(f"{where}: no type")
    for member in schema.get("anyOf", ()):
        found += _typed_problems(where, member)
    found += _typed_problems(where, schema)
    if "enum" in schema and (
        schema.get("type") != "string" or not all(isinstance(value, str) for value in schema["enum"])
    ):
        found.append(f"{where}: enums must be string-typed lists of strings")
    if "$ref" in json.dumps(schema):
        found.append(f"{where}: $ref")
    if not _evident(name, schema):
        found.append(f"{where}: neither described nor self-evident")
    if schema.get("type") == "object":
        found += _object_problems(tool, path, schema)
    return found


def _typed_problems(where: str, schema: Mapping[str, Any]) -> list[str]:
    """OpenAI refuses an array without items; Gemini an object without properties."""
    found = []
    if schema.get("type") == "array" and "items" not in schema:
        found.append(f"{where}: an array without items")
    if schema.get("type") == "object" and not schema.get("properties"):
        found.append(f"{where}: an object without properties")
    if "anyOf" in schema.get("items", {}):
        found += [problem for member in schema["items"]["anyOf"] for problem in _typed_problems(where, member)]
    if "type" not in schema and "anyOf" not in schema:
        found.append(f"{where}: a member without a type")
    return found


def _object_problems(tool: str, path: str, schema: Mapping[str, Any]) -> list[str]:
    where = f"{tool}: {path or 'root'}"
    found: list[str] = []
    properties = schema.get("properties", {})
    if schema.get("additionalProperties") is not False:
        found.append(f"{where}: objects must say additionalProperties:false")
    if not set(schema.get("required", [])) <= set(properties):
        found.append(f"{where}: required names a missing property")
    for name, item in properties.items():
        found += _property_problems(tool, f"{path}.{name}" if path else name, name, item)
    return found


def problems(tools: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every rule broken by a tool list ([] when every consumer accepts it).
    A tool is {name, description, inputSchema, ...} as MCP lists it."""
    found: list[str] = []
    for tool in tools:
        name, schema = tool["name"], tool["inputSchema"]
        if not NAME.fullmatch(name):
            found.append(f"{name}: tool name breaks [a-zA-Z0-9_.-]{{1,64}}")
        if not tool.get("description"):
            found.append(f"{name}: no description")
        if schema.get("type") != "object":
            found.append(f"{name}: the root is not an object")
        forbidden = set(schema) & ROOT_FORBIDDEN
        if forbidden:
            found.append(f"{name}: root composition {sorted(forbidden)}")
        found += _object_problems(name, "", schema)
    return found
