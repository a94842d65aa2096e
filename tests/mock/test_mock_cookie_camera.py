"""End to end: whole Cookie games on the mock card mat, through the camera (truth readings).

Simulated people lay, turn up and aim their cards on the mock mat
(:mod:`cogtable.mock.people.cookie`), press confirm for "I looked", and make
mistakes the table must refuse (a Sword before a player the rules do not
allow, a card turned up too soon, a claim out of turn). Each run must end
with one finished game whose journal holds exactly the actions the people
meant, every one of them read by the camera or a seat button.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogtable.cli import build_parser
from cogtable.commands import sim
from cogtable.errors import UserError
from cogtable.mock.cards_world import CardsWorld
from cogtable.mock.people.cookie import CookieTablePeople
from games.cookie.actions import Challenge, Look
from hardware.profile import load_profile
from tests.mock.helpers import ConsoleRun, console_runs, journaled_game

RANDOM_SEATS = ("--seat", "1=random", "--seat", "2=random")
"""Random players challenge now and then (the strong ones always look with two players)."""
RUNS = {
    "hunt-4": ["--variant", "hunt", "--players", "4", "--seed", "11", "--undo-rate", "0.1"],
    "big-hunt-2": ["--variant", "big-hunt", "--players", "2", "--seed", "2", *RANDOM_SEATS],
    "big-hunt-3": ["--variant", "big-hunt", "--players", "3", "--seed", "13"],
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ConsoleRun]:
    return console_runs("cookie", RUNS, tmp_path_factory)


@pytest.mark.parametrize("name", list(RUNS))
def test_a_whole_game_ends_with_exactly_the_actions_the_people_meant(
    played: dict[str, ConsoleRun], name: str
) -> None:
    run, status, folder = played[name]
    people = run.people
    assert isinstance(people, CookieTablePeople) and isinstance(people.world, CardsWorld)
    assert people.finished and status == 0, run.reason
    game = journaled_game(folder)
    actions, sources = game.actions, game.sources
    assert game.status == "finished"
    assert actions == people.meant, "the journal holds exactly what the people meant"
    assert set(sources) <= {"camera", "button", "console"}
    typed = [action for action, source in zip(actions, sources, strict=True) if source != "camera"]
    assert all(isinstance(action, Look | Challenge) for action in typed), typed
    pressed = [a for a, source in zip(actions, sources, strict=True) if source == "button"]
    assert all(isinstance(a, Look | Challenge) for a in pressed), "'I looked', or which card"
    assert run.runtime.table.state.outcome() is not None


def test_two_players_say_which_role_card_they_turned_up(
    played: dict[str, ConsoleRun],
) -> None:
    _, _, folder = played["big-hunt-2"]
    game = journaled_game(folder)
    actions, sources = game.actions, game.sources
    said = {
        source
        for action, source in zip(actions, sources, strict=True)
        if isinstance(action, Challenge)
    }
    assert said == {"button", "console"}, "a confirm for the likelier card, else typed"


def test_the_people_made_mistakes_and_the_table_refused_them(
    played: dict[str, ConsoleRun],
) -> None:
    mistakes = {
        name: sum(log.mistakes for log in run.people.played) for name, (run, _, _) in played.items()
    }
    assert sum(mistakes.values()) >= 3 and all(mistakes.values()), mistakes


def test_undo_held_at_the_table_takes_back_and_the_game_goes_on(
    played: dict[str, ConsoleRun],
) -> None:
    run, _, _ = played["hunt-4"]
    assert sum(log.undos for log in run.people.played) >= 2


def test_a_rendered_mat_too_small_to_read_is_refused_before_anything_is_made(
    tmp_path: Path,
) -> None:
    argv = ["sim", "cookie", "--camera", "render", "--size", "320x240", "--quiet"]
    args = build_parser().parse_args(argv)
    with pytest.raises(UserError, match="too small to read") as refused:
        sim.play(args, load_profile(), tmp_path)
    assert "\n" not in str(refused.value) and list(tmp_path.iterdir()) == []


def test_a_broken_kept_mat_is_refused_before_the_journal_is_made(tmp_path: Path) -> None:
    kept = {"played": [], "finished": False, "table": {"cards": {"seat9": [[1, 2, None, 0]]}}}
    (tmp_path / sim.WORLD_FILE).write_text(json.dumps({"game": "cookie", "people": kept}))
    args = build_parser().parse_args(["sim", "cookie", "--quiet"])
    with pytest.raises(UserError, match="no zone 'seat9'"):
        sim.play(args, load_profile(), tmp_path)
    assert [path.name for path in tmp_path.iterdir()] == [sim.WORLD_FILE]


def test_without_a_card_mat_the_cookie_is_played_at_the_console(tmp_path: Path) -> None:
    profile_text = (Path(load_profile().source).read_text()).split("\n[cards]")[0]
    bare = tmp_path / "no-mat.toml"
    bare.write_text(profile_text)
    args = build_parser().parse_args(
        [
            "sim",
            "cookie",
            "--variant",
            "hunt",
            "--players",
            "4",
            "--seed",
            "2",
            "--quiet",
            "--profile",
            str(bare),
        ]
    )
    folder = tmp_path / "state"
    folder.mkdir()
    played = sim.play(args, load_profile(bare), folder)
    assert sim.report(played, folder) == 0
    assert not isinstance(played.people, CookieTablePeople)
    assert set(journaled_game(folder).sources) <= {"console", "button"}
