"""schema.py - a small JSON Schema checker for the tools' own declarations.

The package has no runtime dependencies (it must run in Pyodide), so the
tools validate arguments against their declared schemas with this subset:
type, enum, const, properties, required, additionalProperties:false,
anyOf, items, minimum/maximum, minLength/maxLength, pattern,
minItems/maxItems, uniqueItems. The declarations use nothing else (a test
checks that), so everything advertised is enforced. Tool roots are flat
(actions.py): which fields an action takes is checked by its ActionTable.
"""

from __future__ import annotations

import json
import re
from typing import Any

SUPPORTED = frozenset(
    {
        "type",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "anyOf",
        "items",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "minItems",
        "maxItems",
        "uniqueItems",
        "description",
        "title",
        "default",
        "examples",
        "not",
    }
)

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _where(path: str) -> str:
    return path or "arguments"


_SCALARS = (str, int, bool, type(None))


def _same(a: Any, b: Any) -> bool:
    # JSON equality: True is not 1, key order does not matter. Two scalars of one
    # exact type are equal as JSON exactly when equal in Python (no dumps: an enum
    # check of every call compares its value with each option this way).
    if type(a) is type(b) and type(a) in _SCALARS:
        return bool(a == b)
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def errors(schema: dict[str, Any], value: Any, path: str = "") -> list[str]:
    """Every violation of schema by value, as readable sentences (empty when valid)."""
    found: list[str] = []
    expected = schema.get("type")
    if expected is not None:
        kinds = expected if isinstance(expected, list) else [expected]
        if not any(_TYPES[k](value) for k in kinds):
            return [f"{_where(path)} must be {' or '.join(kinds)}"]
    if "const" in schema and not _same(value, schema["const"]):
        return [f"{_where(path)} must be {json.dumps(schema['const'])}"]
    if "enum" in schema and not any(_same(value, option) for option in schema["enum"]):
        shown = ", ".join(json.dumps(option) for option in schema["enum"][:20])
        return [f"{_where(path)} must be one of {shown}"]
    if "not" in schema and not errors(schema["not"], value, path):
        found.append(f"{_where(path)} is not allowed here")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            found.append(f"{_where(path)} is too short")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            found.append(f"{_where(path)} is longer than {schema['maxLength']} characters")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            found.append(f"{_where(path)} does not match {schema['pattern']}")
    if _TYPES["number"](value):
        if "minimum" in schema and value < schema["minimum"]:
            found.append(f"{_where(path)} must be at least {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            found.append(f"{_where(path)} must be at most {schema['maximum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            found.append(f"{_where(path)} needs at least {schema['minItems']} entries")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            found.append(f"{_where(path)} takes at most {schema['maxItems']} entries")
        if schema.get("uniqueItems") and len({json.dumps(v, sort_keys=True) for v in value}) != len(value):
            found.append(f"{_where(path)} has repeated entries")
        if "items" in schema:
            for i, item in enumerate(value):
                found.extend(errors(schema["items"], item, f"{path}[{i}]"))
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in value:
                found.append(f"{_where(path)} needs {name!r}")
        for name, item in value.items():
            where = f"{path}.{name}" if path else name
            if name in properties:
                found.extend(errors(properties[name], item, where))
            elif schema.get("additionalProperties") is False:
                found.append(f"{_where(path)} does not accept {name!r}")
    if "anyOf" in schema:
        results = [errors(variant, value, path) for variant in schema["anyOf"]]
        if all(results):
            shortest: list[str] = min(results, key=len)  # the variant the value came closest to
            found.extend(shortest)
    return found


def unsupported_keywords(schema: Any) -> set[str]:
    """Keywords a schema uses that this checker does not enforce (for tests)."""
    found: set[str] = set()
    if isinstance(schema, dict):
        for key, item in schema.items():
            if key == "properties":
                for prop in item.values():
                    found |= unsupported_keywords(prop)
            elif key == "anyOf":
                for variant in item:
                    found |= unsupported_keywords(variant)
            elif key in ("items", "not"):
                found |= unsupported_keywords(item)
            elif key not in SUPPORTED:
                found.add(key)
    return found
