"""schema.py - the SQL store's tables, once for SQLite and PostgreSQL: the migrations.

MIGRATIONS[n] takes a database from schema version n to n+1; `statements(n,
dialect)` renders it for one dialect: column types by name ({int64},
{real}, ...), and the few statements that only one dialect ever ran. Both
dialects reach the same tables with the same columns and constraints; the
version is kept as the dialect keeps it (SQLite: PRAGMA user_version,
PostgreSQL: rows of schema_migrations), so every database either program
ever wrote opens and migrates forward. Never edit a shipped migration:
append one (and a test that opens a database of the older schema).

History: 1 sessions, journal, receipts, records; 2 chosen or sealed seeds;
3 control-token hashes and the service limits' end reasons (PostgreSQL's
first schema allowed them already; SQLite cannot widen a CHECK, so it
rebuilds game_records); 4 owner epochs (fenced journal writes); 5 an index
for a game's latest receipt (token-less reads read only it); 6 the close mark
(sessions.closed_at_s: `session close` closed the game until `session resume`;
an older program refuses a schema 6 database, so none reopens a closed game);
7 the highest experience level reached (sessions.max_level, game_records.max_level); 8 persisted
engine checkpoints (checkpoints: derived data beside the journal, docs/REPLAY.md).
"""

from __future__ import annotations

from typing import Literal

DialectName = Literal["sqlite", "postgresql"]

#: the column types (and table options) each dialect spells its own way
TYPES: dict[DialectName, dict[str, str]] = {
    "sqlite": {
        "int64": "INTEGER",
        "real": "REAL",
        "bool": "INTEGER",
        "record_time": "INTEGER",  # records' times are whole seconds (rows.whole)
        "compact": " WITHOUT ROWID",
        "blob": "BLOB",
        "first_end_reasons": "'ascended', 'escaped', 'died', 'quit', 'failed'",
    },
    "postgresql": {
        "int64": "BIGINT",
        "real": "DOUBLE PRECISION",
        "bool": "BOOLEAN",
        "record_time": "DOUBLE PRECISION",
        "compact": "",
        "blob": "BYTEA",
        "first_end_reasons": "'ascended', 'escaped', 'died', 'quit', 'failed', 'idle_timeout', 'time_limit'",
    },
}

END_REASONS = "'ascended', 'escaped', 'died', 'quit', 'failed', 'idle_timeout', 'time_limit'"
SEED_CHOICE = "TEXT CHECK (seed_choice IN ('chosen', 'sealed'))"

GAME_RECORDS = """CREATE TABLE {table} (
    game_id TEXT PRIMARY KEY,
    character_name TEXT NOT NULL,
    harness_name TEXT NOT NULL,
    model_name TEXT NOT NULL,
    started_at_s {{record_time}} NOT NULL,
    ended_at_s {{record_time}} NOT NULL,
    end_time_kind TEXT NOT NULL CHECK (end_time_kind IN ('observed', 'recovery')),
    end_reason TEXT NOT NULL CHECK (end_reason IN ({end_reasons})),
    how TEXT,
    death TEXT,
    score {{int64}},
    turns {{int64}},
    last_depth INTEGER,
    deepest_depth INTEGER{more}
)"""
_SEED_COLUMNS = f",\n    seed {{int64}},\n    seed_choice {SEED_CHOICE}"
RECENT_RECORDS_INDEX = "CREATE INDEX game_records_recent_idx ON game_records (ended_at_s DESC, game_id DESC)"

#: a statement for both dialects, or (dialect, statement) for one only
Statement = str | tuple[DialectName, str]

