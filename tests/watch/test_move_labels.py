"""test_move_labels.py - the move list names each tool call as the agent wrote it (docs/REPLAY.md).

A real game played through the tools: over stdio, the spectator's `/moves`
labels every call `tool {arguments}` (the binding fields left out) and its
messages, turn, Dlvl and HP equal the frame that call returned; a receipt
stored without its call (an old game's) keeps the method label; the page's
mapping (web/src/timeline/calls.js, run under Node) gives the same label and
facts as the server's (watch/moves.py) for every stored receipt. Over the
HTTP service, where every call carries its controlToken: no receipt, journal
entry or label holds the token, and the sealed seed is in no label.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from nethack_webmcp.store.sqlite import DATABASE_NAME, SqliteStore
from nethack_webmcp.watch.moves import MoveIndex, call_facts
from support.service_instance import Agent, Instance
from support.wasm_builds import ROOT, node24
from support.watched import http, require_driver, watched_server

pytestmark = pytest.mark.asyncio
SHORT_SEED = 10**6
CALLS_JS = ROOT / "web" / "src" / "timeline" / "calls.js"
#: the calls the agent makes, each (tool, arguments beyond sessionId/viewId)
PLAYED: list[tuple[str, dict[str, Any]]] = [
    ("interact", {"action": "search", "turns": 3}),
    ("travel", {"mode": "explore", "maxActions": 5}),
    ("interact", {"action": "search"}),
    ("travel", {"mode": "explore", "maxActions": 4}),
]
#: calls that always make an input, so each leaves a receipt: the sealed game's seed is random, and an
#: explore leg in an unknown game may find nothing to do (no input, no receipt)
ACTING: list[tuple[str, dict[str, Any]]] = [PLAYED[0], PLAYED[2], ("interact", {"action": "search", "turns": 2})]


def expected_label(tool: str, arguments: dict[str, Any]) -> str:
    return f"{tool} {json.dumps(arguments, separators=(',', ':'))}"


def said(frame: dict[str, Any]) -> list[str]:
    """The game's messages in a frame's events, as the agent read them."""
    texts = []
    for event in frame.get("events") or []:
        text = " ".join(event["lines"]) if event.get("type") == "passage" else event.get("text")
        if isinstance(text, str) and text.strip():
            texts.append(text)
    return texts


def assert_shows(shown: dict[str, Any], tool: str, arguments: dict[str, Any], frame: dict[str, Any]) -> None:
    assert shown["label"] == expected_label(tool, arguments), shown
    assert shown["status"] == frame["outcome"]["status"]
    assert shown["messages"] == said(frame)
    assert shown["turn"] == frame["basis"]["turn"]
    assert shown["depth"] == frame["scene"]["self"]["level"]["depth"]
    assert (shown["hp"], shown["hpMax"]) == (
        frame["scene"]["self"]["vitals"]["hp"],
        frame["scene"]["self"]["vitals"]["hpMax"],
    )


def page_facts(receipts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """callFacts of web/src/timeline/calls.js for each receipt, under Node."""
    script = (
        f"import {{ callFacts }} from {json.dumps(CALLS_JS.as_uri())};\n"
        "let text = ''; process.stdin.on('data', (chunk) => { text += chunk; });\n"
        "process.stdin.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(text).map(callFacts))));\n"
    )
    done = subprocess.run(
        [node24(), "--input-type=module", "-e", script],
        input=json.dumps(receipts),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    facts: list[dict[str, Any]] = json.loads(done.stdout)
    return facts


async def play_stdio(session: ClientSession) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]]]:
    """The game, each call's frame and each call's arguments as sent."""
    created = await session.call_tool("session", {"action": "create", "seed": 1_734_260_911, "name": "Labels"})
    frame = created.structured_content
    assert frame is not None
    game, frames, sent = frame["basis"]["sessionId"], [], []
    for tool, arguments in PLAYED:
        sent.append({"sessionId": game, "viewId": frame["basis"]["viewId"], **arguments})
        reply = await session.call_tool(tool, sent[-1])
        frame = reply.structured_content
        assert frame is not None and "error" not in frame, frame
        frames.append(frame)
    return game, frames, sent


async def test_the_spectator_labels_each_call_by_its_tool_and_arguments(tmp_path: Path) -> None:
    require_driver()
    state = tmp_path / "state"
    async with watched_server(state) as (session, base):
        game, frames, sent = await play_stdio(session)
        status, _, body = await asyncio.to_thread(http, "GET", f"{base}/api/games/{game}/moves")
        assert status == 200
        listed = json.loads(body)
    calls = sorted(listed["calls"].values(), key=lambda call: call["index"])
    assert len(calls) == len(PLAYED)
    for shown, (tool, arguments), frame in zip(calls, PLAYED, frames, strict=True):
        assert_shows(shown, tool, arguments, frame)
    assert any(call["last"] > call["first"] for call in calls), "an explore leg made several inputs"

    store = SqliteStore(state / DATABASE_NAME)
    try:
        receipts = await store.receipts(game)
        # the receipt keeps the call as sent, less sessionId (the receipt is that game's)
        assert [r["call"] for r in receipts] == [
            {"tool": tool, "arguments": {k: v for k, v in arguments.items() if k != "sessionId"}}
            for (tool, _), arguments in zip(PLAYED, sent, strict=True)
        ]
        # the page's mapping is the server's, receipt for receipt
        assert page_facts([dict(r) for r in receipts]) == [call_facts(r) for r in receipts]
    finally:
        await store.close()

    # an old game's receipt (stored before receipts kept their call): labelled by its inputs
    with sqlite3.connect(state / DATABASE_NAME) as db:
        request_id, text = db.execute(
            "SELECT request_id, frame_json FROM receipts WHERE session_id = ? ORDER BY created_at_s LIMIT 1 OFFSET 1",
            (game,),
        ).fetchone()
        stored = json.loads(text)
        del stored["@call"]
        db.execute("UPDATE receipts SET frame_json = ? WHERE request_id = ?", (json.dumps(stored), request_id))
    store = SqliteStore(state / DATABASE_NAME)
    try:
        index = MoveIndex(game)
        await index.refresh(store)
        old = index.page(1, index.count)["calls"]["1"]
        assert old["label"].startswith("game.move") and old["turn"] == frames[1]["basis"]["turn"], old
        again = index.page(1, index.count)["calls"]["2"]
        assert again["label"] == expected_label(*PLAYED[2])
    finally:
        await store.close()


async def test_no_control_token_or_sealed_seed_is_kept_with_a_call(tmp_path: Path) -> None:
    require_driver()
    state = tmp_path / "state"
    with Instance.start(None, state) as instance:
        async with Agent(instance.mcp_url) as agent:
            created = await agent.call("session", {"action": "create", "name": "Sealed"})
            assert not created["isError"], created
            game, token = created["basis"]["sessionId"], created["result"]["controlToken"]
            frame = created
            frames = []
            for tool, arguments in ACTING:
                binding = {"sessionId": game, "viewId": frame["basis"]["viewId"], "controlToken": token}
                frame = await agent.call(tool, {**binding, **arguments})
                assert not frame["isError"], frame
                frames.append(frame)
    with sqlite3.connect(state / DATABASE_NAME) as db:
        seed = db.execute("SELECT seed FROM sessions WHERE session_id = ?", (game,)).fetchone()[0]
        kept = [row[0] for row in db.execute("SELECT frame_json FROM receipts WHERE session_id = ?", (game,))]
        journal = [row[0] for row in db.execute("SELECT request_json FROM journal WHERE session_id = ?", (game,))]
    assert isinstance(seed, int) and len(kept) == 3
    assert all('"@call"' in text for text in kept), "every acting call's receipt keeps its call"
    for text in [*kept, *journal]:
        assert token not in text and "controlToken" not in text
    store = SqliteStore(state / DATABASE_NAME)
    try:
        index = MoveIndex(game)
        await index.refresh(store)
        calls = sorted(index.page(1, index.count)["calls"].values(), key=lambda call: call["index"])
    finally:
        await store.close()
    for shown, (tool, arguments), frame in zip(calls, ACTING, frames, strict=True):
        assert_shows(shown, tool, arguments, frame)
        assert token not in json.dumps(shown)
        if seed >= SHORT_SEED:  # a shorter one could match unrelated digits (a turn, an HP)
            assert str(seed) not in json.dumps(shown)
