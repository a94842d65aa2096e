"""How fast the journal is: durable appends per second, and replaying a 200-action game.

Run from the repository root::

    .venv/bin/python benchmarks/bench_journal.py [--dir FOLDER] [--appends N]

Every append is one committed transaction in WAL mode with synchronous=FULL,
so it waits for the disk (fsync): put ``--dir`` on the disk the table will use.
Appends and the first resume use the toy game from tests/toy_game.py (three
actions a round), so they measure the journal alone; the last figure resumes
a real Kogworks game, where replay is dominated by the engine's own apply.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogtable.journal import Journal, JournaledGame
from games.core import CHANCE, available_games
from tests import toy_game


def open_journal(path: Path) -> Journal:
    return Journal(path, loader=lambda name: toy_game, replayer=toy_game.replay_toy)  # type: ignore[arg-type, return-value]


def play(game: JournaledGame, moves: int, rng: random.Random) -> list[float]:
    """Apply ``moves`` random legal actions; the seconds each durable apply took."""
    took = []
    for _ in range(moves):
        state = game.state
        acting = state.to_act()
        action = state.sample_chance() if acting == (CHANCE,) else rng.choice(state.legal_actions())
        start = time.perf_counter()
        game.apply(action, "simulation")
        took.append(time.perf_counter() - start)
    return took


def bench_appends(folder: Path, appends: int) -> None:
    rounds = appends // 3 + 1
    with open_journal(folder / "appends.sqlite") as journal:
        game = journal.new_game("toy", {"rounds": rounds}, seed=1)
        took = play(game, appends, random.Random(1))
    print(f"appends: {appends} durable applies (WAL, synchronous=FULL)")
    print(f"  {appends / sum(took):.0f} per second")
    print(f"  median {statistics.median(took) * 1e3:.2f} ms, max {max(took) * 1e3:.2f} ms")


def bench_replay(folder: Path, repeats: int = 20) -> None:
    with open_journal(folder / "replay.sqlite") as journal:
        game = journal.new_game("toy", {"rounds": 68}, seed=2)
        play(game, 200, random.Random(2))
    took = []
    for _ in range(repeats):
        start = time.perf_counter()
        with open_journal(folder / "replay.sqlite") as journal:
            resumed = journal.resume()
        took.append(time.perf_counter() - start)
        assert resumed is not None and len(resumed.state.history) == 200
    print(f"resume: open the journal, read and replay a 200-action game ({repeats} runs)")
    print(f"  median {statistics.median(took) * 1e3:.2f} ms, max {max(took) * 1e3:.2f} ms")


def bench_kogworks_resume(folder: Path, repeats: int = 5) -> None:
    """Resume a Kogworks game at ply 200 with the default loader and replay."""
    path = folder / "kogworks.sqlite"
    rng = random.Random(2)
    with Journal(path) as journal:
        game = journal.new_game("kogworks", seed=2)
        for _ in range(200):
            game.apply(rng.choice(list(game.state.legal_actions())), "simulation")
    took = []
    for _ in range(repeats):
        start = time.perf_counter()
        with Journal(path) as journal:
            resumed = journal.resume()
        took.append(time.perf_counter() - start)
        assert resumed is not None and len(resumed.state.history) == 200
    print(f"resume: a 200-action Kogworks game ({repeats} runs)")
    print(f"  median {statistics.median(took) * 1e3:.1f} ms, max {max(took) * 1e3:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None, help="where to put the databases")
    parser.add_argument("--appends", type=int, default=300, help="how many appends to time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        print(f"databases in {folder}")
        bench_appends(Path(folder), args.appends)
        bench_replay(Path(folder))
        if "kogworks" in available_games():
            bench_kogworks_resume(Path(folder))


if __name__ == "__main__":
    main()
