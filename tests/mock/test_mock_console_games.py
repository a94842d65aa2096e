"""End to end: every console game at 2, 4 and its most players on the six-seat mock table.

Simulated people answer at the console, press their seat buttons and roll the
simulated Pico's die; they make mistakes the table must refuse. Each run must
end with exit status 0, one finished game in the journal that replays to its
outcome, and exactly the actions the people remember (nothing refused was
recorded, nothing accepted was lost).
"""

from __future__ import annotations

from typing import Any

import pytest

from cogtable.journal import JOURNAL_NAME, Journal
from cogtable.mock.world import MockWorld
from cogtable.runtime import Runtime
from hardware.profile import load_profile
from tests.mock.console_helpers import ConsoleRun, run_all

SIX_SEATS = tuple(seat.colour for seat in load_profile().seats)

RUNS: dict[str, list[str]] = {
    "cog-2": ["cog", "--players", "2", "--seed", "1", "--camera", "truth"],
    "cog-4": ["cog", "--players", "4", "--seed", "2", "--camera", "truth"],
    "commissars-2": ["commissars", "--players", "2", "--option", "max_turns=3", "--seed", "3"],
    "commissars-4": ["commissars", "--players", "4", "--option", "max_turns=3", "--seed", "4"],
    "commissars-6": ["commissars", "--players", "6", "--option", "max_turns=6", "--seed", "5"],
    "cookie-big-hunt-2": ["cookie", "--variant", "big-hunt", "--players", "2", "--seed", "6"],
    "cookie-big-hunt-4": ["cookie", "--variant", "big-hunt", "--players", "4", "--seed", "7"],
    "cookie-hunt-4": ["cookie", "--variant", "hunt", "--players", "4", "--seed", "8"],
    "cookie-hunt-6": ["cookie", "--variant", "hunt", "--players", "6", "--seed", "9"],
}
NO_UNDO = ("commissars",)
"""Holding undo takes a second of a real press; the capped Commissars runs go without."""


class SeatWatch:
    """Notes every seat whose LED the table showed in that seat's colour."""

    def __init__(self) -> None:
        self.lit: set[int] = set()

    def __call__(self, world: MockWorld, runtime: Runtime, people: Any) -> None:
        frame = runtime.visible_frame()
        if frame is None:
            return
        for seat, look in enumerate(frame.looks["seats"]):
            if look.colour == SIX_SEATS[seat]:
                self.lit.add(seat)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ConsoleRun]:
    runs = {}
    for name, argv in RUNS.items():
        extra = ["--undo-rate", "0"] if argv[0] in NO_UNDO else []
        watch = [SeatWatch()] if name == "commissars-6" else []
        runs[name] = ConsoleRun([*argv, *extra], tmp_path_factory.mktemp(name), watch)
    done = run_all(list(runs.values()))
    for run in done:
        print(f"{' '.join(run.argv)}: {run.seconds:.1f} s")
    return dict(zip(runs, done, strict=True))


@pytest.mark.parametrize("name", list(RUNS))
def test_a_console_game_ends_with_exactly_the_actions_the_people_made(
    played: dict[str, ConsoleRun], name: str
) -> None:
    run = played[name]
    assert run.played is not None
    people = run.played.people
    assert people.finished, run.played.reason
    assert run.exit_status == 0
    ((status, actions, outcome),) = run.journal()
    assert status == "finished"
    assert outcome is not None, "the journal's game replays to an end"
    assert people.history == actions, "the journal holds exactly what the people saw accepted"
    (log,) = people.played
    assert log.moves == len(actions)
    assert tuple(log.winners) == outcome.winners
    assert run.played.runtime.table.state.outcome() == outcome


def test_the_people_are_as_many_as_asked(played: dict[str, ConsoleRun]) -> None:
    for name, run in played.items():
        assert run.played is not None
        expected = int(RUNS[name][RUNS[name].index("--players") + 1])
        assert run.played.people.memory.num_players == expected, name
        assert run.played.runtime.table.state.num_players == expected, name


def test_mistakes_were_made_and_refused(played: dict[str, ConsoleRun]) -> None:
    mistakes = {
        name: sum(log.mistakes for log in run.played.people.played)  # type: ignore[union-attr]
        for name, run in played.items()
    }
    assert sum(mistakes.values()) >= 5, mistakes
    assert sum(1 for count in mistakes.values() if count) >= 3, mistakes


def test_six_players_of_commissars_each_get_their_seat_led(
    played: dict[str, ConsoleRun],
) -> None:
    run = played["commissars-6"]
    (watch,) = run.actors
    assert isinstance(watch, SeatWatch)
    assert watch.lit == set(range(6)), "seats 1 to 6 each lit in their colour"


def test_cog_dice_are_rolled_on_the_pico_pieces_read_by_the_camera_cards_typed(
    played: dict[str, ConsoleRun],
) -> None:
    """C.O.G. at the mock table: every letter and piece through the camera, cards at the console."""
    laid: set[str] = set()
    for name in ("cog-2", "cog-4"):
        by_type = sources_by_type(played[name])
        assert by_type["RollDie"] == {"button"}, name
        assert by_type["DrawLetter"] == {"camera"}, name
        assert by_type["DrawCard"] == {"console"}, name
        for placement in ("TakeLetters", "TakeDie", "TakeTurnOrder", "TakeCard"):
            assert by_type[placement] <= {"camera", "button", "console"}, (name, placement)
            assert "camera" in by_type[placement] or "button" in by_type[placement]
        words = by_type.get("PlaceWord", set()) | by_type.get("PlaceWordWild", set())
        # a word whose wild tiles read two ways is a choice: confirmed (button) or typed
        assert words <= {"camera", "button", "console"}, (name, by_type)
        laid |= words
    assert "camera" in laid, "words were laid through the camera"


def sources_by_type(run: ConsoleRun) -> dict[str, set[str]]:
    """Each kind of journaled action and where its answers came from."""
    with Journal(run.state_dir / JOURNAL_NAME) as journal:
        rows = journal.connection.execute("SELECT action, source FROM actions").fetchall()
    by_type: dict[str, set[str]] = {}
    for action, source in rows:
        kind = action.split('"type": "', 1)[1].split('"', 1)[0]
        by_type.setdefault(kind, set()).add(source)
    return by_type
