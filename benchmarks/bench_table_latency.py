"""Latency of the mock table: from the frame in which the board settles to the LEDs leaving.

Plays whole mock-table games (synthetic camera, real reader and settling
filter, real controller, journal with fsync, real firmware link) and reports,
for every settled board that changed the LEDs, the time from the moment its
frame was taken (rendering done) to the moment the LED frame was written to
the Pico link: reading the frame, settling, the queue, the controller, the
journal commit and the LED frame. The settling window itself (0.3 s of
simulated time) comes before that frame and is not part of the figure.

    .venv/bin/python benchmarks/bench_table_latency.py [--size 1280x720] [--games 1] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from cogtable.cli import build_parser
from cogtable.commands import sim
from hardware.profile import load_profile

GOAL_MS = 30.0


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--size", default="1280x720", help="camera frame size (the profile's)")
    options.add_argument("--camera", default="render", choices=("render", "truth"))
    options.add_argument("--games", default="1")
    options.add_argument("--seed", default="0")
    chosen = options.parse_args()
    argv = ["sim", "kogworks", "--quiet", "--camera", chosen.camera, "--size", chosen.size]
    args = build_parser().parse_args([*argv, "--games", chosen.games, "--seed", chosen.seed])
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        played = sim.play(args, load_profile(), Path(folder))
    elapsed = time.perf_counter() - started
    return report(played, chosen, elapsed)


def report(played: sim.Played, chosen: argparse.Namespace, elapsed: float) -> int:
    samples = sorted(1000 * value for value in played.runtime.latencies)
    if not played.people.finished or not samples:
        print(f"no complete game: {played.reason}", file=sys.stderr)
        return 1
    p99 = samples[min(len(samples) - 1, round(0.99 * (len(samples) - 1)))]
    moves = sum(len(log.moves) for log in played.people.played)
    print(f"camera {chosen.camera} {chosen.size}, {chosen.games} game(s), {moves} moves")
    print(f"settled board -> LED frame sent: {len(samples)} samples")
    print(
        f"  median {statistics.median(samples):.1f} ms, p99 {p99:.1f} ms, max {samples[-1]:.1f} ms"
    )
    print(f"  goal: at most {GOAL_MS:.0f} ms beyond the settling window")
    print(f"wall time {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
