"""test_tool_errors.py - refusals are error frames and leave the engine untouched.

Each case checks the error code and that the engine's own revision (asked
directly, not our bookkeeping) did not change.
"""

from __future__ import annotations

from typing import Any

import pytest
from support.client import Client, bound

pytestmark = pytest.mark.asyncio


async def refused(agent: Client, created: dict[str, Any], code: str, tool: str, **arguments: Any) -> dict[str, Any]:
    session = agent.games.get(created["basis"]["sessionId"])
    before = await agent.engine_revision(session)
    frame = await agent.call(tool, **arguments)
    assert frame.get("error", {}).get("code") == code, frame.get("error")
    assert frame["version"] == 2
    assert await agent.engine_revision(session) == before
    if frame["outcome"] is not None:
        assert frame["outcome"]["submission"] == "rejected" and frame["outcome"]["actionsTaken"] == 0
    return frame


async def test_stale_view(agent: Client) -> None:
    created = await agent.create(seed=42)
    moved = await agent.call("travel", **bound(created), mode="step", target={"direction": "west"})
    assert moved["outcome"]["submission"] == "accepted"
    frame = await refused(
        agent, created, "staleView", "travel", **bound(created), mode="step", target={"direction": "west"}
    )
    assert frame["basis"]["viewId"] == moved["basis"]["viewId"], "the error frame shows the current view"
    assert frame["error"]["currentViewId"] == moved["basis"]["viewId"]


async def test_stale_revision(agent: Client) -> None:
    created = await agent.create(seed=42)
    await refused(
        agent,
        created,
        "staleRevision",
        "interact",
        **bound(created),
        action="search",
        expectedRevision=created["basis"]["revision"] + 5,
    )
    kick = await agent.call("interact", **bound(created), action="kick")
    await refused(
        agent,
        created,
        "staleRevision",
        "respond",
        **kick["decision"]["reply"]["arguments"],
        value="north",
        expectedRevision=created["basis"]["revision"],
    )


async def test_ambiguous_symbol(agent: Client) -> None:
    created = await agent.create(seed=42)  # two closed doors '+' on this level, walls all around
    frame = await refused(
        agent,
        created,
        "ambiguous",
        "interact",
        **bound(created),
        action="open",
        target={"symbol": "+", "scope": "level"},
    )
    assert {(c["x"], c["y"]) for c in frame["error"]["candidates"]} == {(48, 7), (53, 9)}
    frame = await refused(
        agent,
        created,
        "ambiguous",
        "interact",
        **bound(created),
        action="kick",
        target={"symbol": "|", "scope": "adjacent"},
    )
    assert all("direction" in c for c in frame["error"]["candidates"])
    await refused(
        agent,
        created,
        "notFound",
        "interact",
        **bound(created),
        action="attack",
        target={"symbol": "Z", "scope": "level"},
    )
    await refused(
        agent,
        created,
        "notAdjacent",
        "interact",
        **bound(created),
        action="attack",
        target={"position": {"x": 53, "y": 9}},
    )


async def test_wrong_decision_id(agent: Client) -> None:
    created = await agent.create(seed=42)
    quit_frame = await agent.call("session", **bound(created), action="quit")
    standing = quit_frame["decision"]["id"]
    wrong = {**quit_frame["decision"]["reply"]["arguments"], "decisionId": "decision-99"}
    frame = await refused(agent, created, "decisionMismatch", "respond", **wrong, value=True)
    assert frame["error"]["standingDecisionId"] == standing
    assert frame["decision"]["id"] == standing, "the question still stands"
    await refused(
        agent,
        created,
        "decisionMismatch",
        "respond",
        action="cancel",
        sessionId=wrong["sessionId"],
        decisionId="decision-0",
    )
    # gameplay cannot jump the queue either
    await refused(agent, created, "decisionStanding", "interact", **bound(quit_frame), action="search")


async def test_no_decision_and_invalid_arguments(agent: Client) -> None:
    created = await agent.create(seed=42)
    sid = created["basis"]["sessionId"]
    await refused(
        agent, created, "noDecision", "respond", action="answer", sessionId=sid, decisionId="decision-1", value=True
    )
    frame = await refused(
        agent, created, "invalidArguments", "travel", **bound(created), mode="step", target={"direction": "up"}
    )
    assert "direction" in frame["error"]["message"]
    await refused(agent, created, "invalidArguments", "interact", **bound(created), action="dance")
    await refused(
        agent, created, "invalidArguments", "use", **bound(created), action="eat", itemId="item-4", letter="d"
    )


