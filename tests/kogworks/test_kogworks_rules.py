"""Every Kogworks rule, each from a position the rulebook describes or implies."""

from __future__ import annotations

import pytest

from games.core import BadOptions, IllegalAction
from games.kogworks import LostByBlock, Move, Place, Won, new_game, parse, parse_peg
from tests.kogworks.positions import position, reference_moves


def peg(name: str) -> int:
    return parse_peg(name)


def play(state, *moves: str) -> list:  # type: ignore[no-untyped-def]
    """Apply moves in notation, alternating from the mover; return the last events."""
    events: list = []
    for text in moves:
        events = state.apply(parse(text, state.mover))
    return events


def test_new_game_has_fixed_wheels_reserves_and_red_to_move() -> None:
    state = new_game()
    assert state.to_act() == (0,)
    assert state.reserves() == (14, 14)
    assert state.cogs(0) == [peg("10.1")] and state.cogs(1) == [peg("10.10")]
    assert state.base_turns(0) and state.base_turns(1)
    assert len(state.legal_actions()) == 55 - 3


def test_option_first_blue_and_bad_options() -> None:
    assert new_game({"first": "blue"}).to_act() == (1,)
    with pytest.raises(BadOptions, match="red"):
        new_game({"first": "green"})
    with pytest.raises(BadOptions, match="unknown option"):
        new_game({"colour": "red"})
    with pytest.raises(BadOptions):
        new_game({"repetition_draw": "yes"})


def test_fig4_blue_locks_red_base_in_a_triangle_and_red_must_move_the_cog() -> None:
    state = new_game()
    play(state, "+9.1", "+10.2")  # fig. 3 then fig. 4: base, 9.1 and 10.2 form a triangle
    assert not state.base_turns(0)
    legal = state.legal_actions()
    assert not any(isinstance(action, Place) for action in legal), "no placement unlocks"
    assert {action.source for action in legal} == {peg("9.1")}, "only that cog may move"
    with pytest.raises(IllegalAction, match="odd cycle"):
        state.apply(parse("+5.3", 0))
    play(state, "9.1-9.2")  # fig. 5: three wheels now turn together
    assert state.base_turns(0)
    assert state.cogs(0) == [peg("9.2"), peg("10.1")]


def test_locked_base_reason_names_the_odd_cycle_and_the_group() -> None:
    state = position(red="9.1", blue="10.2", mover=0)
    (violation,) = state.why_illegal(parse("+5.3", 0))
    assert violation.rule == "base-locked"
    assert sorted(violation.pegs) == sorted(peg(p) for p in ("10.1", "9.1", "10.2"))
    assert set(violation.group) == {peg(p) for p in ("10.1", "9.1", "10.2")}


def test_a_longer_odd_cycle_locks_the_base_too() -> None:
    # A five-wheel ring with a hole in it is an odd cycle but contains no triangle.
    ring = position(red="9.1 8.1", blue="10.2 10.3 9.3", mover=0)
    assert not ring.base_turns(0)
    even = position(red="9.1 8.1", blue="10.2 10.3", mover=0)
    assert even.base_turns(0) is False  # 10.1, 9.1, 10.2 is a triangle here
    path = position(red="9.1 8.1 7.1", blue="", mover=0)
    assert path.base_turns(0)


def test_fig9_own_colour_triangle_is_forbidden_mixed_one_is_not() -> None:
    state = position(red="5.2 6.2", blue="6.4", mover=0)
    (violation,) = state.why_illegal(parse("+6.3", 0))
    assert violation.rule == "own-triangle"
    assert set(violation.pegs) == {peg("5.2"), peg("6.2"), peg("6.3")}
    with pytest.raises(IllegalAction, match="triangle of Red"):
        state.apply(parse("+6.3", 0))
    blue = position(red="5.2 6.2", blue="6.4", mover=1)
    assert parse("+6.3", 1) in blue.legal_actions(), "a mixed triangle is allowed"


def test_own_triangle_by_moving_a_cog_is_forbidden_too() -> None:
    state = position(red="5.2 6.2 3.1", mover=0)
    assert Move(peg("3.1"), peg("6.3"), player=0) not in state.legal_actions()
    assert Move(peg("3.1"), peg("6.3"), player=0) not in state.legal_actions(0)
    assert Move(peg("6.2"), peg("6.3"), player=0) in state.legal_actions()


@pytest.mark.parametrize(
    ("red", "blocker", "corner"),
    [("2.1", "+2.2", "1.1"), ("9.9", "+10.9", "10.10"), ("9.1", "+10.2", "10.1")],
)
def test_fig9_corner_may_not_be_blocked_by_two_of_one_colour(
    red: str, blocker: str, corner: str
) -> None:
    state = position(red=red, mover=0)
    violations = {v.rule: v for v in state.why_illegal(parse(blocker, 0))}
    assert "corner" in violations
    assert violations["corner"].pegs[0] == peg(corner)
    assert set(violations["corner"].pegs[1:]) == {peg(red), peg(blocker[1:])}
    assert parse(blocker, 0) not in state.legal_actions()


