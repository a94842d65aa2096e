"""Vision speed and accuracy: ``.venv/bin/python benchmarks/bench_vision.py [--quick] [--part P]``.

Speed (one core, cv2.setNumThreads(1)): time of the full read (markers,
homography, all 55 pegs) at 640x480, 1280x720 and 1920x1080, CPU and wall,
median and p90, for a steady camera (markers tracked from frame to frame, as on
the table) and for a new camera pose every frame (full marker search), with the
machine's load average, since the machine is shared. Goal from issue 3: at
most 5 ms median at 1280x720.

Accuracy, on seeds 900_000+ (never used for tuning): per-peg accuracy over
random frames across camera tilt up to 25 degrees, any disk rotation, lighting
gradients, colour casts, noise, blur and JPEG; committed readings through the
settling filter over simulated moves with hands passing over the board; cogs
held above a peg with no hand in the picture; moves under a lamp's shadow.
"""

from __future__ import annotations

import argparse
import os
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
from vision.renderer import HeldCog, Renderer, random_hand, random_lamp, random_scene
from vision.settle import SettlingFilter

SEEDS = 900_000
SIZES = ((640, 480), (1280, 720), (1920, 1080))


def random_position(rng: np.random.Generator) -> Position:
    position = start_position()
    fill = rng.uniform(0.1, 0.8)
    for peg in PEGS:
        if position[peg] is None and rng.random() < fill:
            position[peg] = str(rng.choice(LABELS))
    return position


def speed(renderer: Renderer, reader_for, size: tuple[int, int], frames: int) -> float:
    """Print read times for a steady and a moving camera; return the steady CPU median (ms)."""
    rng = np.random.default_rng(SEEDS)
    base = random_scene(rng, start_position(), size)
    steady = [replace(base, position=random_position(rng)) for _ in range(frames)]
    moving = [random_scene(rng, random_position(rng), size) for _ in range(frames)]
    cpu = 0.0
    for name, scenes in (("steady camera", steady), ("new pose every frame", moving)):
        images = [renderer.render(scene, index)[0] for index, scene in enumerate(scenes)]
        wall, cpu_times = _time_reads(reader_for(), images)
        cpu = cpu or statistics.median(cpu_times)
        print(
            f"{size[0]}x{size[1]} {name}: CPU median {statistics.median(cpu_times):.2f} ms, "
            f"p90 {np.percentile(cpu_times, 90):.2f} ms; wall median "
            f"{statistics.median(wall):.2f} ms, p90 {np.percentile(wall, 90):.2f} ms"
        )
    return cpu


def _time_reads(reader: BoardReader, images: list[np.ndarray]) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of each read, three passes over the frames."""
    reader.read(images[0])
    wall, cpu_times = [], []
    for _ in range(3):
        for image in images:
            start, cpu = time.perf_counter(), time.thread_time()
            reader.read(image)
            cpu_times.append((time.thread_time() - cpu) * 1000)
            wall.append((time.perf_counter() - start) * 1000)
    return wall, cpu_times


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
        f"accuracy {size[0]}x{size[1]} (seeds {SEEDS}..{SEEDS + frames - 1}): "
        f"{right}/{total} pegs right ({right / max(total, 1):.4%}) "
        f"over {frames - unread} read frames; {unread} frames reported no board; "
        f"{uncertain} frames uncertain; {confidently_wrong} pegs confidently wrong"
    )


def _play_move(renderer, reader, settle, clock, frames, *, position, move) -> tuple[int, int, bool]:
    """Feed one move's frames to the filter: commits, wrong commits, whether it settled."""
    commits = wrong = 0
    settled = False
    for index, scene in enumerate(frames):
        status = settle.update(reader.read(renderer.render(scene, move * 100 + index)[0]))
        commits += status.new_commit
        wrong += status.new_commit and status.committed != position
        settled |= status.committed == position and status.state.value == "settled"
        clock[0] += 1 / 30
    return commits, wrong, settled


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
        made, bad, settled = _play_move(
            renderer, reader, settle, clock, frames, position=position, move=move
        )
        commits, wrong, missed = commits + made, wrong + bad, missed + (not settled)
    print(
        f"settling {size[0]}x{size[1]}: {count} moves with hands between them: "
        f"{commits} commits, {wrong} wrong commits, {missed} moves never settled in 12 still frames"
    )


