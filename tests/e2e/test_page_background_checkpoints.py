"""test_page_background_checkpoints.py - every live page game is checkpointed in the background.

A game is played in the page through WebMCP (the polyfill's executeTool, as
an agent calls it): CALLS (320) tool calls, its timeline never opened. The
page's background checkpointer (web/src/worker/follower.js) follows it on an
Asyncify instance of its own and checkpoints it with the live session's own
navigation memory; once the game is idle its newest checkpoint is at its last
move. Then:

- the follower never changed the live game: the page game's state hash and
  revision equal those of the same calls played uninterrupted natively (the twin);
- after a reload the game's session resumes from the background checkpoint at
  its last move with nothing replayed, its frame equal to the one before the
  reload, and its navigation memory equal to a whole-journal resume's (the
  live tracker's dump is the memory a replay would fold);
- a tampered follower checkpoint is refused with a clear message and the
  resume falls back to the next older one, reaching the same game.
"""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import BrowserContext, Page

from .durable_harness import Agent, arguments_for, open_site, python, reload, twin
from .page_replay_harness import OPEN_CHECKPOINTS, replay, tamper_checkpoint

CALLS = 320
CREATE = {"action": "create", "seed": 42, "name": "Ada", "role": "valkyrie", "harness_name": "e2e follower"}


