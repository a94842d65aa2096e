"""The shared random-simulation check on many seeded C.O.G. games at each player count."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games import cog
from games.cog.actions import (
    Activate,
    CompleteItem,
    Deconstruct,
    DrawCard,
    DrawLetter,
    Finish,
    LettersForStar,
    MakeCellWild,
    MakeWild,
    PlaceWord,
    PlaceWordWild,
    ReturnLetter,
    ReturnStar,
    RollDie,
    StarsForLetter,
    TakeCard,
    TakeCentre,
    TakeDie,
    TakeLetters,
    TakeTurnOrder,
)
from games.core import CHANCE, Action, State
from tests.random_simulation import SimulationChecks, scaled, simulate

WORDS = ("COG", "CLAMP", "ROD", "GEAR", "PISTON", "XYZ", "WHEEL")


def candidates(state: State, player: int, rng: random.Random) -> Iterator[Action]:
    """Plausible actions of every kind; the checker tries those not listed as legal."""
    r, c, n = rng.randrange(-1, 9), rng.randrange(-1, 9), rng.randrange(-1, 6)
    word, tile = rng.choice(WORDS), rng.choice("ACEGOPRZa")
    wild_at = tuple(sorted(rng.sample(range(-1, 6), rng.randrange(0, 3))))
    yield from (
        TakeLetters(n, player=player),
        TakeCard(n, rng.random() < 0.5, player=player),
        TakeDie(n, rng.random() < 0.5, player=player),
        TakeTurnOrder(n, rng.random() < 0.5, player=player),
        TakeCentre(n, player=player),
        Activate(rng.randrange(44), player=player),
        PlaceWord(word, r, c, rng.random() < 0.5, player=player),
        PlaceWordWild(word, r, c, rng.random() < 0.5, wild_at, player=player),
        CompleteItem(rng.randrange(44), rng.random() < 0.5, player=player),
        MakeWild(tile, player=player),
        MakeCellWild(r, c, player=player),
        StarsForLetter(player=player),
        LettersForStar((tile, rng.choice("AEOZ")), player=player),
        Deconstruct(word, player=player),
        ReturnLetter(tile, player=player),
        ReturnStar(player=player),
        Finish(player=player),
        DrawLetter(tile.upper(), player=CHANCE),
        DrawCard(rng.randrange(44), player=CHANCE),
        RollDie(rng.randrange(0, 8), player=CHANCE),
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_contract(players: int) -> None:
    checks = SimulationChecks(legal_sample=4, replay_every=97, illegal_sample=4, views_every=13)
    report = simulate(
        lambda seed: cog.new_game({"players": players}, seed),
        cog.ACTIONS,
        games=4,
        seed=1000 * players,
        checks=checks,
        illegal_candidates=candidates,
    )
    assert report.finished == report.games == 4
    assert report.illegal_checked > 1000
    assert set(report.reasons) <= {
        "most victory points",
        "most victory points (tie broken by turn order)",
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games_finish(players: int) -> None:
    """Lighter checks on more games: every game ends, within the round limit."""
    checks = SimulationChecks(
        legal_sample=1, replay_every=10_000, illegal_sample=1, views_every=10_000
    )
    report = simulate(
        lambda seed: cog.new_game({"players": players}, seed),
        cog.ACTIONS,
        games=scaled(8),
        seed=50_000 + players,
        checks=checks,
        illegal_candidates=candidates,
    )
    assert report.finished == report.games == scaled(8)
