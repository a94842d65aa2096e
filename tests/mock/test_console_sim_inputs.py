"""Bad input to `cogtable sim GAME`, `games --available`, `service run`: one line, nothing made."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.journal import Journal
from hardware.profile import default_profile_path


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(
    "argv",
    [
        ["--seats", "random"],
        ["--seats", "random,nobody"],
        ["--players", "9"],
        ["--option", "first_player=first"],
        ["--option", "nonsense=1"],
    ],
)
def test_a_bad_console_sim_argument_creates_nothing(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    assert main(["sim", "cog", "--players", "2", "--quiet", *argv, "--state-dir", str(state)]) == 2
    one_error_line(capsys)
    assert not state.exists()


def test_a_garbage_kept_table_creates_no_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "mock-world.json").write_text('{"game": "cog", "people": [1]}', encoding="utf-8")
    assert main(["sim", "cog", "--quiet", "--state-dir", str(tmp_path)]) == 2
    assert "cannot read the mock table" in one_error_line(capsys)
    assert not (tmp_path / "journal.sqlite3").exists()


def test_an_unfinished_game_with_other_options_is_never_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal(tmp_path / "journal.sqlite3") as journal:
        journal.new_game("cog", {"players": 4}, seed=0)
    for argv in (["cog", "--players", "2"], ["commissars", "--players", "2"]):
        assert main(["sim", *argv, "--quiet", "--state-dir", str(tmp_path)]) == 2
        assert "holds an unfinished cog game" in one_error_line(capsys)
    with Journal(tmp_path / "journal.sqlite3") as journal:
        assert [(g.game, g.status) for g in journal.games()] == [("cog", "running")]


def test_games_available_names_a_bad_table_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = default_profile_path().read_text(encoding="utf-8")
    profile = tmp_path / "p.toml"
    bad = 'game = "cog"\n[table.options]\nplayers = "two"\n'
    profile.write_text(text.replace('game = "kogworks"', bad, 1), encoding="utf-8")
    assert main(["games", "--available", "--profile", str(profile)]) == 2
    assert "option 'players'" in one_error_line(capsys)


def test_service_run_with_an_unknown_game_creates_no_state_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    assert main(["service", "run", "--game", "chess", "--state-dir", str(state)]) == 2
    assert "no such game 'chess'" in one_error_line(capsys)
    assert not state.exists()
