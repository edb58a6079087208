"""test_page_timeline.py - the game page's timeline over the page's replays (docs/REPLAY.md).

`#/g/<id>#move=N` opens the shared timeline widget (web/src/timeline/) on the
page's source (page-timeline-source.js: the stored journal replayed in the
worker from IndexedDB checkpoints) at move N; the map it shows is exactly
what a brand-new native engine shows at that move, and → steps one move.
"""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page

from .durable_harness import open_site
from .page_replay_harness import store_game
from .site_harness import wait_until
from .test_page_replay import native_rows, play, run


def shown(page: Page, move: int) -> str:
    selector = f'[data-field="timeline-frame"][data-move="{move}"] [data-field="timeline-map"]'
    return str(wait_until(page, "(s) => document.querySelector(s)?.textContent ?? null", 60, selector))


def test_move_route_opens_the_timeline_at_that_move_and_arrows_step(ctx: BrowserContext, site_url: str) -> None:
    game = run(play(400))
    session_id = game["info"]["sessionId"]
    expected = {move: "\n".join(run(native_rows(game, move))) for move in (123, 124)}
    page = open_site(ctx, site_url)
    store_game(page, game)
    page.goto(f"{site_url}#/g/{session_id}#move=123")
    assert shown(page, 123) == expected[123]
    page.focus('[data-field="timeline"]')
    page.keyboard.press("ArrowRight")
    assert shown(page, 124) == expected[124]
    assert page.evaluate("() => location.hash") == f"#/g/{session_id}#move=124"
