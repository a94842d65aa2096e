"""Words read off a grid's tiles, a word taken off, star powers and rolled dice (games/cog)."""

from __future__ import annotations

from games.cog.actions import PlaceWord, PlaceWordWild, TakeCard, TakeDie, TakeLetters
from games.cog.actions import TakeTurnOrder as Turn
from games.cog.effects import DieRoll
from games.cog.grid import Grid, Placed, TileLine, line_through
from games.cog.state import CogState
from tests.cog.helpers import give, roll, start

RED = 0


def test_the_line_runs_through_the_new_tiles_and_the_tiles_beside_them() -> None:
    seen = {(3, 2): "C", (3, 3): "L", (3, 4): "A", (3, 5): "M", (3, 6): "P"}
    line = line_through(seen, [(3, 2), (3, 6)])
    assert line == TileLine((3, 2), False, tuple((c, c in "CP") for c in "CLAMP"))
    down = line_through({(3, 2): "C", (4, 2): "O", (5, 2): None}, [(4, 2), (5, 2)])
    assert down is not None and down.down and down.tiles[-1] == (None, True)


def test_a_single_tile_runs_down_only_with_a_tile_above_or_below() -> None:
    across = line_through({(3, 2): "C", (3, 3): "O"}, [(3, 3)])
    assert across is not None and not across.down and across.start == (3, 2)
    down = line_through({(2, 3): "C", (3, 3): "O"}, [(3, 3)])
    assert down is not None and down.down and down.start == (2, 3)


def test_tiles_off_one_line_or_with_a_gap_make_no_line() -> None:
    assert line_through({(1, 1): "A", (2, 2): "B"}, [(1, 1), (2, 2)]) is None
    assert line_through({(1, 1): "A", (1, 3): "B"}, [(1, 1), (1, 3)]) is None


def test_the_tiles_seen_name_the_word_and_where_wild_tiles_lie(construct: CogState) -> None:
    give(construct, RED, "CLAMp")  # a wild tile (made wild by a star) among the reserve
    plain = TileLine((3, 2), False, tuple((c, True) for c in "CLAMP"))
    assert construct.words_from_tiles(RED, plain) == [PlaceWord("CLAMP", 3, 2, False, player=RED)]
    face_down = TileLine((3, 2), False, (("C", True), ("L", True), (None, True), ("M", True),
                                          ("P", True)))  # fmt: skip
    assert construct.words_from_tiles(RED, face_down) == [
        PlaceWordWild("CLAMP", 3, 2, False, (2,), player=RED)
    ]
    at_the_end = TileLine((3, 2), False, (*((c, True) for c in "CLAM"), (None, True)))
    # the reserve would put its wild tile on the P anyway: the plain word is the action
    assert construct.words_from_tiles(RED, at_the_end) == [
        PlaceWord("CLAMP", 3, 2, False, player=RED)
    ]
    nonsense = TileLine((3, 2), False, tuple((c, True) for c in "XYZZY"))
    assert construct.words_from_tiles(RED, nonsense) == []


def test_the_word_taken_off_is_the_one_whose_removal_empties_those_cells() -> None:
    grid = Grid(8, 8)
    grid.place(Placed("CLAMP", 3, 2, False), list("CLAMP"))
    grid.place(Placed("COG", 3, 2, True), list("OG"))
    assert grid.word_emptying({(4, 2), (5, 2)}) == Placed("COG", 3, 2, True)
    assert grid.word_emptying({(4, 2)}) is None


def test_placements_say_whether_they_pay_a_star() -> None:
    assert not TakeLetters(1, player=0).pays_star
    assert TakeCard(0, True, player=0).pays_star and not TakeCard(0, player=0).pays_star
    assert TakeDie(0, True, player=0).pays_star and not TakeDie(0, player=0).pays_star
    assert Turn(0, True, player=0).pays_star and not Turn(0, player=0).pays_star


def test_a_die_counts_as_rolled_once_its_roll_is_in() -> None:
    state = start(2, seed=1)
    while state.queue[0] != DieRoll(0):  # Phase I: the slots and cards come first
        state.apply(state.sample_chance())
    assert not state.die_rolled(0)
    state.apply(roll(4))
    assert state.die_rolled(0) and state.die_values[0] == 4
