"""Card tag decoders side by side on our own hard conditions (tuning seeds only).

``.venv/bin/python benchmarks/compare_card_decoders.py [--tables N] [--variants a,b]``

Every frame of :mod:`benchmarks.card_conditions` (each condition, 1280x720 and
1920x1080) is read once per variant by a fresh reader (the first-frame path:
the whole mat searched), and scored against the scene's truth: face-up cards
wholly in view identified, wrong ids, zones with a partly covered card read
clear, backs counted right; with the median read time. Variants:

- ``reader``: the reader as it is (:class:`vision.cards.reader.CardReader`);
- ``stock-frame``: OpenCV's AprilTag 36h11 detector, default settings, on the
  whole camera frame; tags mapped to the mat by the homography;
- ``stock-view``: the same detector on the reader's top-down view, tuned to
  the tag's size there.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchmarks.card_conditions import CONDITIONS, condition_scene
from benchmarks.card_dev import DevRenderer
from benchmarks.card_truth import score, score_line, truth_of
from vision.cards.mat import standard_mat
from vision.cards.reader import TAG_PX_PER_MM, CardReader, SeenTag, _one_per_place
from vision.cards.sheet import TAG_MM
from vision.cards.tags import FAMILY, MODULES
from vision.markers import project

SEEDS = 6_000_000
SIZES = ((1280, 720), (1920, 1080))


class StockFrameReader(CardReader):
    """Tags found by cv2.aruco's own 36h11 detector on the whole frame (default settings)."""

    def __init__(self, mat, **kw) -> None:
        super().__init__(mat, **kw)
        self.stock = cv2.aruco.ArucoDetector(
            cv2.aruco.getPredefinedDictionary(FAMILY), cv2.aruco.DetectorParameters()
        )
        self.frame: np.ndarray | None = None

    def read(self, frame):
        self.frame = frame
        return super().read(frame)

    def find_tags(self, image, homography, box_mm=None, *, retry=False):
        x0, y0, x1, y1 = box_mm or self.whole_mm
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        corners, ids, _rejected = self.stock.detectMarkers(grey)
        tags = []
        inverse = np.linalg.inv(homography)
        for quad, tag_id in zip(corners, [] if ids is None else ids.ravel(), strict=False):
            mm = project(inverse, quad.reshape(4, 2).astype(np.float64))
            x, y = mm.mean(axis=0)
            side = float(np.linalg.norm(mm - np.roll(mm, 1, axis=0), axis=1).mean())
            if x0 <= x < x1 and y0 <= y < y1 and abs(side - TAG_MM) < 0.35 * TAG_MM:
                tags.append(SeenTag(int(tag_id), float(x), float(y), side))
        return _one_per_place(tags)


class StockViewReader(CardReader):
    """cv2.aruco's 36h11 detector on the reader's top-down view, tuned to the tag's size."""

    def __init__(self, mat, **kw) -> None:
        super().__init__(mat, **kw)
        parameters = cv2.aruco.DetectorParameters()
        module = TAG_PX_PER_MM * TAG_MM / MODULES
        parameters.adaptiveThreshWinSizeMin = 5
        parameters.adaptiveThreshWinSizeMax = int(6 * module) | 1
        parameters.adaptiveThreshWinSizeStep = 6
        parameters.minMarkerPerimeterRate = 0.02
        parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        self.stock = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(FAMILY), parameters)

    def find_tags(self, image, homography, box_mm=None, *, retry=False):
        from vision.cards.reader import _warp_grey

        x0, y0, x1, y1 = box_mm or self.whole_mm
        size = (max(8, round((x1 - x0) * TAG_PX_PER_MM)), max(8, round((y1 - y0) * TAG_PX_PER_MM)))
        origin = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
        grey = _warp_grey(image, homography @ np.linalg.inv(origin), size)
        corners, ids, _rejected = self.stock.detectMarkers(grey)
        tags = []
        for quad, tag_id in zip(corners, [] if ids is None else ids.ravel(), strict=False):
            mm = quad.reshape(4, 2).astype(np.float64) / TAG_PX_PER_MM + (x0, y0)
            x, y = mm.mean(axis=0)
            side = float(np.linalg.norm(mm - np.roll(mm, 1, axis=0), axis=1).mean())
            if abs(side - TAG_MM) < 0.35 * TAG_MM:
                tags.append(SeenTag(int(tag_id), float(x), float(y), side))
        return _one_per_place(tags)


VARIANTS = {
    "reader": CardReader,
    "stock-frame": StockFrameReader,
    "stock-view": StockViewReader,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="tables per condition and size")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--conditions", default=",".join(CONDITIONS))
    parser.add_argument("--seed", type=int, default=SEEDS)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    mat = standard_mat(6)
    names = args.variants.split(",")
    readers = {name: VARIANTS[name](mat, follow=False) for name in names}
    renderer = DevRenderer(cache_size=1)
    times: dict[str, list[float]] = defaultdict(list)
    for size in SIZES:
        for index, condition in enumerate(args.conditions.split(",")):
            tallies = {name: defaultdict(int) for name in names}
            for table in range(args.tables):
                seed = args.seed + 10_000 * index + table
                scene = condition_scene(condition, seed, mat)
                frame = renderer.render(scene, size, seed)
                truth = truth_of(scene, size)
                for name, reader in readers.items():
                    start = time.perf_counter()
                    reading = reader.read(frame)
                    if size == (1920, 1080):
                        times[name].append(time.perf_counter() - start)
                    score(tallies[name], reading, truth)
            for name in names:
                print(
                    f"{size[1]}p {condition:18s} {name:12s} {score_line(tallies[name])}", flush=True
                )
    for name in names:
        median = statistics.median(times[name]) * 1000
        print(f"first-frame read at 1080p, {name}: median {median:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
