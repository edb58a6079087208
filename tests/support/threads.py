"""threads.py - run a coroutine to completion from synchronous test code."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any


def run_in_thread(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """asyncio.run in a thread of its own: the sync Playwright fixtures may
    have an event loop registered as running in the calling thread."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
