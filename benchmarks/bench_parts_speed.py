"""The parts reader's speed against another tree's, in one run:
``.venv/bin/python benchmarks/bench_parts_speed.py --base /tmp/base [--frames 20]``.

``--base`` is a checkout of the code to compare with (``git worktree add /tmp/base
3e38169`` gives that commit's; remove it after with ``git worktree remove /tmp/base``).
The frames are rendered once, by this tree's renderer: the built-in C.O.G. edition's board
and four mats at 1920x1080, about 60% of the places filled (development fonts): a still
table (fresh sensor noise each frame) and a table where one tile of the first mat changes
letter every frame. Two worker processes, one per tree (``cv2.setNumThreads(1)``, niced
like this one), read the same frames in the same order, interleaved frame by frame, so
the shared machine's load falls on both alike; each reports the CPU milliseconds of every
read. Printed: median and p90 per tree and kind of frame, and the ratio of the medians.
Goals (issue 26): a still frame at most 20 ms, a one-tile-changed frame at most 30 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEED = 910_000
SIZE = (1920, 1080)
WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import cv2, numpy as np
cv2.setNumThreads(1)
from cogtable.tables.cog.parts import part_layouts
from games.cog.edition import load_edition
from vision.parts.reader import PartsReader
frames = np.load(sys.argv[2])
reader = PartsReader(part_layouts(load_edition(), 4))
reader.read(frames["still"][0]); reader.read(frames["still"][0])
print("ready", flush=True)
for line in sys.stdin:
    kind, index = line.split()
    if kind == "reset":
        reader.read(frames["still"][0]); reader.read(frames["still"][0])
        print("0", flush=True)
        continue
    frame = frames[kind][int(index)]
    start = time.thread_time()
    reader.read(frame)
    print(f"{(time.thread_time() - start) * 1000:.3f}", flush=True)
"""


def _frames(count: int) -> dict[str, np.ndarray]:
    """Still frames and one-tile-changed frames of one table, rendered by this tree."""
    from cogtable.tables.cog.parts import part_layouts
    from games.cog.edition import load_edition
    from tests.vision.part_layouts import random_contents
    from vision.layout import LETTERS
    from vision.parts.renderer import TableRenderer
    from vision.parts.table_scenes import random_table_scene
    from vision.parts.tiles import DEVELOPMENT_FONTS

    layouts = part_layouts(load_edition(), 4)
    rng = np.random.default_rng(SEED)
    scene = random_table_scene(
        rng, layouts, random_contents(rng, layouts, 0.6), font=DEVELOPMENT_FONTS[0]
    )
    renderer = TableRenderer()
    still = [renderer.render(scene, SIZE, index) for index in range(count)]
    mat = dict(scene.contents.get("mat1", {}))
    first = sorted(name for name in mat if mat[name] in LETTERS)[0]
    changed = []
    for index in range(count):
        letter = LETTERS[(LETTERS.index(mat[first]) + 1 + index) % len(LETTERS)]
        contents = {**scene.contents, "mat1": {**mat, first: letter}}
        changed.append(renderer.render(replace(scene, contents=contents), SIZE, index))
    return {"still": np.stack(still), "changed": np.stack(changed)}


class _Worker:
    """A reader of one tree in its own process."""

    def __init__(self, tree: Path, frames: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(tree), str(frames)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=tree,
        )
        if self._answer() != "ready":
            raise RuntimeError(f"the reader of {tree} did not start")

    def _answer(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def ask(self, kind: str, index: int) -> float:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{kind} {index}\n")
        self.process.stdin.flush()
        return float(self._answer())

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the tree to compare with")
    parser.add_argument("--frames", type=int, default=20, help="frames of each kind (20)")
    args = parser.parse_args()
    if not (args.base / "vision" / "parts" / "reader.py").is_file():
        print(f"--base {args.base}: not a checkout of this project (no vision/parts/reader.py)")
        return 2
    if not 3 <= args.frames <= 200:
        print(f"--frames {args.frames} is out of range: use 3 to 200")
        return 2
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())} (the machine is shared)")
    frames = _frames(args.frames)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "frames.npz"
        np.savez(path, **frames)
        workers = {"this tree": _Worker(ROOT, path), "base": _Worker(args.base, path)}
        try:
            times = _interleaved(workers, args.frames)
        finally:
            for worker in workers.values():
                worker.close()
    _report(times, args.base)
    return 0


def _interleaved(workers: dict[str, _Worker], count: int) -> dict[str, dict[str, list[float]]]:
    times: dict[str, dict[str, list[float]]] = {name: {} for name in workers}
    for kind in ("still", "changed"):
        for worker in workers.values():
            worker.ask("reset", 0)
        for name in workers:
            times[name][kind] = []
        for index in range(count):
            order = list(workers) if index % 2 == 0 else list(reversed(workers))
            for name in order:
                times[name][kind].append(workers[name].ask(kind, index))
    return times


def _report(times: dict[str, dict[str, list[float]]], base: Path) -> None:
    names = {"still": "still table", "changed": "one tile changed"}
    summary = {}
    for kind, text in names.items():
        ours, theirs = times["this tree"][kind], times["base"][kind]
        median, base_median = float(np.median(ours)), float(np.median(theirs))
        summary[kind] = round(median / base_median, 3)
        print(
            f"read 1920x1080 board + 4 mats, {text}: this tree CPU median {median:.1f} ms "
            f"(p90 {np.percentile(ours, 90):.1f}); {base} {base_median:.1f} ms "
            f"(p90 {np.percentile(theirs, 90):.1f}); ratio {median / base_median:.2f}"
        )
    print(json.dumps({"ratio": summary}))


if __name__ == "__main__":
    sys.exit(main())
