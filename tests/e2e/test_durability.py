"""test_durability.py - games survive the page: real Chromium, IndexedDB, Web Locks and WASM.

- a reload mid-game resumes the same frame (scene, revision, inventory,
  standing decision) by pinned quiet replay, on page load for the game shown;
- the worker terminated in the middle of an operation (between the journal
  reservation and the receipt, or before the tool receipt): after a reload
  nothing accepted is lost or applied twice (an uninterrupted native twin
  reaches the same state hash);
- injected IndexedDB failures (aborted transactions, quota errors) are a
  storage diagnostic with a blocked gate, and observe recovers;
- two tabs: only the owner advances the game; "Take over" moves it and the
  old owner stops (lostOwnership, writes nothing);
- export in one browser profile, import natively (the same rules: the native
  CLI stores it), go on natively, and import the native export into a fresh
  profile: the same states all the way;
- a resume under other rules or of a journal that does not replay is
  refused with a clear diagnostic.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from .durable_harness import (
    CREATE,
    SCRIPT,
    Agent,
    context,
    faults,
    journal,
    open_site,
    owned,
    play,
    python,
    reload,
    run,
    twin,
    wait_ready,
)
from .site_harness import wait_until


def standing(frame: dict[str, Any]) -> dict[str, Any] | None:
    decision = frame.get("decision")
    return None if decision is None else {key: decision.get(key) for key in ("id", "kind", "prompt")}


def comparable(frame: dict[str, Any]) -> dict[str, Any]:
    """What a person or agent sees of a game, without the call's own diagnostics."""
    return {
        "basis": frame["basis"],
        "gate": frame["control"]["gate"],
        "scene": frame["scene"],
        "decision": frame["decision"],
        "stateHash": frame["result"].get("stateHash"),
    }


def test_a_reload_mid_game_resumes_the_same_frame(ctx: BrowserContext, site_url: str) -> None:
    page = open_site(ctx, site_url)
    agent = Agent(page)
    created = agent.ok("session", CREATE)
    game = created["basis"]["sessionId"]
    frame = play(agent, created, SCRIPT[:4])  # ends with kick's "In what direction?" standing
    assert frame["control"]["gate"] == "decision"
    page.evaluate("(id) => { location.hash = '#/g/' + id; }", game)
    before = agent.ok("observe", {"sessionId": game})
    assert before["scene"]["inventory"], "the inventory is part of the comparison"

    reload(page)
    # the page showing the game resumes it on load, by replay, as its owner
    wait_until(page, "(id) => (window.nethackSite.games[id] || {}).owner === true", 30, game)
    wait_until(page, "() => document.querySelector('[data-panel=ownership]')?.dataset.ownership === 'owner'", 10)
    after = agent.ok("observe", {"sessionId": game})
    assert comparable(after) == comparable(before)
    assert standing(after) == standing(before)
    shown = wait_until(
        page, "(r) => document.getElementById('main').dataset.revision === String(r)", 10, before["basis"]["revision"]
    )
    assert shown

    # the standing question answers with the arguments it offered before the reload
    answered = agent.ok("respond", {**before["decision"]["reply"]["arguments"], "value": "north"})
    assert answered["basis"]["revision"] == before["basis"]["revision"] + 1
    final = play(agent, answered, SCRIPT[5:])
    final = agent.ok("observe", {"sessionId": game})
    assert (final["result"]["stateHash"], final["basis"]["revision"]) == twin(page, game, SCRIPT)
    assert final["control"]["gate"] == "ready" and final is not None


