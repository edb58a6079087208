"""test_drop_import.py - an exported game file dropped on the page's home opens as a replay (docs/REPLAY.md).

A real game played natively (the native rules identity recorded, as the
stdio server records it) is exported as `python -m nethack_webmcp.export`
does. The file is dropped on the home page with a real DragEvent carrying it
in a DataTransfer: the page imports it exactly as the file picker does (its
journal replayed and the exported state hash checked) and opens its
timeline at move 0, whose map is what a brand-new native engine shows there.
The same file with a move changed is refused with the picker's refusal, and
the page stays home.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from nethack_webmcp.engine.native import NativeEngine, native_identity
from nethack_webmcp.exchange import export_game
from nethack_webmcp.session import GameRegistry
from nethack_webmcp.store.memory import MemoryStore
from playwright.sync_api import BrowserContext, Page

from .durable_harness import open_site, run
from .site_harness import wait_until
from .test_page_replay import native_rows

COMPASS = ["north", "east", "south", "west"]

DROP = """async ({ name, text }) => {
  const transfer = new DataTransfer();
  transfer.items.add(new File([text], name, { type: 'application/json' }));
  const target = document.querySelector('[data-field=import-result]').closest('main') ?? document.body;
  const inner = target.querySelector('h2');  // dropped on a heading: the event bubbles to the home view
  const over = new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true });
  const accepted = !inner.dispatchEvent(over);  // the page called preventDefault: a drop is allowed here
  inner.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  return accepted;
}"""


async def exported_game(inputs: int) -> tuple[dict[str, Any], dict[str, Any]]:
    store = MemoryStore()
    games = GameRegistry(NativeEngine.start, store=store, identity=native_identity())
    session = await games.create({"seed": 17, "name": "Drop", "createdAt": 1700000000, "wizard": True})
    for sent in range(inputs):
        if session.decision is not None:
            await session.step("decision.cancel", {"decisionId": session.decision["id"]}, request_id=f"d{sent}")
        else:
            await session.step("game.move", {"direction": COMPASS[sent % 4]}, request_id=f"d{sent}")
    await games.close_all()
    info = await store.get_session(session.session_id)
    entries = await store.journal(session.session_id)
    document = await export_game(store, session.session_id, engine_factory=NativeEngine.start)
    return json.loads(json.dumps(document)), {"info": info, "entries": entries}


def drop(page: Page, name: str, document: dict[str, Any]) -> bool:
    return bool(page.evaluate(DROP, {"name": name, "text": json.dumps(document)}))


def test_a_dropped_game_file_is_imported_and_opens_as_a_replay(ctx: BrowserContext, site_url: str) -> None:
    document, game = run(exported_game(12))
    session_id = document["session"]["sessionId"]
    first_map = "\n".join(run(native_rows(game, 0)))
    page = open_site(ctx, site_url)

    changed = copy.deepcopy(document)
    move = next(entry for entry in changed["journal"][2:] if entry["method"] == "game.move")
    move["method"] = move["request"]["method"] = "game.search"
    move["request"]["params"] = {"turns": 5}
    assert drop(page, "changed.json", changed), "the home page accepts a dragged file"
    wait_until(page, "() => document.querySelector('[data-field=import-result]')?.dataset.state === 'refused'", 60)
    code = page.evaluate("() => document.querySelector('[data-field=import-result]').dataset.code")
    assert code in {"stateMismatch", "replayDiverged"}, code
    assert page.evaluate("() => location.hash") in {"", "#/"}, "a refused file opens nothing"

    assert drop(page, "game.json", document)
    wait_until(page, "(hash) => location.hash === hash", 60, f"#/g/{session_id}#move=0")
    selector = '[data-field="timeline-frame"][data-move="0"] [data-field="timeline-map"]'
    shown = wait_until(page, "(s) => document.querySelector(s)?.textContent ?? null", 60, selector)
    assert shown == first_map, "the replay's first frame is the native engine's"
    status = page.evaluate("() => document.querySelector('[data-field=replay-status]').textContent")
    assert status.startswith(f"{len(document['journal'])} moves"), status
