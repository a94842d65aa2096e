"""``cogtable play kogworks`` and ``cogtable replay`` for Kogworks records."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.tables.kogworks import terminal as front_end
from games.kogworks import new_game, parse
from tests.kogworks.positions import position


def test_a_full_game_between_built_in_players_runs_without_input(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    command = [sys.executable, "-m", "cogtable", "play", "kogworks", "--red", "greedy"]
    command += ["--blue", "random", "--seed", "1", "--record", str(record)]
    done = subprocess.run(
        command, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "Result: Red wins" in done.stdout or "Result: Blue wins" in done.stdout
    assert "\033[" not in done.stdout, "no colour when the output is not a terminal"
    assert " G" in done.stdout and "reserves: Red" in done.stdout
    replayed = subprocess.run(
        [sys.executable, "-m", "cogtable", "replay", str(record)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert replayed.returncode == 0, replayed.stderr
    winner = done.stdout.split("Result: ")[1].split()[0]
    assert f"Result: {winner} won" in replayed.stdout


def test_the_same_seed_plays_the_same_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = []
    for name in ("a.json", "b.json"):
        args = ["play", "kogworks", "--red", "random", "--blue", "greedy", "--seed", "4"]
        assert main([*args, "--record", str(tmp_path / name)]) == 0
        records.append(json.loads((tmp_path / name).read_text()))
    assert records[0] == records[1] and records[0]["game"] == "kogworks"
    capsys.readouterr()


def run_with_input(
    text: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(["play", "kogworks", "--blue", "random", *args])
    return code, capsys.readouterr().out


def test_bad_input_gets_a_message_and_a_new_prompt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_with_input("hello\n+11.1\n+1.1\nhelp\nmoves\n+5.3\nquit\n", monkeypatch, capsys)
    assert code == 0
    assert out.count("Not that:") == 3
    assert "neither a placement" in out and "row 11 does not exist" in out
    assert "1.1 is not empty" in out
    assert "+5.3 +5.4" in out.replace("\n", " ") or "+5.3" in out
    assert "Red placed a cog on 5.3" in out
    assert out.count("Red (14 in reserve; help, quit)>") == 6
    assert "Red (13 in reserve; help, quit)>" in out
    assert "Game abandoned." in out


def test_end_of_input_ends_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "partial.json"
    code, out = run_with_input("+5.3\n", monkeypatch, capsys, "--record", str(record))
    assert code == 0 and "Input ended" in out
    assert json.loads(record.read_text())["actions"][0]["type"] == "Place"


@pytest.mark.parametrize(
    "content",
    [
        "garbage",
        "[1, 2]",
        '{"game": "kogworks", "options": {}, "seed": 0, "actions": [{"type": "Nope"}]}',
        '{"game": "kogworks", "options": {}, "seed": 0, '
        '"actions": [{"type": "Place", "peg": 0, "player": 0}]}',
        '{"game": "kogworks", "options": {"first": "green"}, "seed": 0, "actions": []}',
    ],
)
def test_a_bad_record_file_is_one_line_and_exit_2(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cogtable replay:")


def test_an_unwritable_record_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "missing" / "game.json"
    args = ["play", "kogworks", "--red", "greedy", "--blue", "greedy", "--record", str(target)]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"cogtable play: cannot write {target}: there is no folder")
    assert captured.err.count("\n") == 1 and captured.out == "", "refused before playing"


def test_render_draws_a_triangle_with_colour_only_when_asked() -> None:
    state = new_game()
    state.apply(parse("+9.1", 0))
    plain = front_end.render(state, colour=False)
    rows = plain.splitlines()
    assert rows[0].endswith("G") and rows[9].split()[1:] == ["R", *"........."[:8], "B"]
    assert rows[8].split()[1] == "r" and "\033[" not in plain
    assert "Blue to move" in rows[10] and "reserves: Red 13, Blue 14" in rows[10]
    assert "\033[31;1m" in front_end.render(state, colour=True)


def test_render_marks_a_locked_base_and_the_winning_group() -> None:
    locked = position(red="9.1", blue="10.2", mover=0)
    assert "Red's base is LOCKED" in front_end.render(locked, colour=False)
    won = position(red="9.1 8.1 7.1 6.1 4.1 3.1", blue="5.1", mover=0)
    won.apply(parse("+2.1", 0))
    drawn = front_end.render(won, colour=True)
    assert drawn.count("\033[7m") == len(won.winning_group())
    assert "Red wins (turned the top wheel)" in drawn


class _FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_color_turns_colour_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert front_end.wants_colour(_FakeTerminal())
    assert not front_end.wants_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not front_end.wants_colour(_FakeTerminal())
