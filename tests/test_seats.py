"""One way to seat players in every game: ``--players N``, ``--seat N=KIND``, old spellings too."""

from __future__ import annotations

import io

import pytest

from cogtable.cli import build_parser, main
from cogtable.commands import sim
from cogtable.commands._seats import CONVENTION, seat_kinds
from cogtable.tables import front_ends


def seats_of(game: str, *argv: str) -> tuple[str, ...]:
    """The seat kinds ``cogtable play GAME ARGV`` would play with."""
    args = build_parser().parse_args(["play", game, *argv])
    front_end = front_ends()[game]
    return front_end.seat_kinds(args, args.players, front_end.SEATS)


@pytest.mark.parametrize(
    ("game", "argv", "kinds"),
    [
        ("kogworks", [], ("human", "strong")),
        ("cog", ["--players", "3"], ("human", "strong", "strong")),
        ("commissars", ["--players", "3"], ("human", "strong", "strong")),
        ("cookie", [], ("human", "strong", "strong", "strong")),
        ("kogworks", ["--seat", "2=human", "--seat", "1=random"], ("random", "human")),
        ("cog", ["--seat", "1=strong", "--seat", "2=Human"], ("strong", "human")),
        ("commissars", ["--seat", "2=random"], ("human", "random")),
        ("cookie", ["--players", "5", "--seat", "5=random"], ("human", *["strong"] * 3, "random")),
    ],
)
def test_the_convention_and_its_defaults(game: str, argv: list[str], kinds: tuple[str]) -> None:
    assert seats_of(game, *argv) == kinds


@pytest.mark.parametrize(
    ("game", "argv", "kinds"),
    [
        ("kogworks", ["--red", "greedy", "--blue", "random"], ("strong", "random")),
        ("kogworks", ["--blue", "human", "--red", "random"], ("random", "human")),
        (
            "cog",
            ["--players", "3", "--seats", "human,greedy,random"],
            ("human", "strong", "random"),
        ),
        ("commissars", ["--seats", "greedy,human"], ("strong", "human")),
        ("cookie", ["--seat", "2=reasoner", "--seat", "1=random"], ("random", *["strong"] * 3)),
        ("cog", ["--seats", "random,random", "--seat", "2=human"], ("random", "human")),
    ],
)
def test_old_spellings_keep_working(game: str, argv: list[str], kinds: tuple[str]) -> None:
    assert seats_of(game, *argv) == kinds


@pytest.mark.parametrize(
    ("game", "argv", "words"),
    [
        ("kogworks", ["--seat", "1=wizard"], "--seat 1=wizard: 'wizard' is no player; use one of"),
        ("kogworks", ["--red", "reasoner"], "--red reasoner: 'reasoner' is no player"),
        ("cog", ["--seat", "3=random"], "--seat 3=random: there are seats 1 to 2 only"),
        ("commissars", ["--seat", "two=random"], "--seat two=random: expected N=KIND"),
        ("cookie", ["--seats", "human,random"], "--seats human,random names 2 seats for 4"),
        ("cookie", ["--seat", "1=greedy"], "use one of human, random, strong (old name: reasoner"),
    ],
)
def test_a_bad_seat_is_one_line_and_exit_status_2(
    game: str, argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", game, *argv]) == 2
    error = capsys.readouterr().err
    assert words in error and error.count("\n") == 1, error


@pytest.mark.parametrize("game", sorted(front_ends()))
def test_a_bad_number_of_players_is_one_line(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["play", game, "--players", "many"])
    error = capsys.readouterr().err
    assert stopped.value.code == 2
    assert "expected a number of players, not 'many'" in error and error.count("\n") == 1


@pytest.mark.parametrize("game", sorted(front_ends()))
def test_every_play_help_states_the_convention(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["play", game, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--players N" in out and "--seat N=KIND" in out
    assert "KIND: human, random, strong" in out
    assert " ".join(CONVENTION.split()) in out


@pytest.mark.parametrize("game", sorted(front_ends()))
def test_quitting_exits_0_in_every_game(
    game: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", game, "--seat", "1=human", "--seed", "1"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "abandoned" in captured.out.lower() or "left unfinished" in captured.out


@pytest.mark.parametrize(
    ("argv", "kinds"),
    [
        (["kogworks"], ("strong", "random")),
        (["kogworks", "--red", "random", "--blue", "greedy"], ("random", "strong")),
        (["kogworks", "--seat", "2=strong"], ("strong", "strong")),
        (["cookie", "--seats", "reasoner,random,random,random"], ("strong", *["random"] * 3)),
        (["cog", "--seat", "2=random"], ("strong", "random")),
    ],
)
def test_sim_seats_follow_the_same_convention(argv: list[str], kinds: tuple[str]) -> None:
    args = build_parser().parse_args(["sim", *argv])
    kogworks = args.game == "kogworks"
    rule = sim.options.seat_rule(
        args.game, sim.options.STRONG_RED_RANDOM_BLUE if kogworks else sim.options.EVERY_SEAT_STRONG
    )
    assert seat_kinds(args, len(kinds), rule) == kinds


def test_sim_takes_no_human_and_says_so_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "cog", "--players", "2", "--seat", "1=human", "--quiet"]) == 2
    error = capsys.readouterr().err
    assert "'human' is no player; use one of random, strong" in error and error.count("\n") == 1
