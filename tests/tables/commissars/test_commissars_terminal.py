"""The terminal front end: built-in games finish, humans are prompted, bad input is one line."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.tables.commissars import terminal as front_end
from cogtable.tables.terminal import INPUT_ENDED
from games import commissars
from games.commissars import Discard, Pass, Play
from games.core import Record, replay
from tests.commissars.commissars_table import give, set_table, table


def test_a_game_of_built_in_players_finishes_and_writes_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    argv = ["play", "commissars", "--players", "3", "--seats", "greedy,random,greedy"]
    assert main([*argv, "--seed", "3", "--leaders", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "wins" in out or "No winner" in out
    assert "The game is over." in out and "Waiting for the game is over" not in out
    state = replay(Record.loads(record.read_text(encoding="utf-8")))
    assert state.is_over() and json.loads(record.read_text())["game"] == "commissars"


def test_replay_draws_the_table_with_render(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    main(["play", "commissars", "--seats", "random,greedy", "--seed", "1", "--record", str(record)])
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Gulag:" in out and "Result: player" in out


def test_a_human_is_prompted_and_a_wrong_answer_is_asked_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("99\nabc\nquit\n"))
    code = main(["play", "commissars", "--seats", "human,greedy", "--seed", "2"])
    captured = capsys.readouterr()
    assert code == 0  # quitting is no error, in every game
    assert "'99' is not a choice" in captured.out and "'abc' is not a choice" in captured.out
    assert "Your hand:" in captured.out
    assert "Game abandoned." in captured.out and captured.err == ""


def test_pass_and_play_hides_the_screen_between_humans(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n\n"))
    assert main(["play", "commissars", "--seats", "human,human", "--seed", "2"]) == 0
    captured = capsys.readouterr()
    asked_2, asked_1 = (
        captured.out.index("Pass to player 2"),
        captured.out.index("Pass to player 1"),
    )
    assert front_end.CLEAR in captured.out and asked_2 < asked_1
    assert captured.out.endswith(INPUT_ENDED + "\n") and captured.err == ""


def test_with_several_humans_each_is_asked_about_a_blitz_whether_or_not_they_hold_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Asking only those who could Blitz would tell the others who holds one."""
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n"))
    assert main(["play", "commissars", "--seats", "human,human", "--seed", "2"]) == 0
    assert "Player 2: no Blitz you could play now; press Enter" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "7"], "2 to 6"),
        (["--seats", "human,robot"], "--seats"),
        (["--seats", "random,random", "--factions", "tsar,computin"], "factions"),
    ],
)
def test_bad_arguments_are_one_line(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "commissars", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


def test_render_shows_the_stack_and_only_the_asked_hand() -> None:
    state = commissars.new_game({"players": 2}, seed=0)
    while state.phase != "discard":
        state.apply(state.sample_chance())
    text = front_end.render(state)
    assert "Your hand" not in text and "Waiting for player 1" in text
    assert "Your hand:" in front_end.render(state, 0)


def test_a_human_is_asked_once_per_phase_whether_to_blitz_and_enter_declines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n"))
    assert main(["play", "commissars", "--seats", "greedy,human", "--seed", "5"]) == 0  # EOF
    out = capsys.readouterr().out
    question = "Player 2: play a Blitz now? (number, or Enter to let the game go on)"
    first, second = out.split(question)[1:3]
    assert "player 1: end phase" in first  # declined: the discard phase went on
    assert "propaganda phase" in first and "play Propaganda" in second
    assert out.count(question) == 2


def test_a_human_blitz_in_another_players_phase_goes_on_the_stack(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert main(["play", "commissars", "--seats", "greedy,human", "--seed", "5"]) == 0  # EOF
    out = capsys.readouterr().out
    assert "player 2: play Doublethink" in out
    assert "Waiting for player 2 to respond to Doublethink or pass" in out


def test_the_blitz_question_is_not_repeated_before_every_discard(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = table(phase="discard")
    give(state, 0, hand=["Propaganda"] * 9)
    give(state, 1, hand=["Doublethink"])
    session = front_end.Session(["strong", "human"], random.Random(0))
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert front_end.interjection(state, session) is None
    state.apply(Discard("Propaganda", player=0))
    assert front_end.interjection(state, session) is None  # no second question: stdin is empty
    assert capsys.readouterr().out.count("play a Blitz now?") == 1
    set_table(state, phase="propaganda")
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert front_end.interjection(state, session) == Play("Doublethink", player=1)


def test_built_in_seats_use_the_interject_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    state = table(phase="discard")
    give(state, 0, hand=["Propaganda"], citizens="CCCCB")
    give(state, 1, hand=["Hire Assassin"], citizens="P")
    session = front_end.Session(["human", "strong"], random.Random(0))
    action = front_end.interjection(state, session)
    assert action == Play("Hire Assassin", 0, "C", blitz=True, player=1)
    assert front_end.interjection(state, session) is None  # asked once this phase


def test_with_pass_the_only_choice_enter_passes_and_no_choose_1_1_is_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = table(phase="propaganda")
    give(state, 0, hand=["Propaganda"])
    give(state, 1, hand=["Increase Production"], citizens="P")
    state.apply(Play("Propaganda", 1, player=0))
    assert [a.notation() for a in state.legal_actions(1)] == ["pass"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert front_end._pick(state, 1, "") == Pass(player=1)
    out = capsys.readouterr().out
    assert "player 2, your only choice is pass: press Enter" in out
    assert "1-1" not in out and "  1. pass" not in out


def test_cards_and_help_card_say_what_cards_do(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = table(phase="action")
    give(state, 0, hand=["Propaganda", "Propaganda", "Hire Assassin"])
    answers = "cards\nhelp doublethink\nhelp do\nhelp nothing-like-it\nhelp\nend phase\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    chosen = front_end._pick(state, 0, "")
    out = capsys.readouterr().out
    assert chosen is not None and chosen.notation() == "end phase"  # a choice typed in words
    propaganda = state.card("Propaganda").text
    assert f"  2 x Propaganda [Propaganda]: {propaganda}" in out
    assert "Hire Assassin [Action, Blitz for one Proletariat]: " in out
    assert f"Doublethink [Blitz]: {state.card('Doublethink').text}" in out
    assert "'do' could be Doublethink, Doublespeak: type more of the name" in out
    assert "No card is called 'nothing-like-it'" in out
    assert "help CARD    what a card does" in out
