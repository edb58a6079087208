"""test_stdio_limits.py - what the stdio server does with lines no MCP client should send
(issue 22): a 1 MiB message limit and JSON-RPC error replies, and it keeps serving.

A raw client writes bytes to `python -m nethack_webmcp.mcp` and reads its
lines, in both protocol eras:

- a line over 1 MiB (here a 2 MB `session create`, valid JSON padded with
  spaces) is refused with -32600 naming its id, and is not processed: the
  server starts no engine for it;
- garbage, invalid UTF-8 and JSON nested 200,000 deep get -32700 (id null);
  JSON that is no JSON-RPC message gets -32600 (with its id when it has one);
- after all of it the same server answers the next request and plays.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.stdio_transport import MAX_MESSAGE_BYTES
from support.client import ROOT, require_driver, stdio_command
from support.processes import ENGINE

NOT_JSON_RPC = "Invalid Request: not a JSON-RPC 2.0 message"
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


class Raw:
    """One server process and the lines it writes."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    def send(self, line: bytes | dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line if isinstance(line, bytes) else json.dumps(line).encode() + b"\n")
        self.process.stdin.flush()

    def receive(self, timeout: float = 60) -> dict[str, Any]:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, "the server did not answer"
        line = self.process.stdout.readline()
        assert line, f"the server exited ({self.process.poll()})"
        return dict(json.loads(line))

    def engines(self) -> int:
        """Engine processes this server started (other tests' engines are not counted)."""
        found = 0
        for entry in Path("/proc").iterdir():
            try:
                if entry.name.isdigit() and Path(os.readlink(entry / "exe")) == ENGINE:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    found += fields[0] != "Z" and int(fields[1]) == self.process.pid
            except (OSError, IndexError, ValueError):
                continue
        return found


@contextmanager
def server(state_dir: Path) -> Iterator[Raw]:
    command, args, env = stdio_command(state_dir, "--no-spectator")
    process = subprocess.Popen([command, *args], cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        yield Raw(process)
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(30)


def request(request_id: int, method: str, params: dict[str, Any], modern: bool) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": method,
        "params": {**params, **({"_meta": META} if modern else {})},
    }


def create(request_id: int, modern: bool) -> dict[str, Any]:
    return request(request_id, "tools/call", {"name": "session", "arguments": {"action": "create", "seed": 9}}, modern)


@pytest.mark.parametrize("era", ["2026-07-28", "2025-11-25"])
def test_oversized_and_malformed_lines_are_answered_and_the_server_goes_on(tmp_path: Path, era: str) -> None:
    require_driver()
    modern = era == "2026-07-28"
    with server(tmp_path / "state") as raw:
        if not modern:
            raw.send(
                request(
                    1,
                    "initialize",
                    {
                        "protocolVersion": era,
                        "capabilities": {},
                        "clientInfo": META["io.modelcontextprotocol/clientInfo"],
                    },
                    modern=False,
                )
            )
            assert raw.receive()["result"]["protocolVersion"] == era
            raw.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

        oversized = json.dumps(create(7, modern))
        padded = oversized[:-1] + " " * (2_000_000 - len(oversized)) + "}"
        assert len(padded) > MAX_MESSAGE_BYTES and json.loads(padded) == create(7, modern)
        raw.send(padded.encode() + b"\n")
        refused = raw.receive()
        assert refused["id"] == 7 and refused["error"]["code"] == -32600, refused
        assert refused["error"]["data"] == {"limitBytes": MAX_MESSAGE_BYTES}
        assert raw.engines() == 0, "the oversized call was not processed"

        for line in (b"garbage\n", b'{"jsonrpc": "2.0", "id": \xff}\n', b"[" * 200_000 + b"]" * 200_000 + b"\n"):
            raw.send(line)
            answer = raw.receive()
            assert answer["id"] is None and answer["error"]["code"] == -32700, answer
        raw.send({"jsonrpc": "2.0", "id": 8, "methd": "tools/list"})
        assert raw.receive()["error"]["code"] == -32600
        raw.send({"jsonrpc": "1.0", "result": 3})
        assert raw.receive() == {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": NOT_JSON_RPC}}

        raw.send(create(9, modern))
        created = raw.receive()
        assert created["id"] == 9 and created["result"]["isError"] is False, created
        assert created["result"]["structuredContent"]["basis"]["revision"] == 0
        assert raw.engines() == 1
