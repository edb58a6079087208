"""test_spectator_history.py - a spectator's history of a game comes from its stored receipts,
whoever heard its calls: another instance on the same PostgreSQL, or this one before a restart.

A game is played on instance A. Instance B (same database, the game not loaded there) answers
its spectator routes with the game's history - the same events A's spectator shows - and, after
A's next call, the new ones too (B heard no call). Then both stop, instance C starts (a restart):
its spectator shows the same history with no game loaded and no engine started; the creator
resumes the game on C and its live state's history is still the whole one (not only the calls C
heard), and grows with C's next call. No byte a spectator got holds the game's seed. Once the
game is quit, the 410 that carries its record carries its history too (the quit's receipts among
them). The creation's events (revision 0: the create result is not a receipt) are shown only by
the process that created the game, so the histories compared are those of the recorded calls.
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

SEED = 1_734_260_911  # long enough that its digits match nothing else
CALLS = 12
EVENT_LIMIT = 40  # the spectator keeps the last 40 events


class Spectator:
    """Token-less HTTP reads of one game's spectator routes on one instance; keeps every byte."""

    def __init__(self, url: str, game: str) -> None:
        self.url, self.game = url, game
        self.received = b""

    async def get(self, route: str) -> tuple[int, bytes]:
        async with httpx.AsyncClient(timeout=30) as http:
            if route == "events":  # a game not loaded here: the state route's answer, said once
                async with http.stream("GET", f"{self.url}/api/games/{self.game}/events") as response:
                    body = b""
                    async for chunk in response.aiter_bytes():
                        body += chunk
                        if response.status_code == 200 and b"\ndata: " in body and body.endswith(b"\n\n"):
                            break  # a live game's first state: enough
                    status = response.status_code
            else:
                response = await http.get(f"{self.url}/api/games/{self.game}/{route}")
                status, body = response.status_code, response.content
        self.received += body
        return status, body

    async def state(self) -> tuple[int, dict[str, Any]]:
        status, body = await self.get("state")
        return status, json.loads(body)

    async def first_event(self) -> tuple[int, dict[str, Any]]:
        status, body = await self.get("events")
        if status == 200:
            data = next(line for line in body.split(b"\n") if line.startswith(b"data: "))
            return status, json.loads(data.removeprefix(b"data: "))
        return status, json.loads(body)


async def games_loaded(url: str) -> int:
    async with httpx.AsyncClient(timeout=30) as http:
        return int((await http.get(f"{url}/health")).json()["games"])


class Player:
    """The game's creator: one acting call after another, each on the view the last one showed."""

    def __init__(self, game: str, token: str, view: str) -> None:
        self.game, self.token, self.view = game, token, view

    async def search(self, agent: Agent, request_id: str) -> dict[str, Any]:
        arguments = {"sessionId": self.game, "viewId": self.view, "action": "search", "requestId": request_id}
        frame = await agent.call("interact", {**arguments, "controlToken": self.token})
        assert not frame["isError"], frame
        self.view = frame["basis"]["viewId"]
        return frame

    async def quit(self, agent: Agent) -> list[dict[str, Any]]:
        """Quit the game (confirming, dismissing the disclosure menus): every frame on the way."""
        arguments = {"sessionId": self.game, "viewId": self.view, "action": "quit", "controlToken": self.token}
        frames = [await agent.call("session", arguments)]
        while frames[-1].get("decision") and len(frames) < 16:
            decision = frames[-1]["decision"]
            confirm = decision["kind"] == "confirmation"
            reply = decision["reply"] if confirm else decision["cancel"]
            answer = {**reply["arguments"], **({"value": True} if confirm else {}), "controlToken": self.token}
            frames.append(await agent.call(reply["tool"], answer))
        assert frames[-1]["control"]["gate"] == "ended", frames[-1]
        return frames


def recorded(state: dict[str, Any]) -> list[dict[str, Any]]:
    """A state's history without the creation's events (revision 0: heard by the creator only)."""
    return [event for event in state["events"] if event["revision"] > 0]


