"""driver_client.py - a tiny synchronous NDJSON client for the native driver.

The navigation tests replay real games: this client starts
build/native/nhdriver, sends one request per line and reads one response
per line. It exists here (not in tests/engine) so the navigation tests stay
importable on their own; it deliberately knows nothing about navigation.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Self

ROOT = Path(__file__).resolve().parents[2]
NATIVE_DRIVER = ROOT / "build" / "native" / "nhdriver"
CREATED_AT = 1700000000


def driver_available() -> bool:
    """True when the native driver binary is built and executable."""
    return os.access(NATIVE_DRIVER, os.X_OK)


class DriverClient:
    """One driver process playing one game; requests are answered in order."""

    def __init__(self, seed: int, session_id: str = "nav") -> None:
        self.session_id = session_id
        self.revision = 0
        self.requests = 0
        self.process = subprocess.Popen(
            [str(NATIVE_DRIVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.created = self.send(
            "session.create",
            {"seed": seed, "sessionId": session_id, "createdAt": CREATED_AT},
        )

    def send(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send one request line and return the parsed response line."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"version": 1, "method": method, "params": params}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"driver closed its output after {method}")
        response = json.loads(line)
        if "revision" in response:
            self.revision = response["revision"]
        return response

    def game(self, method: str, **params: Any) -> dict[str, Any]:
        """A gameplay request bound to this session's current revision."""
        self.requests += 1
        params = {
            "sessionId": self.session_id,
            "requestId": f"r{self.requests}",
            "expectedRevision": self.revision,
            **params,
        }
        return self.send(method, params)

    def observe(self) -> dict[str, Any]:
        """A full observation; costs no turn."""
        return self.send("session.observe", {"sessionId": self.session_id})

    def close(self) -> None:
        """End the driver process."""
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
