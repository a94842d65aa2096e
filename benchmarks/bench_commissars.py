"""Random complete Cogs and Commissars games per second, for 2 to 6 players.

Run: ``.venv/bin/python benchmarks/bench_commissars.py [--games N] [--hands
known|unknown]``. Each game is played by uniformly random players (chance
sampled from the seed) with preconstructed decks and leaders until a Revolution
succeeds or the 300-turn cap ends it; ``--hands unknown`` plays table mode
(unseen draws: every hand could hold many cards, so more plays are listed).
The last table times ``to_act`` alone (it is called on every action, and asks
every other player's hand whether it holds a playable Blitz) on positions
taken from such games.
"""

from __future__ import annotations

import argparse
import random
import time

from games import commissars
from games.commissars.players import random_player
from games.core import CHANCE


def options(players: int, hands: str) -> dict[str, object]:
    """The benchmark's game options."""
    return {"players": players, "leaders": True, "max_turns": 300, "hands": hands}


def play_one(players: int, seed: int, hands: str) -> tuple[int, str]:
    """One random game; its number of actions and how it ended."""
    state = commissars.new_game(options(players, hands), seed)
    rng = random.Random(seed)
    while not state.is_over():
        actor = state.to_act()[0]
        action = state.sample_chance() if actor == CHANCE else random_player(state, actor, rng)
        state.apply(action)
    outcome = state.outcome()
    assert outcome is not None
    return len(state.history), outcome.reason


def positions(
    players: int, seed: int, hands: str, every: int = 7
) -> list[commissars.CommissarsState]:
    """Copies of every ``every``-th position of one random game."""
    state = commissars.new_game(options(players, hands), seed)
    rng, kept = random.Random(seed), []
    while not state.is_over():
        if len(state.history) % every == 0:
            kept.append(state.clone())
        actor = state.to_act()[0]
        action = state.sample_chance() if actor == CHANCE else random_player(state, actor, rng)
        state.apply(action)
    return kept


def to_act_rate(players: int, games: int, hands: str, repeats: int = 20) -> float:
    """``to_act`` calls per second over positions from ``games`` random games."""
    states = [state for seed in range(games) for state in positions(players, seed, hands)]
    start = time.perf_counter()
    for _ in range(repeats):
        for state in states:
            state.to_act()
    return repeats * len(states) / (time.perf_counter() - start)


def main() -> None:
    """Print games per second and actions per second for each player count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per player count")
    parser.add_argument("--hands", choices=("known", "unknown"), default="known")
    args = parser.parse_args()
    print("players  games  games/s  actions/s  actions/game  capped")
    for players in range(2, 7):
        start = time.perf_counter()
        results = [play_one(players, seed, args.hands) for seed in range(args.games)]
        elapsed = time.perf_counter() - start
        actions = sum(count for count, _ in results)
        capped = sum(reason != "revolution" for _, reason in results)
        print(
            f"{players:7d}  {args.games:5d}  {args.games / elapsed:7.1f}  "
            f"{actions / elapsed:9.0f}  {actions / args.games:12.0f}  {capped:6d}"
        )
    print("players  to_act calls/s")
    for players in range(2, 7):
        rate = to_act_rate(players, max(1, args.games // 10), args.hands)
        print(f"{players:7d}  {rate:14.0f}")


if __name__ == "__main__":
    main()
