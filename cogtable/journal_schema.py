"""The journal's tables, its schema version and the migration of older journals.

Schema 1 knew only moves made at this table. Schema 2 (a game played across
two tables, issue 28) adds the source ``remote`` and the column
``remote_table``: the id of the other table where a move was made, so that a
table rebuilt from its journal knows which moves came from the other table.
A journal of schema 1 is migrated when a writer opens it (the ``actions`` table
rebuilt in one transaction: SQLite cannot change a CHECK in place); readers
read either schema and change nothing.
"""

from __future__ import annotations

import sqlite3
from typing import Final

SCHEMA_VERSION: Final = 2
APPLICATION_ID: Final = 0x436F6754
"""``PRAGMA application_id`` of a cogtable journal ("CogT"): other databases are refused."""
REMOTE: Final = "remote"
"""The source of a move made at the other table of a shared game (``remote_table`` names it)."""
SOURCES: Final = ("camera", "button", "console", "simulation", REMOTE)
"""Where an action came from."""

_ACTIONS = """
CREATE TABLE IF NOT EXISTS {name} (
    game_id INTEGER NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL CHECK (ply >= 1),
    action TEXT NOT NULL,
    source TEXT NOT NULL
        CHECK (source IN ('camera', 'button', 'console', 'simulation', 'remote')),
    time REAL NOT NULL,
    remote_table TEXT CHECK ((source = 'remote') = (remote_table IS NOT NULL)),
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
"""

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    profile TEXT,
    started REAL NOT NULL,
    finished REAL,
    outcome TEXT
);
"""
    + _ACTIONS.format(name="actions")
    + """
CREATE TABLE IF NOT EXISTS taken_back (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    ply INTEGER NOT NULL,
    action TEXT NOT NULL
);
"""
)


def has_tables(connection: sqlite3.Connection) -> bool:
    """The database holds any table (an empty one is a new journal)."""
    return bool(connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])


def migrate(connection: sqlite3.Connection, version: int) -> None:
    """Bring a journal of schema ``version`` to :data:`SCHEMA_VERSION` in one transaction.

    Schema 1 to 2: the ``actions`` table is rebuilt with the ``remote``
    source and the (empty) ``remote_table`` column; every action is kept as
    it was. An interrupted migration leaves the journal of schema 1.
    """
    if version >= SCHEMA_VERSION or not has_tables(connection):
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        connection.execute(_ACTIONS.format(name="actions_2"))
        connection.execute(
            "INSERT INTO actions_2 (game_id, ply, action, source, time) "
            "SELECT game_id, ply, action, source, time FROM actions"
        )
        connection.execute("DROP TABLE actions")
        connection.execute("ALTER TABLE actions_2 RENAME TO actions")
        connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        connection.execute("COMMIT")
    finally:
        if connection.in_transaction:
            connection.execute("ROLLBACK")


def remote_table_column(version: int) -> str:
    """The SQL that selects an action's other table in a journal of schema ``version``
    (schema 1 has no such column: every move was made at this table)."""
    return "remote_table" if version >= 2 else "NULL"
