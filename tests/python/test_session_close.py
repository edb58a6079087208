"""test_session_close.py - `session close` means closed until `session resume`.

Real native engine. After a close, every call naming the game - acting or
not - is refused `sessionClosed` with an error that names `session resume`
(and carries its exact arguments); nothing is sent, journaled or loaded.
`session resume` loads it again by replay, and acting works from the same
revision.
"""

from __future__ import annotations

import pytest
from nethack_webmcp.projection.render import text
from support.client import Client, bound


@pytest.mark.asyncio
async def test_acting_after_close_names_resume_and_changes_nothing(agent: Client) -> None:
    created = await agent.create(seed=31)
    game = created["basis"]["sessionId"]
    stepped = await agent.ok("interact", **bound(created), action="search", requestId="before-close")
    entries = len(await agent.games.store.journal(game))

    closed = await agent.ok("session", action="close", sessionId=game)
    assert closed["result"] == {"kind": "session", "action": "closed", "sessionId": game}
    assert agent.games.sessions() == []

    refused = await agent.call("interact", **bound(stepped), action="search")
    error = refused["error"]
    assert error["code"] == "sessionClosed" and "session {action: resume}" in error["message"], error
    assert error["resume"] == {"tool": "session", "arguments": {"action": "resume", "sessionId": game}}
    assert refused["outcome"]["submission"] == "rejected"
    assert "ERROR sessionClosed" in text(refused) and "resume" in text(refused)
    # free queries too: a closed game is not loaded behind the caller's back
    for tool, arguments in (("observe", {}), ("plan", {"query": "navigation"}), ("inventory", {})):
        looked = await agent.call(tool, sessionId=game, **arguments)
        assert looked["error"]["code"] == "sessionClosed", (tool, looked)
    # a retry of an operation from before the close is refused as well (resume first)
    retried = await agent.call("interact", **bound(created), action="search", requestId="before-close")
    assert retried["error"]["code"] == "sessionClosed"
    assert agent.games.sessions() == [], "nothing was loaded"
    assert len(await agent.games.store.journal(game)) == entries, "nothing was journaled"

    resumed = await agent.ok("session", action="resume", sessionId=game)
    assert resumed["result"]["action"] == "resumed" and resumed["basis"]["revision"] == stepped["basis"]["revision"]
    acted = await agent.ok("interact", **bound(resumed), action="search")
    assert acted["basis"]["revision"] == stepped["basis"]["revision"] + 1
    again = await agent.ok("interact", **bound(created), action="search", requestId="before-close")
    assert again["basis"] == stepped["basis"], "after resume the receipt answers the retry"


@pytest.mark.asyncio
async def test_a_stale_reference_to_a_closed_session_sends_nothing(agent: Client) -> None:
    created = await agent.create(seed=32)
    game = created["basis"]["sessionId"]
    session = agent.games.get(game)
    await agent.ok("session", action="close", sessionId=game)
    assert session.closed
    with pytest.raises(Exception) as raised:
        session.admit(view_id=created["basis"]["viewId"])
    assert getattr(raised.value, "code", None) == "sessionClosed"
