"""deltas.py - reassemble the driver's delta responses into full responses.

A gameplay or decision request carrying `"delta": true` is answered with a
delta response: each elidable observation member (`ELIDABLE`) whose text
equals its text in the last response that carried an observation is sent
as `null` (wasm/driver/obs_delta.h). `DeltaAssembler` keeps the last text
of every member and splices it back, so `full(delta)` is byte for byte the
response the driver would have sent without the flag (docs/PROTOCOL.md,
"Delta responses"; tests/engine/test_deltas.py holds it).

Text is spliced, never re-serialised: a member's extent is found by
scanning its JSON value (the standard library's C scanner), and the
members' keys are found by plain search, which cannot match inside a
string (a quote there is escaped) and is anchored after the previous
member, so no nested key of the same name is reached first.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .base import EngineError, JsonObject
from .codec import decode, encode

# The driver's obs_delta.h members, in the order the observation writes them.
ELIDABLE = (
    "vitals",
    "inventory",
    "here",
    "recentMessages",
    "entities",
    "doors",
    "traps",
    "knowledge",
    "automaticPickup",
)
_KEYS = tuple(f',"{name}":' for name in ELIDABLE)
_OBSERVATION = ',"observation":{'
_ELIDED = "null"
_scanner = json.JSONDecoder()


def ask_for_delta(message: JsonObject) -> JsonObject:
    """The request with `delta: true` when its method takes the flag (the
    methods that take `expectedRevision`: gameplay and decisions); else
    the request itself. The caller's object is never changed."""
    params = message.get("params")
    if not isinstance(params, dict) or "expectedRevision" not in params or "delta" in params:
        return message
    return {**message, "params": {**params, "delta": True}}


class DeltaAssembler:
    """One engine's memory of the last text of every elidable member."""

    def __init__(self) -> None:
        self._last: dict[str, str] = {}

    def full(self, text: str) -> str:
        """The full response for `text` (a delta or full response; one
        without an observation is returned as it is). Raises EngineError
        when a member is elided that no earlier response sent: the host and
        the driver are out of step."""
        position = text.find(_OBSERVATION)
        if position < 0:
            return text
        pieces = [text[:position]]
        elided = False
        for name, key in zip(ELIDABLE, _KEYS, strict=True):
            at = text.find(key, position)
            if at < 0:
                raise EngineError(f"engine observation lacks {name!r}: {text[:200]!r}")
            start = at + len(key)
            if text.startswith(_ELIDED, start):
                last = self._last.get(name)
                if last is None:
                    raise EngineError(f"engine elided {name!r}, which it never sent")
                pieces.append(text[position:start])
                pieces.append(last)
                position = start + len(_ELIDED)
                elided = True
                continue
            try:
                _, end = _scanner.raw_decode(text, start)
            except json.JSONDecodeError as exc:
                raise EngineError(f"engine observation member {name!r} is not JSON: {text[:200]!r}") from exc
            self._last[name] = text[start:end]
            pieces.append(text[position:end])
            position = end
        if not elided:
            return text
        pieces.append(text[position:])
        return "".join(pieces)


class Wire:
    """One engine's request and response text, with or without deltas.

    With deltas, every request that takes the flag asks for a delta
    response and every response is reassembled before it is parsed, so the
    host's callers always see full responses; without, the texts pass as
    they are (the replay checks and fuzzers compare those)."""

    def __init__(self, deltas: bool) -> None:
        self._assembler = DeltaAssembler() if deltas else None

    def encode(self, message: JsonObject) -> str:
        return encode(ask_for_delta(message) if self._assembler is not None else message)

    def encode_lines(self, messages: Sequence[JsonObject]) -> str:
        return "\n".join(self.encode(message) for message in messages)

    def full_text(self, text: str | bytes) -> str | bytes:
        """The full response text for one response line."""
        if self._assembler is None:
            return text
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise EngineError(f"engine reply is not UTF-8: {text[:200]!r}") from exc
        return self._assembler.full(text)

    def decode(self, text: str | bytes) -> JsonObject:
        """One response, reassembled, as an object (codec.decode)."""
        return decode(self.full_text(text))
