"""The fast bitboard generator agrees with the slow reference on many positions."""

from __future__ import annotations

import random

from games.kogworks import new_game
from games.kogworks.board import corner_forbidden, has_own_triangle
from tests.kogworks.positions import engine_moves, position, reference_moves


def random_positions(count: int, seed: int):  # type: ignore[no-untyped-def]
    """States from seeded random games, at random plies up to 80 (ends included)."""
    rng = random.Random(seed)
    found = 0
    game = 0
    while found < count:
        state = new_game(None, game)
        game += 1
        stop = rng.randrange(0, 81)
        for _ in range(stop):
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions().listed()))
        if not state.is_over():
            found += 1
            yield state


def test_fast_generator_matches_reference_on_random_positions() -> None:
    compared = 0
    for state in random_positions(250, seed=2):
        assert engine_moves(state) == reference_moves(state), state.view()
        compared += 1
    assert compared == 250


def test_fast_generator_matches_reference_on_dense_random_boards() -> None:
    rng = random.Random(5)
    compared = 0
    while compared < 60:
        pegs = [f"{r}.{c}" for r in range(1, 11) for c in range(1, r + 1)]
        pegs = [p for p in pegs if p not in ("1.1", "10.1", "10.10")]
        rng.shuffle(pegs)
        red, blue = pegs[: rng.randrange(0, 15)], pegs[14 : 14 + rng.randrange(0, 15)]
        state = position(" ".join(red), " ".join(blue), mover=rng.randrange(2))
        if not all(_reachable(board) for board in state.boards):
            continue
        compared += 1
        assert engine_moves(state) == reference_moves(state), state.view()


def _reachable(own: int) -> bool:
    """False for a colour no legal game can produce (own triangle, or a corner it blocks)."""
    return not has_own_triangle(own) and not corner_forbidden(own) & own
