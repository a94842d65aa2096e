"""The Kogworks table adapter: what a settled board means, and the LEDs it shows."""

from __future__ import annotations

import pytest

from cogtable.tables.kogworks import adapter
from games.kogworks import BASES, TOP, KogworksState, Move, Place, new_game, peg_at
from hardware.leds import Frame
from hardware.profile import load_profile

RED, BLUE = (224, 32, 32), (32, 80, 240)
SEATS = (RED, BLUE)


@pytest.fixture
def template() -> Frame:
    return Frame.for_profile(load_profile())


def board(state: KogworksState, **changes: str | None) -> dict[int, str]:
    """The state's pieces with changes keyed like p8_1 (row 8, position 1, from 1)."""
    seen = adapter.pieces_of(state)
    for key, colour in changes.items():
        row, position = (int(part) for part in key[1:].split("_"))
        peg = peg_at(row - 1, position - 1)
        if colour is None:
            seen.pop(peg, None)
        else:
            seen[peg] = colour
    return seen


def test_the_start_position_is_in_sync() -> None:
    state = new_game()
    assert adapter.pieces_of(state) == {TOP: "gold", BASES[0]: "red", BASES[1]: "blue"}
    assert adapter.judge(state, board(state)).kind == "in-sync"


def test_a_new_cog_of_the_mover_is_a_placement() -> None:
    state = new_game()
    verdict = adapter.judge(state, board(state, p9_1="red"))
    assert verdict.kind == "move"
    assert verdict.action == Place(peg_at(8, 0), player=0)


def test_a_cog_taken_from_one_peg_to_another_is_a_move() -> None:
    state = new_game()
    state.apply(Place(peg_at(8, 0), player=0))
    state.apply(Place(peg_at(5, 2), player=1))
    verdict = adapter.judge(state, board(state, p9_1=None, p8_1="red"))
    assert verdict.action == Move(peg_at(8, 0), peg_at(7, 0), player=0)


def test_a_lifted_cog_lights_its_destinations_white(template: Frame) -> None:
    state = new_game()
    state.apply(Place(peg_at(8, 0), player=0))
    state.apply(Place(peg_at(5, 2), player=1))
    verdict = adapter.judge(state, board(state, p9_1=None))
    assert verdict.kind == "lifted" and verdict.places == (peg_at(8, 0),)
    leds = adapter.frame(state, verdict, SEATS, template)
    white = [i for i in range(55) if leds.look("pegs", i).colour == adapter.WHITE]
    assert white == sorted(state.destinations(peg_at(8, 0)))
    assert white


def test_an_illegal_placement_blinks_the_pegs_that_make_it_illegal(template: Frame) -> None:
    state = new_game()
    state.apply(Place(peg_at(8, 0), player=0))
    state.apply(Place(peg_at(5, 2), player=1))
    verdict = adapter.judge(state, board(state, p10_2="red"))
    assert verdict.kind == "illegal"
    assert {peg_at(9, 1), peg_at(8, 0), BASES[0]} <= set(verdict.places)
    assert "triangle" in verdict.reason or "corner" in verdict.reason
    leds = adapter.frame(state, verdict, SEATS, template)
    for peg in verdict.places:
        look = leds.look("pegs", peg)
        assert look.colour == adapter.RED and look.animation.kind == "blink"


def test_the_position_before_the_last_move_is_a_take_back() -> None:
    state = new_game()
    before = state.clone()
    state.apply(Place(peg_at(4, 2), player=0))
    assert adapter.judge(state, board(before), before).kind == "take-back"


@pytest.mark.parametrize(
    "changes",
    [
        {"p5_3": "blue"},  # the opponent's colour on the mover's turn
        {"p5_3": "red", "p6_3": "red"},  # two cogs at once
        {"p1_1": None},  # the top wheel gone
    ],
)
def test_anything_else_is_out_of_sync(changes: dict[str, str | None]) -> None:
    state = new_game()
    verdict = adapter.judge(state, board(state, **changes))
    assert verdict.kind == "out-of-sync"
    assert set(verdict.places) == set(adapter.differing(state, board(state, **changes)))


def test_the_turn_and_the_placement_pegs_light_in_the_movers_colour(template: Frame) -> None:
    state = new_game()
    leds = adapter.frame(state, adapter.Verdict("in-sync"), SEATS, template)
    assert leds.look("seats", 0).colour == RED
    assert leds.look("seats", 1).colour == (0, 0, 0)
    lit = {i for i in range(55) if leds.look("pegs", i).colour != (0, 0, 0)}
    assert lit == set(state.destinations(None))


def test_a_winner_runs_a_chase_along_the_winning_group(template: Frame) -> None:
    state = new_game()
    column = [peg_at(row, 0) for row in range(8, 0, -1)]
    apart = [(9, 3), (9, 6), (7, 3), (7, 6), (5, 4), (4, 2), (3, 3)]
    for peg, (row, col) in zip(column, [*apart, (0, 0)], strict=True):
        state.apply(Place(peg, player=0))
        if state.is_over():
            break
        state.apply(Place(peg_at(row, col), player=1))
    assert state.outcome() is not None
    leds = adapter.frame(state, adapter.Verdict("in-sync"), SEATS, template)
    chased = {i for i in range(55) if leds.look("pegs", i).animation.kind == "chase"}
    assert chased == set(state.winning_group())
