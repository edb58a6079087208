"""test_quiet_replay_item_ids.py - quiet replays number items as the original run did.

The driver assigns opaque item IDs ("item-N", in order of first sight) at
every input boundary, whether or not the response is quiet, so a journaled
`itemId` names the same object when the journal is replayed quietly. (It
once assigned them while writing observations; this was the reproduction.)
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

from nethack_webmcp.engine.native import driver_path
from support.client import CREATED_AT

COMPASS = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]


def play(quiet: bool, inputs: int, seed: int) -> dict[str, Any]:
    driver = subprocess.Popen([str(driver_path())], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert driver.stdin is not None and driver.stdout is not None

    def send(method: str, **params: Any) -> dict[str, Any]:
        driver.stdin.write(json.dumps({"version": 1, "method": method, "params": params}) + "\n")  # type: ignore[union-attr]
        driver.stdin.flush()  # type: ignore[union-attr]
        return json.loads(driver.stdout.readline())  # type: ignore[union-attr]

    try:
        response = send("session.create", seed=seed, sessionId="s", createdAt=CREATED_AT, name="Ada")
        extra = {"quiet": True} if quiet else {}
        for i in range(inputs):
            common = {"sessionId": "s", "requestId": f"r{i}", "expectedRevision": response["revision"], **extra}
            if response["decision"]:
                response = send("decision.cancel", decisionId=response["decision"]["id"], **common)
            elif i % 2 == 0:
                response = send("game.move", direction=COMPASS[(i // 2) % 8], **common)
            else:
                response = send("game.search", turns=1, **common)
            assert "error" not in response and not response["ended"], response
        return send("session.observe", sessionId="s")
    finally:
        driver.stdin.close()
        driver.wait(10)


def test_quiet_and_full_runs_number_items_alike() -> None:
    full, quiet = play(False, 400, seed=1), play(True, 400, seed=1)
    assert full["observation"]["here"] == quiet["observation"]["here"]  # item-7 vs item-6 today
    assert full == quiet
