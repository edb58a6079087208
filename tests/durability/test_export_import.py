"""test_export_import.py - a game's journal and metadata as one JSON file, replayed elsewhere.

`python -m nethack_webmcp.export SESSION_ID` writes the document (with the
state hash its journal replays to); `... export import FILE` in another state
directory replays it, refuses unless it reaches the same state hash, and
stores it so that it can be resumed there.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from durable_support import PYTHON, registry
from support.client import ROOT, Client, bound

pytestmark = pytest.mark.asyncio


def cli(state_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # "--": a generated sessionId may begin with "-", which is an argument, not an option
    return subprocess.run(
        [PYTHON, "-m", "nethack_webmcp.export", "--", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "NNH_STATE_DIR": str(state_dir)},
    )


async def play_with_items(state_dir: Path) -> tuple[str, dict[str, Any]]:
    """seed 42: drop an item by its ID, pick it up again, walk; a dangling
    question at the end."""
    client = Client(registry(state_dir))
    try:
        frame = await client.ok("session", action="create", seed=42, name="Ada")
        sid = frame["basis"]["sessionId"]
        item = frame["scene"]["inventory"][-1]
        frame = await client.ok("use", **bound(frame), action="drop", itemId=item["id"])
        frame = await client.ok("interact", **bound(frame), action="pickup")
        while frame["decision"] is not None:
            decision = frame["decision"]
            if decision["kind"] == "choice":
                first = decision["options"][0]["id"] if "options" in decision else 0
                frame = await client.ok("respond", **decision["reply"]["arguments"], value=[first])
            else:
                frame = await client.ok("respond", **decision["cancel"]["arguments"])
        for direction in ("west", "north"):
            frame = await client.ok("travel", **bound(frame), mode="step", target={"direction": direction})
        await client.ok("interact", **bound(frame), action="kick")
        observed = await client.ok("observe", sessionId=sid)
        return sid, observed
    finally:
        await client.close()


async def test_export_then_import_elsewhere_reaches_the_same_state(tmp_path: Path, state_dir: Path) -> None:
    sid, observed = await play_with_items(state_dir)
    exported = cli(state_dir, sid)
    assert exported.returncode == 0, exported.stderr
    document = json.loads(exported.stdout)
    assert document["format"] == "nethack-webmcp-game" and document["version"] == 1
    assert document["stateHash"] == observed["result"]["stateHash"]
    assert document["revision"] == observed["basis"]["revision"] == len(document["journal"])
    assert document["session"]["engineIdentity"].startswith("rules-sha256:")  # the rules, not the binary
    path = tmp_path / "game.json"
    path.write_text(exported.stdout)

    elsewhere = tmp_path / "elsewhere"
    imported = cli(elsewhere, "import", str(path))
    assert imported.returncode == 0, imported.stderr
    report = json.loads(imported.stdout)
    assert report == {
        "sessionId": sid,
        "revision": document["revision"],
        "stateHash": document["stateHash"],
        "replayed": len(document["journal"]),
        "turn": observed["basis"]["turn"],
        "verified": True,
    }
    again = cli(elsewhere, "import", str(path))
    assert again.returncode == 1 and json.loads(again.stderr)["error"]["code"] == "sessionExists"

    client = Client(registry(elsewhere))
    try:
        resumed = await client.ok("observe", sessionId=sid)
        assert resumed["result"]["stateHash"] == observed["result"]["stateHash"]
        assert resumed["basis"] == observed["basis"] and resumed["decision"] == observed["decision"]
        # the imported game is playable: answer the question left standing
        answered = await client.ok("respond", **resumed["decision"]["reply"]["arguments"], value="south")
        assert answered["outcome"]["submission"] == "accepted"
    finally:
        await client.close()

    listed = [json.loads(line) for line in cli(elsewhere, "list").stdout.splitlines()]
    assert [entry["sessionId"] for entry in listed] == [sid]


async def test_import_says_why_not(tmp_path: Path, state_dir: Path) -> None:
    sid, _ = await play_with_items(state_dir)
    document = json.loads(cli(state_dir, sid).stdout)

    def attempt(name: str, changed: dict[str, Any]) -> dict[str, Any]:
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(changed))
        run = cli(tmp_path / name, "import", str(path))
        assert run.returncode == 1 and run.stdout == "", run.stderr
        # the diagnostic is the first line; interpreter-exit noise may follow it
        first = run.stderr.lstrip().splitlines()[0] if run.stderr.strip() else ""
        assert first.startswith("{"), f"no JSON diagnostic on stderr: {run.stderr!r}"
        return json.loads(first)["error"]

    tampered = json.loads(json.dumps(document))
    tampered["journal"][2]["receipt"]["revision"] = 99
    assert attempt("diverged", tampered)["code"] == "replayDiverged"

    other_hash = {**document, "stateHash": "0" * 64}
    assert attempt("hash", other_hash)["code"] == "stateMismatch"

    other_engine = json.loads(json.dumps(document))
    other_engine["session"]["engineIdentity"] = "rules-sha256:other-rules"
    assert attempt("engine", other_engine)["code"] == "engineMismatch"

    assert attempt("format", {"format": "something-else"})["code"] == "invalidDocument"
    for name in ("diverged", "hash", "engine"):
        listed = cli(tmp_path / name, "list")
        assert listed.stdout == "", "a refused import stores nothing"


async def test_unknown_game_cannot_be_exported(state_dir: Path) -> None:
    run = cli(state_dir, "no-such-game")
    assert run.returncode == 1 and json.loads(run.stderr)["error"]["code"] == "unknownSession"
