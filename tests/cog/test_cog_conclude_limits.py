"""Phase V, Task 6 with conversions (rulebook l.283 "at any time"), and the game
end after the round the bag ran out in, with Phase V played (l.287; only the
clock on its last space skips Tasks 2-6, l.266)."""

from __future__ import annotations

import pytest

from games.cog.actions import (
    Deconstruct,
    Finish,
    LettersForStar,
    ReturnLetter,
    ReturnStar,
    StarsForLetter,
)
from games.cog.state import CogState
from games.core import CHANCE, IllegalAction
from tests.cog.helpers import give, letter, set_mat, set_table

RED, BLUE = 0, 1


def finish_construct(state: CogState) -> None:
    """Every player says they are done with Phase IV (in turn order if need be)."""
    for player in list(state.order):
        if player in state.to_act():
            state.apply(Finish(player=player))


def kinds(state: CogState, player: int) -> set[str]:
    return {type(action).__name__ for action in state.legal_actions(player)}


@pytest.fixture
def d1(construct: CogState) -> CogState:
    """The reviewer's position: Red ends Phase IV with 3 letters and 4 stars."""
    give(construct, RED, "ABC")
    give(construct, BLUE, "DEFGH")
    set_mat(construct, RED, stars=4)
    finish_construct(construct)
    construct.apply(letter("Z"))  # Task 5: Red has 3 letters, draws one
    return construct


def test_over_three_stars_chooses_between_returning_and_converting(d1: CogState) -> None:
    assert d1.phase == "conclude" and d1.to_act() == (RED,)
    assert set(d1.legal_actions(RED)) == {ReturnStar(player=RED), StarsForLetter(player=RED)}
    d1.apply(StarsForLetter(player=RED))
    assert d1.to_act() == (CHANCE,)
    d1.apply(letter("Q"))
    assert len(d1.mats[RED].reserve) == 5 and d1.mats[RED].stars == 2
    assert d1.phase != "conclude"


def test_returning_the_star_instead(d1: CogState) -> None:
    d1.apply(ReturnStar(player=RED))
    assert len(d1.mats[RED].reserve) == 4 and d1.mats[RED].stars == 3
    assert d1.phase != "conclude"


def test_only_limit_moves_are_accepted_at_task_six(d1: CogState) -> None:
    before = d1.snapshot()
    for action in (
        ReturnLetter("A", player=RED),  # Red is within 7 letters
        LettersForStar(("A", "B"), player=RED),
        Deconstruct("COG", player=RED),
        Finish(player=RED),
    ):
        with pytest.raises(IllegalAction, match="within 7 letters and 3 stars"):
            d1.apply(action)
        assert d1.snapshot() == before


def test_over_both_limits_keeps_asking_until_both_hold(construct: CogState) -> None:
    give(construct, RED, "ABCDEFGHI")
    give(construct, BLUE, "JKLMN")
    set_mat(construct, RED, stars=3)
    finish_construct(construct)
    assert construct.to_act() == (RED,)
    assert kinds(construct, RED) == {"ReturnLetter", "LettersForStar"}
    construct.apply(LettersForStar(("A", "B"), player=RED))  # 7 letters, but 4 stars
    assert kinds(construct, RED) == {"ReturnStar", "StarsForLetter"}
    construct.apply(StarsForLetter(player=RED))  # 2 stars, and 8 letters again
    construct.apply(letter("Z"))
    mat = construct.mats[RED]
    assert (len(mat.reserve), mat.stars) == (8, 2) and construct.to_act() == (RED,)
    assert kinds(construct, RED) == {"ReturnLetter", "LettersForStar"}
    construct.apply(ReturnLetter("Z", player=RED))
    assert (len(mat.reserve), mat.stars) == (7, 2) and construct.phase != "conclude"


def test_over_both_at_once_offers_all_four(construct: CogState) -> None:
    give(construct, RED, "ABCDEFGHI")
    give(construct, BLUE, "JKLMN")
    set_mat(construct, RED, stars=5)
    finish_construct(construct)
    assert kinds(construct, RED) == {
        "ReturnLetter",
        "LettersForStar",
        "ReturnStar",
        "StarsForLetter",
    }


def test_nothing_is_asked_within_the_limits(construct: CogState) -> None:
    give(construct, RED, "ABCDEFG")
    give(construct, BLUE, "JKLMN")
    set_mat(construct, RED, stars=3)
    round_before = construct.round
    finish_construct(construct)
    assert construct.phase == "prepare" and construct.round == round_before + 1
    assert construct.to_act() == (CHANCE,)
    assert (len(construct.mats[RED].reserve), construct.mats[RED].stars) == (7, 3)


