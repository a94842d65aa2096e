"""Commands that only read the journal (games, export, replay) never create or change it.

They open it read-only, work for a user who may only read the state folder
(as root, a forked child that became ``nobody``: see tests/unprivileged.py),
and leave the file byte for byte, with its time, and no ``-wal``/``-shm`` beside it.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cogtable.journal import JOURNAL_NAME, Journal, JournalError
from games.kogworks import Place, peg_at
from tests.unprivileged import (
    READ_ONLY,
    Snapshot,
    as_reader,
    run_cli,
    shared_folder,
    unprivileged_user,
)

ROOT = Path(__file__).resolve().parents[2]

READERS = [["games"], ["export", "1"], ["replay", "1"]]


def _journal_with_a_game(folder: Path) -> Path:
    path = folder / JOURNAL_NAME
    with Journal(path) as journal:
        game = journal.new_game("kogworks", seed=4)
        game.apply(Place(peg_at(8, 0), player=0), "camera")
        game.apply(Place(peg_at(5, 2), player=1), "button")
    path.chmod(0o644)
    return path


@pytest.fixture
def state_dir() -> Iterator[Path]:
    with shared_folder() as folder:
        state = folder / "state"
        state.mkdir()
        state.chmod(0o755)
        _journal_with_a_game(state)
        yield state


@pytest.mark.parametrize("command", READERS)
def test_a_reader_leaves_the_journal_byte_for_byte_and_creates_no_wal(
    state_dir: Path, command: list[str]
) -> None:
    before = Snapshot.of(state_dir)
    result = run_cli([*command, "--state-dir", str(state_dir)])
    assert result.status == 0, result.err
    assert "kogworks" in result.out or "+9.1" in result.out
    assert Snapshot.of(state_dir) == before


@pytest.mark.parametrize("command", READERS)
def test_a_reader_works_in_a_folder_it_may_only_read(state_dir: Path, command: list[str]) -> None:
    run_cli([*command, "--state-dir", str(state_dir)])  # imports everything before any fork
    state_dir.chmod(READ_ONLY)
    before = Snapshot.of(state_dir)
    result = as_reader(lambda: run_cli([*command, "--state-dir", str(state_dir)]))
    assert result.status == 0, result.err
    assert result.err == ""
    assert Snapshot.of(state_dir) == before


WRITER = """
import sys
from cogtable.journal import Journal
from games.kogworks import Place, peg_at
with Journal(sys.argv[1]) as journal:
    journal.load(1).apply(Place(peg_at(8, 1), player=0), "camera")
    print("committed", flush=True)
    sys.stdin.readline()
"""


def test_a_reader_sees_what_a_running_writer_committed_through_its_wal(state_dir: Path) -> None:
    """While the service has the journal open, its -wal and -shm hold the newest actions."""
    run_cli(["games", "--state-dir", str(state_dir)])  # imports everything before any fork
    path = state_dir / JOURNAL_NAME
    with subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True, cwd=ROOT,
    ) as writer:  # fmt: skip
        assert writer.stdout is not None and writer.stdin is not None
        assert writer.stdout.readline().strip() == "committed"
        assert (state_dir / f"{JOURNAL_NAME}-wal").stat().st_size > 0
        state_dir.chmod(READ_ONLY)
        before = Snapshot.of(state_dir)
        result = as_reader(lambda: run_cli(["games", "--state-dir", str(state_dir)]))
        after = Snapshot.of(state_dir)
        writer.stdin.write("\n")
        writer.stdin.flush()
    assert result.status == 0, result.err
    assert "3 moves" in result.out and "running" in result.out
    assert _without_shm(after) == _without_shm(before)
    if unprivileged_user() is not None:  # a reader that may write the -shm marks its reads there
        assert after == before


def _without_shm(snapshot: Snapshot) -> dict[str, tuple[bytes, int, int]]:
    return {name: entry for name, entry in snapshot.files.items() if not name.endswith("-shm")}


def test_the_reader_of_these_tests_really_cannot_write_a_read_only_folder(state_dir: Path) -> None:
    """The check on the checks: as root, chmod alone would not stop a write."""
    state_dir.chmod(READ_ONLY)

    def try_to_write() -> str:
        try:
            (state_dir / "written").write_text("x")
        except PermissionError:
            return "refused"
        return "written"

    assert as_reader(try_to_write) == "refused"
    assert not (state_dir / "written").exists()


def test_a_reader_sees_the_wal_a_killed_writer_left(state_dir: Path) -> None:
    """A writer killed with its -wal and -shm still there: the reader reads them, writes none."""
    connection = sqlite3.connect(state_dir / JOURNAL_NAME, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA wal_autocheckpoint=0")
    connection.execute(
        "INSERT INTO actions (game_id, ply, action, source, time) VALUES (1, 3, ?, 'camera', 1.0)",
        (json.dumps(Place(peg_at(8, 1), player=0).to_json()),),
    )
    copies = {name: (state_dir / name).read_bytes() for name in sorted(_names(state_dir))}
    connection.close()  # would checkpoint: put back what a killed writer leaves
    for name, data in copies.items():
        (state_dir / name).write_bytes(data)
    state_dir.chmod(READ_ONLY)
    before = Snapshot.of(state_dir)
    result = as_reader(lambda: run_cli(["games", "--state-dir", str(state_dir)]))
    assert result.status == 0, result.err
    assert "3 moves" in result.out
    assert Snapshot.of(state_dir) == before


def _names(folder: Path) -> list[str]:
    return [path.name for path in folder.iterdir()]


@pytest.mark.parametrize("command", READERS)
def test_a_missing_journal_is_named_and_not_created(tmp_path: Path, command: list[str]) -> None:
    result = run_cli([*command, "--state-dir", str(tmp_path)])
    assert result.status == 2
    assert result.error_lines() == [
        f"cogtable {command[0]}: no journal at {tmp_path} (no {JOURNAL_NAME}; use --state-dir)"
    ]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", READERS)
def test_an_empty_journal_is_not_a_journal_and_stays_empty(
    tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / JOURNAL_NAME
    path.touch()
    before = Snapshot.of(tmp_path)
    result = run_cli([*command, "--state-dir", str(tmp_path)])
    assert result.status == 2
    assert result.error_lines() == [f"cogtable {command[0]}: {path} is empty: not a journal"]
    assert Snapshot.of(tmp_path) == before


def test_read_only_refuses_an_empty_sqlite_database_without_writing_it(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_NAME
    path.write_bytes(_empty_database(tmp_path))
    before = Snapshot.of(tmp_path)
    with pytest.raises(JournalError, match="is an empty database: not a journal"):
        Journal(path, read_only=True)
    assert Snapshot.of(tmp_path) == before


def _empty_database(folder: Path) -> bytes:
    scratch = folder / "scratch.sqlite3"
    with sqlite3.connect(scratch) as connection:
        connection.execute("CREATE TABLE t (x)")
        connection.execute("DROP TABLE t")
    data = scratch.read_bytes()
    scratch.unlink()
    return data


def test_opening_a_journal_to_write_does_not_rewrite_its_header(tmp_path: Path) -> None:
    path = _journal_with_a_game(tmp_path)
    header = path.read_bytes()[:100]
    Journal(path).close()
    assert path.read_bytes()[:100] == header


def test_a_game_id_past_sqlite_integers_is_no_such_game(state_dir: Path) -> None:
    with Journal(state_dir / JOURNAL_NAME, read_only=True) as journal:
        with pytest.raises(JournalError, match="there is no game 99999999999999999999999"):
            journal.record(99999999999999999999999)
        with pytest.raises(JournalError, match="there is no game 0"):
            journal.record(0)
