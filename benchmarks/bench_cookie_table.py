"""Whole Cookie games through the mock card mat's camera: time, frames and actions per game.

Run: ``.venv/bin/python benchmarks/bench_cookie_table.py [--camera truth|render]
[--size WxH] [--only VARIANT-PLAYERS ...]``. Each line plays one seeded game
with ``cogtable sim cookie`` (the simulated people, the settling filter, the
controller, the journal and the LEDs all run; ``render`` also draws and reads
every frame) and prints its wall time, the camera frames it took, the actions
the journal holds (all from the camera or a seat button) and the mistakes the
table refused. Wall times are noisy on a shared machine: compare within a run.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from cogtable.cli import build_parser
from cogtable.commands import sim
from hardware.profile import load_profile

GAMES = ("hunt-4", "hunt-5", "hunt-6", "big-hunt-2", "big-hunt-3", "big-hunt-4")


def play_one(name: str, camera: str, size: str, seed: int) -> tuple[float, int, int, int]:
    """Seconds, camera frames, journaled actions and mistakes refused for one game."""
    variant, players = name.rsplit("-", 1)
    argv = ["sim", "cookie", "--variant", variant, "--players", players, "--seed", str(seed)]
    args = build_parser().parse_args([*argv, "--camera", camera, "--size", size, "--quiet"])
    frames: list[int] = []

    def count(world: object, runtime: object, people: object) -> None:
        frames.append(getattr(world, "frames", 0))

    with tempfile.TemporaryDirectory(prefix="bench-cookie-") as folder:
        began = time.perf_counter()
        played = sim.play(args, load_profile(), Path(folder), actors=[count])
        seconds = time.perf_counter() - began
        if not played.people.finished:
            raise SystemExit(f"{name}: the game did not finish ({played.reason})")
    logs = played.people.played
    return seconds, max(frames, default=0), logs[0].moves, logs[0].mistakes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--camera", choices=("truth", "render"), default="truth")
    parser.add_argument("--size", default="1920x1080", help="rendered frame size")
    parser.add_argument("--only", action="append", choices=GAMES, help="play only these")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"camera {args.camera}" + (f" {args.size}" if args.camera == "render" else ""))
    print(
        f"{'game':<12} {'seconds':>8} {'frames':>7} {'actions':>8} {'ms/frame':>9} {'mistakes':>9}"
    )
    for name in args.only or GAMES:
        seconds, frames, actions, mistakes = play_one(name, args.camera, args.size, args.seed)
        per_frame = 1000 * seconds / max(frames, 1)
        print(f"{name:<12} {seconds:9.1f} {frames:9d} {actions:9d} {per_frame:9.1f} {mistakes:9d}")


if __name__ == "__main__":
    main()
