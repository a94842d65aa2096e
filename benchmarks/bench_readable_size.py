"""The smallest synthetic frame the board reader reads reliably (``sim kogworks --size``).

Run from the repository root::

    .venv/bin/python benchmarks/bench_readable_size.py [--poses 60] [--frames 3] [SIZE ...]

For each size, ``--poses`` random camera poses (tilt, turn, fill 78-95% of the
shorter side, light, noise: vision's ``random_scene``) film a Kogworks
position with ten random cogs, ``--frames`` noisy frames each. It prints how
many frames were read right and certain, and how many poses were never read
at all: such a pose would leave a mock game waiting forever. ``sim``'s
``MIN_READABLE_SIDE`` is the shortest side at which no pose is lost.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogtable.commands.sim import MIN_READABLE_SIDE
from vision.peg_disk.geometry import PEGS, BoardGeometry, Position, start_position
from vision.peg_disk.reader import BoardReader
from vision.peg_disk.renderer import Renderer, random_scene

SIZES = ("640x480", "560x420", "533x400", "480x360", "427x320", "320x240", "160x120")


def position(seed: int) -> Position:
    """The start layout with ten random red and blue cogs added."""
    rng = random.Random(seed)
    placed = dict(start_position())
    for peg in rng.sample(list(PEGS), 10):
        placed[peg] = rng.choice(["red", "blue"])
    return placed


def measure(size: tuple[int, int], poses: int, frames: int) -> tuple[int, int, float]:
    """(frames read right and certain, poses never read, milliseconds a frame)."""
    geometry = BoardGeometry()
    renderer, reader = Renderer(geometry), BoardReader(geometry)
    read_right = never = 0
    took = 0.0
    for seed in range(poses):
        truth = position(seed)
        scene = random_scene(np.random.default_rng(seed), truth, size)
        good = 0
        for frame_number in range(frames):
            frame = renderer.render(scene, seed=seed * 1000 + frame_number)[0]
            start = time.perf_counter()
            reading = reader.read(frame)
            took += time.perf_counter() - start
            good += reading.certain and reading.position() == truth
        read_right += good
        never += good == 0
    return read_right, never, 1000 * took / (poses * frames)


def main() -> None:
    """Print one line per size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", default=SIZES, help="WIDTHxHEIGHT sizes to try")
    parser.add_argument("--poses", type=int, default=60, help="camera poses per size")
    parser.add_argument("--frames", type=int, default=3, help="noisy frames per pose")
    args = parser.parse_args()
    print(f"sim's MIN_READABLE_SIDE: {MIN_READABLE_SIDE} pixels")
    print(f"{'size':>9}  {'read right':>12}  {'poses never read':>16}  {'ms/frame':>8}")
    for text in args.sizes:
        width, height = (int(part) for part in text.split("x"))
        right, never, ms = measure((width, height), args.poses, args.frames)
        total = args.poses * args.frames
        print(f"{text:>9}  {right:>5} / {total:<4}  {never:>10} / {args.poses:<4}  {ms:8.1f}")


if __name__ == "__main__":
    main()