def tagged(frame: dict[str, Any]) -> list[dict[str, Any]]:
    """A frame's events as the spectator lists them: with the frame's revision and turn."""
    basis = frame["basis"]
    return [{"revision": basis["revision"], "turn": basis["turn"], **event} for event in frame["events"]]


async def test_history_survives_a_restart_and_crosses_instances(database: str, tmp_path: Path) -> None:
    with Instance.start(database, tmp_path) as owner:
        async with Agent(owner.mcp_url) as agent:
            created = await agent.call("session", {"action": "create", "seed": SEED, "name": "Hist"})
            assert not created["isError"], created
            game, token, view = (
                created["basis"]["sessionId"],
                created["result"]["controlToken"],
                created["basis"]["viewId"],
            )
            player = Player(game, token, view)
            heard = [event for call in range(CALLS) for event in tagged(await player.search(agent, f"r{call}"))]
            watching_owner = Spectator(owner.url, game)
            status, shown = await watching_owner.state()
            assert status == 200 and shown["lifecycle"] == "live", shown
            creation = tagged(created)  # the welcome: the create result is not a receipt, only its creator heard it
            assert creation and {event["revision"] for event in creation} == {0}
            assert shown["events"] == [*creation, *heard][-EVENT_LIMIT:], "what the owner heard and stored"
            before = recorded(shown)
            assert before == heard[-EVENT_LIMIT:] and len(before) >= 3, "the calls reported events"

            with Instance.start(database, tmp_path) as other:
                elsewhere = Spectator(other.url, game)
                status, answer = await elsewhere.state()
                assert status == 404 and answer["error"] == "notLive", answer
                assert answer["events"] == before and answer["revision"] == shown["revision"]
                status, streamed = await elsewhere.first_event()
                assert status == 404 and streamed["events"] == before
                await player.search(agent, "r-next")  # the owner moves on; the other hears nothing
                _, after = await watching_owner.state()
                _, answer = await elsewhere.state()
                assert answer["events"] == recorded(after) and answer["revision"] == after["revision"]
                assert len(recorded(after)) > len(before), "the next call reported events too"
                assert await games_loaded(other.url) == 0 and engine_processes(other.pid) == 0
                last = {"revision": after["revision"], "events": recorded(after)}

    with Instance.start(database, tmp_path) as restarted:
        watching = Spectator(restarted.url, game)
        status, answer = await watching.state()
        assert status == 404 and answer["events"] == last["events"], answer
        status, streamed = await watching.first_event()
        assert status == 404 and streamed["events"] == last["events"]
        assert await games_loaded(restarted.url) == 0, "no spectator request loads a game"
        assert engine_processes(restarted.pid) == 0, "nor starts an engine"
        async with Agent(restarted.mcp_url) as agent:
            resumed = await agent.call("observe", {"sessionId": game, "controlToken": token})
            assert not resumed["isError"] and resumed["basis"]["revision"] == last["revision"], resumed
            status, shown = await watching.state()
            assert status == 200 and shown["revision"] == last["revision"]
            assert shown["events"] == last["events"], "the resumed game's history is its stored one"
            status, streamed = await watching.first_event()
            assert status == 200 and streamed["events"] == last["events"]
            player.view = resumed["basis"]["viewId"]
            frame = await player.search(agent, "r-after")
            _, grown = await watching.state()
            assert grown["revision"] == frame["basis"]["revision"]
            assert grown["events"] == [*last["events"], *tagged(frame)][-EVENT_LIMIT:]
            for spectator in (watching_owner, elsewhere, watching):
                assert str(SEED).encode() not in spectator.received, "a live game's seed reached a spectator"

            ending = [event for quit_frame in await player.quit(agent) for event in tagged(quit_frame)]
            assert await games_loaded(restarted.url) == 0, "the ended game left memory"
            status, gone = await watching.state()
            assert status == 410 and gone["record"]["endReason"] == "quit", gone
            assert gone["events"] == [*recorded(grown), *ending][-EVENT_LIMIT:], "its history: its stored receipts"
            assert (await watching.state())[1] == gone
