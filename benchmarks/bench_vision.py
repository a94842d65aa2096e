"""Vision speed and accuracy: ``.venv/bin/python benchmarks/bench_vision.py [--quick]``.

Speed (one core, cv2.setNumThreads(1)): median time of the full read (markers,
homography, all 55 pegs) at 640x480, 1280x720 and 1920x1080, and the
renderer's time per frame. Goal from issue 3: at most 5 ms median at 1280x720.

Accuracy, on seeds 900_000+ (never used for tuning): per-peg accuracy over
random frames across camera tilt up to 25 degrees, any disk rotation, lighting
gradients, colour casts, noise, blur and JPEG; and committed readings through
the settling filter over simulated moves with hands passing over the board.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.geometry import LABELS, PEGS, BoardGeometry, Position, start_position
from vision.reader import BoardReader
from vision.renderer import HeldCog, Renderer, random_hand, random_scene
from vision.settle import SettlingFilter

SEEDS = 900_000


def random_position(rng: np.random.Generator) -> Position:
    position = start_position()
    fill = rng.uniform(0.1, 0.8)
    for peg in PEGS:
        if position[peg] is None and rng.random() < fill:
            position[peg] = str(rng.choice(LABELS))
    return position


def speed(renderer: Renderer, reader: BoardReader, size: tuple[int, int], frames: int) -> None:
    rng = np.random.default_rng(SEEDS)
    images, render_times = [], []
    for index in range(frames):
        start = time.perf_counter()
        scene = replace(random_scene(rng, start_position(), size), position=random_position(rng))
        images.append(renderer.render(scene, index)[0])
        render_times.append(time.perf_counter() - start)
    read_times, cpu_times = [], []
    for _ in range(3):
        for image in images:
            start, cpu = time.perf_counter(), time.process_time()
            reader.read(image)
            read_times.append(time.perf_counter() - start)
            cpu_times.append(time.process_time() - cpu)
    read = statistics.median(read_times) * 1000
    print(
        f"{size[0]}x{size[1]}: CPU time per read {statistics.mean(cpu_times) * 1000:.2f} ms (mean)"
    )
    print(
        f"{size[0]}x{size[1]}: read median {read:.2f} ms ({1000 / read:.0f} frames/s), "
        f"p90 {np.percentile(read_times, 90) * 1000:.2f} ms; "
        f"render median {statistics.median(render_times[1:]) * 1000:.1f} ms"
    )


def accuracy(renderer: Renderer, reader: BoardReader, frames: int, size) -> None:
    right = total = unread = confidently_wrong = uncertain = 0
    for index in range(frames):
        rng = np.random.default_rng(SEEDS + index)
        position = random_position(rng)
        reading = reader.read(renderer.render(random_scene(rng, position, size), index)[0])
        if not reading.ok:
            unread += 1
            continue
        uncertain += not reading.certain
        for peg, label, confidence in zip(PEGS, reading.labels, reading.confidence, strict=True):
            total += 1
            right += label == position[peg]
            confidently_wrong += label != position[peg] and confidence >= 0.5
    print(
        f"accuracy {size[0]}x{size[1]}: {right}/{total} pegs right ({right / max(total, 1):.4%}) "
        f"over {frames - unread} read frames; {unread} frames reported no board; "
        f"{uncertain} frames uncertain; {confidently_wrong} pegs confidently wrong"
    )


def moves(renderer: Renderer, reader: BoardReader, count: int, size) -> None:
    clock = [0.0]
    settle = SettlingFilter(window=0.3, clock=lambda: clock[0])
    rng = np.random.default_rng(SEEDS + 77)
    geometry = BoardGeometry()
    wrong = missed = commits = 0
    for move in range(count):
        if move % 25 == 0:
            base = random_scene(rng, start_position(), size)
        position = random_position(rng)
        frames = [
            replace(base, position=position, hand=random_hand(rng, geometry)) for _ in range(3)
        ]
        frames[1] = replace(frames[1], held=HeldCog(PEGS[int(rng.integers(55))], "gold"))
        frames += [replace(base, position=position)] * 12
        settled = False
        for index, scene in enumerate(frames):
            status = settle.update(reader.read(renderer.render(scene, move * 100 + index)[0]))
            commits += status.new_commit
            wrong += status.new_commit and status.committed != position
            settled |= status.committed == position and status.state.value == "settled"
            clock[0] += 1 / 30
        missed += not settled
    print(
        f"settling {size[0]}x{size[1]}: {count} moves with hands between them: "
        f"{commits} commits, {wrong} wrong commits, {missed} moves never settled in 12 still frames"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer frames (a smoke run)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    renderer, reader = Renderer(), BoardReader()
    print(f"OpenCV {cv2.__version__}, numpy {np.__version__}, one thread")
    for size in ((640, 480), (1280, 720), (1920, 1080)):
        speed(renderer, reader, size, 10 if args.quick else 40)
    accuracy(renderer, reader, 50 if args.quick else 2000, (1280, 720))
    moves(renderer, reader, 10 if args.quick else 500, (1280, 720))


if __name__ == "__main__":
    main()
