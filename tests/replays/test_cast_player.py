"""test_cast_player.py - the exported cast plays in the real `asciinema` player (PyPI, 2.x).

A real ended game (seed 11, quit at the end) is exported with
replay/exports.py `cast`, written to a file and handed to the installed
package: `asciinema cat` (the recording's output, as the player would draw
it) must exit 0 and print every move's screen, one frame per move, in move
order; `asciinema play -s 100` (headless, no TTY) must exit 0 too.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from nethack_webmcp.replay import Timeline
from nethack_webmcp.replay.exports import HOME_AND_CLEAR, cast

from replays.test_timeline import play


def asciinema(*args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr, decoded without newline translation (the frames use \\r\\n)."""
    done = subprocess.run(
        [sys.executable, "-m", "asciinema", *args], capture_output=True, timeout=60, stdin=subprocess.DEVNULL
    )
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


def test_the_cast_plays_in_the_asciinema_player_one_frame_per_move(tmp_path: Path) -> None:
    async def export() -> tuple[str, int]:
        info, entries = await play(25, quit_at_end=True)
        timeline = await Timeline.open(info, entries)
        try:
            return await cast(timeline, "Scrub"), timeline.length
        finally:
            await timeline.close()

    document, length = asyncio.run(export())
    path = tmp_path / "game.cast"
    path.write_text(document, encoding="utf-8")
    frames = [json.loads(line)[2] for line in document.splitlines()[1:]]
    assert len(frames) == length + 1 and length > 25

    status, shown, errors = asciinema("cat", str(path))
    assert status == 0, errors
    # The player prints the frames one after another; each starts with home+clear.
    printed = shown.split(HOME_AND_CLEAR)
    assert printed[0] == "" and printed[1:] == [frame.removeprefix(HOME_AND_CLEAR) for frame in frames]
    assert "Dlvl:1" in printed[1] and "@" in printed[1]
    assert len(set(printed[1:])) > 1, "the screens change as the game is played"

    status, played, errors = asciinema("play", "-s", "100", str(path))
    assert status == 0, errors
    assert played.count(HOME_AND_CLEAR) == length + 1
