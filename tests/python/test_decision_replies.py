"""test_decision_replies.py - every decision kind, reached in a real game and
answered by sending its own `decision.reply` back through the respond tool.
"""

from __future__ import annotations

from typing import Any

import pytest
from nethack_webmcp.projection import frame as frames
from nethack_webmcp.session import Session
from support.client import Client, bound

pytestmark = pytest.mark.asyncio


async def wizard_game(agent: Client) -> Session:
    return await agent.fixture_game(seed=7, wizard=True, role="valkyrie")


async def low(session: Session, method: str, **params: Any) -> dict[str, Any]:
    """A low fixture step (debug.wizard is never exposed through the tools)."""
    result = await session.step(method, params, request_id=f"fixture-{session.revision}")
    assert result.submission == "accepted", result.error
    return frames.build(session)


async def reply(agent: Client, frame: dict[str, Any], value: Any) -> dict[str, Any]:
    decision = frame["decision"]
    answered = await agent.call(decision["reply"]["tool"], **decision["reply"]["arguments"], value=value)
    assert "error" not in answered, answered["error"]
    assert answered["outcome"]["submission"] == "accepted"
    assert answered["basis"]["revision"] == frame["basis"]["revision"] + 1
    if answered["decision"] is not None:
        assert answered["decision"]["id"] != decision["id"]
    return answered


def heard(frame: dict[str, Any]) -> list[str]:
    return [e["text"] for e in frame["events"] if e["type"] == "heard"]


