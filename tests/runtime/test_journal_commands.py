"""The journal from the command line: games, export and replay by id."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.journal import JOURNAL_NAME, Journal
from games.kogworks import Place, peg_at


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    with Journal(tmp_path / JOURNAL_NAME) as journal:
        game = journal.new_game("kogworks", seed=4)
        game.apply(Place(peg_at(8, 0), player=0), "camera")
        game.apply(Place(peg_at(5, 2), player=1), "button")
    return tmp_path


def test_games_lists_the_journal(state_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--state-dir", str(state_dir)]) == 0
    header, line = capsys.readouterr().out.strip().splitlines()
    assert header.split() == ["ID", "GAME", "STARTED", "STATUS", "MOVES", "RESULT"]
    assert line.split()[:2] == ["1", "kogworks"]
    assert "running" in line and "2 moves" in line


def test_games_available_lists_the_engines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--available"]) == 0
    assert {"cog", "commissars", "cookie", "kogworks"} <= set(capsys.readouterr().out.split())


def test_export_writes_a_record_that_replays(
    state_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.json"
    assert main(["export", "1", "--out", str(out), "--state-dir", str(state_dir)]) == 0
    record = json.loads(out.read_text())
    assert record["game"] == "kogworks" and record["seed"] == 4
    assert [action["peg"] for action in record["actions"]] == [peg_at(8, 0), peg_at(5, 2)]
    capsys.readouterr()
    assert main(["replay", str(out)]) == 0
    assert "+9.1" in capsys.readouterr().out


def test_replay_by_id_reads_the_journal(
    state_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "1", "--state-dir", str(state_dir)]) == 0
    out = capsys.readouterr().out
    assert "1. +9.1" in out and "2. +6.3" in out and "Result: unfinished" in out


@pytest.mark.parametrize("command", [["games"], ["export", "1"], ["replay", "1"]])
def test_no_journal_is_one_clear_line(
    tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no journal at" in err and "Traceback" not in err
    assert not (tmp_path / JOURNAL_NAME).exists()


def test_an_unknown_game_id_is_one_clear_line(
    state_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "9", "--state-dir", str(state_dir)]) == 2
    assert "9" in capsys.readouterr().err


def _damage(state_dir: Path, sql: str) -> None:
    with sqlite3.connect(state_dir / JOURNAL_NAME) as raw:
        raw.execute(sql)


@pytest.mark.parametrize(
    ("sql", "why"),
    [
        ("UPDATE actions SET action = '{broken' WHERE ply = 1", "action 1 cannot be read"),
        ("DELETE FROM actions WHERE ply = 1", "has missing actions (a gap in plies)"),
        (
            f"UPDATE actions SET action = '{json.dumps(Place(peg_at(8, 0), player=1).to_json())}' "
            "WHERE ply = 2",
            "action 2 (+9.1) does not apply: 9.1 is not empty",
        ),
    ],
)
def test_games_names_the_damaged_game_and_why_as_replay_refuses_it(
    state_dir: Path, sql: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal(state_dir / JOURNAL_NAME) as journal:
        journal.new_game("kogworks", seed=5)  # game 2, sound
    _damage(state_dir, sql.replace("WHERE", "WHERE game_id = 1 AND"))
    assert main(["games", "--state-dir", str(state_dir)]) == 2
    captured = capsys.readouterr()
    header, first, second = captured.out.strip().splitlines()
    assert header.split()[0] == "ID"
    assert first.split()[:2] == ["1", "kogworks"] and "damaged" in first
    assert "damaged" not in second and "running" in second
    errors = captured.err.strip().splitlines()
    assert len(errors) == 1 and errors[0].startswith("cogtable games: game 1 in ")
    assert why in errors[0]
    assert main(["replay", "1", "--state-dir", str(state_dir)]) == 2
    assert why in capsys.readouterr().err


def test_games_names_a_finished_game_whose_last_actions_are_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal(tmp_path / JOURNAL_NAME) as journal:
        game = journal.new_game("kogworks", seed=4)
        rng = random.Random(1)
        while not game.state.is_over():
            game.apply(rng.choice(list(game.state.legal_actions())), "simulation")
        plies = len(game.state.history)
    _damage(tmp_path, f"DELETE FROM actions WHERE ply = {plies}")
    assert main(["games", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"recorded as finished, but its {plies - 1} actions do not end it" in err
