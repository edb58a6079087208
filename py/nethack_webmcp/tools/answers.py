"""answers.py - a respond `value` to the low decision answer, by decision kind.

The value is first checked against the decision's own valueSchema (the one
the frame advertised in decision.reply), then translated. Choice names
resolve only when exactly one option has that name; otherwise the call is
refused with the candidate IDs. Nothing is defaulted or inferred.
"""

from __future__ import annotations

from typing import Any

from ..projection.decision import value_schema
from ..session import SessionError
from . import schema as checker


def _choice_ids(decision: dict[str, Any], values: list[Any]) -> list[int]:
    options = decision.get("options", [])
    ids: list[int] = []
    for value in values:
        if isinstance(value, int):
            ids.append(value)
            continue
        named = [o for o in options if o["name"] == value]
        if not named:
            named = [o for o in options if o["name"].strip().lower() == str(value).strip().lower()]
        if not named:
            raise SessionError("notFound", f"no option is named {value!r}", field="value")
        if len(named) > 1:
            raise SessionError(
                "ambiguous",
                f"{len(named)} options are named {value!r}; answer by id",
                field="value",
                candidates=[{"id": o["id"], "name": o["name"]} for o in named],
            )
        ids.append(named[0]["id"])
    if len(set(ids)) != len(ids):
        raise SessionError("invalidValue", "the same option is chosen twice", field="value")
    return ids


def to_answer(decision: dict[str, Any], value: Any) -> dict[str, Any]:
    """The low `answer` object for value. Raises SessionError invalidValue."""
    problems = checker.errors(value_schema(decision), value, "value")
    if problems:
        raise SessionError(
            "invalidValue",
            f"{decision['kind']} decision: " + "; ".join(problems[:3]),
            field="value",
            valueSchema=value_schema(decision),
        )
    kind = decision["kind"]
    if kind == "confirmation":
        return {"kind": "confirmation", "confirm": value}
    if kind == "choice":
        chosen = value if isinstance(value, list) else [value]  # a single choice's bare option
        return {"kind": "choice", "choose": _choice_ids(decision, chosen)}
    if kind == "text":
        return {"kind": "text", "text": value}
    if kind == "direction":
        return {"kind": "direction", "direction": value}
    if kind == "item":
        if value == "hands":
            return {"kind": "item", "hands": True}
        answer: dict[str, Any] = {"kind": "item", "item": {"id": value["itemId"]}}
        if "quantity" in value:
            answer["quantity"] = value["quantity"]
        return answer
    if kind == "position":
        return {"kind": "position", "position": value}
    raise SessionError("unsupportedDecision", f"decision kind {kind!r} cannot be answered here")
