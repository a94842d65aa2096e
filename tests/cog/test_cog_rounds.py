"""Setup by player count, Phase I, Phase II (every edge, the star powers, pawns) and Phase III."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.cog.actions import Activate, Finish, TakeCard, TakeCentre, TakeDie, TakeLetters
from games.cog.actions import TakeTurnOrder as Turn
from games.cog.effects import CardFor
from games.cog.state import CogState
from games.core import CHANCE, IllegalAction
from tests.cog.helpers import card, letter, resolve_chance, roll, set_mat, set_table, start


def collect(players: int, seed: int = 0) -> CogState:
    """A game at its first Phase II turn (chance sampled)."""
    state = start(players, seed=seed, goal_roll=2)
    resolve_chance(state)
    assert state.phase == "collect"
    return state


def conclude(state: CogState) -> None:
    """Go on to Phase V as if every player had finished Phase IV."""
    set_table(state, phase="construct", queue=(), done=tuple(range(state.num_players)))


def card_named(state: CogState, name: str) -> int:
    return next(c.id for c in state.ed.cabinet if c.name == name)


@pytest.mark.parametrize(
    ("players", "dice", "deck", "slots", "rounds"),
    [
        (2, ("red", "yellow"), 36, (1, 2), 7),
        (3, ("aqua", "red", "yellow"), 39, (1, 2, 3), 7),
        (4, ("black", "aqua", "red", "yellow"), 42, (0, 1, 2, 3), 6),
    ],
)
def test_setup_by_player_count(
    players: int, dice: tuple[str, ...], deck: int, slots: tuple[int, ...], rounds: int
) -> None:
    state = collect(players)
    assert state.dice == dice and state.rounds == rounds and state.round == 1
    assert len(state.deck) + players == deck  # the die cards removed, N dealt to the slots
    assert tuple(state.top_slots) == slots
    assert state.removed_goal == 2 and "CLAMP" not in state.permitted_words()
    assert state.order == list(range(players))
    assert all(letter for letter in state.centre)
    stars = [mat.stars for mat in state.mats]
    vps = [mat.vp for mat in state.mats]
    letters = [len(mat.reserve) for mat in state.mats]
    assert stars == [0, 1, 0, 0][:players] and vps == [0, 0, 3, 0][:players]
    assert letters == [2, 2, 2, 3][:players]


def test_two_player_neutral_pawns_start_opposite_and_move_at_phase_two() -> None:
    state = start(2, goal_roll=1)
    assert state.neutral == [0, 8]
    resolve_chance(state)
    moved = state.history[-1].value  # the unused die rolled at the start of Phase II
    assert state.neutral == [moved, 8 + moved]


def test_phase_one_fills_the_slots_and_flips_the_four_player_wild_letter() -> None:
    state = collect(4)
    assert [len(state.top[s]) for s in range(4)] == [2, 1, 2, 1]
    assert state.top_stars[1] == 1
    assert state.top[3][0].islower()  # the far right letter is wild
    assert all(c is not None for c in state.card_slots)
    assert all(1 <= v <= 6 for v in state.die_values)
    assert state.turn_bonus[1:3] == ["star", "vp3"] and state.turn_bonus[3] is not None


def test_top_slot_gives_letters_and_stars_and_one_cog_per_edge() -> None:
    state = collect(2)
    slot_letters, reserve = list(state.top[1]), list(state.mats[0].reserve)
    state.apply(TakeLetters(1, player=0))
    assert state.mats[0].reserve == sorted(reserve + slot_letters)
    assert state.mats[0].stars == 1
    with pytest.raises(IllegalAction, match=r"not Red's turn"):
        state.apply(TakeLetters(2, player=0))  # Blue's turn now
    state.apply(TakeCard(0, player=1))
    resolve_chance(state)
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="already have a cog on the top edge"):
        state.apply(TakeLetters(2, player=0))
    assert state.snapshot() == before


def test_card_swap_costs_a_star_and_draws_blind() -> None:
    state = collect(2)
    with pytest.raises(IllegalAction, match="star"):
        state.apply(TakeCard(0, True, player=0))
    set_mat(state, 0, stars=1)
    taken = state.card_slots[0]
    state.apply(TakeCard(0, True, player=0))
    assert taken in state.discard and state.queue[0] == CardFor(0)
    gauge = card_named(state, "Red gauge")
    state.apply(card(gauge))
    assert gauge in state.mats[0].cards and state.mats[0].stars == 0


def test_immediate_card_fires_and_is_discarded() -> None:
    state = collect(2)
    patent = card_named(state, "Patent")
    set_table(state, card_slots=(patent, *state.card_slots[1:]))
    state.apply(TakeCard(0, player=0))
    assert state.mats[0].vp == 7 and patent in state.discard and patent not in state.mats[0].cards


def test_always_wild_card_flips_letters_from_acquisition() -> None:
    state = collect(2)
    set_table(state, card_slots=(card_named(state, "Hex key"), *state.card_slots[1:]))
    state.apply(TakeCard(0, player=0))
    assert state.mats[0].wild == "HKP"


def test_die_moves_the_pawn_and_pays_an_empty_space() -> None:
    state = collect(2)
    set_table(state, neutral=[9, 10])
    set_table(state, die_values=(3, *state.die_values[1:]))  # space 3 shows a star
    stars = state.mats[0].stars
    state.apply(TakeDie(0, player=0))
    assert state.mats[0].pawn == 3 and state.mats[0].stars == stars + 1


def test_no_movement_bonus_on_an_occupied_space() -> None:
    state = collect(2)
    set_table(state, neutral=[3, 11])
    set_table(state, die_values=(3, *state.die_values[1:]))
    state.apply(TakeDie(0, player=0))
    assert state.mats[0].pawn == 3 and state.mats[0].stars == 0


def test_reroll_costs_a_star_and_uses_the_new_number() -> None:
    state = collect(2)
    set_table(state, neutral=[9, 10])
    set_mat(state, 0, stars=1)
    set_table(state, die_values=(3, *state.die_values[1:]))
    state.apply(TakeDie(0, True, player=0))
    assert state.to_act() == (CHANCE,) and state.mats[0].stars == 0
    state.apply(roll(2))  # space 2 pays 2 VP
    assert state.mats[0].pawn == 2 and state.mats[0].vp == 2 and state.die_values[0] == 2


def test_two_centre_letters_are_taken_before_the_refill() -> None:
    state = collect(2)
    set_table(state, neutral=[9, 10])
    set_table(state, die_values=(6, *state.die_values[1:]))  # space 6: two plus icons
    set_table(state, centre=["A", "B", "C", "D"])
    state.apply(TakeDie(0, player=0))
    state.apply(TakeCentre(0, player=0))
    assert state.to_act() == (0,)  # the second letter comes before any refill
    state.apply(TakeCentre(3, player=0))
    assert state.centre == [None, "B", "C", None] and state.to_act() == (CHANCE,)
    state.apply(letter("E"))
    state.apply(letter("F"))
    assert state.centre == ["E", "B", "C", "F"]
    assert {"A", "D"} <= set(state.mats[0].reserve)


def four_player_turn_order(cogs: list[int | None], protected: list[bool]) -> CogState:
    state = collect(4)
    set_table(state, turn_cogs=cogs, protected=protected)
    set_mat(state, 0, stars=2)
    return state


def test_bump_shifts_cogs_down_to_the_first_empty_space() -> None:
    state = four_player_turn_order([1, 2, None, 3], [False] * 4)
    blue_stars = state.mats[1].stars
    state.apply(Turn(0, player=0))
    assert state.turn_cogs == [0, 1, 2, 3]
    assert state.mats[0].stars == 1  # the bump cost a star
    assert state.mats[1].stars == blue_stars  # moved cogs take no new bonus


def test_bump_refused_over_a_protected_cog_or_without_space_below() -> None:
    state = four_player_turn_order([1, 2, None, None], [False, True, False, False])
    with pytest.raises(IllegalAction, match="cannot be bumped"):
        state.apply(Turn(0, player=0))
    state = four_player_turn_order([None, 1, 2, 3], [False] * 4)
    with pytest.raises(IllegalAction, match="cannot be bumped"):
        state.apply(Turn(1, player=0))
    assert Turn(1, player=0) not in state.legal_actions(0)
    state.apply(Turn(0, player=0))


def test_bump_needs_a_star() -> None:
    state = four_player_turn_order([1, None, None, None], [False] * 4)
    set_mat(state, 0, stars=0)
    with pytest.raises(IllegalAction, match="star"):
        state.apply(Turn(0, player=0))


def test_protection_costs_a_star_that_returns_to_the_supply() -> None:
    state = four_player_turn_order([None] * 4, [False] * 4)
    supply = state.supply_stars
    state.apply(Turn(0, True, player=0))
    assert state.protected[0] and state.mats[0].stars == 1 and state.supply_stars == supply
    conclude(state)  # Phase V takes the cogs back
    assert state.supply_stars == supply + 1 and not any(state.protected)


def activate_state() -> CogState:
    state = collect(2)
    cards = tuple(card_named(state, n) for n in ("Red gauge", "Twin dial", "Yellow gauge"))
    position = state.position()
    mats = [replace(mat, cards=(), die=None) for mat in position.mats]
    mats[0] = replace(mats[0], cards=cards, die=0)  # the red die showing 2
    die_values = (2, *position.die_values[1:])
    set_table(state, phase="activate", queue=(), done=(), mats=tuple(mats), die_values=die_values)
    return state


def test_one_die_activates_several_cards_once_per_round() -> None:
    state = activate_state()
    assert state.to_act() == (0,)
    red_gauge, twin_dial, yellow_gauge = state.mats[0].cards
    with pytest.raises(IllegalAction, match="cannot activate"):
        state.apply(Activate(yellow_gauge, player=0))
    state.apply(Activate(red_gauge, player=0))
    with pytest.raises(IllegalAction, match="cannot activate"):
        state.apply(Activate(red_gauge, player=0))
    state.apply(Activate(twin_dial, player=0))  # pips 2 or 5, same die
    assert state.mats[0].vp == 6
    assert state.phase == "construct" and state.mats[0].used == []  # face up again


def test_activate_phase_is_skipped_when_nobody_can_activate() -> None:
    state = activate_state()
    set_mat(state, 0, cards=[])  # a position settles as it is set up
    assert state.phase == "construct"


def test_finish_leaves_the_activate_phase() -> None:
    state = activate_state()
    state.apply(Finish(player=0))
    assert state.phase == "construct"
