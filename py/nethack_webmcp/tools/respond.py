"""respond.py - the `respond` tool: answer or cancel the standing decision.

The exact decisionId is checked before `value` is interpreted, so an
answer meant for an older question can never land on a newer one. Cancel
is the engine's own cancellation (ESC), distinct from declining a
confirmation with value false.
"""

from __future__ import annotations

from typing import Any

from .actions import Action, ActionTable
from .answers import to_answer
from .base import BINDING_FIELDS, TOKEN, Operation, Tool, ToolContext, mutate, table_tool

DECISION_ID = {**TOKEN, "description": "decision.id, exactly as shown"}
#: The answer's shape depends on the question, so `value` is the one field
#: that keeps a composition keyword (inside the property, where clients load
#: it). Every member is fully typed: OpenAI refuses an array without items,
#: Gemini an object without properties. The standing decision's own
#: valueSchema then checks the value exactly (answers.py).
VALUE = {
    "anyOf": [
        {"type": "boolean"},
        {"type": "integer"},
        {"type": "string"},
        {"type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}},
        {
            "type": "object",
            "properties": {
                "itemId": {"type": "string"},
                "quantity": {"type": "integer"},
                "x": {"type": "integer"},
                "y": {"type": "integer"},
            },
            "additionalProperties": False,
        },
    ],
    "description": "per decision.reply.valueSchema",
}

TABLE = ActionTable(
    "action",
    (
        Action("answer", "", required=("value",), binding="decision"),
        Action("cancel", "ESC", binding="decision"),
    ),
    {**BINDING_FIELDS, "decisionId": DECISION_ID, "value": VALUE},
)


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    async def perform(operation: Operation) -> dict[str, Any]:
        decision_id = args["decisionId"]
        if args["action"] == "answer":
            standing = operation.session.decision
            assert standing is not None  # admission checked the exact standing ID
            answer = to_answer(standing, args["value"])
            await operation.step("decision.answer", {"decisionId": decision_id, "answer": answer})
        else:
            await operation.step("decision.cancel", {"decisionId": decision_id})
        return operation.frame()

    return await mutate(ctx, "respond", args, perform, continuation=True)


TOOL: Tool = table_tool(
    "respond",
    "Answer frame.decision: copy decision.reply.arguments, add value.",
    TABLE,
    False,
    handle,
)