def test_a_reload_reports_the_resume(ctx: BrowserContext, site_url: str) -> None:
    """A game not on show resumes on its first use after the reload; the first
    frame carries diagnostics.resume (replayed inputs, engine identity)."""
    page = open_site(ctx, site_url)
    agent = Agent(page)
    created = agent.ok("session", CREATE)
    game = created["basis"]["sessionId"]
    play(agent, created, SCRIPT[:3])
    reload(page)
    assert not owned(page, game)
    # the home view offers to resume it: it is stored and no tab has it open
    button = f'tr[data-game-id="{game}"] [data-control=resume]'
    wait_until(page, "(selector) => document.querySelector(selector)", 10, button)
    frame = agent.ok("observe", {"sessionId": game})
    resume = frame["diagnostics"]["resume"]
    # (from the page's background checkpoint when one was taken before the reload: the inputs after it)
    assert resume.get("fromCheckpoint", 0) + resume["replayed"] == 3 and resume["revision"] == 3, resume
    assert resume["engineIdentity"] == page.evaluate("() => window.nethackSite.identity")
    assert frame["basis"]["revision"] == 3
    # owned by this tab: the worker announces its games list just after the answer (worker/main.js
    # answer), so under load the page may show it a moment after the frame arrives
    wait_until(page, "(id) => (window.nethackSite.games[id] || {}).owner === true", 10, game)
    wait_until(page, "(selector) => !document.querySelector(selector)", 10, button)
    # and the button resumes a game in the page: close it, then click Resume
    agent.ok("session", {"action": "close", "sessionId": game})
    page.locator(button).click()
    wait_until(page, "(id) => (window.nethackSite.games[id] || {}).owner === true", 30, game)
    assert page.evaluate("() => location.hash") == f"#/g/{game}"


@pytest.mark.parametrize(
    ("hang", "applied", "stop"),
    [
        ({"op": "reserve", "when": "after"}, False, "terminate"),  # journaled, never sent
        ({"op": "complete", "when": "before"}, False, "terminate"),  # sent to the engine, its receipt never written
        # the completion and the call's tool receipt are one transaction: committed, then the worker dies
        ({"op": "complete", "when": "after"}, True, "terminate"),
        ({"op": "complete", "when": "before"}, False, "close"),  # the tab closed while the call is in flight
    ],
    ids=["after-reservation", "before-receipt", "after-receipt", "tab-closed-before-receipt"],
)
def test_worker_terminated_mid_operation(
    ctx: BrowserContext, site_url: str, hang: dict[str, str], applied: bool, stop: str
) -> None:
    crash_at = 4  # the answer to kick's question
    page = open_site(ctx, site_url)
    agent = Agent(page)
    created = agent.ok("session", CREATE)
    game = created["basis"]["sessionId"]
    frame = play(agent, created, SCRIPT[:crash_at])
    faults(page, {"hang": {**hang, "nth": 1}})
    agent.start(frame, SCRIPT[crash_at], request_id="answer-1")
    wait_until(page, "(op) => window.nethackTest.events.some((e) => e.event === 'hung' && e.op === op)", 20, hang["op"])
    if stop == "terminate":
        page.evaluate("() => window.nethackTest.terminateWorker()")
        reload(page)
    else:
        page.close()
        page = open_site(ctx, site_url)  # a new tab: the closed one's locks are gone
        agent = Agent(page)

    entries = journal(page, game)
    assert [e["seq"] for e in entries] == list(range(1, crash_at + 2))
    assert entries[-1]["state"] == ("completed" if applied else "reserved")
    first = agent.call("observe", {"sessionId": game})
    assert "error" not in first, first["error"]
    if applied:
        assert first["basis"]["revision"] == crash_at + 1
        retry = agent.call(*_answer(first, frame, "answer-1"))
        assert "error" not in retry, "its receipt was committed with it: the retry gets the stored frame"
        assert retry["basis"]["revision"] == crash_at + 1, "never executed twice"
        frame = first
    else:
        recovery = first["diagnostics"]["recovery"]
        assert recovery["status"] == "verified" and [e["seq"] for e in recovery["notApplied"]] == [crash_at + 1]
        assert first["basis"]["revision"] == crash_at, "the dangling input was not applied"
        assert standing(first) == standing(frame), "kick's question stands again"
        assert journal(page, game)[-1]["state"] == "notApplied"
        frame = agent.step(first, SCRIPT[crash_at], request_id="answer-2")  # the caller's explicit re-issue
        assert "error" not in frame, frame["error"]
    play(agent, frame, SCRIPT[crash_at + 1 :])
    final = agent.ok("observe", {"sessionId": game})
    assert (final["result"]["stateHash"], final["basis"]["revision"]) == twin(page, game, SCRIPT)
    states = [e["state"] for e in journal(page, game)]
    assert states.count("completed") == len(SCRIPT), "every input applied exactly once"


