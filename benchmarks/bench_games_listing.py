"""How long ``cogtable games`` takes: the listing alone, and with every game replayed.

Run from the repository root::

    .venv/bin/python benchmarks/bench_games_listing.py [--games 200]

``games`` replays every journaled game (as ``replay`` would) to name a
damaged one; this prints the time of the plain listing, of reading every
record back (JSON and plies), and of the full check, for a journal of
``--games`` finished Kogworks games between random players.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogtable.journal import Journal


def build(path: Path, games: int) -> int:
    """A journal of ``games`` finished random games; the number of actions in all."""
    rng = random.Random(1)
    actions = 0
    with Journal(path) as journal:
        journal.connection.execute("PRAGMA synchronous=OFF")  # building only: speed over safety
        for seed in range(games):
            game = journal.new_game("kogworks", seed=seed)
            while not game.state.is_over():
                game.apply(rng.choice(list(game.state.legal_actions())), "simulation")
            actions += len(game.state.history)
    return actions


def timed(path: Path, what: str) -> float:
    """Milliseconds for one way of reading the journal (read-only, as the command does)."""
    with Journal(path, read_only=True) as journal:
        start = time.perf_counter()
        if what == "records":
            for summary in journal.games():
                journal.record(summary.id)
        else:
            journal.games(check=what == "checked")
        return 1000 * (time.perf_counter() - start)


def main() -> None:
    """Print the three figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="finished games in the journal")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.sqlite3"
        actions = build(path, args.games)
        print(f"{args.games} Kogworks games, {actions} actions ({actions / args.games:.0f} a game)")
        for what, label in (
            ("plain", "listing only"),
            ("records", "every record read back"),
            ("checked", "every game replayed (cogtable games)"),
        ):
            ms = timed(path, what)
            print(f"  {label:<38} {ms:8.0f} ms  {ms / args.games:6.2f} ms a game")


if __name__ == "__main__":
    main()
