"""test_exact_resume.py - a restarted host shows exactly the frames of an uninterrupted game.

One fixed game (exact_resume_play.py: seed 6, wizard fixture, a
deterministic mix of explore/step/run/descend/climb/search/kick/open legs,
answers, observe and plan) is played for 500 tool calls twice on the real
native engine and real SQLite: once uninterrupted, once with the host
restarted (registry closed, a fresh one over the same state directory)
after every 10 calls, so the game is resumed by replay 49 times. Every
frame must be the same, byte for byte as canonical JSON, with only the ids
that legitimately differ masked (the per-game view nonce, generated
operation IDs) and the documented resume notice (`diagnostics.resume`)
left out; the navigation memory itself must be the same at every restart.

The mix's own coverage is asserted too, so the comparison cannot pass by
playing a game with nothing in it to remember (levels left and revisited,
known traps, questions, observes).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from exact_resume_play import differences, play

pytestmark = pytest.mark.asyncio

CALLS = 500
RESTART_EVERY = 10


async def test_restarting_every_ten_calls_changes_no_frame(tmp_path: Path, state_dir: Path) -> None:
    started = time.perf_counter()
    straight = await play(tmp_path / "uninterrupted", CALLS, checkpoint=RESTART_EVERY)
    restarted = await play(state_dir, CALLS, RESTART_EVERY, checkpoint=RESTART_EVERY)
    seconds = time.perf_counter() - started

    assert len(straight.frames) == len(restarted.frames) == CALLS + 1
    assert restarted.resumes == CALLS // RESTART_EVERY - 1 and straight.resumes == 0
    for index, (original, resumed) in enumerate(zip(straight.frames, restarted.frames, strict=True)):
        assert original == resumed, (
            f"frame {index} differs after a restart: {differences(json.loads(original), json.loads(resumed))[:5]}"
        )
    for checkpoint, (before, after) in enumerate(zip(straight.memories, restarted.memories, strict=True)):
        assert before == after, f"the navigation memory differs after the resume at call {checkpoint * 10}"

    # what the game had to remember across the restarts
    shown = [json.loads(frame) for frame in straight.frames]
    assert len(set(straight.levels)) >= 4, straight.levels
    assert len(straight.levels) > len(set(straight.levels)), "a level left behind is shown again"
    assert sum(1 for f in shown if f["scene"] and any(x["kind"] == "trap" for x in f["scene"]["features"])) >= 50
    assert sum(1 for f in shown if f.get("decision")) >= 3
    assert sum(1 for f in shown if (f.get("result") or {}).get("kind") == "observe") >= 80
    # (legs stop at any attack on the hero since issue 23, so this game has fewer long ones)
    assert sum(1 for f in shown if (f.get("outcome") or {}).get("actionsTaken", 0) > 1) >= 40, "legs"
    assert seconds < 240, f"two 500-call games took {seconds:.0f} s"