def held(renderer: Renderer, reader: BoardReader, probes: int, size) -> None:
    """Cogs held above a peg (no hand in the picture): how often the frame is still certain."""
    by_offset: dict[str, list[bool]] = {"0-2 mm": [], "2-4 mm": [], "4-10 mm": []}
    for index in range(probes):
        rng = np.random.default_rng(SEEDS + 300_000 + index)
        scene, offset = _held_scene(rng, size)
        reading = reader.read(renderer.render(scene, index)[0])
        name = "0-2 mm" if offset < 2 else "2-4 mm" if offset < 4 else "4-10 mm"
        by_offset[name].append(reading.ok and reading.certain)
    shown = ", ".join(f"{k}: {sum(v)}/{len(v)}" for k, v in by_offset.items())
    print(f"held cogs {size[0]}x{size[1]}: frames still read as certain, by offset: {shown}")


def _held_scene(rng: np.random.Generator, size):
    """A random scene with one cog held above a random peg, and the offset (mm)."""
    scene = random_scene(rng, random_position(rng), size)
    offset, angle = float(rng.uniform(0, 10)), float(rng.uniform(0, 2 * np.pi))
    cog = HeldCog(
        PEGS[int(rng.integers(len(PEGS)))],
        str(rng.choice(LABELS)),
        (offset * np.cos(angle), offset * np.sin(angle)),
        float(rng.uniform(1.1, 1.4)),
        float(rng.uniform(1.0, 2.5)),
    )
    return replace(scene, held=cog), offset


def lamp(renderer: Renderer, reader: BoardReader, count: int, size) -> None:
    """Moves under a lamp's shadow that stays, hands between moves: commits and wrong commits."""
    clock = [0.0]
    settle = SettlingFilter(window=0.3, clock=lambda: clock[0])
    rng = np.random.default_rng(SEEDS + 400_000)
    wrong = missed = commits = 0
    for move in range(count):
        if move % 10 == 0:
            base = replace(random_scene(rng, start_position(), size), shadow=random_lamp(rng))
        position = random_position(rng)
        frames = [replace(base, position=position, hand=random_hand(rng, BoardGeometry()))]
        frames += [replace(base, position=position)] * (45 if move % 10 == 0 else 12)
        made, bad, settled = _play_move(
            renderer, reader, settle, clock, frames, position=position, move=move
        )
        commits, wrong, missed = commits + made, wrong + bad, missed + (not settled)
    print(
        f"lamp shadow {size[0]}x{size[1]}: {count} moves: {commits} commits, {wrong} wrong "
        f"commits, {missed} moves never settled (1.5 s for a new shadow, else 12 frames)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer frames (a smoke run)")
    parser.add_argument(
        "--part",
        choices=("all", "speed", "accuracy", "moves", "held", "lamp"),
        default="all",
        help="run only one part",
    )
    args = parser.parse_args()
    cv2.setNumThreads(1)
    renderer, reader = Renderer(), BoardReader()
    quick, part = args.quick, args.part
    print(f"OpenCV {cv2.__version__}, numpy {np.__version__}, one thread")
    if part in ("all", "speed"):
        print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        medians = {s: speed(renderer, BoardReader, s, 10 if quick else 40) for s in SIZES}
        ratios = ", ".join(
            f"{w}x{h} {m / medians[(1280, 720)]:.2f}" for (w, h), m in medians.items()
        )
        print(f"steady-camera CPU medians relative to 1280x720: {ratios}")
        print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    if part in ("all", "accuracy"):
        accuracy(renderer, reader, 50 if quick else 2000, (1280, 720))
    if part in ("all", "moves"):
        moves(renderer, reader, 10 if quick else 500, (1280, 720))
    if part in ("all", "held"):
        held(renderer, reader, 30 if quick else 300, (1280, 720))
    if part in ("all", "lamp"):
        lamp(renderer, reader, 10 if quick else 60, (1280, 720))


if __name__ == "__main__":
    main()
