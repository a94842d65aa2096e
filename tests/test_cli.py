"""The command line: help, version, and errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cogtable
from cogtable.cli import command_modules, main
from cogtable.journal import JOURNAL_NAME, Journal
from games.cookie.players import make_player
from games.core import CHANCE


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"cogtable {cogtable.__version__}"


def test_help_lists_every_subcommand_with_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    modules = command_modules()
    assert modules, "no subcommands found"
    for module in modules:
        assert module.NAME in out
        assert module.HELP.split()[0] in out


def test_no_command_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "commands" in capsys.readouterr().out


def test_console_script_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cogtable", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("cogtable ")


@pytest.mark.parametrize(
    "action",
    [
        {"type": "PlaceWordWild", "word": "COG", "row": 0, "col": 0, "down": False,
         "wild_at": ["a"]},
        {"type": "PlaceWord", "word": "COG", "row": "x", "col": 0, "down": False},
    ],
)  # fmt: skip
def test_a_record_with_garbage_values_is_one_line_not_a_traceback(
    action: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A value of the wrong type is refused in one line even where the notation cannot print it."""
    options = {"players": 2, "first_player": 0, "edition": ""}
    record = {"game": "cog", "options": options, "seed": 0, "actions": [{**action, "player": 0}]}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    error = capsys.readouterr().err
    assert "action 1 (" in error and "does not apply" in error and "Traceback" not in error


def test_games_lists_under_a_header_and_names_the_winners(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal(tmp_path / JOURNAL_NAME) as journal:
        game = journal.new_game("cookie", {"players": 4}, seed=2)
        bots = [make_player("strong", seat) for seat in range(4)]
        while not game.state.is_over():
            acting = game.state.to_act()
            if acting == (CHANCE,):
                action = game.state.sample_chance()
            else:
                action = bots[acting[0]].choose(game.state, acting[0])
            game.apply(action, "console")
        outcome = game.state.outcome()
        assert outcome is not None
    assert main(["games", "--state-dir", str(tmp_path)]) == 0
    header, line = capsys.readouterr().out.splitlines()
    assert header.split() == ["ID", "GAME", "STARTED", "STATUS", "MOVES", "RESULT"]
    names = " and ".join(f"P{seat + 1}" for seat in outcome.winners)
    assert line.endswith(f"  {names} won (most coins)") and "winners [" not in line
    assert line.index("finished") == header.index("STATUS")
