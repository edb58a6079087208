"""test_page_move_list.py - the page's move list names each tool call and shows what it ended with (docs/REPLAY.md).

A game played in the page through WebMCP (the polyfill's client, as an
agent calls it): its game page's timeline (`#/g/<id>#move=1`, the page's
source over the worker's replay) lists one row per tool call, labelled as
the agent wrote the call (`travel {"mode":"explore","maxActions":5}`), with
its outcome, the game's messages, turn, Dlvl and HP equal to the frame that
call returned, and the moves each call made.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import BrowserContext

from .durable_harness import Agent, open_site
from .site_harness import SCREENSHOTS, wait_until

PLAYED: list[tuple[str, dict[str, Any]]] = [
    ("interact", {"action": "search", "turns": 3}),
    ("travel", {"mode": "explore", "maxActions": 5}),
    ("interact", {"action": "search"}),
    ("travel", {"mode": "explore", "maxActions": 4}),
]
ROWS = """() => [...document.querySelectorAll('[data-field="timeline-calls"] li[data-call]')].map((li) => ({
  first: Number(li.dataset.first), last: Number(li.dataset.last),
  label: li.querySelector('code').textContent,
  outcome: li.querySelector('.outcome')?.textContent.trim() ?? null,
  facts: li.querySelector('.facts').textContent.trim(),
  messages: li.querySelector('q')?.textContent ?? null,
}))"""


def said(frame: dict[str, Any]) -> str | None:
    """The game's messages in a frame's events, as the agent read them, in one line."""
    texts = []
    for event in frame.get("events") or []:
        text = " ".join(event["lines"]) if event.get("type") == "passage" else event.get("text")
        if isinstance(text, str) and text.strip():
            texts.append(text)
    return " ".join(texts) if texts else None


def facts(frame: dict[str, Any]) -> str:
    me = frame["scene"]["self"]
    vitals = me["vitals"]
    return f"T:{frame['basis']['turn']} · Dlvl {me['level']['depth']} · HP {vitals['hp']}/{vitals['hpMax']}"


def test_the_move_list_names_each_tool_call_with_its_messages_turn_and_hp(ctx: BrowserContext, site_url: str) -> None:
    page = open_site(ctx, site_url)
    agent = Agent(page)
    frame = agent.ok("session", {"action": "create", "seed": 1_734_260_911, "name": "Lister"})
    game = frame["basis"]["sessionId"]
    frames = []
    for tool, arguments in PLAYED:
        frame = agent.ok(tool, {"sessionId": game, "viewId": frame["basis"]["viewId"], **arguments})
        frames.append(frame)

    page.evaluate("(id) => { location.hash = `#/g/${id}#move=1`; }", game)
    rows = wait_until(page, f"() => {{ const rows = ({ROWS})(); return rows.length === {len(PLAYED)} && rows; }}", 90)
    labels = [f"{tool} {json.dumps(arguments, separators=(',', ':'))}" for tool, arguments in PLAYED]
    assert [row["label"] for row in rows] == labels
    for row, made in zip(rows, frames, strict=True):
        assert row["outcome"] == made["outcome"]["status"], row
        assert row["facts"] == facts(made), row
        assert row["messages"] == said(made), row
    assert rows[0]["first"] == 1 and all(a["last"] + 1 == b["first"] for a, b in zip(rows, rows[1:], strict=False))
    assert any(row["last"] > row["first"] for row in rows), "an explore leg made several moves"
    assert any(row["messages"] for row in rows), "some call had something to say"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator('[data-field="timeline-calls"]').screenshot(path=str(SCREENSHOTS / "page-move-list.png"))
