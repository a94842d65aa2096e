"""Kogworks speed: legal-move generation and random self-play.

Run from the checkout: ``.venv/bin/python benchmarks/bench_kogworks.py``.

The suite is fixed: positions from seeded random games at plies 10, 20, ... 80
(games that are still running there), at least 200 of them. For each position
the full legal-move list is generated from scratch and materialised as action
objects; the same is done with the slow reference generator of the tests for a
ratio. Then random games are played to the end for games per second.
Wall-clock figures include waiting for a busy CPU; the process CPU time line
shows the generator's own cost when the machine is shared.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.kogworks import new_game
from games.kogworks.state import KogworksState
from tests.kogworks.positions import reference_moves

PLIES = range(10, 81, 10)
MAX_PLIES = 400


def suite(size: int) -> list[KogworksState]:
    """At least ``size`` positions from seeded random games at plies 10 to 80."""
    found: list[KogworksState] = []
    game = 0
    while len(found) < size:
        state, rng = new_game(None, game), random.Random(game)
        for ply in range(max(PLIES) + 1):
            if state.is_over():
                break
            if ply in PLIES:
                found.append(state.clone())
            state.apply(rng.choice(state.legal_actions().listed()))
        game += 1
    return found


def time_fast(
    state: KogworksState, repeats: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Mean seconds to generate and list every legal action from scratch."""
    start = clock()
    for _ in range(repeats):
        state._masks = None
        list(state.legal_actions())
    return (clock() - start) / repeats


def time_reference(state: KogworksState) -> float:
    """Seconds for the slow reference generator on one position."""
    start = time.perf_counter()
    reference_moves(state)
    return time.perf_counter() - start


def self_play(games: int) -> tuple[float, int, int]:
    """Random games to the end: (games per second, finished games, total plies)."""
    finished = plies = 0
    start = time.perf_counter()
    for game in range(games):
        state, rng = new_game(None, 10_000 + game), random.Random(10_000 + game)
        while not state.is_over() and len(state.history) < MAX_PLIES:
            state.apply(rng.choice(state.legal_actions().listed()))
        finished += state.is_over()
        plies += len(state.history)
    return games / (time.perf_counter() - start), finished, plies


def report(label: str, seconds: list[float]) -> None:
    """Print mean and median milliseconds."""
    mean, median = statistics.fmean(seconds) * 1e3, statistics.median(seconds) * 1e3
    print(f"{label:<34} mean {mean:8.3f} ms   median {median:8.3f} ms")


def main() -> None:
    """Measure and print every figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=240)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    positions = suite(args.positions)
    moves = [len(state.legal_actions()) for state in positions]
    print(f"suite: {len(positions)} positions, mean {statistics.fmean(moves):.1f} legal moves")
    fast = [time_fast(state, args.repeats) for state in positions]
    slow = [time_reference(state) for state in positions]
    report("fast generator (full list)", fast)
    cpu = [time_fast(state, args.repeats, time.process_time) for state in positions]
    report("  the same, process CPU time", cpu)
    report("reference generator (full list)", slow)
    print(f"reference / fast: {statistics.fmean(slow) / statistics.fmean(fast):.0f}x")
    rate, finished, plies = self_play(args.games)
    print(
        f"random self-play: {rate:.1f} games/s ({finished}/{args.games} finished "
        f"within {MAX_PLIES} plies, {plies / args.games:.0f} plies a game)"
    )


if __name__ == "__main__":
    main()
