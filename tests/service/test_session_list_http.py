"""test_session_list_http.py - `session list` over HTTP: the public live games read-only, plus the caller's own.

Real service instances over one SQLite state directory, real engines, the
SDK's own HTTP client. A stranger's token-less list shows the games loaded
here as `watch` and loads nothing; each control token passed adds the game
it controls as `drive` (or `watch` once ended), loaded or not; a wrong
token adds nothing; no entry shows a seed. After a restart, a list with
the tokens finds the stored games without loading or replaying any.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from support.service_instance import Agent, Instance
from test_admission import engine_processes

pytestmark = pytest.mark.asyncio

ENTRY_KEYS = {"sessionId", "state", "access", "dlvl", "turn", "name", "role"}


async def listed(agent: Agent, **tokens: Any) -> dict[str, dict[str, Any]]:
    frame = await agent.call("session", {"action": "list", **tokens})
    assert not frame["isError"] and frame["result"]["kind"] == "sessions", frame
    for entry in frame["result"]["games"]:
        assert set(entry) == ENTRY_KEYS, entry
    assert "seed" not in json.dumps(frame["result"]) and "seed" not in frame["text"].lower()
    return {entry["sessionId"]: entry for entry in frame["result"]["games"]}


async def loaded_games(instance: Instance) -> int:
    async with httpx.AsyncClient(timeout=30) as http:
        return int((await http.get(f"{instance.url}/health")).json()["games"])


async def quit_game(agent: Agent, frame: dict[str, Any], token: str) -> dict[str, Any]:
    """session quit with the token, "Really quit?" yes, the disclosure menus cancelled."""
    game = frame["basis"]["sessionId"]
    frame = await agent.call(
        "session", {"action": "quit", "sessionId": game, "viewId": frame["basis"]["viewId"], "controlToken": token}
    )
    for _ in range(16):
        decision = frame.get("decision")
        if not decision:
            break
        reply = decision["reply"] if decision["kind"] == "confirmation" else decision["cancel"]
        value = {"value": True} if decision["kind"] == "confirmation" else {}
        frame = await agent.call(reply["tool"], {**reply["arguments"], **value, "controlToken": token})
    assert frame["control"]["gate"] == "ended", frame
    return frame


async def test_http_lists_public_games_and_the_callers_own(tmp_path: Path) -> None:
    with Instance.start(None, tmp_path) as instance:
        async with Agent(instance.mcp_url) as owner, Agent(instance.mcp_url) as stranger:
            first = await owner.call("session", {"action": "create", "seed": 31, "name": "Ada"})
            second = await owner.call("session", {"action": "create", "seed": 32, "name": "Bea"})
            one, two = first["basis"]["sessionId"], second["basis"]["sessionId"]
            t1, t2 = first["result"]["controlToken"], second["result"]["controlToken"]
            searched = await owner.call(
                "interact",
                {
                    "action": "search",
                    "turns": 3,
                    "sessionId": two,
                    "viewId": second["basis"]["viewId"],
                    "controlToken": t2,
                },
            )
            assert not searched["isError"], searched

            public = await listed(stranger)
            assert set(public) == {one, two} and {entry["access"] for entry in public.values()} == {"watch"}
            assert public[one]["name"] == "Ada" and public[one]["state"] == "ready" and public[one]["dlvl"] == 1
            assert t1 not in json.dumps(public) and t2 not in json.dumps(public)

            mine = await listed(owner, controlTokens=[t1])
            assert (mine[one]["access"], mine[two]["access"]) == ("drive", "watch")
            both = await listed(owner, controlToken=t2, controlTokens=[t1])
            assert {entry["access"] for entry in both.values()} == {"drive"}
            guessed = await listed(stranger, controlTokens=["x" * 43])
            assert guessed == public, "a wrong token adds nothing and says nothing"

            # bad token arguments are refused, typed; tokens go with list only
            wrong = await owner.call("session", {"action": "list", "controlTokens": t1})
            assert wrong["isError"] and wrong["error"]["code"] == "invalidArguments"
            misplaced = await owner.call("session", {"action": "create", "controlTokens": [t1]})
            assert misplaced["isError"] and misplaced["error"]["code"] == "invalidArguments"

            # quit: the game ends and leaves memory; its owner still sees it, ended, read-only
            ended = await quit_game(owner, first, t1)
            mine = await listed(owner, controlTokens=[t1, t2])
            assert mine[one]["state"] == "ended" and mine[one]["access"] == "watch"
            assert mine[one]["turn"] == ended["basis"]["turn"]
            assert one not in await listed(stranger), "an ended game is not live any more"

    with Instance.start(None, tmp_path) as fresh:
        async with Agent(fresh.mcp_url) as stranger, Agent(fresh.mcp_url) as owner:
            assert await listed(stranger) == {}, "nothing is live here, and a token-less list loads nothing"
            mine = await listed(owner, controlTokens=[t1, t2])
            assert set(mine) == {one, two}
            assert mine[two]["state"] == "stored" and mine[two]["access"] == "drive"
            assert mine[two]["turn"] == searched["basis"]["turn"], "its last recorded call's turn"
            assert mine[one]["state"] == "ended"
            assert await loaded_games(fresh) == 0 and engine_processes(fresh.pid) == 0, "nothing was replayed"
