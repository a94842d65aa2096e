"""The journal from the command line: games, export and replay by id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.journal import Journal
from cogtable.runtime import JOURNAL_NAME
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
    line = capsys.readouterr().out.strip()
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
    assert "no game journal at" in err and "Traceback" not in err
    assert not (tmp_path / JOURNAL_NAME).exists()


def test_an_unknown_game_id_is_one_clear_line(
    state_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "9", "--state-dir", str(state_dir)]) == 2
    assert "9" in capsys.readouterr().err
