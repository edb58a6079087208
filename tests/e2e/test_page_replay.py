"""test_page_replay.py - the page seeks a stored game from IndexedDB checkpoints (docs/REPLAY.md).

A game played natively is stored in the page's journal database; the page
opens its replay (worker/page-replay.js: the Asyncify build in instances of
its own, checkpoints compressed into IndexedDB), seeks to random moves, and
each frame's map rows equal what a brand-new native engine shows at that
move. After a reload the stored checkpoints are reused (no rebuild); one of
them with a byte changed is refused and the set rebuilt, and seeks are still
exact.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from playwright.sync_api import BrowserContext
from support.wandering_game import native_rows, wandering_game

from .durable_harness import open_site, reload
from .page_replay_harness import replay, store_game, tamper_checkpoint


async def play(inputs: int) -> dict[str, Any]:
    return await wandering_game(inputs, seed=23, name="Seek", stride=3, prefix="s")


def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run natively beside the sync Playwright API (whose event loop holds this thread)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_page_seeks_equal_native_frames_and_a_tampered_checkpoint_is_rebuilt(
    ctx: BrowserContext, site_url: str
) -> None:
    game = run(play(900))
    session_id = game["info"]["sessionId"]
    targets = random.Random(5).sample(range(0, 901), 8) + [900, 0]
    expected = {move: run(native_rows(game, move)) for move in targets}

    page = open_site(ctx, site_url)
    assert store_game(page, game) == 900
    opened = replay(page, "open", session_id)
    assert opened["moves"] == 900 and opened["rebuilt"] is True and opened["checkpoints"] >= 3, opened
    for move in targets:
        frame = replay(page, "frame", session_id, move)
        assert frame["move"] == move and frame["exact"] is True
        assert frame["rows"] == expected[move], f"move {move}: the page's frame is not the game's"
    assert replay(page, "resume", session_id)["ms"] > 0
    listed = replay(page, "moves", session_id, 1, 5)
    assert [move["move"] for move in listed] == [1, 2, 3, 4, 5]
    for move, entry in zip(listed, game["entries"][:5], strict=True):
        assert move["method"] == entry["method"] and move["revision"] == entry["receipt"]["revision"]
        assert "sessionId" not in move["params"] and entry["method"] in move["call"]["label"]

    reload(page)  # a new worker: only IndexedDB remains
    reopened = replay(page, "open", session_id)
    assert reopened["rebuilt"] is False and reopened["refused"] == [], reopened
    assert replay(page, "frame", session_id, targets[0])["rows"] == expected[targets[0]]

    victim = tamper_checkpoint(page, session_id)
    reload(page)
    refused = replay(page, "open", session_id)
    assert refused["refused"] == [victim] and refused["rebuilt"] is True, refused
    for move in targets[:4]:
        assert replay(page, "frame", session_id, move)["rows"] == expected[move]


def test_a_game_that_goes_on_is_followed_and_checkpointed(ctx: BrowserContext, site_url: str) -> None:
    game = run(play(500))
    session_id = game["info"]["sessionId"]
    expected = run(native_rows(game, 480))
    page = open_site(ctx, site_url)
    store_game(page, {"info": game["info"], "entries": game["entries"][:300]})
    first = replay(page, "open", session_id)
    assert first["moves"] == 300, first
    store_game(page, game)  # 200 more inputs were journaled meanwhile
    grown = replay(page, "refresh", session_id)
    assert grown["moves"] == 500 and grown["checkpoints"] > first["checkpoints"], (first, grown)
    assert replay(page, "frame", session_id, 480)["rows"] == expected
