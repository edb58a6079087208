"""test_page_checkpoint_resume.py - the page resumes a session from its newest checkpoint, exactly.

A game played natively (a wandering wizard-mode game of 400 inputs) is stored
in the journal databases of two browser profiles: in one as it is, in the
other with its replay opened (worker/page-replay.js), so IndexedDB holds its
checkpoints, each with the navigation memory at its move (made by the
checkpointing replay folding full responses in the worker's Python). Both
are resumed in the page (worker.open_game, as opening a game's view does)
and played on by the same deterministic tool calls; then the page is
reloaded (a new worker: only IndexedDB remains) and both are resumed and
played on again. The reference replays its whole journal every time (its
replay was never opened: no checkpoint); the checkpointed copy resumes from
its newest checkpoint plus the inputs after it. Every frame must be the
same, byte for byte (state hashes included; only the resume notice is left
out), and so must the navigation memory after the calls (WorldTracker.memory).

Tampering: a checkpoint whose navigation memory was changed is refused with
a clear message and the resume goes on from the next older one; when every
checkpoint is changed the whole journal is replayed, and the frame says so.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page
from support.wandering_game import wandering_game

from .durable_harness import context, open_site, python, reload, run
from .page_replay_harness import OPEN_CHECKPOINTS, renamed, replay, store_game

INPUTS = 400
CALLS = 18
GAME, TAMPERED = "resume-exact", "resume-tampered"

PLAY = """
import json
from nethack_webmcp import worker

