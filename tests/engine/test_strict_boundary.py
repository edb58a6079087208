"""test_strict_boundary.py - issue 13's boundary findings, one test each, on the real driver.

- An opaque item ID matches exactly: no numeric prefix parsing, in parameters
  and in item answers ("item-2.junk" is not item 2).
- A wizard-mode session survives quitting: no "Dump core?" prompt, no abort().
- A deep level with a morgue does not divide by zero (found while fuzzing).
- docs/PROTOCOL.md states the error precedence the reader really applies.
- An echoed field name is never cut in the middle of a UTF-8 character.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from engine_client import (
    DriverClient,
    assert_rejected_without_effect,
    dumps,
    start_game,
)

ROOT = Path(__file__).resolve().parents[2]
ALIASES = ["{}.junk", "0{}:x", "00{}", "{}_", "{}-2", "{}x", "0{}"]


def _aliases(item_id: str) -> list[str]:
    number = item_id.split("-", 1)[1]
    return ["item-" + alias.format(number) for alias in ALIASES]


def test_item_id_aliases_are_rejected_as_parameters(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    item = game.last["observation"]["inventory"][0]
    for alias in _aliases(item["id"]):
        for method in ("game.drop", "game.wield", "game.eat"):
            response = game.call(method, itemId=alias)
            assert_rejected_without_effect(game, response, "unknownItem")
            assert response["error"]["field"] == "itemId"
    # the exact ID still names the item
    dropped = game.ok("game.drop", itemId=item["id"])
    assert item["id"] not in [i["id"] for i in dropped["observation"]["inventory"]]


def test_item_id_aliases_are_rejected_as_item_answers(native_client: DriverClient) -> None:
    game = start_game(native_client, seed=42)
    item = game.last["observation"]["inventory"][0]
    asked = game.ok("game.drop")
    decision = asked["decision"]
    assert decision["kind"] == "item", decision
    for alias in _aliases(item["id"]):
        response = game.call(
            "decision.answer", decisionId=decision["id"], answer={"kind": "item", "item": {"id": alias}}
        )
        assert_rejected_without_effect(game, response, "unknownItem")
    answered = game.answer(decision, {"kind": "item", "item": {"id": item["id"]}})
    assert item["id"] not in [i["id"] for i in answered["observation"]["inventory"]]


def test_a_wizard_session_survives_quitting(native_client: DriverClient) -> None:
    """game.quit, yes, and the game ends: the driver never asks "Dump core?"
    (whose yes called abort()) and keeps answering afterwards."""
    game = start_game(native_client, seed=42, wizard=True)
    response = game.ok("game.quit")
    prompts = []
    for _ in range(8):
        decision = response["decision"]
        if response["ended"] or decision is None:
            break
        prompts.append(decision["prompt"])
        if decision["kind"] == "confirmation":
            response = game.answer(decision, {"kind": "confirmation", "confirm": True})
        else:
            response = game.cancel(decision)
    assert not any("core" in prompt.lower() for prompt in prompts), prompts
    assert response["ended"] is True and response["end"]["how"] == "quit", response.get("end")
    assert game.observe()["ended"] is True  # the process still answers
    assert native_client.proc.stdin is not None
    native_client.proc.stdin.close()
    assert native_client.proc.wait(timeout=10) == 0


@pytest.mark.parametrize("level", ["30", "45", "999"])
def test_a_deep_level_with_a_morgue_does_not_kill_the_engine(native_client: DriverClient, level: str) -> None:
    """A morgue (deep levels, and Gehennom's fillers) names corpses after top-ten
    entries with rnd(MAX_STATUENAME_RANK); unset, that rank was 0 and rnd(0)
    divided by zero (SIGFPE). Reached here by a wizard's level teleport, in play
    by descending past level 11 (found by the sanitized fuzz build)."""
    game = start_game(native_client, seed=42, wizard=True)
    asked = game.wizard("levelTeleport")
    arrived = game.answer(asked["decision"], {"kind": "text", "text": level})
    assert arrived["ended"] is False
    observed = game.observe()
    assert observed["ended"] is False and observed["observation"]["depth"] > 20, observed["observation"]["depth"]


# ---- error precedence: what docs/PROTOCOL.md states is what the reader does ----


def _frame(params: bytes) -> bytes:
    return b'{"version":1,"method":"session.observe","params":' + params + b"}"


# (frame, the code it gets, the code it would get without the winning fault,
#  "before": the winner's stage comes first; "position": same stage, the first fault in the frame
#  wins; "order": same stage, which states a fixed order, the winner's code listed first)
PRECEDENCE_CASES = [
    (b"\x00" + b" " * 5000, "tooLarge", "nulByte", "before"),
    (_frame(b'{"sessionId":"' + b"x" * 4100 + b'"}'), "tooLarge", "outOfRange", "before"),
    (_frame(b'{"sessionId":"a\x00b\xffc"}'), "nulByte", "invalidUtf8", "position"),
    (_frame(b'{"sessionId":"a\xffb\x00c"}'), "invalidUtf8", "nulByte", "position"),
    (b'{"version":1,,"method":"x\xff"}', "invalidUtf8", "malformedJson", "before"),
    (b'{"version":1,"version":1,"method":}', "duplicateField", "malformedJson", "position"),
    (b'{"version":1,"method":},"version":1', "malformedJson", "duplicateField", "position"),
    (
        b'{"version":1,"method":"session.observe","params":{"x":"\\u0000","y":' + b"[" * 20 + b"]" * 20 + b"}}",
        "controlCharacter",
        "tooDeep",
        "position",
    ),
    (
        b'{"version":1,"method":"session.observe","params":{"y":' + b"[" * 20 + b"]" * 20 + b',"x":"\\u0000"}}',
        "tooDeep",
        "controlCharacter",
        "position",
    ),
    (
        b'{"version":2,"method":"session.observe","params":{"sessionId":"s"},"method":1}',
        "duplicateField",
        "unsupportedVersion",
        "before",
    ),
    (b'{"version":2,"method":"no.such"}', "unsupportedVersion", "unknownMethod", "order"),
]


def _documented_stages() -> list[list[str]]:
    """The numbered precedence list of docs/PROTOCOL.md: one list of codes per stage."""
    text = (ROOT / "docs" / "PROTOCOL.md").read_text()
    match = re.search(r"<!-- precedence -->(.*?)<!-- /precedence -->", text, re.DOTALL)
    assert match, "docs/PROTOCOL.md has no <!-- precedence --> list"
    items = re.split(r"^\d+\. ", match.group(1), flags=re.MULTILINE)[1:]
    stages = [re.findall(r"`([a-zA-Z0-9]+)`", item) for item in items]
    assert len(stages) >= 5 and all(stages), stages
    return stages


def _stage_of(stages: list[list[str]], code: str) -> int:
    for index, codes in enumerate(stages):
        if code in codes:
            return index
    pytest.fail(f"{code} is not in the documented precedence")


@pytest.mark.parametrize(
    "frame,winner,loser,relation", PRECEDENCE_CASES, ids=[f"{case[1]}-over-{case[2]}" for case in PRECEDENCE_CASES]
)
def test_documented_precedence_is_the_real_one(
    native_client: DriverClient, frame: bytes, winner: str, loser: str, relation: str
) -> None:
    _, response = native_client.send_raw(frame)
    assert response["error"]["code"] == winner, response
    stages = _documented_stages()
    if relation == "before":
        assert _stage_of(stages, winner) < _stage_of(stages, loser), (winner, loser, stages)
    else:
        stage = _stage_of(stages, winner)
        assert stage == _stage_of(stages, loser), (winner, loser, stages)
        if relation == "order":
            assert stages[stage].index(winner) < stages[stage].index(loser), stages[stage]


# ---- echoed field names ----


@pytest.mark.parametrize("prefix", [59, 60, 78, 79])
def test_an_echoed_field_name_keeps_whole_characters(native_client: DriverClient, prefix: int) -> None:
    """The field echo (79 bytes at most) and the message's quote (60 bytes) end
    on a character boundary: a true prefix of the name sent, never U+FFFD."""
    name = "a" * prefix + "\u00e9\u6f22" * 20
    frame = dumps({"version": 1, "method": "session.observe", "params": {name: 1}})
    raw, response = native_client.send_raw(frame.encode())
    assert "\ufffd" not in raw and "\\ufffd" not in raw.lower(), raw
    error = response["error"]
    assert error["code"] == "unknownField"
    assert name.startswith(error["field"]) and 70 <= len(error["field"].encode()) <= 79, error
    quoted = re.search(r"'(.*)'", error["message"])
    assert quoted and name.startswith(quoted.group(1)) and 55 <= len(quoted.group(1).encode()) <= 60, error
    assert json.loads(raw) == response
