"""The game journal: durable actions, resume after a crash, undo, refusing foreign files."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from types import ModuleType

import pytest

from cogtable.journal import Journal, JournaledGame, JournalError
from games.core import CHANCE, Action, BadOptions, BadRecord, IllegalAction
from tests import toy_game

ROOT = Path(__file__).resolve().parents[2]


def load_toy(name: str) -> ModuleType:
    if name != "toy":
        raise BadRecord(f"unknown game {name!r}; known games: toy")
    return toy_game


def open_journal(path: Path, clock: Iterator[float] | None = None) -> Journal:
    ticks = clock or count(1000.0)
    return Journal(path, clock=lambda: next(ticks), loader=load_toy, replayer=toy_game.replay_toy)


def next_action(game: JournaledGame, rng: random.Random) -> Action:
    state = game.state
    if state.to_act() == (CHANCE,):
        return state.sample_chance()
    return rng.choice(list(state.legal_actions()))


def play(game: JournaledGame, moves: int, seed: int = 0) -> list[Action]:
    rng = random.Random(seed)
    played = []
    for _ in range(moves):
        action = next_action(game, rng)
        game.apply(action, "simulation")
        played.append(action)
    return played


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "journal.sqlite"


def test_wal_and_synchronous_full_are_really_set(path: Path) -> None:
    with open_journal(path) as journal:
        assert journal.pragma("journal_mode") == "wal"
        assert journal.pragma("synchronous") == 2  # FULL
    with sqlite3.connect(path) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_resume_after_closing_without_finishing_gives_the_same_state(path: Path) -> None:
    journal = open_journal(path)
    game = journal.new_game("toy", {"rounds": 5}, seed=7, profile="mock")
    played = play(game, 8)
    expected = game.state.clone()
    journal.close()
    with open_journal(path) as reopened:
        resumed = reopened.resume()
        assert resumed is not None and resumed.id == game.id
        assert resumed.state == expected
        assert list(resumed.state.history) == played
        play(resumed, 3, seed=1)
        assert len(reopened.record(game.id).actions) == 11


CRASHING_CHILD = """
import os, signal, sys
sys.path.insert(0, sys.argv[2])
from tests.journal.test_journal import open_journal, play
from pathlib import Path
game = open_journal(Path(sys.argv[1])).new_game("toy", {"rounds": 4}, seed=3)
play(game, 6, seed=5)
print(game.state.snapshot(), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_resume_after_the_process_is_killed(path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CRASHING_CHILD, str(path), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == -9, done.stderr
    with open_journal(path) as journal:
        game = journal.resume()
        assert game is not None
        assert len(game.state.history) == 6
        assert str(game.state.snapshot()) == done.stdout.strip()


def test_undo_deletes_the_last_action_and_replays(path: Path) -> None:
    with open_journal(path) as journal:
        game = journal.new_game("toy", seed=2)
        played = play(game, 5)
        assert game.undo() == played[-1]
        assert list(game.state.history) == played[:-1]
        assert list(journal.record(game.id).actions) == played[:-1]
        assert game.state == toy_game.replay_toy(journal.record(game.id))
        assert [game.undo() for _ in range(4)] == played[-2::-1]
        assert game.undo() is None
        assert journal.record(game.id).actions == ()


def test_an_illegal_action_records_nothing(path: Path) -> None:
    with open_journal(path) as journal:
        game = journal.new_game("toy", seed=2)
        play(game, 1)
        before = game.state.clone()
        with pytest.raises(IllegalAction):
            game.apply(toy_game.Pick(3, player=0), "button")
        with pytest.raises(IllegalAction):
            game.apply(toy_game.Roll(1, player=CHANCE), "camera")
        assert game.state == before
        assert len(journal.record(game.id).actions) == 1


def test_an_unknown_source_is_refused_before_anything_changes(path: Path) -> None:
    with open_journal(path) as journal:
        game = journal.new_game("toy", seed=2)
        with pytest.raises(ValueError, match="unknown action source 'keyboard'"):
            game.apply(toy_game.Roll(1, player=CHANCE), "keyboard")
        assert game.state.history == []
        assert journal.record(game.id).actions == ()


def test_actions_carry_source_and_the_injected_clock(path: Path) -> None:
    with open_journal(path, clock=count(50.0, 0.5)) as journal:
        game = journal.new_game("toy", seed=2)
        game.apply(toy_game.Roll(2, player=CHANCE), "camera")
        game.apply(toy_game.Pick(1, player=1), "button")
    raw = sqlite3.connect(path)
    assert raw.execute("SELECT started FROM games").fetchall() == [(50.0,)]
    rows = raw.execute("SELECT ply, source, time FROM actions").fetchall()
    assert rows == [(1, "camera", 50.5), (2, "button", 51.0)]


def test_a_finished_game_is_stored_with_its_outcome_and_not_resumed(path: Path) -> None:
    with open_journal(path) as journal:
        game = journal.new_game("toy", {"rounds": 2}, seed=4)
        while not game.state.is_over():
            play(game, 1)
        (summary,) = journal.games()
        assert summary.status == "finished"
        assert summary.outcome == game.state.outcome().to_json()  # type: ignore[union-attr]
        assert summary.actions == 6
        assert journal.resume() is None
        last = game.undo()
        assert last is not None
        assert journal.games()[0].status == "running"
        assert journal.resume() is not None


def test_a_new_game_abandons_the_running_one(path: Path) -> None:
    with open_journal(path) as journal:
        first = journal.new_game("toy", seed=1)
        play(first, 2)
        second = journal.new_game("toy", {"rounds": 1}, seed=9)
        assert [s.status for s in journal.games()] == ["abandoned", "running"]
        resumed = journal.resume()
        assert resumed is not None and resumed.id == second.id
        assert journal.games()[1].options == {"rounds": 1}


def test_bad_options_or_game_write_nothing(path: Path) -> None:
    with open_journal(path) as journal:
        with pytest.raises(BadOptions):
            journal.new_game("toy", {"rounds": "three"})
        with pytest.raises(BadRecord, match="unknown game 'chess'"):
            journal.new_game("chess")
        assert journal.games() == []


def test_a_full_disk_keeps_state_and_journal_equal_and_the_game_goes_on(path: Path) -> None:
    with open_journal(path) as journal:
        game = journal.new_game("toy", {"rounds": 400}, seed=1)
        play(game, 3)
        pages = journal.pragma("page_count")
        journal.connection.execute(f"PRAGMA max_page_count = {pages}")
        rng = random.Random(2)
        with pytest.raises(JournalError, match="full"):
            for _ in range(1000):
                action = next_action(game, rng)
                before = game.state.clone()
                game.apply(action, "simulation")
        assert game.state == before
        assert game.state.history == list(journal.record(game.id).actions)
        journal.connection.execute("PRAGMA max_page_count = 1000000")
        before = len(game.state.history)
        play(game, 5, seed=3)
        assert len(journal.record(game.id).actions) == before + 5


def test_a_garbage_file_is_refused_and_left_byte_for_byte(path: Path) -> None:
    garbage = random.Random(1).randbytes(5000)
    path.write_bytes(garbage)
    with pytest.raises(JournalError, match="not a cogtable journal \\(not an SQLite database\\)"):
        open_journal(path)
    assert path.read_bytes() == garbage
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_a_damaged_journal_is_refused_and_left_as_it_is(path: Path) -> None:
    with open_journal(path) as journal:
        play(journal.new_game("toy", seed=1), 4)
    for extra in path.parent.glob("journal.sqlite-*"):
        extra.unlink()
    damaged = path.read_bytes()[:100] + random.Random(2).randbytes(4000)
    path.write_bytes(damaged)
    with pytest.raises(
        JournalError,
        match=r"cannot open the journal .*: database disk image is malformed",
    ):
        open_journal(path)
    assert path.read_bytes() == damaged


def test_another_programs_database_is_refused_and_untouched(path: Path) -> None:
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE notes (text TEXT)")
    before = path.read_bytes()
    with pytest.raises(JournalError, match="SQLite database of another program"):
        open_journal(path)
    assert path.read_bytes() == before


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no folder"):
        open_journal(tmp_path / "absent" / "journal.sqlite")


def test_a_corrupt_action_row_is_named_on_resume(path: Path) -> None:
    with open_journal(path) as journal:
        play(journal.new_game("toy", seed=1), 4)
    with sqlite3.connect(path) as raw:
        raw.execute('UPDATE actions SET action = \'{"type": "Jump"}\' WHERE ply = 3')
    with (
        open_journal(path) as journal,
        pytest.raises(JournalError, match="action 3 cannot be read"),
    ):
        journal.resume()


def test_an_action_that_no_longer_applies_is_named_on_resume(path: Path) -> None:
    with open_journal(path) as journal:
        play(journal.new_game("toy", seed=1), 2)
    with sqlite3.connect(path) as raw:
        raw.execute(
            "UPDATE actions SET action = ? WHERE ply = 2",
            ('{"type": "Pick", "number": 7, "player": 0}',),
        )
    with open_journal(path) as journal, pytest.raises(JournalError, match="does not replay"):
        journal.resume()


def test_the_journal_has_one_writer_thread(path: Path) -> None:
    journal = open_journal(path)
    game = journal.new_game("toy", seed=1)
    errors: list[Exception] = []

    def write_from_another_thread() -> None:
        try:
            play(game, 1)
        except Exception as error:
            errors.append(error)

    thread = threading.Thread(target=write_from_another_thread)
    thread.start()
    thread.join()
    assert len(errors) == 1 and isinstance(errors[0], RuntimeError)
    assert "one thread only" in str(errors[0])
    assert game.state.history == []
    assert journal.record(game.id).actions == ()
    journal.close()


def test_another_process_can_read_while_the_game_runs(path: Path) -> None:
    with open_journal(path) as journal:
        game = journal.new_game("toy", seed=1)
        play(game, 3)
        reader = subprocess.run(
            [
                sys.executable,
                "-c",
                f"import sqlite3; print(sqlite3.connect({str(path)!r})"
                ".execute('SELECT count(*) FROM actions').fetchone()[0])",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        assert reader.stdout.strip() == "3"
    assert os.path.exists(path)


def test_a_real_game_resumes_with_the_default_loader_and_replay(path: Path) -> None:
    rng = random.Random(4)
    with Journal(path) as journal:
        game = journal.new_game("kogworks", seed=4, profile="mock")
        for _ in range(30):
            game.apply(rng.choice(list(game.state.legal_actions())), "camera")
        expected = game.state.clone()
    with Journal(path) as journal:
        resumed = journal.resume()
        assert resumed is not None
        assert resumed.state == expected
        assert journal.games()[0].profile == "mock"
        resumed.undo()
        assert resumed.state.history == expected.history[:-1]
