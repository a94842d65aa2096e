"""The shared random-simulation check on seeded Cogs and Commissars games, 2 to 6 players."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from games import commissars
from games.commissars import Choose, Discard, EndPhase, Pass, Pick, Play, Retarget, TopCard
from games.core import CHANCE, Action, State
from tests.random_simulation import SimulationChecks, scaled, simulate

CHECKS = SimulationChecks(legal_sample=3, replay_every=400, illegal_sample=4, views_every=25)
MODES = ("preconstructed", "random", "draft")
NAMES = sorted(commissars.card_set().cards)


def unlisted(state: State, player: int, rng: random.Random) -> Iterator[Action]:
    """Actions the game should refuse: cards not held, bad targets, out-of-turn moves.

    Three of these kinds a call, chosen at random, to keep the check cheap.
    """
    name = rng.choice(NAMES)
    makers = [
        lambda: Play(name, player=player),
        lambda: Play(name, target=rng.randrange(-1, 7), kind=rng.choice("PBCX"), player=player),
        lambda: Play(name, entry=rng.randrange(0, 40), blitz=True, player=player),
        lambda: Play(name, source=(player + 1) % state.num_players, player=player),
        lambda: Discard(name, player=player),
        lambda: Pick(name, player=player),
        lambda: Choose(rng.choice(["produce", "draw", "none", "done", name]), player=player),
        lambda: Retarget(rng.randrange(-1, 7), "P", rng.randrange(0, 40), player=player),
        lambda: Pass(player=player),
        lambda: EndPhase(player=player),
        lambda: TopCard(name, player=CHANCE),
    ]
    for make in rng.sample(makers, 3):
        yield make()


def start(players: int, max_turns: int, hands: str = "known") -> Callable[[int], State]:
    """Seeded games cycling through the deck modes, every other one with leaders.

    Every other game with leaders has them dealt at random. ``hands = "unknown"``
    plays them in table mode, where draws are unseen.
    """

    def new(seed: int) -> State:
        options = {"players": players, "decks": MODES[seed % 3], "leaders": seed % 2 == 0}
        options["leader_deal"] = "random" if seed % 4 == 0 else "choose"
        return commissars.new_game({**options, "max_turns": max_turns, "hands": hands}, seed)

    return new


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_short_random_games_keep_the_contract(players: int) -> None:
    """Several seeds, each cut at 10 turns (the deals, the draft and early play)."""
    report = simulate(
        start(players, 10),
        commissars.ACTIONS,
        games=scaled(3 if players < 5 else 2),
        seed=100 * players,
        max_plies=5_000,
        checks=CHECKS,
        illegal_candidates=unlisted,
    )
    assert report.finished == report.games
    assert report.illegal_checked > 500


@pytest.mark.parametrize("players", [2, 4, 6])
def test_complete_random_games_keep_the_contract(players: int) -> None:
    """Whole games to the Revolution (or the default turn cap)."""
    report = simulate(
        start(players, 300),
        commissars.ACTIONS,
        games=scaled(1),
        seed=7 * players,
        max_plies=30_000,
        checks=SimulationChecks(
            legal_sample=2, replay_every=1000, illegal_sample=2, views_every=50
        ),
        illegal_candidates=unlisted,
    )
    assert report.finished == report.games == scaled(1)
    assert set(report.reasons) <= {"revolution", "turn limit"}


LIGHT_CHECKS = SimulationChecks(
    legal_sample=1,
    replay_every=10**6,
    illegal_sample=1,
    views_every=10**6,
    illegal_every=5,
    consistency_every=5,
)
"""Checks light enough for thousands of complete games (a long run sets the scale):
consistency, a listed action and a refusal every fifth ply, the replay at each game's end.
The other tests here check every ply of fewer games."""


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_many_complete_games(players: int) -> None:
    """Complete games at every player count; ``COGTABLE_SIM_SCALE`` makes it thousands.

    Seeds start at a million per player count, apart from every other test's.
    Random players reach 15 points and a Revolution resolves in most games.
    """
    games = scaled(1)
    report = simulate(
        start(players, 300),
        commissars.ACTIONS,
        games=games,
        seed=1_000_000 * players,
        max_plies=60_000,
        checks=LIGHT_CHECKS,
        illegal_candidates=unlisted,
    )
    assert report.finished == report.games == games
    assert set(report.reasons) <= {"revolution", "turn limit"}
    assert report.reasons["revolution"] >= max(1, games // 2)


def test_a_turn_cap_ends_a_game_without_a_winner() -> None:
    report = simulate(
        lambda seed: commissars.new_game({"players": 3, "max_turns": 4}, seed),
        commissars.ACTIONS,
        games=5,
        max_plies=5_000,
        checks=CHECKS,
        illegal_candidates=unlisted,
    )
    assert report.finished == 5
    assert report.reasons["turn limit"] >= 1
    assert report.winners[()] == report.reasons["turn limit"]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_short_table_mode_games_keep_the_contract(players: int) -> None:
    """Table mode (unseen draws): the deals, the draft and early play, checked every ply."""
    report = simulate(
        start(players, 10, hands="unknown"),
        commissars.ACTIONS,
        games=scaled(3 if players < 5 else 2),
        seed=100 * players + 50,
        max_plies=5_000,
        checks=CHECKS,
        illegal_candidates=unlisted,
    )
    assert report.finished == report.games
    assert report.illegal_checked > 300


@pytest.mark.parametrize("players", [2, 3, 5])
def test_complete_table_mode_games_keep_the_contract(players: int) -> None:
    """Whole table-mode games to the Revolution (or the turn cap)."""
    games = scaled(1)
    report = simulate(
        start(players, 300, hands="unknown"),
        commissars.ACTIONS,
        games=games,
        seed=2_000_000 * players,
        max_plies=60_000,
        checks=LIGHT_CHECKS,
        illegal_candidates=unlisted,
    )
    assert report.finished == report.games == games
    assert set(report.reasons) <= {"revolution", "turn limit"}
