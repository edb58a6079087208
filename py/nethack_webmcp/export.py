"""export.py - export and import stored games (native CLI).

    python -m nethack_webmcp.export SESSION_ID > game.json   one game as JSON
    python -m nethack_webmcp.export import game.json         verify by replay, then store it
    python -m nethack_webmcp.export list                     the stored games
    python -m nethack_webmcp.export records                  the latest finished games

The store is the state directory's ($NNH_STATE_DIR, else
~/.local/share/nethack-webmcp). Export replays the journal on the native
engine to put the state hash in the file; import replays it again and
refuses (exit status 1, a JSON diagnostic on stderr) unless it reaches the
same state. Nothing here takes a game's ownership: export only reads.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from .engine.native import NativeEngine, native_identity
from .exchange import export_game, import_game
from .session.errors import SessionError


def _dump(value: Any, stream: Any) -> None:
    json.dump(value, stream, ensure_ascii=False, separators=(",", ":"))
    stream.write("\n")


OPTIONS = frozenset({"-h", "--help", "--no-hash"})


def _positionals_after_options(argv: list[str]) -> list[str]:
    """Every argument that is not one of our options is a positional: a sessionId may begin with "-",
    which argparse would otherwise read as an unknown option."""
    rest = [arg for arg in argv if arg not in OPTIONS and arg != "--"]
    return [*(arg for arg in argv if arg in OPTIONS), *(["--", *rest] if rest else [])]


async def run(argv: list[str]) -> int:
    from .store.sqlite import SqliteStore

    parser = argparse.ArgumentParser(
        prog="python -m nethack_webmcp.export",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("target", help="a sessionId to export, or: import FILE | list | records")
    parser.add_argument("file", nargs="?", help="the document to import")
    parser.add_argument("--no-hash", action="store_true", help="export without replaying for the state hash")
    args = parser.parse_args(_positionals_after_options(argv))
    store = SqliteStore.in_state_dir()
    try:
        if args.target == "import":
            if not args.file:
                parser.error("import needs a FILE")
            with open(args.file, encoding="utf-8") as handle:
                document = json.load(handle)
            _dump(
                await import_game(store, document, engine_factory=NativeEngine.start, identity=native_identity()),
                sys.stdout,
            )
        elif args.target == "list":
            for info in await store.list_sessions():
                _dump(
                    {
                        key: info.get(key)
                        for key in ("sessionId", "status", "startedAt", "endedAt", "lastDepth", "deepestDepth")
                    }
                    | {"name": info["metadata"].get("name")},
                    sys.stdout,
                )
        elif args.target == "records":
            for record in await store.recent_records(100):
                _dump(record, sys.stdout)
        else:
            factory = None if args.no_hash else NativeEngine.start
            _dump(await export_game(store, args.target, engine_factory=factory), sys.stdout)
    except SessionError as exc:
        _dump({"error": exc.as_error()}, sys.stderr)
        return 1
    except (OSError, json.JSONDecodeError) as exc:
        _dump({"error": {"code": "invalidDocument", "message": str(exc)}}, sys.stderr)
        return 1
    finally:
        await store.close()
    return 0


def main() -> None:
    sys.exit(asyncio.run(run(sys.argv[1:])))


if __name__ == "__main__":
    main()