def test_limits_go_in_turn_order(construct: CogState) -> None:
    give(construct, RED, "ABCDEFGHI")
    give(construct, BLUE, "JKLMNOPQR")
    finish_construct(construct)
    first, second = construct.order
    assert construct.to_act() == (first,)
    construct.apply(ReturnLetter("A" if first == RED else "J", player=first))
    construct.apply(ReturnLetter("B" if first == RED else "K", player=first))
    assert construct.to_act() == (second,)


def test_an_empty_bag_returns_excess_stars_without_asking(construct: CogState) -> None:
    give(construct, RED, "ABCDE")
    give(construct, BLUE, "JKLMN")
    set_mat(construct, RED, stars=6)
    set_table(construct, spares_added=True, ran_out=True)
    set_table(construct, bag={})  # the spares are gone too: no letter to convert stars into
    supply = construct.supply_stars + sum(construct.protected)  # Task 3 returns those
    finish_construct(construct)
    assert construct.is_over()
    assert construct.mats[RED].stars == 3 and construct.supply_stars == supply + 3


def test_no_star_for_letters_with_the_supply_empty(construct: CogState) -> None:
    give(construct, RED, "ABCDEFGHI")
    give(construct, BLUE, "JKLMN")
    finish_construct(construct)
    set_table(construct, supply_stars=0)
    assert kinds(construct, RED) == {"ReturnLetter"}


# -- the bag runs out: the game ends after that round's Phase V -------------


def test_run_out_in_phase_four_plays_phase_five_then_ends(construct: CogState) -> None:
    """The reviewer's d3: the bag empties in Phase IV; Task 5 and 6 still happen."""
    round_before = construct.round
    set_table(construct, bag={})
    set_mat(construct, RED, stars=2)
    construct.apply(StarsForLetter(player=RED))  # the bag is empty: the spares go in
    construct.apply(letter("A"))
    give(construct, RED, "ABCDEFGHI")
    give(construct, BLUE, "XY")
    finish_construct(construct)
    assert not construct.is_over() and construct.phase == "conclude"
    assert construct.to_act() == (CHANCE,)  # Task 5: Blue has 2 letters
    construct.apply(letter("E"))
    assert construct.mats[BLUE].reserve == ["E", "X", "Y"]
    construct.apply(ReturnLetter("A", player=RED))
    construct.apply(ReturnLetter("B", player=RED))
    assert construct.is_over()
    assert_ended_after_phase_five(construct, round_before)


def test_run_out_in_phase_five_gets_the_same_treatment(construct: CogState) -> None:
    """The reviewer's d3b: the bag empties at Task 5."""
    round_before = construct.round
    give(construct, RED, "ABCDEFGHI")
    give(construct, BLUE, "XY")
    set_table(construct, bag={})
    finish_construct(construct)
    construct.apply(letter("E"))  # Blue's Task-5 letter comes from the spares
    assert construct.ran_out and not construct.is_over()
    construct.apply(ReturnLetter("A", player=RED))
    construct.apply(ReturnLetter("B", player=RED))
    assert construct.is_over()
    assert_ended_after_phase_five(construct, round_before)


def assert_ended_after_phase_five(state: CogState, round_played: int) -> None:
    """Over-7 letters went back before scoring; the round and the view name the last round."""
    assert len(state.mats[RED].reserve) == 7 and state.final[RED]["letters"] == 3
    assert all(cog is None for cog in state.turn_cogs)  # Task 3 was done
    view = state.view(RED)
    assert view["phase"] == "over" and view["round"] == round_played
    assert view["ran_out"] and view["queue"] == [] and view["final"]
    assert state.to_act() == () and not state.legal_actions()


def test_the_clock_on_its_last_space_skips_tasks_two_to_six(construct: CogState) -> None:
    set_table(construct, round=construct.rounds)
    give(construct, RED, "ABCDEFGHI")
    give(construct, BLUE, "XY")
    set_mat(construct, RED, stars=5)
    finish_construct(construct)
    assert construct.is_over() and construct.round == construct.rounds
    assert len(construct.mats[RED].reserve) == 9 and construct.mats[RED].stars == 5
    assert construct.mats[BLUE].reserve == ["X", "Y"]
