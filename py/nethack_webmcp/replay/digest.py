"""digest.py - a hash chain over a journal's completed inputs.

digest(k) covers the creation and inputs 1..k (each input's exact request
and recorded boundary), so a checkpoint made at k names the history it was
made from: a journal edited anywhere before k no longer yields its digest.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from ..store import JournalEntry, SessionInfo


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def chain(info: SessionInfo, moves: Sequence[JournalEntry]) -> list[str]:
    """[digest(0), digest(1), ... digest(len(moves))] as hex."""
    head = hashlib.sha256(canonical({"create": info["create"], "created": info["createdSummary"]})).digest()
    return extend([head.hex()], moves)


def extend(digests: list[str], more: Sequence[JournalEntry]) -> list[str]:
    """`digests` (a chain up to some move) extended in place by the inputs after it; returned."""
    head = bytes.fromhex(digests[-1])
    for entry in more:
        head = hashlib.sha256(head + canonical({"request": entry["request"], "receipt": entry["receipt"]})).digest()
        digests.append(head.hex())
    return digests
