"""receipts.py - requestId receipts: an exact retry gets the original result.

A receipt is recorded only for operations that reached the engine (accepted
or uncertain). Rejections before input are not receipts, so the caller may
retry them with the same requestId and have them evaluated anew. Reusing a
recorded requestId with a different payload is an error, never a new
operation.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from .errors import SessionError

RECEIPT_LIMIT = 1000  # per session; older receipts are forgotten first


def canonical(payload: Any) -> str:
    """The payload's canonical JSON: key order and spacing do not matter."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class ReceiptBook:
    """requestId -> (canonical payload, recorded result)."""

    def __init__(self, limit: int = RECEIPT_LIMIT) -> None:
        self._limit = limit
        self._receipts: OrderedDict[str, tuple[str, Any]] = OrderedDict()

    def lookup(self, request_id: str, payload: Any) -> Any | None:
        """The recorded result for an exact retry, or None for a new ID.

        Raises SessionError `requestIdReused` when the ID is recorded with
        a different payload."""
        entry = self._receipts.get(request_id)
        if entry is None:
            return None
        recorded_payload, result = entry
        if recorded_payload != canonical(payload):
            raise SessionError("requestIdReused",
                               f"requestId {request_id!r} was already used for a different request; "
                               "use a new requestId for a new operation", field="requestId")
        return result

    def record(self, request_id: str, payload: Any, result: Any) -> None:
        self._receipts[request_id] = (canonical(payload), result)
        self._receipts.move_to_end(request_id)
        while len(self._receipts) > self._limit:
            self._receipts.popitem(last=False)

    def __contains__(self, request_id: str) -> bool:
        return request_id in self._receipts
