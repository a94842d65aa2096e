"""Phase IV: every crossword rule of NOTES.md (a legal and an illegal case), the
rulebook's construction examples, wild letters, bonuses, cubes, goal and item cards."""

from __future__ import annotations

import pytest

from games.cog.actions import (
    CompleteItem,
    Deconstruct,
    Finish,
    MakeCellWild,
    MakeWild,
    PlaceWord,
)
from games.cog.effects import CardFor
from games.cog.state import CogState
from games.core import IllegalAction
from tests.cog.helpers import card, give, letter, set_mat

RED = 0


def spell(state: CogState, word: str, row: int, col: int, down: bool) -> None:
    state.apply(PlaceWord(word, row, col, down, player=RED))


def refused(state: CogState, word: str, row: int, col: int, down: bool, reason: str) -> None:  # noqa: PLR0917
    before = state.snapshot()
    with pytest.raises(IllegalAction, match=reason):
        spell(state, word, row, col, down)
    assert state.snapshot() == before


def test_clamp_then_cog_is_allowed(construct: CogState) -> None:
    give(construct, RED, "CLAMPOG")
    spell(construct, "CLAMP", 3, 2, False)
    spell(construct, "COG", 3, 2, True)
    grid = construct.mats[RED].grid
    assert grid.to_json()["rows"][3] == "..CLAMP."
    assert [grid.tiles[(4, 2)], grid.tiles[(5, 2)]] == ["O", "G"]
    assert construct.mats[RED].reserve == []
    assert construct.mats[RED].cubes == {"CLAMP": "grid", "COG": "grid"}


def test_first_word_must_cover_a_centre_square(construct: CogState) -> None:
    give(construct, RED, "CLAMP")
    refused(construct, "CLAMP", 0, 0, False, "centre")
    spell(construct, "CLAMP", 4, 0, False)  # covers (4, 3) and (4, 4)


def test_word_must_fit_inside_the_grid(construct: CogState) -> None:
    give(construct, RED, "CLAMPOG")
    spell(construct, "CLAMP", 3, 2, False)
    refused(construct, "COG", 6, 2, True, "would not fit")
    refused(construct, "COG", 3, -1, True, "would not fit")


def test_cells_before_and_after_a_word_must_be_empty(construct: CogState) -> None:
    give(construct, RED, "CLAMPNUTROD")
    spell(construct, "CLAMP", 3, 2, False)
    # NUT across ending just before C would extend CLAMP into NUTCLAMP.
    refused(construct, "NUT", 3, -1, False, "would not fit|ends")
    refused(construct, "ROD", 3, 7, False, "ends|cross")


def test_rod_is_refused_where_it_would_spell_ld(construct: CogState) -> None:
    """The rulebook's not-allowed example: the D would sit under the L of CLAMP."""
    give(construct, RED, "CLAMPOGRD")
    spell(construct, "CLAMP", 3, 2, False)
    spell(construct, "COG", 3, 2, True)
    refused(construct, "ROD", 4, 1, False, "second word")


def test_the_x_square_would_spell_two_words(construct: CogState) -> None:
    """A new tile beside an existing one (across the new word's direction) is refused."""
    give(construct, RED, "CLAMPOGGEAR")
    spell(construct, "CLAMP", 3, 2, False)
    # GEAR across row 4, right under CLAMP, would touch its letters.
    refused(construct, "GEAR", 4, 2, False, "cross|second word")
    spell(construct, "COG", 3, 2, True)
    # GEAR across row 5 through the G of COG is clear of every other tile.
    spell(construct, "GEAR", 5, 2, False)
    assert construct.mats[RED].grid.tiles[(5, 5)] == "R"


def test_x_square_single_tile_touching(construct: CogState) -> None:
    give(construct, RED, "CLAMPRODO")
    spell(construct, "CLAMP", 3, 2, False)
    # ROD down from (1, 3): R (1,3), O (2,3), D (3,3) -> D must fit L: refused for the fit.
    refused(construct, "ROD", 1, 3, True, "does not fit")
    # ROD down from (4, 3)? would start just under L: before-cell (3,3) taken.
    refused(construct, "ROD", 4, 3, True, "ends")


