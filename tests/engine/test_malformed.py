"""test_malformed.py - every malformed or inapplicable request gets its typed error
and leaves the game exactly as it was.

Each row is a raw byte frame built against a live game (so revision-dependent
rows can target the real current revision). After the error, session.observe
must show the same revision, turn, position and decision, and the driver must
still accept the next valid request (the framing resynchronised).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from engine_client import (
    WASM_KINDS,
    DriverClient,
    Game,
    assert_rejected_without_effect,
    driver_command,
    dumps,
    start_game,
)

SID = "test-1"


def frame(method: str, params: Any = None, **envelope: Any) -> bytes:
    body: dict = {"version": 1, "method": method}
    if params is not None:
        body["params"] = params
    body.update(envelope)
    return dumps(body).encode()


def gameplay(game: Game, method: str, **params) -> dict:
    return {"sessionId": SID, "requestId": "bad-1", "expectedRevision": game.revision, **params}


def observe_text() -> str:
    return '{"version":1,"method":"session.observe","params":{"sessionId":"test-1"}}'


def oversized(game: Game) -> bytes:
    """A well-formed request padded with JSON whitespace to 4097 bytes."""
    text = dumps({"version": 1, "method": "game.search", "params": gameplay(game, "game.search")})
    return (text[:-2] + " " * (4097 - len(text)) + "}}").encode()


Row = tuple[str, Callable[[Game], bytes], str, "str | None"]

# (name, frame builder, error code, error field or None for "no field")
ROWS: list[Row] = [
    # -- bytes and JSON syntax
    ("malformed JSON", lambda g: b'{"version":1,', "malformedJson", None),
    ("trailing garbage", lambda g: observe_text().encode() + b" x", "malformedJson", None),
    ("byte order mark", lambda g: b"\xef\xbb\xbf" + observe_text().encode(), "malformedJson", None),
    ("leading zero", lambda g: b'{"version":01,"method":"protocol.describe"}', "malformedJson", None),
    ("single quotes", lambda g: b"{'version':1,'method':'protocol.describe'}", "malformedJson", None),
    (
        "invalid UTF-8 byte",
        lambda g: observe_text().replace("test-1", "te\udcffst").encode("utf-8", "surrogateescape"),
        "invalidUtf8",
        None,
    ),
    ("overlong UTF-8", lambda g: observe_text().encode().replace(b"test-1", b"\xc0\xaf"), "invalidUtf8", None),
    ("UTF-8 surrogate", lambda g: observe_text().encode().replace(b"test-1", b"\xed\xa0\x80"), "invalidUtf8", None),
    ("truncated UTF-8", lambda g: observe_text().encode().replace(b"test-1", b"\xe2\x82"), "invalidUtf8", None),
    ("NUL byte in string", lambda g: observe_text().encode().replace(b"test-1", b"te\x00st-1"), "nulByte", None),
    ("NUL byte after object", lambda g: observe_text().encode() + b"\x00", "nulByte", None),
    (
        "escaped NUL in a string",
        lambda g: observe_text().encode().replace(b"test-1", b"te\\u0000st-1"),
        "controlCharacter",
        None,
    ),
    (
        "duplicate top-level field",
        lambda g: b'{"version":1,"version":1,"method":"session.observe","params":{"sessionId":"test-1"}}',
        "duplicateField",
        None,
    ),
    (
        "duplicate param",
        lambda g: b'{"version":1,"method":"session.observe","params":{"sessionId":"test-1","sessionId":"test-1"}}',
        "duplicateField",
        None,
    ),
    (
        "escaped field name",
        lambda g: b'{"version":1,"method":"session.observe","params":{"\\u0073essionId":"test-1"}}',
        "escapedFieldName",
        None,
    ),
    ("escaped envelope name", lambda g: b'{"\\u0076ersion":1,"method":"protocol.describe"}', "escapedFieldName", None),
    (
        "too deep",
        lambda g: b'{"version":1,"method":"protocol.describe","params":{"x":' + b"[" * 17 + b"]" * 17 + b"}}",
        "tooDeep",
        None,
    ),
    (
        "number beyond 2^53",
        lambda g: frame("game.search", gameplay(g, "game.search")).replace(
            b'"expectedRevision":%d' % g.revision, b'"expectedRevision":9007199254740992'
        ),
        "numberOutOfRange",
        None,
    ),
    ("frame over 4096 bytes", oversized, "tooLarge", None),
    # -- envelope
    ("request is an array", lambda g: b"[1]", "wrongType", None),
    (
        "missing version",
        lambda g: b'{"method":"session.observe","params":{"sessionId":"test-1"}}',
        "missingField",
        "version",
    ),
    ("version 2", lambda g: frame("session.observe", {"sessionId": SID}, version=2), "unsupportedVersion", "version"),
    (
        "version as string",
        lambda g: frame("session.observe", {"sessionId": SID}, version="1"),
        "unsupportedVersion",
        "version",
    ),
    ("missing method", lambda g: b'{"version":1,"params":{}}', "missingField", "method"),
    ("method not a string", lambda g: b'{"version":1,"method":5}', "wrongType", "method"),
    ("unknown method", lambda g: frame("game.fly", {"sessionId": SID}), "unknownMethod", "method"),
    ("unknown top-level field", lambda g: frame("session.observe", {"sessionId": SID}, id=3), "unknownField", "id"),
    ("params not an object", lambda g: frame("session.observe", [SID]), "wrongType", "params"),
    # -- parameters
    (
        "unknown param",
        lambda g: frame("session.observe", {"sessionId": SID, "verbose": True}),
        "unknownField",
        "verbose",
    ),
    (
        "param of another method",
        lambda g: frame("game.wait", gameplay(g, "game.wait", direction="east")),
        "unknownField",
        "direction",
    ),
    ("missing sessionId", lambda g: frame("session.observe", {}), "missingField", "sessionId"),
    (
        "missing requestId",
        lambda g: frame("game.wait", {"sessionId": SID, "expectedRevision": g.revision}),
        "missingField",
        "requestId",
    ),
    (
        "missing expectedRevision",
        lambda g: frame("game.wait", {"sessionId": SID, "requestId": "x"}),
        "missingField",
        "expectedRevision",
    ),
    ("missing direction", lambda g: frame("game.move", gameplay(g, "game.move")), "missingField", "direction"),
    (
        "expectedRevision as string",
        lambda g: frame("game.wait", {**gameplay(g, "game.wait"), "expectedRevision": str(g.revision)}),
        "wrongType",
        "expectedRevision",
    ),
    (
        "expectedRevision as float",
        lambda g: frame("game.wait", gameplay(g, "game.wait")).replace(
            b'"expectedRevision":%d' % g.revision, b'"expectedRevision":%d.0' % g.revision
        ),
        "wrongType",
        "expectedRevision",
    ),
    (
        "direction as boolean",
        lambda g: frame("game.move", gameplay(g, "game.move", direction=True)),
        "wrongType",
        "direction",
    ),
    (
        "turns as float",
        lambda g: frame("game.search", gameplay(g, "game.search")).replace(b"}}", b',"turns":1.5}}'),
        "wrongType",
        "turns",
    ),
    ("sessionId as number", lambda g: frame("session.observe", {"sessionId": 1}), "wrongType", "sessionId"),
    (
        "direction up on game.move",
        lambda g: frame("game.move", gameplay(g, "game.move", direction="up")),
        "outOfRange",
        "direction",
    ),
    (
        "direction self on game.run",
        lambda g: frame("game.run", gameplay(g, "game.run", direction="self")),
        "outOfRange",
        "direction",
    ),
    (
        "climb sideways",
        lambda g: frame("game.climb", gameplay(g, "game.climb", direction="east")),
        "outOfRange",
        "direction",
    ),
    ("turns 0", lambda g: frame("game.search", gameplay(g, "game.search", turns=0)), "outOfRange", "turns"),
    ("turns 1001", lambda g: frame("game.rest", gameplay(g, "game.rest", turns=1001)), "outOfRange", "turns"),
    (
        "expectedRevision -1",
        lambda g: frame("game.wait", {**gameplay(g, "game.wait"), "expectedRevision": -1}),
        "outOfRange",
        "expectedRevision",
    ),
    (
        "requestId with a space",
        lambda g: frame("game.wait", {**gameplay(g, "game.wait"), "requestId": "a b"}),
        "outOfRange",
        "requestId",
    ),
    (
        "requestId too long",
        lambda g: frame("game.wait", {**gameplay(g, "game.wait"), "requestId": "r" * 129}),
        "outOfRange",
        "requestId",
    ),
    ("sessionId too long", lambda g: frame("session.observe", {"sessionId": "s" * 65}), "outOfRange", "sessionId"),
    ("empty sessionId", lambda g: frame("session.observe", {"sessionId": ""}), "outOfRange", "sessionId"),
    (
        "unknown run mode",
        lambda g: frame("game.run", gameplay(g, "game.run", direction="east", mode="sprint")),
        "outOfRange",
        "mode",
    ),
    (
        "drop quantity 0",
        lambda g: frame("game.drop", gameplay(g, "game.drop", itemId="item-4", quantity=0)),
        "outOfRange",
        "quantity",
    ),
    (
        "unknown wizard command",
        lambda g: frame("debug.wizard", gameplay(g, "debug.wizard", command="genocide")),
        "outOfRange",
        "command",
    ),
    # -- game state (these carry requestId, sessionId and revision)
    (
        "stale expectedRevision (behind)",
        lambda g: frame("game.wait", {**gameplay(g, "game.wait"), "expectedRevision": g.revision - 1}),
        "staleRevision",
        "expectedRevision",
    ),
    (
        "stale expectedRevision (ahead)",
        lambda g: frame("game.wait", {**gameplay(g, "game.wait"), "expectedRevision": g.revision + 1}),
        "staleRevision",
        "expectedRevision",
    ),
    (
        "unknown sessionId (gameplay)",
        lambda g: frame("game.wait", {**gameplay(g, "game.wait"), "sessionId": "other"}),
        "unknownSession",
        "sessionId",
    ),
    (
        "unknown sessionId (observe)",
        lambda g: frame("session.observe", {"sessionId": "other"}),
        "unknownSession",
        "sessionId",
    ),
    ("second session.create", lambda g: frame("session.create", {"seed": 1}), "sessionExists", None),
    (
        "no decision to answer",
        lambda g: frame(
            "decision.answer",
            gameplay(g, "decision.answer", decisionId="decision-1", answer={"kind": "confirmation", "confirm": True}),
        ),
        "noDecision",
        "decisionId",
    ),
    (
        "no decision to cancel",
        lambda g: frame("decision.cancel", gameplay(g, "decision.cancel", decisionId="decision-1")),
        "noDecision",
        "decisionId",
    ),
    ("unknown item", lambda g: frame("game.eat", gameplay(g, "game.eat", itemId="item-999")), "unknownItem", "itemId"),
    (
        "quantity beyond the stack",
        lambda g: frame("game.drop", gameplay(g, "game.drop", itemId="item-4", quantity=2)),
        "outOfRange",
        "quantity",
    ),
    (
        "wizard command in a normal game",
        lambda g: frame("debug.wizard", gameplay(g, "debug.wizard", command="wish")),
        "notWizard",
        "command",
    ),
]

STATE_ERRORS = {
    "staleRevision",
    "noDecision",
    "unknownItem",
    "notWizard",
    "decisionStanding",
    "decisionMismatch",
    "wrongAnswerKind",
    "unknownChoice",
    "gameEnded",
}


def played_game(client: DriverClient) -> Game:
    """Seed 42 after two searches: revision 2, turn 3, so 'unchanged' is not 'initial'."""
    game = start_game(client, seed=42, session_id=SID)
    game.ok("game.search")
    game.ok("game.search")
    assert game.revision == 2
    assert item_ids(game) and "item-4" in item_ids(game)  # the seed-42 food ration
    return game


def item_ids(game: Game) -> list[str]:
    return [item["id"] for item in game.last["observation"]["inventory"]]


def check_error_shape(raw: str, response: dict, code: str, field: str | None) -> None:
    assert response["error"]["code"] == code, f"expected {code}, got {raw[:300]}"
    if field is None:
        assert "field" not in response["error"], raw
    else:
        assert response["error"].get("field") == field, raw
    assert isinstance(response["error"]["message"], str) and response["error"]["message"]
    assert "observation" not in response and "outcome" not in response, raw
    if code in STATE_ERRORS:
        assert response["sessionId"] == SID and isinstance(response["revision"], int), raw
    if code == "unknownSession":
        # a caller with the wrong session learns nothing about the hosted one
        assert "sessionId" not in response and "revision" not in response, raw
    assert json.loads(raw) == response


@pytest.mark.parametrize("name,build,code,field", ROWS, ids=[row[0] for row in ROWS])
def test_malformed_request_is_typed_and_harmless(
    name: str, build, code: str, field: str | None, native_client: DriverClient
) -> None:
    game = played_game(native_client)
    data = build(game)
    assert b"\n" not in data
    raw, response = native_client.send_raw(data)
    check_error_shape(raw, response, code, field)
    assert_rejected_without_effect(game, response, code)

    # The stream is still in sync: the next valid request is served normally.
    response = game.ok("game.search")
    assert response["revision"] == 3
    assert response["outcome"]["turnsElapsed"] == 1


def test_decision_standing_blocks_gameplay(native_client: DriverClient) -> None:
    game = played_game(native_client)
    decision = game.ok("game.quit")["decision"]
    assert decision["kind"] == "confirmation"
    for method, params in (
        ("game.move", {"direction": "east"}),
        ("game.search", {"turns": 5}),
        ("game.quit", {}),
        ("game.eat", {"itemId": "item-4"}),
    ):
        raw, response = native_client.send({"version": 1, "method": method, "params": gameplay(game, method, **params)})
        check_error_shape(raw, response, "decisionStanding", None)
        observed = assert_rejected_without_effect(game, response, "decisionStanding")
        assert observed["decision"]["id"] == decision["id"]
    assert game.cancel(decision)["outcome"]["action"] == "cancel"


def test_every_row_in_one_session(native_client: DriverClient) -> None:
    """All rows back to back on one driver: errors never accumulate state."""
    game = played_game(native_client)
    before = game.observe()
    for name, build, code, _ in ROWS:
        raw, response = native_client.send_raw(build(game))
        assert response.get("error", {}).get("code") == code, f"{name}: {raw[:300]}"
    after = game.observe()
    assert after == before


def test_exactly_4096_bytes_is_accepted(native_client: DriverClient) -> None:
    game = played_game(native_client)
    text = dumps({"version": 1, "method": "game.search", "params": gameplay(game, "game.search")})
    data = (text[:-2] + " " * (4096 - len(text)) + "}}").encode()
    assert len(data) == 4096
    raw, response = native_client.send_raw(data)
    assert "error" not in response, raw[:300]
    assert response["revision"] == 3


def test_blank_lines_are_ignored(native_client: DriverClient) -> None:
    game = played_game(native_client)
    assert native_client.proc.stdin is not None
    native_client.proc.stdin.write(b"\n\n\r\n")
    raw, response = native_client.send_raw(observe_text().encode())
    assert response["revision"] == game.revision, raw[:200]
    assert "error" not in response


def rejection_transcript(client: DriverClient) -> list[bytes | str]:
    """Every row, blank lines and a 4096-byte frame, recorded as raw response lines."""
    game = played_game(client)
    lines: list[bytes | str] = list(client.transcript)
    for _, build, _, _ in ROWS:
        lines.append(client.send_raw(build(game))[0])
    assert client.proc.stdin is not None
    client.proc.stdin.write(b"\n\r\n")
    text = dumps({"version": 1, "method": "game.search", "params": gameplay(game, "game.search")})
    lines.append(client.send_raw((text[:-2] + " " * (4096 - len(text)) + "}}").encode())[0])
    lines.append(client.send_raw(observe_text().encode())[0])
    return lines


@pytest.mark.wasm
@pytest.mark.parametrize("kind", WASM_KINDS)
def test_wasm_rejects_exactly_like_native(native_client: DriverClient, kind: str) -> None:
    """The byte-level cases go through the Node launcher too: same bytes out."""
    expected = rejection_transcript(native_client)
    with DriverClient(driver_command(kind)) as wasm:
        actual = rejection_transcript(wasm)
    names = ["create", "search", "search"] + [row[0] for row in ROWS] + ["4096 bytes", "observe"]
    for name, want, got in zip(names, expected, actual, strict=False):
        assert got == want, f"{name}:\nnative {want[:300]!r}\nwasm   {got[:300]!r}"
    assert len(actual) == len(expected)


def test_before_session_create(native_client: DriverClient) -> None:
    """Without a game: typed errors (noSession for session-scoped methods), describe works,
    and a following session.create still starts the game normally."""
    for data, code in (
        (observe_text().encode(), "noSession"),
        (frame("game.wait", {"sessionId": SID, "requestId": "a", "expectedRevision": 0}), "noSession"),
        (b'{"version":1,', "malformedJson"),
        (
            frame("game.move", {"sessionId": SID, "requestId": "a", "expectedRevision": 0, "direction": "up"}),
            "outOfRange",
        ),
    ):
        raw, response = native_client.send_raw(data)
        assert response["error"]["code"] == code, raw
        assert "observation" not in response and "revision" not in response, raw
    raw, response = native_client.send({"version": 1, "method": "protocol.describe"})
    assert "methods" in response, raw
    game = start_game(native_client, seed=42, session_id=SID)
    assert game.revision == 0


def test_incompatible_character_is_refused(native_client: DriverClient) -> None:
    raw, response = native_client.send(
        {"version": 1, "method": "session.create", "params": {"seed": 1, "role": "valkyrie", "race": "elf"}}
    )
    assert response["error"]["code"] == "incompatibleCharacter", raw
    assert "observation" not in response
