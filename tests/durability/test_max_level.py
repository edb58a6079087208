"""test_max_level.py - a game's highest experience level (`maxLevel`): the maximum over the game,
stored with it (SQL schema 7), kept across a resume, and copied into its record."""

from __future__ import annotations

from pathlib import Path

import pytest
from durable_support import registry
from nethack_webmcp.session.records import make_record, new_info, progress
from nethack_webmcp.store.sqlite import SqliteStore
from support.client import Client, bound
from test_records import quit_game


def test_the_maximum_is_never_lowered_by_a_drained_level() -> None:
    """XL 1 -> 3 -> 2 (a level drain) -> 3: the maximum is 3 throughout; only a rise is a field to store."""
    session = {"seed": 1, "name": "Ada", "role": "Valkyrie", "race": "Human", "gender": "Female",
               "alignment": "Lawful", "createdAt": 0}  # fmt: skip
    info = new_info({"sessionId": "g", "session": session, "revision": 0}, None)
    written = [progress(info, 1, False, None, float(t), level=level)[0].get("maxLevel") for t, level in
               enumerate((1, 3, 2, 3, 1))]  # fmt: skip
    assert written == [1, 3, None, None, None]
    assert info.get("maxLevel") == 3
    assert make_record(info, {"how": "died", "turn": 9}, 5.0).get("maxLevel") == 3


@pytest.mark.asyncio
async def test_the_highest_level_is_stored_and_survives_a_resume(state_dir: Path) -> None:
    """A real game stores its maxLevel from creation on; a restarted host resumes it with the stored
    maximum, not the hero's current level: the game is given a stored maximum of 4 while its hero is
    XL 1 (what a level drain leaves), resumed on a fresh registry and quit, and its record says 4."""
    first = Client(registry(state_dir))
    frame = await first.ok("session", action="create", seed=42, name="Ada")
    sid = frame["basis"]["sessionId"]
    frame = await first.ok("travel", **bound(frame), mode="step", target={"direction": "west"})
    stored = await first.games.store.get_session(sid)
    assert stored is not None and stored.get("maxLevel") == 1 == frame["scene"]["self"]["vitals"]["level"]
    await first.close()

    drained = SqliteStore.in_state_dir(state_dir)  # another process writes the game's stored maximum
    await drained.update_session(sid, {"maxLevel": 4})
    await drained.close()

    second = Client(registry(state_dir))
    try:
        observed = await second.ok("observe", sessionId=sid)  # resumed by replay
        assert observed["scene"]["self"]["vitals"]["level"] == 1
        frame = await second.ok("travel", **bound(observed), mode="step", target={"direction": "east"})
        await quit_game(second, frame)
        record = await second.games.store.get_record(sid)
        kept = await second.games.store.get_session(sid)
    finally:
        await second.close()
    assert record is not None and record.get("maxLevel") == 4, record
    assert kept is not None and kept.get("maxLevel") == 4
