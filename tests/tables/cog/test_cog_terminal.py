"""``cogtable play cog`` and ``cogtable replay`` of its record."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.tables.cog.terminal import render
from games import cog
from tests.cog.helpers import set_mat


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
    set_mat(state, 0, vp=17)
    assert "VP 17" not in render(state) and "VP 17" in render(state, 0)


def test_the_goal_words_and_your_own_grid_are_shown_from_the_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "cog", "--seat", "1=human", "--seat", "2=random", "--seed", "1"]) == 0
    first_view = capsys.readouterr().out.split("your choice")[0]
    state = _at_the_first_choice(seed=1)
    for number in state.goals_in_play():
        assert f"card {number}: {' '.join(state.ed.goal(number).words)}" in first_view
    assert "       12345678\n     1 ........\n" in first_view  # Red's empty grid, numbered
    assert first_view.count("     8 ........") == 1  # only the human's own empty grid


def test_help_explains_every_kind_of_choice_and_your_die_choice_is_narrated(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("help\ngoals\ndie 1\nquit\n"))
    assert main(["play", "cog", "--seat", "2=random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    for kind in ("wild A ", "top slot 2 ", "turn order #1 protect ", "die 1 reroll ", "done "):
        assert f"\n  {kind}" in out, kind
    assert out.count("goal words in play") >= 3  # two views and the answer to 'goals'
    colour, value, _ = _at_the_first_choice(seed=1).view()["dice"][0]
    assert f"Red: die 1  = the {colour} die, {value}: the pawn moves 0 -> {value}, " in out


def _at_the_first_choice(seed: int) -> cog.CogState:
    """A two-player game with the seed's chance applied, up to Red's first choice."""
    state = cog.new_game({"players": 2}, seed)
    while state.to_act() != (0,):
        state.apply(state.sample_chance())
    return state
