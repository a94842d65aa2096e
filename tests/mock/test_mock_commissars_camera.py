"""End to end: Cogs and Commissars games on the mock card mat, through the camera (truth readings).

Simulated people hold real shuffled decks (:mod:`cogtable.mock.people.commissars`):
they lay plays on the stack and flips and discards on their piles, press
confirm for a draw and pass in a response window, type a target or a leader
power's choice, and make mistakes the table must refuse (a Blitz laid out of
turn in a response window) or wait out (a pass forgotten for a while). Each
run must end with one finished game whose journal holds exactly the actions
the people meant, in table mode (every draw unseen).
"""

from __future__ import annotations

import pytest

from cogtable.mock.cards_world import CardsWorld
from cogtable.mock.people.commissars import CommissarsTablePeople
from games.commissars.actions import Discard, Play, TopCard, UnseenDraw
from games.core import CHANCE
from tests.mock.helpers import ConsoleRun, console_runs, journaled_game

RUNS = {
    "2": ["--players", "2", "--option", "max_turns=4", "--seed", "21", "--undo-rate", "0.05"],
    "3": ["--players", "3", "--option", "max_turns=3", "--seed", "54", "--undo-rate", "0.1"],
    "4": ["--players", "4", "--option", "max_turns=3", "--seed", "43", "--undo-rate", "0.05"],
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ConsoleRun]:
    return console_runs("commissars", RUNS, tmp_path_factory)


@pytest.mark.parametrize("name", list(RUNS))
def test_a_whole_game_ends_with_exactly_the_actions_the_people_meant(
    played: dict[str, ConsoleRun], name: str
) -> None:
    run, status, folder = played[name]
    people = run.people
    assert isinstance(people, CommissarsTablePeople) and isinstance(people.world, CardsWorld)
    assert people.finished and status == 0, run.reason
    game = journaled_game(folder)
    actions, sources = game.actions, game.sources
    assert game.status == "finished"
    assert game.options["hands"] == "unknown", "table mode on the card mat"
    assert actions == people.meant, "the journal holds exactly what the people meant"
    assert run.runtime.table.state.outcome() is not None
    camera = {type(a) for a, source in zip(actions, sources, strict=True) if source == "camera"}
    assert camera <= {Play, Discard, TopCard}, "the camera reads cards laid, nothing else"
    assert TopCard in camera and Play in camera
    draws = [
        source for a, source in zip(actions, sources, strict=True) if a == UnseenDraw(player=CHANCE)
    ]
    assert draws and set(draws) == {"button"}, "every draw is the drawer's confirm"


def test_the_people_made_mistakes_and_the_table_refused_them(
    played: dict[str, ConsoleRun],
) -> None:
    mistakes = {
        name: sum(log.mistakes for log in run.people.played) for name, (run, _, _) in played.items()
    }
    assert sum(mistakes.values()) >= 1, mistakes
