"""Random complete games of The Cookie per second, for each variant and player count.

Run: ``.venv/bin/python benchmarks/bench_cookie.py [--seconds S]``. Each line
plays seeded random games (uniform legal actions, chance by its odds) for
about S seconds, with the roles known at the deal and with roles supplied only
when turned up (the table mode, which checks every play against the possible
dealings).
"""

from __future__ import annotations

import argparse
import random
import time

from games import cookie
from games.core import CHANCE, State


def play_random_game(options: dict[str, object], seed: int) -> State:
    """One complete game with uniformly random legal actions."""
    state = cookie.new_game(options, seed)
    rng = random.Random(seed)
    while not state.is_over():
        acting = state.to_act()
        if acting == (CHANCE,):
            state.apply(state.sample_chance())
        else:
            state.apply(rng.choice(state.legal_actions(rng.choice(acting))))
    return state


def measure(options: dict[str, object], seconds: float) -> tuple[float, float]:
    """Games per second and plies per game over about ``seconds``."""
    games = plies = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        plies += len(play_random_game(options, games).history)
        games += 1
    return games / (time.perf_counter() - began), plies / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per line")
    args = parser.parse_args()
    print(f"{'variant':9} {'players':>7} {'roles':>8} {'games/s':>9} {'plies/game':>10}")
    for variant, counts in cookie.PLAYER_COUNTS.items():
        for players in counts:
            for known in (True, False):
                options = {"variant": variant, "players": players, "roles_known_at_deal": known}
                rate, plies = measure(options, args.seconds)
                roles = "dealt" if known else "unseen"
                print(f"{variant:9} {players:7d} {roles:>8} {rate:9.1f} {plies:10.0f}")


if __name__ == "__main__":
    main()
