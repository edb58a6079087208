"""recorded.py - the real driver responses recorded in fixtures/, replayed into navigation views.

record_fixtures.py writes each fixture as request/response pairs; these
helpers read them back and feed the observations to a WorldTracker exactly
as the session layer does. (Kept out of conftest.py: every test folder has
a conftest module, and only a uniquely named module imports reliably.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from nethack_webmcp.navigation import LevelView, WorldTracker

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def load_fixture(name: str) -> list[dict[str, Any]]:
    """The request/response pairs of one recorded fixture."""
    with (FIXTURES / f"{name}.ndjson").open() as lines:
        return [json.loads(line) for line in lines if line.strip()]


def tracked(name: str, upto: int | None = None) -> WorldTracker:
    """A WorldTracker fed every recorded observation of a fixture (or the first upto ones)."""
    tracker = WorldTracker()
    for pair in load_fixture(name)[:upto]:
        tracker.apply(pair["response"].get("observation"))
    return tracker


def fixture_view(name: str, upto: int | None = None) -> LevelView:
    """The current LevelView after replaying a fixture."""
    return tracked(name, upto).view()
