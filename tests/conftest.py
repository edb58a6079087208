"""conftest.py - the whole suite: every stdio MCP server a test starts listens
for spectators on a free loopback port (NNH_SPECTATOR_PORT=0), so servers
started side by side - and one a person runs on the default port 8765 -
never collide. tests/watch checks the default port's behaviour explicitly.

Every native engine the suite starts checks each section it reuses from the
previous response against a fresh write, and aborts on a difference
(NNH_CHECK_REUSE, wasm/driver/obs_reuse.h): every game the suite plays tests
that the reuse keys miss no input."""

from __future__ import annotations

import os

os.environ["NNH_SPECTATOR_PORT"] = "0"
os.environ["NNH_CHECK_REUSE"] = "1"

# the MCP Inspector CLI fixture, for the stdio (tests/durability) and HTTP (tests/service) tests
pytest_plugins = ["support.inspector"]