def next_call(index, frame):
    decision = frame.get("decision")
    if decision and frame["control"]["gate"] == "decision":
        if decision["kind"] == "confirmation":
            return "respond", {**decision["reply"]["arguments"], "value": not decision["prompt"].startswith("Die?")}
        if decision.get("cancel"):
            return "respond", dict(decision["cancel"]["arguments"])
        return "respond", {**decision["reply"]["arguments"], "value": [0]}
    bound = {"sessionId": SESSION, "viewId": frame["basis"]["viewId"], "requestId": f"page-{RUN}-{index}"}
    slot = index % 6
    if slot == 4:  # what the navigation memory says: frontiers, search spots and their search counts
        return "plan", {"sessionId": SESSION, "query": "wayOn"}
    if slot == 5:
        return "plan", {"sessionId": SESSION, "query": "navigation"}
    if slot == 0:
        return "travel", {**bound, "mode": "explore", "maxActions": 20}
    if slot == 1:
        direction = ("north", "east", "south", "west")[(index // 6) % 4]
        return "travel", {**bound, "mode": "step", "target": {"direction": direction}}
    if slot == 2:
        return "interact", {**bound, "action": "search", "turns": 2}
    return "observe", {"sessionId": SESSION}

frames = [json.loads(await worker.open_game(SESSION))]
for index in range(CALLS):
    if frames[-1].get("basis") is None:
        break  # an error frame: the test shows it
    tool, arguments = next_call(index, frames[-1])
    frames.append(json.loads(await worker.call(tool, json.dumps(arguments))))
json.dumps(frames)
"""

TAMPER_NAVIGATION = (
    """async ({sessionId, every, at}) => {
"""
    + OPEN_CHECKPOINTS
    + """  const tx = db.transaction('checkpoints', 'readwrite');
  const store = tx.objectStore('checkpoints');
  const range = IDBKeyRange.bound([sessionId, -Infinity], [sessionId, Infinity]);
  const records = await new Promise((resolve) => {
    const request = store.getAll(range);
    request.onsuccess = () => resolve(request.result);
  });
  const victims = every ? records : [records[records.length - 1]];
  for (const victim of victims) {
    // the memory is kept gzip'd: one byte changed in the middle (`at` from it: never the same byte back)
    const navigation = new Uint8Array(victim.navigation);
    navigation[(navigation.length >> 1) + at] ^= 1;
    store.put({ ...victim, navigation });
  }
  await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
  db.close();
  return records.map((record) => record.move);
}"""
)


def play(page: Page, session_id: str, run_name: str) -> list[dict[str, Any]]:
    """Resume the game in the page and make CALLS tool calls: every frame."""
    code = f"SESSION = {session_id!r}\nRUN = {run_name!r}\nCALLS = {CALLS}\n" + PLAY
    frames: list[dict[str, Any]] = python(page, code)
    for frame in frames:
        assert frame.get("basis") is not None, (frame.get("error"), frame.get("diagnostics"))
    return frames


MEMORY = """
import json
from nethack_webmcp import worker
json.dumps(json.dumps(worker._games().get(SESSION).state.tracker.memory(), sort_keys=True))
"""


def memory(page: Page, session_id: str) -> str:
    """The game's navigation memory in the page (WorldTracker.memory) as canonical JSON."""
    return str(python(page, f"SESSION = {session_id!r}\n" + MEMORY))


def masked(frame: dict[str, Any]) -> str:
    """The frame as canonical JSON without the resume notice (the one key a resumed frame adds)."""
    shown = dict(frame)
    diagnostics = dict(shown.get("diagnostics") or {})
    diagnostics.pop("resume", None)
    shown["diagnostics"] = diagnostics
    return json.dumps(shown, sort_keys=True)


def assert_same(reference: list[dict[str, Any]], resumed: list[dict[str, Any]]) -> None:
    assert len(reference) == len(resumed) == CALLS + 1
    for index, (a, b) in enumerate(zip(reference, resumed, strict=True)):
        assert masked(a) == masked(b), f"frame {index} differs"


def test_a_session_resumed_from_a_checkpoint_shows_the_frames_of_the_whole_replay(
    ctx: BrowserContext, plain_browser: Browser, site_url: str
) -> None:
    game = run(wandering_game(INPUTS, seed=29, name="Resume", stride=5, prefix="c"))
    # two browser profiles, so both hold the same game under the same session ID (its state hash names it)
    whole = open_site(ctx, site_url)
    checkpointed_ctx = context(plain_browser)
    page = open_site(checkpointed_ctx, site_url)
    # stored under the page's game identity (the rules, which every build shares; the native build may be newer)
    game["info"]["engineIdentity"] = whole.evaluate("() => window.nethackSite.identity")
    stored = renamed(game, GAME)
    try:
        assert store_game(whole, stored) == store_game(page, stored) == INPUTS
        assert store_game(page, renamed(game, TAMPERED)) == INPUTS
        for session_id in (GAME, TAMPERED):
            opened = replay(page, "open", session_id)
            assert opened["rebuilt"] is True and opened["checkpoints"] >= 3, opened
            replay(page, "close", session_id)

        reference = play(whole, GAME, "one")
        resumed = play(page, GAME, "one")
        assert "fromCheckpoint" not in reference[0]["diagnostics"]["resume"]
        notice = resumed[0]["diagnostics"]["resume"]
        assert notice["fromCheckpoint"] == INPUTS and notice["replayed"] == 0, notice
        assert notice["checkpoint"] == {"move": INPUTS, "engine": "asyncify"}, notice  # it plays on there
        assert_same(reference, resumed)
        assert memory(whole, GAME) == memory(page, GAME)
        at_400 = resumed[0]["basis"]

        reload(whole)  # new workers: the checkpoints and the journals in IndexedDB are all that is left
        reload(page)
        reference = play(whole, GAME, "two")
        resumed = play(page, GAME, "two")
        notice = resumed[0]["diagnostics"]["resume"]
        # from the checkpoint at move 400, plus every input the first calls made after it
        assert notice["fromCheckpoint"] == INPUTS and notice["replayed"] > 0, notice
        assert reference[0]["diagnostics"]["resume"]["replayed"] == INPUTS + notice["replayed"]
        assert_same(reference, resumed)
        assert memory(whole, GAME) == memory(page, GAME), "the navigation memory differs after the resume"

        # a checkpoint whose navigation memory was changed: refused, the next older one is used
        moves = page.evaluate(TAMPER_NAVIGATION, {"sessionId": TAMPERED, "every": False, "at": 0})
        reload(page)
        tampered = play(page, TAMPERED, "three")
        notice = tampered[0]["diagnostics"]["resume"]
        [refusal] = notice["checkpoint"]["refused"]
        assert refusal["move"] == moves[-1] and refusal["code"] == "checkpointTampered", notice
        assert "navigation memory that does not match its digest" in refusal["message"]
        assert notice["fromCheckpoint"] == moves[-2] and notice["replayed"] == INPUTS - moves[-2], notice
        assert {k: tampered[0]["basis"][k] for k in ("revision", "turn")} == {
            k: at_400[k] for k in ("revision", "turn")
        }

        # every checkpoint changed: the whole journal is replayed, and the frame says so
        page.evaluate(TAMPER_NAVIGATION, {"sessionId": TAMPERED, "every": True, "at": 1})
        reload(page)
        fallen = play(page, TAMPERED, "four")[0]["diagnostics"]["resume"]
        assert "fromCheckpoint" not in fallen and fallen["checkpoint"]["fellBackTo"] == "the whole journal", fallen
        assert len(fallen["checkpoint"]["refused"]) == len(moves)
    finally:
        checkpointed_ctx.close()
