"""conftest.py - the durability tests run against the real native engine and real SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.client import require_driver


@pytest.fixture
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh state directory (also $NNH_STATE_DIR for anything that reads it)."""
    require_driver()
    directory = tmp_path / "state"
    directory.mkdir()
    monkeypatch.setenv("NNH_STATE_DIR", str(directory))
    return directory
