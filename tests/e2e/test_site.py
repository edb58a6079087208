"""test_site.py - the page as a person sees it: a second tab, hostile text,
records of completed games, boot errors, and requests that stay on the origin."""

from __future__ import annotations

from typing import Any

import pytest

from .site_harness import (
    ROOT,
    Site,
    assert_spectator_matches,
    boot,
    spectator_state,
    wait_for_revision,
    wait_until,
    walkable_direction,
)

STORED_GAME = """async (id) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('nethack-webmcp');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const read = (store) => new Promise((resolve, reject) => {
    const request = db.transaction(store).objectStore(store).get(id);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const [game, snapshot] = [await read('games'), await read('snapshots')];
  db.close();
  return {game, snapshotRevision: snapshot ? snapshot.revision : null};
}"""


def settle(site: Site, game: str) -> dict[str, Any]:
    """observe the game and wait until the first tab's spectator shows it."""
    site.show_game(site.page, game)
    observed = site.call("observe", {"sessionId": game})
    wait_for_revision(site.page, observed["basis"]["revision"])
    return observed


def test_second_tab_sees_the_same_state_and_changes_nothing(site: Site) -> None:
    created = site.call("session", {"action": "create", "seed": 31337, "role": "samurai"})
    game = created["basis"]["sessionId"]
    site.call(
        "travel",
        {
            "sessionId": game,
            "viewId": created["basis"]["viewId"],
            "mode": "step",
            "target": {"direction": walkable_direction(created)},
        },
    )
    observed = settle(site, game)
    stored = site.page.evaluate(STORED_GAME, game)

    second = site.context.new_page()
    try:
        second.goto(f"{site.url}#/g/{game}")
        shown = wait_for_revision(second, observed["basis"]["revision"])
        assert_spectator_matches(shown, observed)
        assert shown == spectator_state(site.page)

        second.wait_for_timeout(3000)  # three poll periods of the second tab
        # read the store before the owner's observe below: that observe
        # refreshes the game's updatedAt on the page's 120 ms write timer,
        # which a loaded machine let land before this read
        assert site.page.evaluate(STORED_GAME, game) == stored
        after = site.call("observe", {"sessionId": game})
        assert (after["basis"]["revision"], after["basis"]["turn"]) == (
            observed["basis"]["revision"],
            observed["basis"]["turn"],
        )

        # The owner acts; the second tab follows without being asked.
        moved = site.call(
            "travel",
            {
                "sessionId": game,
                "viewId": after["basis"]["viewId"],
                "mode": "step",
                "target": {"direction": walkable_direction(after)},
            },
        )
        assert moved["outcome"]["submission"] == "accepted"
        followed = wait_for_revision(second, moved["basis"]["revision"])
        assert followed["turn"] == str(moved["basis"]["turn"])
    finally:
        second.close()


HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_HARNESS = "<script>window.__pwned=1</script><b>bold</b>"
HOSTILE_MODEL = '"><svg onload=window.__pwned=2>'
MARKUP = "#main img, #main script, #main svg, #main b, #main iframe"


def test_hostile_name_and_labels_render_as_text(site: Site) -> None:
    created = site.call(
        "session",
        {
            "action": "create",
            "seed": 5,
            "name": HOSTILE_NAME,
            "harness_name": HOSTILE_HARNESS,
            "model_name": HOSTILE_MODEL,
        },
    )
    game = created["basis"]["sessionId"]
    assert created["result"]["session"]["name"] == HOSTILE_NAME
    settle(site, game)
    shown = spectator_state(site.page)
    assert (shown["name"], shown["harness"], shown["model"]) == (HOSTILE_NAME, HOSTILE_HARNESS, HOSTILE_MODEL)
    messages = site.page.evaluate("() => document.querySelector('[data-field=messages]').textContent")
    assert f"Hello {HOSTILE_NAME}, welcome" in messages
    assert site.page.evaluate(f"() => document.querySelectorAll('{MARKUP}').length") == 0

    site.show_home(site.page)
    row = wait_until(
        site.page,
        '(id) => { const row = document.querySelector(`tr[data-game-id="${id}"]`); return row && row.textContent; }',
        10,
        game,
    )
    assert HOSTILE_NAME in row and HOSTILE_HARNESS in row and HOSTILE_MODEL in row
    assert site.page.evaluate(f"() => document.querySelectorAll('{MARKUP}').length") == 0
    assert site.page.evaluate("() => window.__pwned") is None
    site.call("session", {"action": "close", "sessionId": game})


def answer_until_ended(site: Site, frame: dict[str, Any]) -> dict[str, Any]:
    for _ in range(20):
        if frame["control"]["gate"] != "decision":
            return frame
        decision = frame["decision"]
        if decision["kind"] == "confirmation":
            frame = site.call("respond", {**decision["reply"]["arguments"], "value": False})
        else:
            frame = site.call("respond", decision["cancel"]["arguments"])
    return frame


