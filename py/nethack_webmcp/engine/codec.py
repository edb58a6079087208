"""codec.py - the one JSON text form of the low protocol, for every engine host.

Requests are compact UTF-8 JSON (no ASCII escaping, so the C parser sees
the characters a client sent), one object per line; a response must be one
JSON object. A reply that is not is a transport failure (EngineError): the
engine is then in an unknown state and its host retires it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .base import EngineError, JsonObject


def encode(message: JsonObject) -> str:
    """One request as the text the driver reads (without the newline)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def encode_lines(messages: Sequence[JsonObject]) -> str:
    """Many requests, one per line (no trailing newline)."""
    return "\n".join(encode(message) for message in messages)


def decode(text: str | bytes) -> JsonObject:
    """One response. Raises EngineError unless it is one JSON object."""
    try:
        response = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise EngineError(f"engine reply is not JSON: {text[:200]!r}") from exc
    if not isinstance(response, dict):
        raise EngineError(f"engine reply is not an object: {text[:200]!r}")
    return response
