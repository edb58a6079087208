"""session.py - the `session` tool: create, resume and close games.

Creation is not retry-idempotent (it starts a new game every time), so it
takes no requestId. Resume loads a stored game by pinned replay (any other
tool naming a stored game does that implicitly); it is also how an
observer takes ownership once the owning process has closed the game or
died. Closing retires the engine and gives up ownership; it does not quit
the game, which stays stored and resumable. Wizard mode is a test fixture
of the low protocol and is deliberately not offered here.
"""

from __future__ import annotations

from typing import Any

from ..projection import frame as frames
from .base import SESSION_ID, Tool, ToolContext, one_of, variant

ROLES = ["archeologist", "barbarian", "caveman", "healer", "knight", "monk", "priest", "rogue",
         "ranger", "samurai", "tourist", "valkyrie", "wizard"]
CREATE_FIELDS: dict[str, Any] = {
    "name": {"type": "string", "minLength": 1, "maxLength": 31, "description": "Hero name (default: from the seed)."},
    "role": {"type": "string", "enum": ROLES},
    "race": {"type": "string", "enum": ["human", "elf", "dwarf", "gnome", "orc"]},
    "gender": {"type": "string", "enum": ["male", "female"]},
    "alignment": {"type": "string", "enum": ["lawful", "neutral", "chaotic"]},
    "seed": {"type": "integer", "minimum": 0, "maximum": 4294967295,
             "description": "Game seed; the same seed and inputs replay the same game."},
    "harness_name": {"type": "string", "maxLength": 120, "description": "Your harness, for attribution only."},
    "model_name": {"type": "string", "maxLength": 120, "description": "Your model, for attribution only."},
}

SCHEMA = one_of(
    variant({"action": {"const": "create"}}, CREATE_FIELDS,
            description="Start a new game; omitted choices are picked compatibly from the seed."),
    variant({"action": {"const": "resume"}, "sessionId": SESSION_ID},
            description="Load a stored game (e.g. after a restart) by replaying its journal; "
                        "read-only while another process owns it."),
    variant({"action": {"const": "close"}, "sessionId": SESSION_ID},
            description="Retire a game's engine (does not quit the game; it stays resumable)."),
)

DESCRIPTION = """Start or close a NetHack game (real NetHack 3.6.7). Several games may run at once.
create returns the first DecisionFrame: basis.sessionId identifies the game, basis.viewId the view \
you must quote on every action, scene shows the hero, map and surroundings. \
Example: {"action":"create","role":"valkyrie","seed":42}. Games are stored: any call naming a \
stored sessionId resumes it (resume: {"action":"resume","sessionId":"…"}). \
close: {"action":"close","sessionId":"…"} retires the engine; the game stays resumable."""


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    if args["action"] == "create":
        params = {key: args[key] for key in CREATE_FIELDS if key in args}
        session = await ctx.games.create(params)
        return frames.build(session, events=session.created_events,
                            result={"kind": "session", "action": "created", "session": session.metadata,
                                    "durability": ctx.games.store.durability})
    if args["action"] == "resume":
        session = await ctx.games.resume(args["sessionId"])
        return frames.build(session, result={"kind": "session", "action": "resumed", "session": session.metadata,
                                             "owner": not session.lost_ownership,
                                             "durability": ctx.games.store.durability})
    session_id = await ctx.games.close(args["sessionId"])
    return frames.build(None, result={"kind": "session", "action": "closed", "sessionId": session_id})


TOOL = Tool("session", "Game session", DESCRIPTION, SCHEMA, False, handle)