def _answer(current: dict[str, Any], asked: dict[str, Any], request_id: str) -> tuple[str, dict[str, Any]]:
    """The exact retry of the answer sent before the crash (same requestId, same payload)."""
    return "respond", {**asked["decision"]["reply"]["arguments"], "value": "north", "requestId": request_id}


def test_injected_storage_failures_block_and_recover(ctx: BrowserContext, site_url: str) -> None:
    page = open_site(ctx, site_url)
    agent = Agent(page)
    created = agent.ok("session", CREATE)
    game = created["basis"]["sessionId"]
    page.evaluate("(id) => { location.hash = '#/g/' + id; }", game)
    frame = play(agent, created, SCRIPT[:1])

    # 1. the reservation's transaction aborts: nothing is sent, the gate blocks
    faults(page, {"abortAt": 1})
    failed = agent.step(frame, SCRIPT[1])
    assert failed["error"]["code"] == "storageFailed" and failed["outcome"]["submission"] == "rejected"
    assert failed["control"]["gate"] == "recoveryRequired"
    storage = failed["diagnostics"]["storage"]
    assert storage["status"] == "failed" and storage["operation"] == "reserve"
    assert storage["durability"] == "indexeddb-strict" and "aborted" in storage["message"]
    blocked = agent.step(frame, SCRIPT[1])
    assert blocked["error"]["code"] == "recoveryRequired"
    # the page shows it too
    alert = wait_until(page, "() => document.querySelector('[data-field=storage][role=alert]')?.textContent", 10)
    assert "input is blocked" in alert
    frame = agent.ok("observe", {"sessionId": game})
    assert frame["diagnostics"]["storage"]["status"] == "recovered" and frame["control"]["gate"] == "ready"
    frame = agent.step(frame, SCRIPT[1])
    assert "error" not in frame

    # 2. the receipt's transaction (the completion with the call's tool receipt) fails with a
    # quota error: the deed is done, input blocks
    faults(page, {"abortAt": 2, "kind": "quota"})
    done = agent.step(frame, SCRIPT[2])
    assert done["outcome"]["submission"] == "accepted", "storage failure does not undo a deed"
    assert done["control"]["gate"] == "recoveryRequired"
    assert done["diagnostics"]["storage"]["operation"] == "receipt"
    assert "QuotaExceededError" in done["diagnostics"]["storage"]["message"]
    # while the store keeps failing, observe stays blocked and says so
    faults(page, {"every": True})
    still = agent.call("observe", {"sessionId": game})
    assert still["control"]["gate"] == "recoveryRequired"
    assert "still fails" in still["diagnostics"]["storage"]["message"]
    faults(page, None)
    frame = agent.ok("observe", {"sessionId": game})
    assert frame["diagnostics"]["storage"]["status"] == "recovered" and frame["control"]["gate"] == "ready"
    wait_until(page, "() => !document.querySelector('[data-field=storage]')", 10)

    # 3. the same transaction aborts on a call that raises a question: accepted, blocked until durable
    faults(page, {"abortAt": 2})
    done = agent.step(frame, SCRIPT[3])
    assert done["outcome"]["submission"] == "accepted" and done["control"]["gate"] == "recoveryRequired"
    assert done["diagnostics"]["storage"]["operation"] == "receipt"
    faults(page, None)
    frame = agent.ok("observe", {"sessionId": game})
    assert frame["control"]["gate"] == "decision", "the question is offered again once storage is durable"

    play(agent, frame, SCRIPT[4:])
    final = agent.ok("observe", {"sessionId": game})
    assert (final["result"]["stateHash"], final["basis"]["revision"]) == twin(page, game, SCRIPT)
    # nothing was silently dropped: a reload resumes exactly this game
    reload(page)
    again = agent.ok("observe", {"sessionId": game})
    assert again["result"]["stateHash"] == final["result"]["stateHash"]

    # 4. a blocked upgrade: this worker's site is "updated" to a newer schema while another
    # tab of the old site keeps the database open (and ignores the request to close it)
    assert page.evaluate(HOLD_OPEN, "nethack-webmcp-journal") == 3
    python(
        page,
        """
import js
from pyodide.ffi import create_proxy
store = js.nethackStorage.store
store.close(); store.closed = False
store.migrations.push(create_proxy(lambda db, tx: None))
'1'""",
    )
    blocked = agent.call("interact", {"sessionId": game, "viewId": again["basis"]["viewId"], "action": "search"})
    assert blocked["error"]["code"] == "storageFailed" and blocked["outcome"]["submission"] == "rejected"
    assert blocked["control"]["gate"] == "recoveryRequired"
    assert "blocked" in blocked["diagnostics"]["storage"]["message"]
    still = agent.call("observe", {"sessionId": game})
    assert still["control"]["gate"] == "recoveryRequired"
    page.evaluate("() => window.__held.close()")  # the old tab goes away: the upgrade runs
    healed = agent.ok("observe", {"sessionId": game})
    assert healed["diagnostics"]["storage"]["status"] == "recovered" and healed["control"]["gate"] == "ready"
    searched = agent.ok("interact", {"sessionId": game, "viewId": healed["basis"]["viewId"], "action": "search"})
    assert searched["basis"]["revision"] == final["basis"]["revision"] + 1
    states = [e["state"] for e in journal(page, game)]
    assert states[-1] == "completed" and states.count("completed") == len(SCRIPT) + 1 and "reserved" not in states