def next_step(index: int, frame: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A deterministic call for the frame (the twin replays the same list)."""
    decision = frame.get("decision")
    if decision and frame["control"]["gate"] == "decision":
        if decision["kind"] == "confirmation":
            return "respond", {"value": not decision["prompt"].startswith("Die?")}
        if decision.get("cancel"):
            return "respond", dict(decision["cancel"]["arguments"])
        return "respond", {"value": [0]}
    slot = index % 5
    if slot == 0:
        return "travel", {"mode": "explore", "maxActions": 12}
    if slot in (1, 3):
        return "travel", {"mode": "step", "target": {"direction": ("north", "east", "south", "west")[(index // 5) % 4]}}
    return "interact", {"action": "search", "turns": 2}


FOLLOWER = """
import json, js
json.dumps(json.loads(js.JSON.stringify(js.nethackCheckpointer.describe(SESSION))))
"""

STORED = (
    """async (sessionId) => {
"""
    + OPEN_CHECKPOINTS
    + """  const range = IDBKeyRange.bound([sessionId, -Infinity], [sessionId, Infinity]);
  const records = await new Promise((resolve) => {
    const request = db.transaction('checkpoints').objectStore('checkpoints').getAll(range);
    request.onsuccess = () => resolve(request.result);
  });
  db.close();
  return records.map((record) => ({move: record.move, seq: record.seq, by: record.by || null}));
}"""
)

DROP = (
    """async ({sessionId, move}) => {
"""
    + OPEN_CHECKPOINTS
    + """  const tx = db.transaction('checkpoints', 'readwrite');
  tx.objectStore('checkpoints').delete([sessionId, move]);
  await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
  db.close();
}"""
)

RESUME = """
import json
from nethack_webmcp import worker
from nethack_webmcp.navigation import snapshot
games = worker._games()
source = games.restore_source
games.restore_source = source if CHECKPOINTED else None
try:
    if CHECKPOINTED:
        source.prefetch(SESSION)  # as worker.open_game does: the newest checkpoint read meanwhile
    session = await games.resume(SESSION)
finally:
    games.restore_source = source
report = dict(session.notes.get("resume") or {})  # before the observe, whose frame reports (and consumes) it
memory = snapshot.dump(session.state.tracker).decode("ascii")
await games.reopen(session)  # the close mark this code's last close left (as opening the game's view clears it)
observed = json.loads(await worker.call("observe", json.dumps({"sessionId": SESSION})))
await games.close(SESSION)
json.dumps({"frame": observed, "memory": memory, "report": report})
"""


def follower(page: Page, session_id: str) -> dict[str, Any]:
    return dict(python(page, f"SESSION = {session_id!r}\n" + FOLLOWER))


def stored(page: Page, session_id: str) -> list[dict[str, Any]]:
    return list(page.evaluate(STORED, session_id))


def resume(page: Page, session_id: str, checkpointed: bool) -> dict[str, Any]:
    return dict(python(page, f"SESSION = {session_id!r}\nCHECKPOINTED = {checkpointed!r}\n" + RESUME))


def settled(page: Page, session_id: str, last_seq: int) -> dict[str, Any]:
    """The follower's state once its newest checkpoint is at the game's last journal entry."""
    deadline = time.monotonic() + 60
    while True:
        state = follower(page, session_id)
        records = stored(page, session_id)
        if records and max(record["seq"] for record in records) == last_seq and not state["held"]:
            return state
        assert not state["failed"], state
        assert time.monotonic() < deadline, (state, records[-3:])
        time.sleep(0.25)


def game_of(frame: dict[str, Any]) -> dict[str, Any]:
    """What a frame says of the game itself (the view's identifiers and the resume notice left out)."""
    assert "result" in frame, frame.get("error")
    return {
        "stateHash": frame["result"]["stateHash"],
        "basis": {key: frame["basis"][key] for key in ("revision", "turn")},
        "scene": frame["scene"],
    }


def test_a_played_game_resumes_from_its_background_checkpoint_after_a_reload(
    ctx: BrowserContext, site_url: str
) -> None:
    page = open_site(ctx, site_url)
    agent = Agent(page)
    frame = agent.ok("session", CREATE)
    session_id = frame["basis"]["sessionId"]
    steps = []
    for index in range(CALLS):
        step = next_step(index, frame)
        steps.append(step)
        frame = agent.ok(*arguments_for(frame, step))
    before = agent.ok("observe", {"sessionId": session_id})
    last_seq = int(python(page, f"from nethack_webmcp import worker\nworker._games().get({session_id!r}).journal.seq"))
    state = settled(page, session_id, last_seq)
    records = stored(page, session_id)
    assert {record["by"] for record in records} == {"follower"}, records  # no timeline was ever opened
    assert len(records) >= 3 and 0 in {record["move"] for record in records}, records
    assert not state["refused"], state

    # the follower never changed the live game: the same calls played uninterrupted natively
    assert twin(page, session_id, steps) == (before["result"]["stateHash"], before["basis"]["revision"])

    reload(page)  # a new worker: IndexedDB is all that is left
    resumed = resume(page, session_id, True)
    report = resumed["report"]
    assert report.get("fromCheckpoint") == last_seq and report["replayed"] == 0, (report, records)
    assert report["checkpoint"]["move"] == max(record["move"] for record in records), report
    assert game_of(resumed["frame"]) == game_of(before)
    whole = resume(page, session_id, False)  # the reference: the whole journal replayed, every response folded
    assert "fromCheckpoint" not in whole["report"], whole["report"]
    assert game_of(whole["frame"]) == game_of(before)
    assert resumed["memory"] == whole["memory"], "the live tracker's memory is not the one the journal folds to"

    # a tampered follower checkpoint: refused, the next older one used, the same game reached
    newest = max(records, key=lambda record: record["move"])
    victim = sorted(records, key=lambda record: record["move"]).index(newest)
    assert tamper_checkpoint(page, session_id, victim) == newest["move"]
    reload(page)
    fallen = resume(page, session_id, True)
    refused = fallen["report"]["checkpoint"]["refused"]
    assert [(refusal["move"], refusal["code"]) for refusal in refused] == [(newest["move"], "checkpointTampered")]
    assert "does not match its digest" in refused[0]["message"]
    older = max(record["seq"] for record in records if record["move"] != newest["move"])
    assert fallen["report"]["fromCheckpoint"] == older and fallen["report"]["replayed"] > 0, fallen["report"]
    assert game_of(fallen["frame"]) == game_of(before)
    assert fallen["memory"] == whole["memory"]
    assert json.dumps(fallen["frame"]["scene"], sort_keys=True) == json.dumps(before["scene"], sort_keys=True)

    # the timeline's replay takes the follower's checkpoints as its own (same records, digests checked): no rebuild
    # (the tampered one would be refused at open and the set rebuilt: it is deleted first)
    page.evaluate(DROP, {"sessionId": session_id, "move": newest["move"]})
    opened = replay(page, "open", session_id)
    assert opened["rebuilt"] is False and opened["refused"] == [], opened
    assert replay(page, "frame", session_id, newest["move"])["move"] == newest["move"]
