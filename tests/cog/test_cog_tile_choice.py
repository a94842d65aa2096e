"""Phase IV: the player chooses which reserve tiles go down (rulebook l.217-218).

A wild tile the player owns may go on a square a plain tile could fill, so a
later crossing word can read it as another letter (the reviewer's CLAMP/ROD case).
"""

from __future__ import annotations

import json

import pytest

from games import cog
from games.cog.actions import PlaceWord, PlaceWordWild
from games.cog.state import CogState
from games.core import IllegalAction, decode
from tests.cog.helpers import give

RED = 0
CLAMP_WILD_A = PlaceWordWild("CLAMP", 3, 2, False, (2,), player=RED)
ROD_THROUGH_A = PlaceWord("ROD", 2, 4, True, player=RED)


def words_listed(state: CogState) -> list[PlaceWord]:
    return [a for a in state.legal_actions(RED) if isinstance(a, PlaceWord)]


@pytest.fixture
def reviewer(construct: CogState) -> CogState:
    """Red holds A C D L M P R and one tile made wild (face down, ``x``)."""
    give(construct, RED, "ACDLMPRx")
    return construct


def test_wild_tile_on_the_a_lets_rod_cross_it(reviewer: CogState) -> None:
    assert CLAMP_WILD_A in words_listed(reviewer)
    reviewer.apply(CLAMP_WILD_A)
    mat = reviewer.mats[RED]
    assert mat.grid.to_json()["rows"][3] == "..CLxMP." and mat.reserve == ["A", "D", "R"]
    assert ROD_THROUGH_A in words_listed(reviewer)
    reviewer.apply(ROD_THROUGH_A)
    assert mat.grid.spelled() == {"CLAMP", "ROD"} and mat.reserve == ["A"]


def test_the_default_placement_still_uses_the_plain_a(reviewer: CogState) -> None:
    reviewer.apply(PlaceWord("CLAMP", 3, 2, False, player=RED))
    mat = reviewer.mats[RED]
    assert mat.grid.to_json()["rows"][3] == "..CLAMP." and mat.reserve == ["D", "R", "x"]
    assert ROD_THROUGH_A not in words_listed(reviewer)
    with pytest.raises(IllegalAction, match="does not fit the A"):
        reviewer.apply(ROD_THROUGH_A)


def test_every_variant_is_listed_once_and_applies(reviewer: CogState) -> None:
    listed = [a for a in words_listed(reviewer) if a.word == "CLAMP" and a.row == 3]
    at_r4c3 = [a for a in listed if a.col == 2 and not a.down]
    assert {a.chosen_wild() for a in at_r4c3} == {None, (0,), (1,), (2,), (3,), (4,)}
    notations = [a.notation() for a in words_listed(reviewer)]
    assert len(notations) == len(set(notations))
    assert "spell CLAMP r4c3 across wild 3" in notations
    for action in at_r4c3:
        reviewer.clone().apply(action)


def test_variants_are_bounded_by_the_wild_tiles_held(construct: CogState) -> None:
    give(construct, RED, "CLAMPxy")  # two wild tiles, all five letters plain
    clamp = [
        a.chosen_wild()
        for a in words_listed(construct)
        if (a.word, a.row, a.col, a.down) == ("CLAMP", 3, 2, False)
    ]
    assert len(clamp) == 1 + 5 + 10  # the default, one wild tile, two of them
    assert (0, 4) in clamp and not any(w and len(w) > 2 for w in clamp)


def test_duplicate_letters_choose_which_gets_the_wild_tile(construct: CogState) -> None:
    give(construct, RED, "GEAR")
    construct.apply(PlaceWord("GEAR", 3, 2, False, player=RED))
    give(construct, RED, "IPx")  # PIPE down onto the E: one plain P for two Ps
    pipe = {a.chosen_wild() for a in words_listed(construct) if a.word == "PIPE"}
    assert pipe == {None, (0,)}  # by default the wild tile takes the second P
    construct.apply(PlaceWordWild("PIPE", 0, 3, True, (0,), player=RED))
    assert [construct.mats[RED].grid.tiles[(r, 3)] for r in range(3)] == ["x", "I", "P"]


@pytest.mark.parametrize(
    ("wild_at", "reason"),
    [
        ((), "once each, in order"),
        ((3, 2), "once each, in order"),
        ((2, 2), "once each, in order"),
        ((5,), "not a new tile"),
        ((-1,), "not a new tile"),
        ((0, 2), "cannot put wild tiles"),  # one wild tile only
    ],
)
def test_bad_wild_choices_are_refused_and_change_nothing(
    reviewer: CogState, wild_at: tuple[int, ...], reason: str
) -> None:
    before = reviewer.snapshot()
    with pytest.raises(IllegalAction, match=reason):
        reviewer.apply(PlaceWordWild("CLAMP", 3, 2, False, wild_at, player=RED))
    assert reviewer.snapshot() == before


def test_a_wild_choice_on_a_grid_cell_is_refused(reviewer: CogState) -> None:
    reviewer.apply(PlaceWord("CLAMP", 3, 2, False, player=RED))
    give(reviewer, RED, "GOx")  # COG down from CLAMP's C: the C is already there
    before = reviewer.snapshot()
    with pytest.raises(IllegalAction, match="letter 1 of COG is not a new tile"):
        reviewer.apply(PlaceWordWild("COG", 3, 2, True, (0,), player=RED))
    assert reviewer.snapshot() == before


def test_choosing_what_happens_anyway_is_refused(construct: CogState) -> None:
    give(construct, RED, "CLMPx")  # no plain A: the wild tile goes on the A anyway
    with pytest.raises(IllegalAction, match="go there anyway"):
        construct.apply(CLAMP_WILD_A)
    construct.apply(PlaceWord("CLAMP", 3, 2, False, player=RED))
    assert construct.mats[RED].grid.tiles[(3, 4)] == "x"


def test_wild_choice_fields_of_the_wrong_type_are_refused(reviewer: CogState) -> None:
    with pytest.raises(IllegalAction, match="wild_at"):
        reviewer.apply(PlaceWordWild("CLAMP", 3, 2, False, ("2",), player=RED))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="wild_at"):
        reviewer.apply(PlaceWordWild("CLAMP", 3, 2, False, (True,), player=RED))


def test_the_choice_survives_json() -> None:
    text = json.dumps(CLAMP_WILD_A.to_json())
    assert decode(json.loads(text), cog.ACTIONS) == CLAMP_WILD_A
    old = {"type": "PlaceWord", "player": 0, "word": "COG", "row": 3, "col": 2, "down": True}
    assert decode(old, cog.ACTIONS) == PlaceWord("COG", 3, 2, True, player=0)
