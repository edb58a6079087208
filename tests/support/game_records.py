"""game_records.py - how a game ended, as the PostgreSQL store holds it.

Read straight from the tables (not through the service) so a test sees what a
restarted or different instance would find."""

from __future__ import annotations

import psycopg


async def stored_end(database: str, game: str) -> tuple[str, str, str] | None:
    """(end reason, end time kind, session status) of an ended game; None while it has no record."""
    async with await psycopg.AsyncConnection.connect(database) as db:
        row = await (
            await db.execute(
                "SELECT r.end_reason, r.end_time_kind, s.status FROM game_records r JOIN sessions s "
                "ON s.session_id = r.game_id WHERE r.game_id = %s",
                (game,),
            )
        ).fetchone()
    return (row[0], row[1], row[2]) if row else None
