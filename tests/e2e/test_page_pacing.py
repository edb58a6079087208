"""test_page_pacing.py - a page game played without pause waits for its checkpoints.

The page's background checkpointer prices a resume's tail per input and says
where its checkpoints reach (worker.pace_progress); an input waits while the
tail, so priced, is over the budget (session/page_pacing.py). With a budget of
almost nothing every call's first input waits until the checkpoints reach the
game's last entry, so:

- after every call the game is at most that call's own inputs past its newest
  checkpoint (a leg's later inputs do not wait: their completion is held);
- some inputs waited, and no wait ran out (the follower works while the call waits: it is in flight,
  but holds nothing the follower needs);
- waiting changed nothing: the game equals the same calls played natively;
- a reload right after the burst resumes replaying at most the last call's inputs.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import BrowserContext, Page

from .durable_harness import Agent, arguments_for, open_site, python, reload, twin
from .test_page_background_checkpoints import CREATE, next_step, resume

CALLS = 40

TINY_BUDGET = """
from nethack_webmcp.session import page_pacing
page_pacing.PAGE_TAIL_BUDGET = 0.0001  # (read when a game's pace is made: at its first checkpoint)
'null'
"""

STATE = """
import json
from nethack_webmcp import worker
session = worker._games().get(SESSION)
pace = session.pace
json.dumps({"seq": session.journal.seq, "pace": None if pace is None else {
    "checkpointed": pace.checkpointed, "perInput": pace.per_input, "holds": pace.holds, "stalled": pace.stalled}})
"""


def state(page: Page, session_id: str) -> dict[str, Any]:
    return dict(python(page, f"SESSION = {session_id!r}\n" + STATE))


def test_a_page_game_played_without_pause_waits_for_its_checkpoints(ctx: BrowserContext, site_url: str) -> None:
    page = open_site(ctx, site_url)
    python(page, TINY_BUDGET)
    agent = Agent(page)
    frame = agent.ok("session", {**CREATE, "seed": 43, "harness_name": "e2e pacing"})
    session_id = frame["basis"]["sessionId"]
    steps = []
    paced_calls = 0
    before = state(page, session_id)
    for index in range(CALLS):
        step = next_step(index, frame)
        steps.append(step)
        frame = agent.ok(*arguments_for(frame, step))
        after = state(page, session_id)
        pace = after["pace"]
        # paced from the first checkpoint priced with full responses (the follower's first one after its start)
        if before["pace"] is not None and before["pace"]["perInput"] > 0:
            paced_calls += 1
            assert not pace["stalled"], (index, pace)
            assert after["seq"] - pace["checkpointed"] <= after["seq"] - before["seq"], (index, before, after)
        before = after
    assert paced_calls >= CALLS // 2, paced_calls
    # (a checkpoint is also due after every call at this budget: the next call often finds it made)
    assert before["pace"]["holds"] >= 1, before["pace"]
    last = agent.ok("observe", {"sessionId": session_id})
    # waiting changed nothing: the same calls played uninterrupted natively
    assert twin(page, session_id, steps) == (last["result"]["stateHash"], last["basis"]["revision"])

    tail = before["seq"] - before["pace"]["checkpointed"]
    reload(page)  # right after the burst
    resumed = resume(page, session_id, True)
    assert resumed["report"]["replayed"] <= tail, (resumed["report"], tail)
    assert json.dumps(resumed["frame"]["scene"], sort_keys=True) == json.dumps(last["scene"], sort_keys=True)