async def test_confirmation_quit_declined(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame = await agent.call("session", **bound(created), action="quit")
    assert frame["decision"]["kind"] == "confirmation" and frame["decision"]["prompt"] == "Really quit?"
    answered = await reply(agent, frame, False)
    assert answered["control"]["gate"] == "ready" and answered["outcome"]["turnsElapsed"] == 0


async def test_choice_pickup_by_unique_name(agent: Client) -> None:
    session = await wizard_game(agent)
    wish = await low(session, "debug.wizard", command="wish")
    await reply(agent, wish, "2 apples")
    labels = {i["label"]: i["id"] for i in session.observation["inventory"]}
    apples = next(i for label, i in labels.items() if "apples" in label)
    dagger = next(i for label, i in labels.items() if "dagger" in label)
    frame = frames.build(session)
    frame = await agent.call("use", **bound(frame), action="drop", itemId=apples)
    frame = await agent.call("use", **bound(frame), action="drop", itemId=dagger)
    frame = await agent.call("interact", **bound(frame), action="pickup")
    assert frame["decision"]["kind"] == "choice"
    answered = await reply(agent, frame, ["2 apples"])
    assert any("apples" in i["label"] for i in answered["scene"]["inventory"])
    assert any("dagger" in i["label"] for i in answered["scene"]["here"]["items"])


async def test_text_engrave(agent: Client) -> None:
    created = await agent.create(seed=42)
    engrave = await low(agent.games.get(created["basis"]["sessionId"]), "game.engrave")
    assert engrave["decision"]["kind"] == "item"
    text = await reply(agent, engrave, "hands")
    assert text["decision"]["kind"] == "text"
    answered = await reply(agent, text, "Elbereth")
    assert answered["decision"] is None or answered["decision"]["kind"] != "text"


async def test_direction_kick(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame = await agent.call("interact", **bound(created), action="kick")
    assert frame["decision"]["kind"] == "direction"
    answered = await reply(agent, frame, "north")
    assert answered["outcome"]["status"] != "decision"


async def test_item_eat(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame = await agent.call("use", **bound(created), action="eat")
    decision = frame["decision"]
    assert decision["kind"] == "item"
    ration = decision["suggestedItems"][0]
    assert "food ration" in ration["label"]
    answered = await reply(agent, frame, {"itemId": ration["itemId"]})
    assert answered["outcome"]["turnsElapsed"] >= 1


async def test_position_wizard_teleport(agent: Client) -> None:
    session = await wizard_game(agent)
    frame = await low(session, "debug.wizard", command="teleport")
    decision = frame["decision"]
    assert decision["kind"] == "position"
    level = session.level()
    start = level.hero
    floor = max(
        ((x, y) for y in range(21) for x in range(1, 80) if level.feature(x, y) == "." and level.kind(x, y) == "T"),
        key=lambda p: abs(p[0] - start[0]) + abs(p[1] - start[1]),
    )
    answered = await reply(agent, frame, {"x": floor[0], "y": floor[1]})
    assert answered["scene"]["self"]["position"] == {"x": floor[0], "y": floor[1]}


async def test_cancel_uses_the_offered_syntax(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame = await agent.call("interact", **bound(created), action="kick")
    cancelled = await agent.call(frame["decision"]["cancel"]["tool"], **frame["decision"]["cancel"]["arguments"])
    assert "error" not in cancelled
    assert cancelled["outcome"]["submission"] == "accepted" and cancelled["control"]["gate"] == "ready"


async def test_bad_value_sends_nothing(agent: Client) -> None:
    created = await agent.create(seed=42)
    session = agent.games.get(created["basis"]["sessionId"])
    frame = await agent.call("interact", **bound(created), action="kick")
    revision = await agent.engine_revision(session)
    wrong = await agent.call("respond", **frame["decision"]["reply"]["arguments"], value="sideways")
    assert wrong["error"]["code"] == "invalidValue"
    assert wrong["decision"]["id"] == frame["decision"]["id"], "the question still stands"
    assert await agent.engine_revision(session) == revision


async def test_a_single_choice_takes_a_bare_option_or_a_list() -> None:
    """One call for the obvious: a select-one question accepts the option
    itself (id or unique name) as well as a one-element list."""
    from nethack_webmcp.projection.decision import value_schema
    from nethack_webmcp.session import SessionError
    from nethack_webmcp.tools.answers import to_answer

    sell = {
        "id": "decision-4",
        "kind": "choice",
        "select": "one",
        "prompt": "Sell it? [ynaq]",
        "options": [
            {"id": 0, "name": "yes"},
            {"id": 1, "name": "no"},
            {"id": 2, "name": "all"},
            {"id": 3, "name": "quit"},
        ],
    }
    for value in ("yes", 0, ["yes"], [0]):
        assert to_answer(sell, value) == {"kind": "choice", "choose": [0]}, value
    with pytest.raises(SessionError):
        to_answer(sell, ["yes", "no"])
    assert "anyOf" in value_schema(sell)
    several = {**sell, "select": "any"}
    assert to_answer(several, ["yes", "all"]) == {"kind": "choice", "choose": [0, 2]}
    with pytest.raises(SessionError):
        to_answer(several, "yes")  # a multi-select answer is always a list


async def test_the_count_echo_is_not_a_message(agent: Client) -> None:
    """NetHack echoes a typed count ("Count: 15"); that is our own input read
    back, so it is neither an event nor a recent message."""
    created = await agent.create(seed=42)
    searched = await agent.call("interact", **bound(created), action="search", turns=15)
    assert searched["outcome"]["turnsElapsed"] > 1
    assert not [text for text in heard(searched) if text.startswith("Count:")]
    observed = await agent.call("observe", sessionId=created["basis"]["sessionId"])
    assert not [text for text in observed["result"]["recentMessages"] if text.startswith("Count:")]


async def test_messages_of_a_leg_carry_the_square_they_came_from(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame, tagged = created, []
    for _ in range(12):
        frame = await agent.call("travel", **bound(frame), mode="explore")
        if frame.get("decision"):
            break
        leg = frame["result"]
        squares = [(s["x"], s["y"]) for s in (*leg["steps"], leg["start"], leg["finalPosition"])]
        for event in frame["events"]:
            if event["type"] in ("heard", "passage"):
                assert (event["at"]["x"], event["at"]["y"]) in squares, event
                tagged.append(event)
    assert tagged, "the legs heard nothing: the check above never ran"
