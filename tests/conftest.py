"""conftest.py - the whole suite: every stdio MCP server a test starts listens
for spectators on a free loopback port (NNH_SPECTATOR_PORT=0), so servers
started side by side - and one a person runs on the default port 8765 -
never collide. tests/watch checks the default port's behaviour explicitly."""

from __future__ import annotations

import os

os.environ["NNH_SPECTATOR_PORT"] = "0"

# the MCP Inspector CLI fixture, for the stdio (tests/durability) and HTTP (tests/service) tests
pytest_plugins = ["support.inspector"]
