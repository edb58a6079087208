"""respond.py - the `respond` tool: answer or cancel the standing decision.

The exact decisionId is checked before `value` is interpreted, so an
answer meant for an older question can never land on a newer one. Cancel
is the engine's own cancellation (ESC), distinct from declining a
confirmation with value false.
"""

from __future__ import annotations

from typing import Any

from .answers import to_answer
from .base import (
    EXPECTED_REVISION,
    REQUEST_ID,
    SESSION_ID,
    TOKEN,
    Operation,
    Tool,
    ToolContext,
    mutate,
    one_of,
    variant,
)

DECISION_ID = {**TOKEN, "description": "decision.id of the standing question, exactly as returned."}
COMMON = {"requestId": REQUEST_ID, "expectedRevision": EXPECTED_REVISION}

SCHEMA = one_of(
    variant({"action": {"const": "answer"}, "sessionId": SESSION_ID, "decisionId": DECISION_ID,
             "value": {"anyOf": [{"type": "boolean"}, {"type": "string"}, {"type": "array"},
                                 {"type": "object"}],
                       "description": "The answer, shaped by decision.reply.valueSchema: confirmation "
                                      "true/false; choice [id or unique name, …]; text \"…\"; direction "
                                      "\"north\"…\"self\"/\"up\"/\"down\"; item {\"itemId\":…, \"quantity\"?} "
                                      "or \"hands\"; position {\"x\",\"y\"} or \"finish\"/\"help\"/compass."}},
            COMMON, description="Answer the standing decision."),
    variant({"action": {"const": "cancel"}, "sessionId": SESSION_ID, "decisionId": DECISION_ID}, COMMON,
            description="Cancel the standing decision (the engine's ESC); time already spent stays spent."),
)

DESCRIPTION = """Answer or cancel the question NetHack is asking (frame.decision). Copy \
decision.reply.arguments and add value, e.g. {"action":"answer","sessionId":"…",\
"decisionId":"decision-3","value":false}; or send decision.cancel.arguments. \
Value by kind: confirmation boolean; choice array of option ids (or unique names); text string; \
direction compass word/self/up/down; item {"itemId":"item-4"} or "hands"; position {"x":40,"y":12}, \
"finish", "help" or a compass word to move the cursor. A wrong decisionId is refused without acting."""


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


TOOL = Tool("respond", "Respond to a question", DESCRIPTION, SCHEMA, False, handle)
