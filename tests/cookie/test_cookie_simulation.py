"""The shared random-simulation check on many seeded games of every variant and size.

Two tiers per configuration: one game checked on every ply (every legal action
applied, replay every few plies, every view), and more games with sampled
checks. The checker costs about a millisecond a ply and a six-player game is
300 plies, so the default run (180 sampled games) fits the folder's budget;
``COGTABLE_SIM_SCALE=10`` plays ten times as many (1,800 games, the first 180
the same) for a long check.
"""

from __future__ import annotations

import pytest

from games import cookie
from tests.random_simulation import SimulationChecks, SimulationReport, scaled, simulate

from .helpers import illegal_candidates

CONFIGS = [
    (variant, players, known)
    for variant, counts in cookie.PLAYER_COUNTS.items()
    for players in counts
    for known in (True, False)
]

THOROUGH = SimulationChecks(legal_sample=None, replay_every=20, illegal_sample=6, views_every=1)
SAMPLED = SimulationChecks(legal_sample=1, replay_every=10**6, illegal_sample=2, views_every=50)

SAMPLED_GAMES = {"hunt": scaled(6), "big-hunt": scaled(24)}
"""Games per configuration with sampled checks (Big Hunt games are shorter)."""


def run(
    variant: str, players: int, known: bool, games: int, checks: SimulationChecks
) -> SimulationReport:
    options = {"variant": variant, "players": players, "roles_known_at_deal": known}
    return simulate(
        lambda seed: cookie.new_game(options, seed),
        cookie.ACTIONS,
        games=games,
        seed=players * 100_000 + known * 50_000 + (games == 1) * 10_000,
        checks=checks,
        illegal_candidates=illegal_candidates,
    )


@pytest.mark.parametrize(("variant", "players", "known"), CONFIGS)
def test_every_ply_of_a_few_games_keeps_the_contract(
    variant: str, players: int, known: bool
) -> None:
    report = run(variant, players, known, 1, THOROUGH)
    assert report.finished == report.games == 1
    assert report.actions_checked > report.plies
    assert report.illegal_checked > report.plies


@pytest.mark.parametrize(("variant", "players", "known"), CONFIGS)
def test_many_games_keep_the_contract(variant: str, players: int, known: bool) -> None:
    games = SAMPLED_GAMES[variant]
    report = run(variant, players, known, games, SAMPLED)
    assert report.finished == report.games == games
    assert report.illegal_checked > report.plies
    assert set(report.reasons) <= {"most coins", "tie on most coins"}
    winners = {seat for group in report.winners for seat in group}
    assert len(winners) > 1, "random games should not always be won by the same seat"


def test_ties_are_reported_as_ties() -> None:
    report = run("big-hunt", 2, True, 20, SAMPLED)
    tied = [group for group in report.winners if len(group) > 1]
    assert report.reasons["tie on most coins"] == sum(report.winners[g] for g in tied) > 0
