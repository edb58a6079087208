"""exact_resume_play.py - one deterministic game of N tool calls, with or without restarts.

Shared by test_exact_resume.py and by hand (`python exact_resume_play.py
CALLS EVERY`): the same fixture game (wizard mode, so it lasts: "Die?" is
answered no) is driven through the tool layer (ToolContext + the tools, as
an MCP client calls them) by a fixed mix of acting and free calls whose
arguments depend only on the call number and the frames the game returned.
With `restart_every` the registry is closed (engines retired, ownership
released) and a fresh one is opened over the same state directory after
every that many calls: the next call resumes the game by replay, exactly
as a restarted MCP server does.

Every frame is recorded as canonical JSON with the ids that legitimately
differ between two stored games masked (`mask`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from durable_support import registry
from support.client import CREATED_AT, Client

SESSION_ID = "exact-resume"
SEED = 6
PARAMS = {"seed": SEED, "name": "Ada", "createdAt": CREATED_AT, "wizard": True, "sessionId": SESSION_ID}
COMPASS = ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest")
RESUME_NOTICE = "resume"  # diagnostics.resume: the one key a resumed frame adds


GENERATED_OPERATION = re.compile(r"op-[0-9]+-[0-9a-f]{6}")  # Session.new_operation_id


def mask(frame: dict[str, Any], nonce: str) -> str:
    """The frame as canonical JSON with what legitimately differs masked:

    * the view nonce inside every viewId (`v<revision>-<nonce>`): random per
      stored game, and the two runs are two games (a resumed game keeps its
      own nonce, so within one run nothing is masked);
    * a generated `outcome.operationId` (`op-<n>-<nonce>`, for a call
      without a requestId): unique per host process by design, so a
      restarted host names its operations differently;
    * the documented resume notice: `diagnostics.resume`, on the first
      frame after a resume.
    """
    shown = dict(frame)
    diagnostics = dict(shown.get("diagnostics") or {})
    diagnostics.pop(RESUME_NOTICE, None)
    shown["diagnostics"] = diagnostics
    outcome = shown.get("outcome")
    if outcome and GENERATED_OPERATION.fullmatch(str(outcome.get("operationId"))):
        shown["outcome"] = {**outcome, "operationId": "op-GENERATED"}
    text = json.dumps(shown, sort_keys=True, separators=(",", ":"))
    return re.sub(rf"\bv([0-9]+)-{re.escape(nonce)}\b", r"v\1-NONCE", text)


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as `path: a != b` lines (for failure messages)."""
    if isinstance(a, dict) and isinstance(b, dict):
        found = []
        for key in sorted(set(a) | set(b)):
            found += differences(a.get(key), b.get(key), f"{path}.{key}")
        return found
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        found = []
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            found += differences(x, y, f"{path}[{index}]")
        return found
    return [] if a == b else [f"{path}: {json.dumps(a)[:200]} != {json.dumps(b)[:200]}"]


