"""Reading time of the peg disk against today's code, in one run (``bench_perception --speed``).

Twelve 1280x720 frames of our renderer (a steady camera, random positions) are
read by this checkout's reader and by a baseline checkout's (a git worktree of
the commit before the change), in alternating rounds in fresh processes on
one thread, so both see the same machine load; the medians and their ratio
are printed. The commit decision's added time per still frame (adding the
frame's evidence and deciding against the Kogworks explanations of a
mid-game position) is timed here alone: today's code has none.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
FRAMES = 12
ROUNDS = 3
WORKER = """
import sys, time, statistics
import cv2, numpy as np
cv2.setNumThreads(1)
try:
    from vision.peg_disk.reader import BoardReader
except ImportError:
    from vision.reader import BoardReader
frames = np.load(sys.argv[1])
reader = BoardReader()
reader.read(frames[0])
times = []
for _ in range(3):
    for frame in frames:
        start = time.thread_time()
        reader.read(frame)
        times.append((time.thread_time() - start) * 1000)
print(statistics.median(times))
"""


def _frames(path: Path) -> None:
    from vision.peg_disk.geometry import LABELS, PEGS, start_position
    from vision.peg_disk.renderer import Renderer, random_scene

    rng = np.random.default_rng(77)
    base = random_scene(rng, start_position(), (1280, 720), max_tilt=15.0)
    renderer, frames = Renderer(), []
    for index in range(FRAMES):
        position = start_position()
        for peg in PEGS:
            if position[peg] is None and rng.random() < 0.4:
                position[peg] = str(rng.choice(LABELS))
        frames.append(renderer.render(replace(base, position=position), index)[0])
    np.save(path, np.stack(frames))


def _read_ms(tree: Path, frames: Path) -> float:
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(frames)],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.strip().splitlines()[-1])


def decision_ms() -> float:
    """Median CPU ms per still frame the commit decision adds (add the frame, decide)."""
    import random

    from cogtable.commit_decision import StillBoardJudge
    from cogtable.place_evidence import evidence_of_reading
    from cogtable.tables.kogworks.explain import explanations, position_of
    from games.core import load_game
    from vision.peg_disk.reader import BoardReader
    from vision.peg_disk.renderer import Renderer, random_scene

    rng = random.Random(5)
    state = load_game("kogworks").new_game({}, 5)
    for _ in range(14):
        state.apply(rng.choice(list(state.legal_actions(state.mover))))
    explained = explanations(state, None)
    scene = random_scene(np.random.default_rng(5), position_of(state), (1280, 720))
    reader, renderer = BoardReader(), Renderer()
    readings = [reader.read(renderer.render(scene, k)[0]) for k in range(8)]
    judge = StillBoardJudge(lambda: explained, evidence_of_reading)
    times = []
    for _ in range(20):
        judge.restart()
        for reading in readings:
            start = time.thread_time()
            judge.add(reading)
            judge.decide(None)
            times.append((time.thread_time() - start) * 1000)
    return statistics.median(times)


def compare(baseline: Path) -> None:
    """Print both readers' median read times, their ratio, and the decision's added time."""
    with tempfile.TemporaryDirectory() as folder:
        frames = Path(folder) / "frames.npy"
        _frames(frames)
        ours, theirs = [], []
        for _ in range(ROUNDS):
            theirs.append(_read_ms(baseline, frames))
            ours.append(_read_ms(ROOT, frames))
    now, before = statistics.median(ours), statistics.median(theirs)
    print(
        f"peg disk read, 1280x720, CPU median per frame: {now:.2f} ms "
        f"(today's code at {baseline}: {before:.2f} ms; ratio {now / before:.2f}); "
        f"rounds {' '.join(f'{t:.2f}' for t in ours)} vs {' '.join(f'{t:.2f}' for t in theirs)}"
    )
    added = decision_ms()
    print(
        f"commit decision, added CPU per still frame (Kogworks, {14} moves in): "
        f"{added:.3f} ms (goal <= 1 ms; {added / before:.1%} of today's read)"
    )