async def test_engine_rejection_passes_through(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame = await refused(agent, created, "unknownItem", "use", **bound(created), action="eat", itemId="item-999")
    assert frame["outcome"]["submission"] == "rejected"


async def test_exact_retry_returns_the_original_receipt(agent: Client) -> None:
    created = await agent.create(seed=42)
    args = {**bound(created), "mode": "step", "target": {"direction": "west"}, "requestId": "walk-1"}
    first = await agent.call("travel", **args)
    session = agent.games.get(created["basis"]["sessionId"])
    revision = await agent.engine_revision(session)
    again = await agent.call("travel", **args)
    assert again == first, "an exact retry gets the original frame, not a second step"
    assert await agent.engine_revision(session) == revision
    changed = {**args, "target": {"direction": "east"}}
    await refused(agent, created, "requestIdReused", "travel", **changed)


async def test_rejections_before_input_are_not_receipts(agent: Client) -> None:
    created = await agent.create(seed=42)
    args = {**bound(created), "action": "search", "requestId": "s-1", "expectedRevision": 99}
    await refused(agent, created, "staleRevision", "interact", **args)
    fixed = {**args, "expectedRevision": created["basis"]["revision"]}
    frame = await agent.call("interact", **fixed)
    assert frame["outcome"]["submission"] == "accepted"


async def test_ended_game_refuses_input(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame = await agent.call("session", **bound(created), action="quit")
    while frame["decision"] is not None:
        value = frame["decision"]["prompt"] == "Really quit?"
        if frame["decision"]["kind"] != "confirmation":
            frame = await agent.call("respond", **frame["decision"]["cancel"]["arguments"])
        else:
            frame = await agent.call("respond", **frame["decision"]["reply"]["arguments"], value=value)
    assert frame["control"]["gate"] == "ended"
    assert frame["scene"]["end"]["how"] == "quit"
    await refused(agent, created, "gameEnded", "interact", **bound(frame), action="search")
    observed = await agent.call("observe", sessionId=created["basis"]["sessionId"])
    assert observed["control"]["gate"] == "ended" and "error" not in observed


async def test_unknown_session(agent: Client) -> None:
    frame = await agent.call("observe", sessionId="nope")
    assert frame["error"]["code"] == "unknownSession" and frame["basis"] is None


async def test_incompatible_character_is_an_error_frame(agent: Client) -> None:
    frame = await agent.call("session", action="create", role="valkyrie", alignment="chaotic", race="dwarf")
    assert frame["error"]["code"] == "incompatibleCharacter" and frame["basis"] is None
    assert agent.games.sessions() == []


async def test_each_action_takes_its_own_fields(agent: Client) -> None:
    """Flat schemas: the action table says which fields an action takes, and
    the error names the action, the field and what the action accepts."""
    created = await agent.create(seed=42)
    frame = await refused(agent, created, "invalidArguments", "interact", **bound(created), action="attack")
    message = frame["error"]["message"]
    assert "action 'attack' needs 'target'" in message and "accepts: sessionId, viewId, target" in message
    frame = await refused(
        agent, created, "invalidArguments", "interact", **bound(created), action="search", target={"direction": "north"}
    )
    assert "action 'search' does not take 'target'" in frame["error"]["message"]
    frame = await refused(
        agent, created, "invalidArguments", "travel", **bound(created), mode="climb", direction="east"
    )
    assert "mode 'climb' takes direction up | down" in frame["error"]["message"]
    frame = await refused(agent, created, "invalidArguments", "travel", **bound(created), mode="run", direction="down")
    assert "mode 'run' takes direction north" in frame["error"]["message"]
    await refused(agent, created, "invalidArguments", "plan", sessionId=created["basis"]["sessionId"], query="route")
    await refused(agent, created, "invalidArguments", "lookup", sessionId=created["basis"]["sessionId"])
    await refused(agent, created, "invalidArguments", "use", **bound(created), action="drop", quantity=2)


async def test_targets_positions_and_ids_are_checked(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame = await refused(
        agent,
        created,
        "invalidTarget",
        "interact",
        **bound(created),
        action="kick",
        target={"direction": "north", "position": {"x": 3, "y": 3}},
    )
    assert "exactly one of direction, position or symbol" in frame["error"]["message"]
    await refused(agent, created, "invalidTarget", "interact", **bound(created), action="kick", target={"symbol": "+"})
    await refused(
        agent, created, "invalidTarget", "travel", **bound(created), mode="step", target={"direction": "self"}
    )
    frame = await refused(
        agent, created, "invalidArguments", "travel", **bound(created), mode="to", to={"x": 80, "y": 3}
    )
    assert "to.x must be 1 to 79" in frame["error"]["message"]
    frame = await refused(
        agent,
        created,
        "invalidArguments",
        "interact",
        **bound(created),
        action="attack",
        target={"position": {"x": 3, "y": -1}},
    )
    assert "target.position.y must be 0 to 20" in frame["error"]["message"]
    frame = await refused(agent, created, "invalidArguments", "use", **bound(created), action="eat", itemId="item 4")
    assert "itemId must be 1-96 characters" in frame["error"]["message"]


async def test_every_rejection_of_an_acting_tool_has_a_rejected_outcome(agent: Client) -> None:
    created = await agent.create(seed=42)
    sid = created["basis"]["sessionId"]
    for tool, arguments in (
        ("interact", {"sessionId": sid, "action": "search"}),
        ("travel", {"sessionId": sid, "mode": "explore"}),
        ("use", {"sessionId": sid, "action": "eat"}),
        ("interact", {**bound(created), "action": "dance"}),
        ("respond", {"sessionId": sid, "action": "answer", "decisionId": "decision-9"}),
    ):
        frame = await refused(agent, created, "invalidArguments", tool, **arguments)
        assert frame["outcome"] is not None and frame["outcome"]["submission"] == "rejected", (tool, frame)
    missing_view = await agent.call("interact", sessionId=sid, action="search")
    assert "action 'search' needs 'viewId'" in missing_view["error"]["message"]


async def test_names_are_limited_in_bytes_and_control_characters_named(agent: Client) -> None:
    before = len(agent.games.sessions())
    frame = await agent.call("session", action="create", name="\U0001f409" * 31)
    assert frame["error"]["code"] == "invalidArguments"
    assert "name is 124 bytes of UTF-8; at most 31 bytes" in frame["error"]["message"]
    frame = await agent.call("session", action="create", name="A\u0000da")
    assert frame["error"]["code"] == "controlCharacter", frame["error"]
    assert "control character" in frame["error"]["message"]
    assert len(agent.games.sessions()) == before, "no game was created"
    created = await agent.create(name="\U0001f409" * 7 + "abc")  # 31 bytes exactly
    assert created["scene"]["self"]["name"] == "\U0001f409" * 7 + "abc"
