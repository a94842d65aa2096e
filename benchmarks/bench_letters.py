"""Letter classifier benchmark: training time, two held-out protocols, classify time.

    .venv/bin/python benchmarks/bench_letters.py [--quick] [--seed N] [--fonts development]
        [--letters model|features]

``--letters`` picks the reader: the shipped letter model (default) or today's feature
classifier (:class:`vision.parts.letters.LetterClassifier`).

Both protocols read crops drawn in the held-out fonts (:data:`vision.parts.tiles.HELD_OUT_FONTS`)
with seeds never used in tuning (report with the defaults; tune with ``--seed N --fonts
development``: :data:`vision.parts.tiles.DEVELOPMENT_FONTS`, kept for tuning):

1. untaught: the default classifier reads 100 crops per letter and font (--quick: 20);
2. taught: per font, the default classifier is taught one frame's worth of the owner's
   tiles (one crop per letter, drawn in that font with its own pose, mat and light), then
   reads fresh crops of that font. This is what a table owner does (``cogtable calibrate
   cog --teach``) and is the headline figure.

Per font it prints accuracy, the share read right with at least the confidence floor (what the
reader commits), how many were read wrong with at least the floor (a wrong move) and
the share left below it (the table waits). Then training time (fresh and from the cache)
and classify() time on 300 and on 30 crops, one thread, with the load average.

Exit status 1 when the taught protocol is below 99.5% right and confident, or when any
wrong letter reaches the floor in either protocol.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from vision.layout import LETTERS
from vision.parts.letter_model import LetterModel
from vision.parts.letters import LetterClassifier, synthetic_crops
from vision.parts.tiles import DEVELOPMENT_FONTS, HELD_OUT_FONTS, Font

TAUGHT_FLOOR = 0.995
"""The taught protocol must read at least this share right and confident."""
REPORT_SEED = 40_000
"""The held-out seeds (REPORT_SEED + font index, and + 100 for the taught samples)."""


@dataclass(frozen=True)
class FontResult:
    """How one font's crops were read."""

    count: int
    right: int
    committed_right: int
    committed_wrong: int

    @property
    def below(self) -> int:
        """Crops left below the confidence floor (the reader would wait)."""
        return self.count - self.committed_right - self.committed_wrong

    def adding(self, other: FontResult) -> FontResult:
        return FontResult(
            self.count + other.count,
            self.right + other.right,
            self.committed_right + other.committed_right,
            self.committed_wrong + other.committed_wrong,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 crops per letter, fewer timings")
    parser.add_argument("--seed", type=int, default=REPORT_SEED, help="seed base (tuning only)")
    parser.add_argument(
        "--fonts", choices=("held-out", "development"), default="held-out", help="crops' fonts"
    )
    parser.add_argument("--letters", choices=("model", "features"), default="model")
    options = parser.parse_args(argv)
    fonts = HELD_OUT_FONTS if options.fonts == "held-out" else DEVELOPMENT_FONTS
    cv2.setNumThreads(1)
    per_letter = 20 if options.quick else 100

    classifier = _timed_training(options.letters)
    print(
        f"{options.letters}: {options.fonts} fonts, {per_letter} crops per letter and font, "
        f"confidence floor {classifier.min_confidence}, seed {options.seed}"
    )
    untaught = _protocol("1. untaught", classifier, fonts, per_letter, options.seed, teach=False)
    taught = _protocol(
        "2. taught (26 owner crops)", classifier, fonts, per_letter, options.seed, teach=True
    )

    repeats = 7 if options.quick else 40
    for size in (300, 30):
        median, p90 = _classify_times(classifier, size, repeats)
        print(f"classify {size} crops, one thread: median {median:.1f} ms, p90 {p90:.1f} ms")
    print(f"load average: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    return _verdict(untaught, taught)


Reader = LetterClassifier | LetterModel


def _timed_training(letters: str) -> Reader:
    started = time.perf_counter()
    classifier = LetterModel.default() if letters == "model" else LetterClassifier.default()
    print(f"{letters} classifier ready in {time.perf_counter() - started:.2f} s (this process)")
    return classifier


def _protocol(
    title: str,
    classifier: Reader,
    fonts: tuple[Font, ...],
    per_letter: int,
    seed: int,
    *,
    teach: bool,
) -> FontResult:
    print(title)
    print(
        f"  {'font':44s} {'crops':>6s} {'right':>8s} {'sure+right':>10s} {'sure+wrong':>10s} "
        f"{'below min':>9s}"
    )
    total = FontResult(0, 0, 0, 0)
    for index, font in enumerate(fonts):
        reader = _taught(classifier, font, seed + 100 + index) if teach else classifier
        result = _read_font(reader, font, per_letter, seed + index)
        _print_row(_font_name(font), result)
        total = total.adding(result)
    _print_row("all these fonts", total)
    return total


def _taught(classifier: Reader, font: Font, seed: int):
    """The classifier taught one crop per letter of ``font`` (one teach frame)."""
    samples = synthetic_crops(list(LETTERS), [font], np.random.default_rng(seed))
    return classifier.teach(samples, LETTERS)


def _read_font(classifier: Reader, font: Font, per_letter: int, seed: int) -> FontResult:
    truth = np.array([letter for _ in range(per_letter) for letter in LETTERS])
    crops = synthetic_crops(list(truth), [font], np.random.default_rng(seed))
    letters, confidences = classifier.classify(crops)
    right = np.array(letters) == truth
    sure = confidences >= classifier.min_confidence
    return FontResult(
        len(truth), int(right.sum()), int((right & sure).sum()), int((~right & sure).sum())
    )


def _print_row(name: str, result: FontResult) -> None:
    count = result.count
    print(
        f"  {name:44s} {count:6d} {result.right / count:8.2%} "
        f"{result.committed_right / count:10.2%} {result.committed_wrong:10d} "
        f"{result.below / count:9.2%}"
    )


def _classify_times(classifier: Reader, size: int, repeats: int) -> tuple[float, float]:
    crops = synthetic_crops(list(LETTERS) * 12, HELD_OUT_FONTS, np.random.default_rng(7))[:size]
    classifier.classify(crops)
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        classifier.classify(crops)
        times.append((time.perf_counter() - started) * 1000)
    return float(np.median(times)), float(np.percentile(times, 90))


def _verdict(untaught: FontResult, taught: FontResult) -> int:
    problems = []
    share = taught.committed_right / taught.count
    if share < TAUGHT_FLOOR:
        problems.append(f"taught: {share:.2%} right and sure (floor {TAUGHT_FLOOR:.1%})")
    for name, result in (("untaught", untaught), ("taught", taught)):
        if result.committed_wrong:
            problems.append(f"{name}: {result.committed_wrong} wrong at >= the floor")
    if problems:
        print("FAIL: " + "; ".join(problems))
        return 1
    print("PASS: taught goal met, no wrong letter at >= the floor in either protocol")
    return 0


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