MIGRATIONS: list[list[Statement]] = [
    # 0 -> 1: sessions, journal, tool receipts, game records
    [
        """CREATE TABLE sessions (
            session_id TEXT PRIMARY KEY,
            seed {int64} NOT NULL,
            name TEXT NOT NULL,
            role TEXT NOT NULL,
            race TEXT NOT NULL,
            gender TEXT NOT NULL,
            alignment TEXT NOT NULL,
            created_at {int64} NOT NULL,          -- the game's fixed clock (createdAt)
            harness_name TEXT NOT NULL,
            model_name TEXT NOT NULL,
            wizard {bool} NOT NULL,
            profile INTEGER NOT NULL,
            engine_identity TEXT,
            view_nonce TEXT NOT NULL,
            create_json TEXT NOT NULL,            -- the exact low session.create params
            metadata_json TEXT NOT NULL,          -- the engine's reported session object
            created_summary_json TEXT NOT NULL,
            started_at_s {real} NOT NULL,         -- wall clock, Unix seconds UTC
            updated_at_s {real} NOT NULL,
            ended_at_s {real},
            status TEXT NOT NULL CHECK (status IN ('active', 'ended')),
            last_depth INTEGER,
            deepest_depth INTEGER
        )""",
        """CREATE TABLE journal (
            session_id TEXT NOT NULL REFERENCES sessions (session_id),
            seq INTEGER NOT NULL CHECK (seq >= 1),
            operation_id TEXT NOT NULL,
            request_id TEXT NOT NULL,
            method TEXT NOT NULL,
            request_json TEXT NOT NULL,           -- the exact low request, without quiet
            reserved_at_s {real} NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('reserved', 'completed', 'rejected', 'notApplied')),
            receipt_json TEXT,
            completed_at_s {real},
            PRIMARY KEY (session_id, seq),
            CHECK ((state = 'reserved') = (receipt_json IS NULL))
        ){compact}""",
        "CREATE INDEX journal_operation_idx ON journal (session_id, operation_id)",
        """CREATE TABLE receipts (
            session_id TEXT NOT NULL REFERENCES sessions (session_id),
            request_id TEXT NOT NULL,
            payload_hash TEXT,
            frame_json TEXT NOT NULL,
            created_at_s {real} NOT NULL,
            PRIMARY KEY (session_id, request_id)
        ){compact}""",
        GAME_RECORDS.format(table="game_records", end_reasons="{first_end_reasons}", more=""),
        RECENT_RECORDS_INDEX,
    ],
    # 1 -> 2: whether the seed was chosen or sealed; records carry the seed
    [
        f"ALTER TABLE sessions ADD COLUMN seed_choice {SEED_CHOICE}",
        "ALTER TABLE game_records ADD COLUMN seed {int64}",
        f"ALTER TABLE game_records ADD COLUMN seed_choice {SEED_CHOICE}",
    ],
    # 2 -> 3: control-token hashes (the HTTP service; never the token itself), and
    # the service limits' end reasons: SQLite rebuilds game_records to widen its CHECK
    [
        """CREATE TABLE control_tokens (
            session_id TEXT PRIMARY KEY REFERENCES sessions (session_id),
            token_hash TEXT NOT NULL
        ){compact}""",
        ("sqlite", GAME_RECORDS.format(table="game_records_3", end_reasons=END_REASONS, more=_SEED_COLUMNS)),
        (
            "sqlite",
            "INSERT INTO game_records_3 SELECT game_id, character_name, harness_name, model_name, started_at_s, "
            "ended_at_s, end_time_kind, end_reason, how, death, score, turns, last_depth, deepest_depth, seed, "
            "seed_choice FROM game_records",
        ),
        ("sqlite", "DROP TABLE game_records"),
        ("sqlite", "ALTER TABLE game_records_3 RENAME TO game_records"),
        ("sqlite", RECENT_RECORDS_INDEX),
    ],
    # 3 -> 4: owner epochs, one row per game ever owned; no foreign key: a new
    # game is claimed (its lock taken) before its session row is written
    [
        """CREATE TABLE owners (
            session_id TEXT PRIMARY KEY,
            epoch INTEGER NOT NULL CHECK (epoch >= 1),
            holder_json TEXT NOT NULL,
            claimed_at_s {real} NOT NULL
        ){compact}""",
    ],
    # 4 -> 5: a game's latest receipt without reading the others
    ["CREATE INDEX receipts_latest_idx ON receipts (session_id, created_at_s, request_id)"],
    # 5 -> 6: the close mark, NULL while the game is open (every game stored before)
    ["ALTER TABLE sessions ADD COLUMN closed_at_s {real}"],
    # 6 -> 7: the highest experience level reached, on the game (kept across a resume) and its
    # record; NULL for every game and record stored before
    [
        "ALTER TABLE sessions ADD COLUMN max_level INTEGER",
        "ALTER TABLE game_records ADD COLUMN max_level INTEGER",
    ],
    # 7 -> 8: persisted engine checkpoints, one row per (game, move); rows of tens of KB,
    # so SQLite keeps its rowid table (WITHOUT ROWID suits small rows only)
    [
        """CREATE TABLE checkpoints (
            session_id TEXT NOT NULL REFERENCES sessions (session_id),
            move INTEGER NOT NULL CHECK (move >= 0),
            seq INTEGER NOT NULL CHECK (seq >= 0),
            digest TEXT NOT NULL,                 -- the journal's hash chain digest at move
            engine TEXT NOT NULL,                 -- the build and base the state restores on
            sha256 TEXT NOT NULL,                 -- of state
            meta_json TEXT NOT NULL,
            state {blob} NOT NULL,
            navigation {blob},
            created_at_s {real} NOT NULL,
            PRIMARY KEY (session_id, move)
        )""",
    ],
]

SQL_SCHEMA_VERSION = len(MIGRATIONS)


def statements(number: int, dialect: DialectName) -> list[str]:
    """Migration `number` (from schema `number` to `number` + 1) in `dialect`'s SQL."""
    rendered = []
    for statement in MIGRATIONS[number]:
        if isinstance(statement, tuple):
            only, statement = statement
            if only != dialect:
                continue
        rendered.append(statement.format(**TYPES[dialect]))
    return rendered
