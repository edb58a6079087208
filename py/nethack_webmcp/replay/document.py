"""document.py - read an exported game file (exchange.py's format) for a replay.

The file is what `python -m nethack_webmcp.export SESSION_ID` and the page's
Export write. Only its shape is checked here; whether its journal really is
a game of these rules is what the replay itself verifies (every recorded
boundary compared), so a changed file is refused there, with the move named.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from ..engine.native import native_identity
from ..exchange import FORMAT, VERSION
from ..session.errors import SessionError
from ..session.registry import PROFILE, check_identity
from ..store import JournalEntry, SessionInfo


@dataclass(frozen=True)
class ExportedGame:
    info: SessionInfo
    journal: list[JournalEntry]
    state_hash: str | None  # the state the exporter's replay reached, when it recorded one


def read_exported(path: str | Path) -> ExportedGame:
    """The game in an exported file, or SessionError invalidDocument /
    engineMismatch / unsupportedProfile saying why it cannot be replayed here."""
    try:
        document: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SessionError("invalidDocument", f"{path} cannot be read as a JSON game file: {exc}") from exc
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SessionError("invalidDocument", f"{path} is not a {FORMAT} document (an exported game file)")
    if document.get("version") != VERSION:
        raise SessionError("invalidDocument", f"document version {document.get('version')!r} is not {VERSION}")
    info, journal = document.get("session"), document.get("journal")
    if not isinstance(info, dict) or not isinstance(journal, list) or "create" not in info:
        raise SessionError("invalidDocument", f"{path} lacks a session object and a journal list")
    check_identity(info, native_identity())
    if info.get("profile") != PROFILE:
        raise SessionError("unsupportedProfile", f"determinism profile {info.get('profile')!r} cannot be replayed")
    expected = document.get("stateHash")
    return ExportedGame(
        cast(SessionInfo, info), cast(list[JournalEntry], journal), expected if isinstance(expected, str) else None
    )