def test_a_completed_game_is_listed_in_the_records(site: Site) -> None:
    created = site.call(
        "session", {"action": "create", "seed": 2024, "harness_name": "e2e records", "model_name": "scripted"}
    )
    game = created["basis"]["sessionId"]
    asked = site.call("session", {"sessionId": game, "viewId": created["basis"]["viewId"], "action": "quit"})
    assert asked["decision"]["kind"] == "confirmation" and "quit" in asked["decision"]["prompt"].lower()
    frame = site.call("respond", {**asked["decision"]["reply"]["arguments"], "value": True})
    frame = answer_until_ended(site, frame)
    assert frame["control"]["gate"] == "ended", frame
    end = frame["scene"]["end"]
    assert end["how"] == "quit"

    site.show_home(site.page)
    cells = wait_until(
        site.page,
        '(id) => { const row = document.querySelector(`table.records tr[data-game-id="${id}"]`); '
        "return row && Object.fromEntries([...row.cells].map((cell) => [cell.dataset.col, cell.textContent])); }",
        10,
        game,
    )
    assert cells["character"] == created["scene"]["self"]["name"]
    assert cells["role"].lower() == created["scene"]["self"]["role"].lower()
    assert cells["started"] != "—" and cells["ended"] != "—"
    assert (cells["end-reason"], cells["turns"], cells["deepest"], cells["depth"], cells["score"]) == (
        "quit",
        str(end["turn"]),
        str(end["deepest"]),
        str(end["depth"]),
        str(end["score"]),
    )
    assert (cells["harness"], cells["model"]) == ("e2e records", "scripted")

    site.show_game(site.page, game)
    wait_until(site.page, "() => document.querySelector('[data-field=end-reason]')", 10)
    assert site.page.evaluate("() => document.querySelector('[data-field=end-reason]').textContent") == "quit"
    assert spectator_state(site.page)["lifecycle"] == "ended"


# Boot failures do not depend on the WebMCP path: checked once, on the polyfill
# site (selected, not skipped, so the suite reports no skip).
@pytest.mark.parametrize("site", ["polyfill"], indirect=True)
def test_a_failed_load_is_reported_clearly(site: Site) -> None:
    context = site.browser.new_context()
    # no snapshot either (the boot falls back to the plain path, which needs micropip)
    context.route("**/snapshot/*", lambda route: route.abort())
    context.route("**/wheels/micropip-*", lambda route: route.fulfill(status=404, body="missing"))
    page = context.new_page()
    try:
        page.goto(site.url)
        state = wait_until(
            page, "() => window.nethackSite && window.nethackSite.status === 'failed' && window.nethackSite.error", 60
        )
        assert state["stage"] == "micropip", state
        alert = page.locator("#boot [role=alert]").text_content()
        assert alert is not None and "could not start (stage: micropip)" in alert
    finally:
        context.close()


def test_every_request_stays_on_the_page_origin(site: Site) -> None:
    # Boot a fresh page so the whole load is in the record, then check
    # everything this browser context asked for in the run so far.
    page = site.context.new_page()
    try:
        boot(page, site.url)
    finally:
        page.close()
    requests = list(site.requests)
    assert any(url.endswith("pyodide.asm.wasm") for url in requests), "worker requests must be recorded too"
    assert any("/engine/jspi/nethack.wasm" in url for url in requests), "Chromium has JSPI: the JSPI build"
    # a boot downloads one build; once games are played this context also fetched the Asyncify build, which
    # the page's replays and background checkpointer run (web/src/worker/follower.js): a fresh profile's boot
    fresh = site.browser.new_context()
    booted: list[str] = []
    fresh.on("request", lambda request: booted.append(request.url))
    try:
        boot(fresh.new_page(), site.url)
    finally:
        fresh.close()
    assert any("/engine/jspi/nethack.wasm" in url for url in booted), "Chromium has JSPI: the JSPI build"
    assert not any("/engine/asyncify/" in url for url in booted), "one build is downloaded at boot, not both"
    assert not [url for url in booted if not url.startswith((site.url, "data:"))]
    assert any("/wheels/" in url and url.endswith(".whl") for url in requests)
    foreign = [url for url in requests if not (url.startswith((site.url, "data:")))]
    assert foreign == [], foreign


def test_page_sources_never_parse_markup() -> None:
    """Game and label text reach the DOM only as text: no HTML-parsing sinks in the page's code."""
    sinks = ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "createContextualFragment")
    sources = [*(ROOT / "web" / "src").rglob("*.js"), *(ROOT / "webmcp").rglob("*.js")]
    assert sources
    offending = [(path.name, sink) for path in sources for sink in sinks if sink in path.read_text()]
    assert offending == []