HOLD_OPEN = """(name) => new Promise((resolve, reject) => {
  const request = indexedDB.open(name);
  request.onsuccess = () => { window.__held = request.result; resolve(request.result.version); };
  request.onerror = () => reject(request.error);
})"""


def test_two_tabs_one_owner_and_take_over(ctx: BrowserContext, site_url: str) -> None:
    first = open_site(ctx, site_url)
    owner = Agent(first)
    created = owner.ok("session", CREATE)
    game = created["basis"]["sessionId"]
    frame = play(owner, created, SCRIPT[:2])
    first.evaluate("(id) => { location.hash = '#/g/' + id; }", game)

    second = open_site(ctx, site_url, f"#/g/{game}")
    other = Agent(second)
    wait_until(second, "() => document.querySelector('[data-panel=ownership]')?.dataset.ownership === 'observer'", 30)
    assert second.locator("[data-control=take-over]").is_visible()
    watched = other.ok("observe", {"sessionId": game})
    assert watched["control"]["gate"] == "lostOwnership"
    assert watched["diagnostics"]["ownership"]["status"] == "observer"
    assert watched["diagnostics"]["ownership"]["holder"]["tabId"] == first.evaluate("() => window.nethackSite.tabId")
    refused = other.step(watched, SCRIPT[2])
    assert refused["error"]["code"] == "lostOwnership"
    assert len(journal(first, game)) == 2, "the observer sent and journaled nothing"

    # the owner plays on; the observer follows the journal
    frame = play(owner, frame, SCRIPT[2:4])
    owned_now = owner.ok("observe", {"sessionId": game})
    followed = other.ok("observe", {"sessionId": game})
    assert followed["basis"] == owned_now["basis"]
    assert followed["result"]["stateHash"] == owned_now["result"]["stateHash"]

    # a person takes it over in the second tab (the page asks first: test_board.py)
    second.locator("[data-control=take-over]").click()
    second.locator("[data-control=take-over-confirm]").click()
    wait_until(second, "() => document.querySelector('[data-panel=ownership]')?.dataset.ownership === 'owner'", 30)
    wait_until(first, "(id) => window.nethackSite.lost.includes(id)", 10, game)
    wait_until(first, "() => document.querySelector('[data-panel=ownership]')?.dataset.ownership === 'lost'", 10)
    length = len(journal(second, game))
    late = owner.step(frame, SCRIPT[4])  # the old owner's next call
    assert late["error"]["code"] == "lostOwnership" and late["control"]["gate"] == "lostOwnership"
    assert len(journal(second, game)) == length, "the old owner wrote nothing"

    taken = other.ok("observe", {"sessionId": game})
    assert taken["control"]["gate"] == "decision" and taken["basis"] == owned_now["basis"]
    frame = play(other, taken, SCRIPT[4:])
    # the old tab now follows the new owner read-only
    followed = owner.ok("observe", {"sessionId": game})
    assert followed["control"]["gate"] == "lostOwnership"
    final = other.ok("observe", {"sessionId": game})
    assert followed["result"]["stateHash"] == final["result"]["stateHash"]
    assert (final["result"]["stateHash"], final["basis"]["revision"]) == twin(second, game, SCRIPT)

    # handover without takeover: the owner closes the game; the first tab resumes it
    other.ok("session", {"action": "close", "sessionId": game})
    first.locator("[data-control=resume]").click()
    wait_until(first, "() => document.querySelector('[data-panel=ownership]')?.dataset.ownership === 'owner'", 30)
    back = owner.ok("observe", {"sessionId": game})
    assert back["control"]["gate"] == "ready" and back["result"]["stateHash"] == final["result"]["stateHash"]