def test_later_words_must_cross(construct: CogState) -> None:
    give(construct, RED, "CLAMPNUT")
    spell(construct, "CLAMP", 3, 2, False)
    refused(construct, "NUT", 0, 0, False, "must cross")


def test_crossing_letter_must_fit(construct: CogState) -> None:
    give(construct, RED, "CLAMPROD")
    spell(construct, "CLAMP", 3, 2, False)
    refused(construct, "ROD", 2, 4, True, "does not fit")


def test_wild_a_reads_as_o_for_rod(construct: CogState) -> None:
    """The rulebook's allowed example: the A of CLAMP made wild is the O of ROD."""
    give(construct, RED, "CLAMPRD")
    set_mat(construct, RED, stars=1)
    spell(construct, "CLAMP", 3, 2, False)
    construct.apply(MakeCellWild(3, 4, player=RED))
    spell(construct, "ROD", 2, 4, True)
    grid = construct.mats[RED].grid
    assert grid.tiles[(3, 4)] == "a"  # still the A of CLAMP, and the O of ROD
    assert {p.word for p in grid.words} == {"CLAMP", "ROD"}
    assert construct.mats[RED].stars == 0


def test_wild_reserve_tile_reads_differently_in_two_words(construct: CogState) -> None:
    """A star makes a reserve Z wild: it is the O of COG, then the E of a crossing GEAR."""
    give(construct, RED, "CGZ")
    set_mat(construct, RED, stars=1)
    construct.apply(MakeWild("Z", player=RED))
    assert construct.mats[RED].reserve == ["C", "G", "z"]
    spell(construct, "COG", 3, 3, False)  # C O G across, the wild z as O
    # BOLT down through the same wild tile, which now reads O in BOLT too... and
    # GEAR would read it as E: show the second reading with a different letter.
    give(construct, RED, "GAR")
    spell(construct, "GEAR", 2, 4, True)  # G (2,4), the wild as E (3,4), A, R
    assert construct.mats[RED].grid.tiles[(3, 4)] == "z"
    assert {p.word for p in construct.mats[RED].grid.words} == {"COG", "GEAR"}


def test_a_word_is_spelled_only_once(construct: CogState) -> None:
    give(construct, RED, "CLAMPCOG")
    spell(construct, "CLAMP", 3, 2, False)
    give(construct, RED, "CLAMP")
    refused(construct, "CLAMP", 0, 2, True, "already on your grid")


def test_only_permitted_words(construct: CogState) -> None:
    give(construct, RED, "PISTON")
    refused(construct, "PISTON", 3, 1, False, "not a permitted word")  # goal card 6 removed
    give(construct, RED, "CAT")
    refused(construct, "CAT", 3, 2, False, "not a permitted word")


def test_missing_letters_are_refused(construct: CogState) -> None:
    give(construct, RED, "CLAM")
    refused(construct, "CLAMP", 3, 2, False, "lacks the letters")


def test_always_wild_letters_fill_any_letter(construct: CogState) -> None:
    give(construct, RED, "CLAHP")
    set_mat(construct, RED, wild="HKP")
    spell(construct, "CLAMP", 3, 2, False)  # the H stands for the M
    assert construct.mats[RED].grid.tiles[(3, 5)] == "H"


def test_listed_placements_all_apply_and_match_the_rules(construct: CogState) -> None:
    give(construct, RED, "CLAMPOGRD")
    spell(construct, "CLAMP", 3, 2, False)
    listed = construct.word_placements(RED)
    assert PlaceWord("COG", 3, 2, True, player=RED) in listed
    assert PlaceWord("ROD", 4, 1, False, player=RED) not in listed
    for action in listed:
        construct.clone().apply(action)


