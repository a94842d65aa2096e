"""Where each move came from (schema 2): this table or the other table of a shared game,
and the migration of journals written before (schema 1)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from cogtable.journal import Journal, JournalError, MoveSource
from cogtable.journal_schema import SCHEMA_VERSION
from tests import toy_game
from tests.journal.test_journal import load_toy, next_action, open_journal

SCHEMA_1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, seed INTEGER NOT NULL,
    profile TEXT, started REAL NOT NULL, finished REAL, outcome TEXT
);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL CHECK (ply >= 1),
    action TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('camera', 'button', 'console', 'simulation')),
    time REAL NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE taken_back (
    game_id INTEGER PRIMARY KEY REFERENCES games (id), ply INTEGER NOT NULL, action TEXT NOT NULL
);
PRAGMA application_id = 1131374420;
PRAGMA user_version = 1;
"""
"""A journal as cogtable wrote it before schema 2 (written by hand: no code writes it now)."""


def schema_1_journal(path: Path, moves: int) -> list[str]:
    """A schema-1 journal of one toy game with ``moves`` actions; their JSON in order."""
    with open_journal(path.with_name("scratch.sqlite")) as scratch:
        game = scratch.new_game("toy", {"rounds": 5}, seed=3)
        rng = random.Random(1)
        for _ in range(moves):
            game.apply(next_action(game, rng), "camera")
        rows = scratch.connection.execute("SELECT action FROM actions ORDER BY ply").fetchall()
    texts = [str(row[0]) for row in rows]
    raw = sqlite3.connect(path)
    raw.executescript(SCHEMA_1)
    raw.execute(
        "INSERT INTO games (id, game, options, seed, started) VALUES (1, 'toy', ?, 3, 1.0)",
        ('{"rounds": 5}',),
    )
    for ply, text in enumerate(texts, start=1):
        source = "button" if ply % 2 else "camera"
        raw.execute("INSERT INTO actions VALUES (1, ?, ?, ?, ?)", (ply, text, source, 2.0 + ply))
    raw.commit()
    raw.close()
    return texts


def test_a_move_from_the_other_table_is_journaled_with_its_table_and_known_after_a_restart(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    with open_journal(path) as journal:
        game = journal.new_game("toy", {"rounds": 5}, seed=1)
        rng = random.Random(2)
        game.apply(next_action(game, rng), "camera")
        game.apply(next_action(game, rng), "remote", table="t2")
        game.apply(next_action(game, rng), "button")
        game_id = game.id
    with open_journal(path) as reopened:
        assert reopened.sources(game_id) == [
            MoveSource("camera"),
            MoveSource("remote", "t2"),
            MoveSource("button"),
        ]
        assert [source.remote for source in reopened.sources(game_id)] == [False, True, False]


@pytest.mark.parametrize(("source", "table"), [("remote", None), ("remote", ""), ("camera", "t2")])
def test_a_remote_move_needs_its_table_and_only_it_has_one(
    tmp_path: Path, source: str, table: str | None
) -> None:
    with open_journal(tmp_path / "journal.sqlite") as journal:
        game = journal.new_game("toy", {"rounds": 5}, seed=1)
        action = next_action(game, random.Random(0))
        with pytest.raises(ValueError, match="other table"):
            game.apply(action, source, table=table)
        assert journal.sources(game.id) == [] and not game.state.history


def test_sqlite_itself_refuses_a_remote_row_without_its_table(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with open_journal(path) as journal:
        journal.new_game("toy", {"rounds": 5}, seed=1)
    raw = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError):
        raw.execute("INSERT INTO actions VALUES (1, 1, '{}', 'remote', 1.0, NULL)")
    raw.close()


def test_a_schema_1_journal_is_migrated_by_its_writer_and_keeps_every_move(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    texts = schema_1_journal(path, 6)
    with open_journal(path) as journal:
        assert journal.pragma("user_version") == SCHEMA_VERSION == 2
        assert [source.source for source in journal.sources(1)] == ["button", "camera"] * 3
        assert not any(source.remote for source in journal.sources(1))
        game = journal.resume()
        assert game is not None and len(game.state.history) == 6
        game.apply(next_action(game, random.Random(5)), "remote", table="north")
        assert journal.sources(1)[-1] == MoveSource("remote", "north")
        rows = journal.connection.execute("SELECT action, time FROM actions ORDER BY ply")
        kept = rows.fetchall()[:6]
    assert [text for text, _ in kept] == texts
    assert [at for _, at in kept] == [2.0 + ply for ply in range(1, 7)]


def test_a_reader_reads_a_schema_1_journal_and_leaves_it_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    schema_1_journal(path, 4)
    before = path.read_bytes()
    with Journal(path, loader=load_toy, replayer=toy_game.replay_toy, read_only=True) as reader:
        assert reader.sources(1) == [MoveSource("button"), MoveSource("camera")] * 2
        assert len(reader.record(1).actions) == 4
    assert path.read_bytes() == before
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 1
    raw.close()


def test_a_journal_of_a_newer_schema_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    schema_1_journal(path, 2)
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.commit()
    raw.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="newer cogtable"):
        open_journal(path)
    assert path.read_bytes() == before


def test_a_reader_knows_the_last_take_back_until_a_move_comes_after_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    rng = random.Random(4)
    with open_journal(path) as journal:
        game = journal.new_game("toy", {"rounds": 5}, seed=1)
        for _ in range(3):
            game.apply(next_action(game, rng), "camera")
        taken = game.undo()
        with Journal(path, loader=load_toy, replayer=toy_game.replay_toy, read_only=True) as reader:
            found = reader.taken_back(game.id)
            assert found is not None and (found.ply, found.action) == (3, taken)
        game.apply(next_action(game, rng), "camera")
        with Journal(path, loader=load_toy, replayer=toy_game.replay_toy, read_only=True) as reader:
            assert reader.taken_back(game.id) is None
        assert game.taken_back() is None
