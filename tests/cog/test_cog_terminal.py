"""``cogtable play cog`` and ``cogtable replay`` of its record."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.terminal.cog import render
from games import cog


def test_built_in_players_finish_a_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    args = ["play", "cog", "--players", "3", "--seats", "random,greedy,random", "--seed", "2"]
    assert main([*args, "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Final:" in out and "greedy" not in out.split("Final:")[1]
    assert main(["replay", str(record)]) == 0
    assert "won (most victory points" in capsys.readouterr().out


def test_bad_seats_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "cog", "--players", "2", "--seats", "random,wizard"]) == 2
    error = capsys.readouterr().err
    assert "'wizard' is no player; use one of human, random, strong" in error
    assert error.count("\n") == 1
    assert main(["play", "cog", "--players", "2", "--seats", "random"]) == 2
    assert "names 1 seat for 2 players" in capsys.readouterr().err
    assert main(["play", "cog", "--players", "2", "--seat", "3=random"]) == 2
    assert "--seat 3=random: there are seats 1 to 2 only" in capsys.readouterr().err


def test_a_human_picks_by_number_and_may_quit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("999\n1\nquit\n"))
    assert main(["play", "cog", "--players", "2", "--seats", "human,random"]) == 0
    out = capsys.readouterr().out
    assert "not one of the choices" in out and "Game abandoned." in out
    assert "VP hidden" in out  # the opponent's VP is not shown to the human


def test_render_hides_vps_until_the_end() -> None:
    state = cog.new_game({"players": 2}, 0)
    state.mats[0].vp = 17
    assert "VP 17" not in render(state) and "VP 17" in render(state, 0)