def test_export_then_import_into_a_fresh_profile(
    ctx: BrowserContext, plain_browser: Browser, site_url: str, tmp_path: Any
) -> None:
    page = open_site(ctx, site_url)
    agent = Agent(page)
    created = agent.ok("session", CREATE)
    game = created["basis"]["sessionId"]
    play(agent, created, SCRIPT[:5])
    observed = agent.ok("observe", {"sessionId": game})
    page.evaluate("(id) => { location.hash = '#/g/' + id; }", game)
    with page.expect_download() as download:
        page.locator("[data-control=export]").click()
    path = tmp_path / "game.json"
    download.value.save_as(path)
    document = json.loads(path.read_text())
    assert document["format"] == "nethack-webmcp-game" and document["version"] == 1
    assert document["stateHash"] == observed["result"]["stateHash"]
    assert len(document["journal"]) == 5 and document["session"]["sessionId"] == game

    # the native CLI imports it: the same rules (game identity), so its engine
    # replays the browser's journal to the same state hash ...
    state = {**os.environ, "NNH_STATE_DIR": str(tmp_path / "state")}
    cli = subprocess.run(
        [sys.executable, "-m", "nethack_webmcp.export", "import", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=state,
        check=False,
    )
    assert cli.returncode == 0, cli.stderr
    result = json.loads(cli.stdout)
    assert result["stateHash"] == document["stateHash"] and result["verified"] is True
    # ... the game goes on natively, and the native export goes back to a browser
    native_hash = run(_native_continue(tmp_path / "state", game, SCRIPT[5:8]))
    exported = subprocess.run(
        [sys.executable, "-m", "nethack_webmcp.export", game],
        capture_output=True,
        text=True,
        timeout=120,
        env=state,
        check=False,
    )
    assert exported.returncode == 0, exported.stderr
    native_document = json.loads(exported.stdout)
    assert native_document["stateHash"] == native_hash and len(native_document["journal"]) == 8
    native_path = tmp_path / "native-game.json"
    native_path.write_text(exported.stdout)

    fresh = context(plain_browser)
    try:
        other = open_site(fresh, site_url)
        other.locator("[data-control=import]").set_input_files(str(path))
        wait_until(
            other, "() => document.querySelector('[data-field=import-result]')?.dataset.state === 'imported'", 60
        )
        row = wait_until(
            other, '(id) => document.querySelector(`tr[data-game-id="${id}"] [data-control=resume]`) !== null', 10, game
        )
        assert row
        turn = other.evaluate(
            '(id) => document.querySelector(`tr[data-game-id="${id}"] [data-col=turn]`).textContent', game
        )
        assert turn == str(observed["basis"]["turn"]), "an imported game lists the turn its replay reached"
        imported = Agent(other).ok("observe", {"sessionId": game})
        assert imported["result"]["stateHash"] == observed["result"]["stateHash"]
        assert comparable(imported) == comparable(observed)

        # the same file again: refused, and says why
        other.locator("[data-control=import]").set_input_files(str(path))
        wait_until(other, "() => document.querySelector('[data-field=import-result]')?.dataset.state === 'refused'", 60)
        assert (
            other.evaluate("() => document.querySelector('[data-field=import-result]').dataset.code") == "sessionExists"
        )
    finally:
        fresh.close()

    # the game continued natively imports into a third profile at the native state
    third = context(plain_browser)
    try:
        page3 = open_site(third, site_url)
        page3.locator("[data-control=import]").set_input_files(str(native_path))
        wait_until(
            page3, "() => document.querySelector('[data-field=import-result]')?.dataset.state === 'imported'", 60
        )
        continued = Agent(page3).ok("observe", {"sessionId": game})
        assert continued["result"]["stateHash"] == native_hash
        assert continued["basis"]["revision"] == 8
    finally:
        third.close()


async def _native_continue(state_dir: Any, session_id: str, steps: list[tuple[str, dict[str, Any]]]) -> str:
    """Resume an imported game in the native store, play `steps`, close it;
    returns the state hash reached."""
    from nethack_webmcp.hosting import native_registry
    from nethack_webmcp.tools import BY_NAME, ToolContext

    from .durable_harness import arguments_for

    games = native_registry(str(state_dir))
    ctx = ToolContext(games)
    try:
        frame = await BY_NAME["observe"].call(ctx, {"sessionId": session_id})
        assert "error" not in frame, frame["error"]
        for step in steps:
            frame = await BY_NAME[step[0]].call(ctx, arguments_for(frame, step)[1])
            assert "error" not in frame, frame["error"]
        return (await BY_NAME["observe"].call(ctx, {"sessionId": session_id}))["result"]["stateHash"]
    finally:
        await games.close_all()


def test_resume_refuses_another_engine_and_a_diverging_journal(ctx: BrowserContext, site_url: str) -> None:
    page = open_site(ctx, site_url)
    agent = Agent(page)
    created = agent.ok("session", CREATE)
    game = created["basis"]["sessionId"]
    play(agent, created, SCRIPT[:3])
    agent.ok("session", {"action": "close", "sessionId": game})

    # the stored game claims other rules (another driver, patch or options)
    tamper(page, "sessions", game, None, {"engineIdentity": "rules-sha256:other-rules"})
    page.goto(f"{site_url}#/g/{game}")
    wait_ready(page)
    alert = wait_until(page, "() => document.querySelector('[data-field=resume-error]')?.dataset.code", 30)
    assert alert == "engineMismatch"
    # the game stays closed (durably): an agent is told so, and its explicit resume why not
    assert agent.call("observe", {"sessionId": game})["error"]["code"] == "sessionClosed"
    refused = agent.call("session", {"action": "resume", "sessionId": game})
    assert refused["error"]["code"] == "engineMismatch"
    assert refused["error"]["recorded"] == "rules-sha256:other-rules"
    tamper(page, "sessions", game, None, {"engineIdentity": page.evaluate("() => window.nethackSite.identity")})

    # a journal entry whose recorded boundary the engine does not reach
    tamper(page, "journal", game, 2, {"receipt": {"revision": 7, "decision": None, "ended": False, "end": None}})
    reload(page)
    alert = wait_until(page, "() => document.querySelector('[data-field=resume-error]')?.dataset.code", 30)
    assert alert == "replayDiverged"
    refused = agent.call("session", {"action": "resume", "sessionId": game})
    assert refused["error"]["code"] == "replayDiverged" and refused["error"]["seq"] == 2
    assert len(journal(page, game)) == 3, "a refused resume writes nothing"


def tamper(page: Page, store: str, game: str, seq: int | None, fields: dict[str, Any]) -> None:
    """Change a stored object directly in IndexedDB (the page shares the worker's origin)."""
    page.evaluate(
        """async ([store, key, fields]) => {
      const db = await new Promise((resolve, reject) => {
        const request = indexedDB.open('nethack-webmcp-journal');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      await new Promise((resolve, reject) => {
        const tx = db.transaction(store, 'readwrite');
        const objects = tx.objectStore(store);
        const get = objects.get(key);
        get.onsuccess = () => objects.put({...get.result, ...fields});
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    }""",
        [store, game if seq is None else [game, seq], fields],
    )
