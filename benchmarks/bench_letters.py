"""Letter classifier benchmark: training time, held-out accuracy and confidence, classify time.

    .venv/bin/python benchmarks/bench_letters.py [--quick]

Trains the default classifier (synthetic crops of the training fonts), reads
100 synthetic crops per letter (--quick: 20) drawn in the held-out fonts with
unseen seeds, and prints per font: accuracy, how many letters were read wrong
with a confidence of at least MIN_CONFIDENCE (the reader would commit them)
and the share left below MIN_CONFIDENCE. Then times classify() on 300 crops
on one thread (median and p90). Exit status 1 when accuracy is below 99.5% or
any wrong letter reaches MIN_CONFIDENCE.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from vision.layout import LETTERS
from vision.letters import MIN_CONFIDENCE, LetterClassifier, synthetic_crops
from vision.tiles import HELD_OUT_FONTS, Font

ACCURACY_FLOOR = 0.995
SEED = 31337
"""Not the training seed: the held-out crops are new tiles, mats, poses and camera effects."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 crops per letter, fewer timings")
    options = parser.parse_args(argv)
    cv2.setNumThreads(1)
    per_letter = 20 if options.quick else 100

    started = time.perf_counter()
    classifier = LetterClassifier.default()
    print(f"training: {time.perf_counter() - started:.2f} s (synthetic crops, one process)")

    totals = np.zeros(3, int)
    print(
        f"held-out fonts, {per_letter} crops per letter and font, MIN_CONFIDENCE {MIN_CONFIDENCE}"
    )
    print(f"{'font':58s} {'crops':>6s} {'accuracy':>9s} {'wrong>=min':>10s} {'below min':>9s}")
    for index, font in enumerate(HELD_OUT_FONTS):
        right, wrong_committed, below = _read_font(classifier, font, per_letter, SEED + index)
        count = len(right)
        totals += (count, right.sum(), wrong_committed)
        print(
            f"{_font_name(font):58s} {count:6d} {right.mean():9.2%} {wrong_committed:10d} "
            f"{below:9.2%}"
        )
    accuracy = totals[1] / totals[0]
    print(f"{'all held-out fonts':58s} {totals[0]:6d} {accuracy:9.2%} {totals[2]:10d}")

    median, p90 = _classify_times(classifier, 5 if options.quick else 30)
    print(f"classify 300 crops, one thread: median {median:.1f} ms, p90 {p90:.1f} ms")

    failed = accuracy < ACCURACY_FLOOR or totals[2] > 0
    if failed:
        print(
            f"FAIL: accuracy {accuracy:.2%} (floor {ACCURACY_FLOOR:.1%}), "
            f"{totals[2]} wrong at >= MIN_CONFIDENCE (allowed 0)"
        )
    return 1 if failed else 0


def _read_font(
    classifier: LetterClassifier, font: Font, per_letter: int, seed: int
) -> tuple[np.ndarray, int, float]:
    """Per crop: read right?; the count of wrong readings >= MIN_CONFIDENCE; share below it."""
    truth = np.array([letter for _ in range(per_letter) for letter in LETTERS])
    crops = synthetic_crops(list(truth), [font], np.random.default_rng(seed))
    letters, confidences = classifier.classify(crops)
    right = np.array(letters) == truth
    committed = confidences >= MIN_CONFIDENCE
    return right, int((~right & committed).sum()), float((~committed).mean())


def _classify_times(classifier: LetterClassifier, repeats: int) -> tuple[float, float]:
    crops = synthetic_crops(list(LETTERS) * 12, HELD_OUT_FONTS, np.random.default_rng(SEED - 1))
    crops = crops[:300]
    classifier.classify(crops)
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        classifier.classify(crops)
        times.append((time.perf_counter() - started) * 1000)
    return float(np.median(times)), float(np.percentile(times, 90))


def _font_name(font: Font) -> str:
    faces = {
        getattr(cv2, name): name.removeprefix("FONT_HERSHEY_")
        for name in dir(cv2)
        if name.startswith("FONT_HERSHEY_")
    }
    slant = " italic" if font.italic else ""
    return f"{faces.get(font.face, font.face)}{slant} thickness {font.thickness} scale {font.scale}"


if __name__ == "__main__":
    sys.exit(main())
