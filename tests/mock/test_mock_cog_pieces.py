"""The C.O.G. people lay the pieces out as the referee expects to read them, with their own code.

The people (:mod:`cogtable.mock.people.cog_pieces`) share no code with the
referee (:mod:`cogtable.tables.cog`); here the two are held side by side over
whole random games, every position, 2 to 4 players.
"""

from __future__ import annotations

import random

import pytest

from cogtable.mock.people.cog_pieces import BY_HAND, lay_out, mat_of
from cogtable.tables.cog.adapter import MAT_CHANGES, PLACEMENTS
from cogtable.tables.cog.parts import laid_out, part_layouts
from games.cog.actions import Deconstruct, PlaceWord, TakeCentre
from games.cog.edition import load_edition
from games.cog.players import random_player
from games.cog.state import CogState
from games.core import CHANCE, new_game

MOVES = 400
"""Moves played per game (a game of two ends within it; the check sees every position)."""


def positions(players: int, seed: int) -> list[CogState]:
    """Every position of a random game (chance drawn by its odds)."""
    rng = random.Random(seed)
    state = new_game("cog", {"players": players}, seed)
    assert isinstance(state, CogState)
    seen = [state.clone()]
    for _ in range(MOVES):
        if state.is_over():
            break
        actor = state.to_act()[0]
        action = state.sample_chance() if actor == CHANCE else random_player(state, actor, rng)
        state.apply(action)
        seen.append(state.clone())
    return seen


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_the_people_lay_out_every_position_as_the_referee_expects(players: int, seed: int) -> None:
    layout = load_edition().layout
    assert layout is not None
    games = positions(players, seed)
    assert len(games) > 50
    for n, state in enumerate(games):
        assert lay_out(state, layout) == laid_out(state, layout), f"position {n}"


def test_the_people_lay_on_the_parts_printed_on_the_table() -> None:
    """Every part and place the people lay something on is one the printed parts have."""
    layout = load_edition().layout
    assert layout is not None
    printed = part_layouts(load_edition(), 4)
    parts = {part.name: {place.name for place in part.read_places()} for part in printed}
    table = lay_out(positions(4, 5)[-1], layout)
    assert set(table) == {"board", *(mat_of(p) for p in range(4))}
    assert all(set(places) <= parts[part] for part, places in table.items())


def test_the_people_lay_by_hand_what_the_referee_reads_from_the_camera() -> None:
    assert set(BY_HAND) == {*PLACEMENTS, *MAT_CHANGES, TakeCentre, PlaceWord, Deconstruct}