def test_the_other_colour_may_fill_a_corners_second_neighbour() -> None:
    state = position(red="2.1", mover=1)
    assert parse("+2.2", 1) in state.legal_actions()


def test_fig10_double_block_leaves_red_without_a_move_and_blue_wins() -> None:
    state = new_game()
    play(state, "+9.1", "+10.3", "+9.2")
    events = play(state, "+10.2")  # two odd cycles, each held by a different Red cog
    assert events[-1] == LostByBlock(0)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)
    assert outcome.reason == "blocked: no legal move"
    assert state.to_act() == () and not state.legal_actions()


def test_single_block_is_not_a_loss_because_one_move_fixes_it() -> None:
    state = new_game()
    events = play(state, "+9.1", "+10.2")
    assert not any(isinstance(event, LostByBlock) for event in events)
    assert state.outcome() is None


def test_winning_path_may_run_through_the_opponents_cog() -> None:
    state = position(red="9.1 8.1 7.1 6.1 4.1 3.1", blue="5.1", mover=0)
    assert parse("+2.1", 0) in state.winning_moves()
    events = state.apply(parse("+2.1", 0))
    assert isinstance(events[-1], Won) and events[-1].player == 0
    assert peg("5.1") in state.winning_group()
    assert peg("1.1") in state.winning_group()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (1.0, 0.0)


def test_mover_wins_even_when_the_group_holds_the_opponents_base() -> None:
    # A tree of wheels: Red's path from its base up to 3.1, with a Blue branch
    # from 8.5 down to Blue's base; 2.1 joins it all to the top wheel.
    red_path = "10.2 10.3 10.4 10.5 9.5 8.5 7.4 6.3 5.2 4.1 3.1"
    state = position(red=red_path, blue="8.6 9.7 10.8 10.9", mover=0)
    assert state.base_turns(0) and state.base_turns(1)
    state.apply(parse("+2.1", 0))
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert {peg("10.10"), peg("1.1"), peg("10.1")} <= set(state.winning_group())


def test_linking_the_opponent_to_the_top_does_not_win_for_the_mover() -> None:
    state = position(red="9.1 8.1 7.1 6.1 5.1 4.1 3.1", mover=1)
    state.apply(parse("+2.1", 1))  # Blue completes Red's path; only the mover can win
    assert state.outcome() is None
    assert state.to_act() == (0,)
    placements = [action for action in state.legal_actions() if isinstance(action, Place)]
    assert placements and set(placements) <= set(state.winning_moves())
    assert Move(peg("9.1"), peg("5.5"), player=0) not in state.winning_moves()


def test_placing_needs_a_reserve_and_moving_needs_your_own_cog() -> None:
    state = position(red=" ".join(f"{r}.{c}" for r, c in _fourteen()), blue="4.2", mover=0)
    assert state.reserves() == (0, 13)
    with pytest.raises(IllegalAction, match="reserve"):
        state.apply(parse("+6.6", 0))
    with pytest.raises(IllegalAction, match="not your cog"):
        state.apply(parse("4.2-6.6", 0))
    with pytest.raises(IllegalAction, match="never moves"):
        state.apply(parse("10.1-6.6", 0))
    with pytest.raises(IllegalAction, match="not empty"):
        state.apply(parse("+4.2", 0))


def _fourteen() -> list[tuple[int, int]]:
    """Fourteen pegs, no two neighbours (every other peg of every other row)."""
    found = [(r, c) for r in (3, 5, 7, 9) for c in range(1, r + 1, 2)]
    return found[:14]


def test_not_your_turn_and_game_over_are_refused() -> None:
    state = new_game()
    with pytest.raises(IllegalAction, match="not Blue's turn"):
        state.apply(parse("+5.3", 1))
    play(state, "+9.1", "+10.3", "+9.2", "+10.2")
    with pytest.raises(IllegalAction, match="over"):
        state.apply(parse("+5.3", 0))


def test_repetition_draw_only_with_the_house_rule() -> None:
    there_and_back = "5.3-4.2 6.6-7.7 4.2-5.3 7.7-6.6"
    shuffle = f"+5.3 +6.6 {there_and_back} {there_and_back}".split()
    drawn = new_game({"repetition_draw": True})
    play(drawn, *shuffle)
    outcome = drawn.outcome()
    assert outcome is not None and outcome.winners == () and "repetition" in outcome.reason
    plain = new_game()
    play(plain, *shuffle)
    assert plain.outcome() is None


def test_destinations_of_a_cog_and_of_the_reserve() -> None:
    state = position(red="9.1", blue="10.2", mover=0)
    assert state.destinations() == []
    targets = state.destinations(peg("9.1"))
    assert peg("9.2") in targets and peg("10.2") not in targets
    expected = {target for source, target in reference_moves(state) if source == peg("9.1")}
    assert set(targets) == expected
    assert state.destinations(peg("10.2")) == []


def test_events_describe_themselves() -> None:
    state = new_game()
    (placed,) = state.apply(parse("+9.1", 0))
    assert placed.describe() == "Red placed a cog on 9.1"
    (moved,) = state.apply(parse("+5.3", 1)) and state.apply(parse("9.1-9.2", 0))
    assert moved.describe() == "Red moved a cog from 9.1 to 9.2"
