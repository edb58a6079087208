"""python -m nethack_webmcp.replay - an exported game file as a cast, a dumplog, or a verdict.

    python -m nethack_webmcp.replay cast    game.json [-o game.cast]   asciinema v2, one frame per move
    python -m nethack_webmcp.replay dumplog game.json [-o game.txt]    how an ended game ended
    python -m nethack_webmcp.replay verify  game.json                  replay it; report, or refuse

The file is one exported by `python -m nethack_webmcp.export SESSION_ID` or
the page's Export. Every command replays its journal on the native engine
with every recorded boundary compared (replay/timeline.py) and the final
state checked against the file's exported state hash: a changed or
truncated file is refused - exit status 1, {"error": {code, message}} on
stderr, nothing written - and no frame of it is ever shown.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from ..session.errors import SessionError
from ..session.session import state_hash
from .document import ExportedGame, read_exported
from .errors import ReplayRefused
from .exports import cast, dumplog
from .timeline import Timeline

COMMANDS = {
    "cast": "the game as an asciinema v2 cast: one full 80x24 screen per move, move 0 to the last",
    "dumplog": "a dumplog-style summary of an ended game: cause of death, score, final status, end windows",
    "verify": "replay the whole journal, every boundary compared, and the exported state hash when present",
}


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="python -m nethack_webmcp.replay",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="{cast,dumplog,verify}")
    for name, summary in COMMANDS.items():
        command = commands.add_parser(name, help=summary, description=summary)
        command.add_argument("file", help="an exported game file (python -m nethack_webmcp.export, the page's Export)")
        if name != "verify":
            command.add_argument("-o", "--output", help="write here instead of stdout (only once it is verified)")
    return top


async def _verify(game: ExportedGame, timeline: Timeline) -> dict[str, Any]:
    final = await timeline.seek(timeline.length)  # compared with the last recorded boundary
    digest = state_hash(final)
    if game.state_hash is not None and digest != game.state_hash:
        raise ReplayRefused(
            "stateMismatch",
            f"the journal replays to state {digest}, the file says {game.state_hash}",
            expected=game.state_hash,
            got=digest,
        )
    return {
        "verified": True,
        "sessionId": game.info["sessionId"],
        "moves": timeline.length,
        "ended": bool(final.get("ended")),
        "stateHash": digest,
        "stateHashChecked": game.state_hash is not None,
    }


async def produce(command: str, game: ExportedGame) -> str:
    """The command's output text; raises SessionError (ReplayRefused) instead of any unverified output.

    A boundary records only revision, decision and end, so a changed input can
    reach the same boundaries: every command therefore first checks the
    final state against the file's exported state hash, when it has one."""
    name = str(game.info["metadata"].get("name", ""))
    timeline = await Timeline.open(game.info, game.journal)
    try:
        report = await _verify(game, timeline)
        if command == "cast":
            return await cast(timeline, name or str(game.info["sessionId"]))
        if command == "dumplog":
            return dumplog(await timeline.seek(timeline.length), name)
        return json.dumps(report, separators=(",", ":")) + "\n"
    finally:
        await timeline.close()


def run(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    try:
        text = asyncio.run(produce(args.command, read_exported(args.file)))
    except SessionError as exc:
        json.dump({"error": exc.as_error()}, sys.stderr, ensure_ascii=False)
        sys.stderr.write("\n")
        return 1
    output = getattr(args, "output", None)
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
