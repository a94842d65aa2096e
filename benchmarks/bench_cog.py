"""C.O.G. speed: random complete games per second, and listing grid words with a full reserve.

Run: ``.venv/bin/python benchmarks/bench_cog.py`` (``--games N`` per player count).
"""

from __future__ import annotations

import argparse
import random
import time

from games import cog
from games.cog.grid import Placed
from games.cog.players import random_player
from games.cog.state import CogState
from games.core import CHANCE


def play_random(players: int, seed: int) -> int:
    """One complete game with built-in random players; returns its plies."""
    state = cog.new_game({"players": players}, seed)
    rng = random.Random(seed)
    plies = 0
    while not state.is_over():
        acting = state.to_act()
        if acting == (CHANCE,):
            action = state.sample_chance()
        else:
            action = random_player(state, rng.choice(acting), rng)
        state.apply(action)
        plies += 1
    return plies


def games_per_second(players: int, games: int) -> tuple[float, float]:
    """Complete random games per second and plies per game."""
    start = time.perf_counter()
    plies = sum(play_random(players, seed) for seed in range(games))
    elapsed = time.perf_counter() - start
    return games / elapsed, plies / games


def listing_time(repeats: int) -> tuple[float, int]:
    """Milliseconds to list every legal grid word with a full reserve on a grid with words."""
    state: CogState = cog.new_game({"players": 2}, 1)
    mat = state.mats[0]
    mat.reserve = sorted("AEOLRTNCP")
    mat.wild = "BCG"
    state.removed_goal = 6
    mat.grid.place(Placed("CLAMP", 3, 2, False), list("CLAMP"))
    mat.grid.place(Placed("COG", 3, 2, True), list("OG"))
    found = 0
    start = time.perf_counter()
    for _ in range(repeats):
        state._placement_cache.clear()
        found = len(state.word_placements(0))
    return (time.perf_counter() - start) / repeats * 1000, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30, help="games per player count")
    args = parser.parse_args()
    for players in (2, 3, 4):
        rate, plies = games_per_second(players, args.games)
        print(f"{players} players: {rate:6.1f} random games/s ({plies:.0f} plies a game)")
    millis, found = listing_time(200)
    print(f"legal grid words, full reserve, 2 words on the grid: {millis:.2f} ms ({found} found)")


if __name__ == "__main__":
    main()