def answer(frame: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The fixed reply policy for a standing question: no to "Die?", yes to
    other confirmations, else cancel (or the first option when it cannot be cancelled)."""
    decision = frame["decision"]
    if decision["kind"] == "confirmation":
        value: Any = not decision["prompt"].startswith("Die?")
        return "respond", {**decision["reply"]["arguments"], "value": value}
    if decision.get("cancel"):
        return "respond", dict(decision["cancel"]["arguments"])
    if decision["kind"] == "direction":
        return "respond", {**decision["reply"]["arguments"], "value": "north"}
    return "respond", {**decision["reply"]["arguments"], "value": [0]}


class Player:
    """The fixed mix. Its only state is what earlier frames said, so two runs
    that saw the same frames make the same calls: answers first, then any
    errand an earlier frame started (walk to a closed door explore reported,
    open it, kick it, step through; climb down once descend reached a way
    down), else a cycle of ten that explores, walks, searches, runs,
    descends, kicks and asks the free tools (observe, plan)."""

    def __init__(self) -> None:
        self.errand: list[tuple[str, dict[str, Any]]] = []
        self.doors_tried: set[tuple[int, int]] = set()
        self.levels: set[str] = set()

    def next_call(self, index: int, frame: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        if frame.get("decision") and frame["control"]["gate"] == "decision":
            return answer(frame)
        self._plan_errand(frame)
        bound = {"sessionId": SESSION_ID, "viewId": frame["basis"]["viewId"], "requestId": f"call-{index}"}
        if self.errand:
            tool, arguments = self.errand.pop(0)
            return tool, {**bound, **arguments}
        direction = COMPASS[(index // 10 + index) % 8]
        slot = index % 10
        if slot in (0, 4):
            return "travel", {**bound, "mode": "explore", "maxActions": 30}
        if slot == 1:
            return "travel", {**bound, "mode": "step", "target": {"direction": direction}}
        if slot == 2:
            return "interact", {**bound, "action": "search", "turns": 2}
        if slot == 3:
            return "observe", {"sessionId": SESSION_ID}
        if slot == 5:
            return "travel", {**bound, "mode": "run", "direction": direction}
        if slot == 6:
            return "plan", {"sessionId": SESSION_ID, "query": "neighborhood"}
        if slot == 7:
            return "travel", {**bound, "mode": "descend", "maxActions": 40}
        if slot == 8:
            return "observe", {"sessionId": SESSION_ID}
        return "interact", {**bound, "action": "kick", "target": {"direction": direction}}

    def _plan_errand(self, frame: dict[str, Any]) -> None:
        level = frame["basis"]["levelId"]
        if level not in self.levels:
            self.levels.add(level)
            if len(self.levels) > 1 and (frame.get("scene") or {}).get("here", {}).get("terrain") == "stairsUp":
                # just arrived: go back up and down again, so the memory of a
                # level left behind is shown again (and must be the same)
                self.errand = [("travel", {"mode": "climb", "direction": d}) for d in ("up", "down")]
                return
        result = frame.get("result") or {}
        if result.get("kind") != "leg":
            return
        if result.get("mode") == "descend" and result.get("stopReason") == "atWayDown":
            self.errand = [("travel", {"mode": "climb", "direction": "down"})]
            return
        if result.get("mode") != "explore" or result.get("actionsTaken"):
            return
        for door in result.get("closedDoors") or ():
            square = (door["x"], door["y"])
            if square in self.doors_tried:
                continue
            self.doors_tried.add(square)
            toward = {"target": {"direction": door["direction"]}}
            self.errand = [
                ("travel", {"mode": "to", "to": door["approach"], "maxActions": 40}),
                ("interact", {"action": "open", **toward}),
                *[("interact", {"action": "kick", **toward})] * 4,  # a locked door
                ("interact", {"action": "open", **toward}),
                ("travel", {"mode": "step", **toward}),
                ("travel", {"mode": "step", **toward}),
            ]
            return


@dataclass
class Run:
    """What one run showed: every frame (masked, index 0 is the first
    observe), how many frames carried the resume notice, the levels in the
    order they were shown, and the navigation memory after every
    `checkpoint` calls (in a restarted run: of the game just resumed)."""

    frames: list[str] = field(default_factory=list)
    resumes: int = 0
    levels: list[str] = field(default_factory=list)
    memories: list[dict[str, Any]] = field(default_factory=list)


async def play(directory: Path, calls: int, restart_every: int | None = None, *, checkpoint: int = 10) -> Run:
    """Play `calls` tool calls on a new game in `directory`, restarting the
    host after every `restart_every` calls when given (then the game is
    resumed at once, by `GameRegistry.load` as any call naming it would)."""
    run = Run()
    client = Client(registry(directory))
    session = await client.games.create(dict(PARAMS))
    nonce = session.info["viewNonce"]
    player = Player()
    frame = await client.ok("observe", sessionId=SESSION_ID)
    try:
        for index in range(calls + 1):
            if index:
                tool, arguments = player.next_call(index, frame)
                frame = await client.call(tool, **arguments)
            if frame["basis"] is None:
                raise AssertionError(f"call {index} lost the game: {frame['error']}")
            run.frames.append(mask(frame, nonce))
            run.resumes += RESUME_NOTICE in frame["diagnostics"]
            if not run.levels or run.levels[-1] != frame["basis"]["levelId"]:
                run.levels.append(frame["basis"]["levelId"])
            if restart_every and index and index % restart_every == 0 and index < calls:
                await client.close()
                client = Client(registry(directory))
            if index % checkpoint == 0:
                run.memories.append((await client.games.load(SESSION_ID)).state.tracker.memory())
    finally:
        await client.close()
    return run


if __name__ == "__main__":
    import asyncio
    import sys
    import tempfile
    import time

    async def main(calls: int, every: int) -> None:
        started = time.perf_counter()
        straight = await play(Path(tempfile.mkdtemp()), calls)
        middle = time.perf_counter()
        restarted = await play(Path(tempfile.mkdtemp()), calls, every)
        ended = time.perf_counter()
        pairs = zip(straight.frames, restarted.frames, strict=True)
        differ = [index for index, (a, b) in enumerate(pairs) if a != b]
        print(f"uninterrupted {middle - started:.1f}s, restarted {ended - middle:.1f}s; {len(differ)} differ: {differ}")
        same_memory = straight.memories == restarted.memories
        print(f"levels {straight.levels}; resumes {restarted.resumes}; memories equal: {same_memory}")
        for index in differ[:3]:
            print(index, differences(json.loads(straight.frames[index]), json.loads(restarted.frames[index])))

    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
