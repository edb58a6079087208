"""record_fixtures.py - regenerate tests/navigation/fixtures/*.ndjson from the real driver.

Each fixture is a fixed, navigation-independent request script played
against build/native/nhdriver; every line of the fixture is one
{"request": ..., "response": ...} pair, in order. Scripts are move keys
(vi-keys, as the tty uses them) so the fixtures do not depend on the code
under test. Run from the repository root:

    python tests/navigation/record_fixtures.py

The driver is deterministic for a seed and creation time, so re-recording
with an unchanged engine reproduces the files byte for byte.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/: the shared support package
from support.driver import CREATED_AT, DriverClient, native_command, start_game  # noqa: E402

FIXTURES = HERE / "fixtures"
KEYS = {
    "k": "north",
    "j": "south",
    "l": "east",
    "h": "west",
    "u": "northeast",
    "y": "northwest",
    "n": "southeast",
    "b": "southwest",
}

#: name -> (seed, steps); a step is a move key, "run:<key>" or "observe".
SCRIPTS: dict[str, tuple[int, list[str]]] = {
    # The Barbarian's first room: doorways, closed doors, an object beside a doorway.
    "seed42_start": (42, []),
    # West across the room; the last move bumps the closed west door open ("The door opens.").
    "seed42_door": (42, list("hhhhhhhhhbh")),
    # Through the opened door and a run down the corridor to a doorway with a > in view.
    "seed42_stairs": (42, list("hhhhhhhhhbhhh") + ["run:h", "observe"]),
    # A closed room: every exit is a closed door.
    "seed7_closed_room": (7, []),
    # A corridor with a boulder west of the hero and a rat east of it.
    "seed1_boulder": (1, list("hhjjbhbhjllulhhbbjjjbljyyhhhhhhhyyhhhyyyyyknnbhhh")),
    # The first step lands on a teleportation trap in a lit room: the trap is
    # drawn over floor already seen, and the hero arrives far away.
    "seed26_trap": (26, ["b"]),
}


def play(seed: int, steps: list[str]) -> list[dict[str, Any]]:
    """Play one script and return its request/response pairs."""
    lines: list[dict[str, Any]] = []
    with DriverClient(native_command()) as client:
        game = start_game(client, seed, session_id="nav", name=None)
        create = {
            "method": "session.create",
            "params": {"seed": seed, "sessionId": game.session_id, "createdAt": CREATED_AT},
        }
        lines.append({"request": create, "response": game.last})
        for step in steps:
            request: dict[str, Any]
            if step == "observe":
                request = {"method": "session.observe", "params": {}}
                response = game.observe()
            elif step.startswith("run:"):
                request = {"method": "game.run", "params": {"direction": KEYS[step[4:]], "mode": "normal"}}
                response = game.call(request["method"], **request["params"])
            else:
                request = {"method": "game.move", "params": {"direction": KEYS[step]}}
                response = game.call(request["method"], **request["params"])
            lines.append({"request": request, "response": response})
    return lines


def main() -> None:
    FIXTURES.mkdir(exist_ok=True)
    for name, (seed, steps) in SCRIPTS.items():
        path = FIXTURES / f"{name}.ndjson"
        with path.open("w") as out:
            for line in play(seed, steps):
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
        print(f"wrote {path.relative_to(FIXTURES.parent.parent.parent)}")


if __name__ == "__main__":
    main()