def test_cabinet_bonus_square_draws_a_card_once(construct: CogState) -> None:
    """(6, 6) is the draw-a-cabinet-card square; re-covering it pays nothing."""
    mat = construct.mats[RED]
    give(construct, RED, "CLAMPIPE")
    spell(construct, "CLAMP", 3, 2, False)
    spell(construct, "PIPE", 3, 6, True)  # P I P E down from the P of CLAMP, E on (6, 6)
    assert construct.queue[0] == CardFor(RED)
    gear = next(c.id for c in construct.ed.cabinet if c.word == "GEAR")
    construct.apply(card(gear))
    assert gear in mat.cards and mat.bonus_claimed == [(6, 6)]
    construct.apply(Deconstruct("PIPE", player=RED))
    give(construct, RED, "IPE")
    spell(construct, "PIPE", 3, 6, True)
    assert not construct.queue and mat.cards == [gear]


def test_letter_bonus_square_draws_from_the_bag(construct: CogState) -> None:
    """(0, 5) shows a question mark: PIPE down column 5 from the top covers it."""
    give(construct, RED, "GEARPIP")
    spell(construct, "GEAR", 3, 4, False)
    spell(construct, "PIPE", 0, 5, True)
    assert construct.to_act() == (-1,)
    construct.apply(letter("Z"))
    assert construct.mats[RED].reserve == ["Z"]
    assert (0, 5) in construct.mats[RED].bonus_claimed


def test_goal_card_bonus_and_cubes(construct: CogState) -> None:
    """COG, GEAR and AXLE complete goal card 1: its 4 VP, and the cubes come back."""
    mat = construct.mats[RED]
    set_mat(construct, RED, cubes={"GEAR": "item", "AXLE": "item"})
    give(construct, RED, "COG")
    vp = mat.vp
    spell(construct, "COG", 3, 3, False)
    assert mat.goals_done == [1]
    assert mat.cubes == {} and mat.cubes_left() == 12
    assert mat.vp == vp + 4


def test_cubes_are_counted_and_none_is_placed_without_one(construct: CogState) -> None:
    """Twelve cubes a player: each spelled goal word holds one until its card is complete."""
    mat = construct.mats[RED]
    give(construct, RED, "CLAMP")
    spell(construct, "CLAMP", 3, 2, False)
    assert mat.cubes_left() == 11
    assert construct.view(RED)["mats"][RED]["cubes_left"] == 11
    set_mat(construct, RED, cubes={**mat.cubes, **{f"WORD{n}": "item" for n in range(11)}})
    give(construct, RED, "OG")
    spell(construct, "COG", 3, 2, True)
    assert "COG" not in mat.cubes and mat.cubes_left() == 0


def test_item_card_cube_or_bonus(construct: CogState) -> None:
    mat = construct.mats[RED]
    clamp = next(c.id for c in construct.ed.cabinet if c.word == "CLAMP")
    set_mat(construct, RED, cards=[clamp])
    give(construct, RED, "A")
    with pytest.raises(IllegalAction, match="lacks AM"):
        construct.apply(CompleteItem(clamp, True, player=RED))  # both letters at once
    give(construct, RED, "AM")
    bag_a = construct.bag.get("A", 0)
    construct.apply(CompleteItem(clamp, True, player=RED))
    assert mat.cubes == {"CLAMP": "item"} and mat.items == [clamp] and mat.reserve == []
    assert construct.bag["A"] == bag_a + 1  # the letters go back to the bag


def test_item_card_bonus_is_forced_when_the_word_is_on_the_grid(construct: CogState) -> None:
    mat = construct.mats[RED]
    cog_card = next(c.id for c in construct.ed.cabinet if c.word == "COG")
    give(construct, RED, "COG")
    spell(construct, "COG", 3, 3, False)
    set_mat(construct, RED, cards=[cog_card])
    give(construct, RED, "O")
    assert CompleteItem(cog_card, True, player=RED) not in construct.legal_actions(RED)
    with pytest.raises(IllegalAction, match="take the item card's bonus"):
        construct.apply(CompleteItem(cog_card, True, player=RED))
    vp = mat.vp
    construct.apply(CompleteItem(cog_card, False, player=RED))
    assert mat.vp == vp + 3 and mat.items == [cog_card]


def test_finish_ends_a_players_construct(construct: CogState) -> None:
    construct.apply(Finish(player=RED))
    assert RED not in construct.to_act() or construct.phase != "construct"
