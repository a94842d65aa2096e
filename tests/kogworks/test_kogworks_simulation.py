"""Kogworks passes the shared random-simulation check (tests/random_simulation.py).

Random Kogworks games are long (about 170 plies; most end when a player is
blocked), and the checker lists every legal action each ply, so the runs are
sized to the test budget: a few full-length games checked closely, more
full-length games checked lightly, and thousands of openings.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from games import kogworks
from games.core import Action, State
from games.kogworks.board import NUM_PEGS
from tests.random_simulation import SimulationChecks, SimulationReport, scaled, simulate


def candidates(state: State, player: int, rng: random.Random) -> Iterator[Action]:
    """Actions to try that are often illegal: any peg, any pair, any player."""
    for _ in range(4):
        yield kogworks.Place(rng.randrange(NUM_PEGS), player=player)
        yield kogworks.Move(rng.randrange(NUM_PEGS), rng.randrange(NUM_PEGS), player=player)


def run(games: int, seed: int, checks: SimulationChecks, max_plies: int) -> SimulationReport:
    return simulate(
        lambda number: kogworks.new_game(None, number),
        kogworks.ACTIONS,
        games=games,
        seed=seed,
        max_plies=max_plies,
        checks=checks,
        illegal_candidates=candidates,
    )


LIGHT = SimulationChecks(legal_sample=1, replay_every=10**6, illegal_sample=2, views_every=50)
"""Per ply: one listed action applied on a clone, two refusals; replay at the end."""


def test_full_games_checked_closely() -> None:
    checks = SimulationChecks(legal_sample=6, replay_every=25, illegal_sample=8, views_every=5)
    report = run(4, seed=1, checks=checks, max_plies=1000)
    assert report.finished == report.games == 4
    assert report.illegal_checked > 500
    assert report.actions_checked > 500


def test_many_full_games_checked_lightly() -> None:
    games = scaled(15)
    report = run(games, seed=100, checks=LIGHT, max_plies=1000)
    assert report.finished == report.games == games, report
    assert set(report.reasons) <= {kogworks.state.REASON_TOP, kogworks.state.REASON_BLOCKED}
    assert sum(report.winners.values()) == games and () not in report.winners


def test_a_thousand_openings() -> None:
    games = scaled(1000)
    report = run(games, seed=10_000, checks=LIGHT, max_plies=6)
    assert report.games == games
    assert report.plies == 6 * games, "no game can end within six plies"
    assert report.illegal_checked >= 2 * 6 * games


def test_repetition_house_rule_games_end() -> None:
    report = simulate(
        lambda number: kogworks.new_game({"repetition_draw": True, "first": "blue"}, number),
        kogworks.ACTIONS,
        games=3,
        seed=7,
        max_plies=1000,
        checks=LIGHT,
        illegal_candidates=candidates,
    )
    assert report.finished == 3
