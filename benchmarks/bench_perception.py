"""Perception as a player feels it (issue 25): ``.venv/bin/python benchmarks/bench_perception.py
[--long] [--quick] [--source tuning|held-out|both] [--surface NAME] [--sizes WxH,...]
[--held-out-seed N]``.

One table for every camera reader (the Kogworks peg disk, C.O.G. printed parts,
the card mat). For each surface, frame source, condition and size: still,
clear boards shown to the table's whole camera path (reader, settling filter,
commit decision with the game's explanations) at the table's frame rate
(:data:`FPS`), every frame drawn afresh with its own sensor noise:

- ``in 1.5s``: the share of still, clear boards committed within
  :data:`LIMIT_S` of the board coming to rest (goal at least 99%);
- ``median`` / ``worst``: time to commit (``never``: not within :data:`GIVE_UP_S`);
- ``wrong``: commits of anything but the board shown (goal 0);
- ``hand``: commits while a hand was over the board (goal 0);
- ``after hand``: boards committed within the settling window + 0.5 s after a
  hand left, of those that had one, and the worst delay;
- ``illegal``: sequences ending in an illegal move, and how many of them were
  committed as a legal position (goal 0);
- ``refused``: boards whose table could not be set up (calibration refused the
  start position's frames): counted as never committed.

Two frame sources side by side: ``tuning`` (our own renderers and their
held-out looks, seeds below 9_000_000) and ``held-out`` (benchmarks/held_out/,
written by someone who does not work on readers; seeds 9_000_000 and up). The
readers are never tuned on the held-out frames.

Surfaces plug in: every module ``benchmarks/perception_<name>.py`` defines
``rows(options: Options) -> Iterable[Row]`` (see :class:`Row` for what to count,
:class:`Options` for what to draw); this script finds and runs them all, or
the one ``--surface`` names. ``--long`` draws six times as many boards (the
figures to quote); ``--quick`` is a smoke run.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

FPS = 15
"""Frames a second the table's camera loop reads (cogtable.runtime.FRAME_PERIOD_S)."""
LIMIT_S = 1.5
"""A still board must be committed within this (issue 25)."""
GIVE_UP_S = 3.0
"""A board not committed after this long counts as never committed."""
WINDOW_S = 0.3
"""The settling window; after a hand leaves a board must be committed within this + 0.5 s."""
AFTER_HAND_S = WINDOW_S + 0.5
TUNING, HELD_OUT = "tuning", "held-out"
HELD_OUT_SEEDS = 9_000_000
"""First seed of the held-out frames; tuning seeds stay below it."""
SIZES = ((1280, 720), (1920, 1080))


@dataclass(frozen=True)
class Options:
    """What a surface's rows should draw: the sources, the sizes, how many boards."""

    sources: tuple[str, ...] = (TUNING, HELD_OUT)
    sizes: tuple[tuple[int, int], ...] = SIZES
    scale: float = 1.0
    """Boards per row relative to the default (``--long`` 6, ``--quick`` 0.25)."""
    conditions: tuple[str, ...] = ()
    """Only these conditions (``--conditions``; empty: every condition)."""
    held_out_seed: int = HELD_OUT_SEEDS
    """First seed of the held-out frames (``--held-out-seed``: a run on seeds never used)."""

    def wants(self, condition: str) -> bool:
        """Whether a row of ``condition`` should be drawn."""
        return not self.conditions or condition in self.conditions

    def boards(self, default: int) -> int:
        """How many boards a row should draw when it would draw ``default`` normally."""
        return max(2, round(default * self.scale))

    def first_seed(self, source: str) -> int:
        """The first seed of a source (held-out: :data:`HELD_OUT_SEEDS`)."""
        return self.held_out_seed if source == HELD_OUT else 1_000_000


@dataclass
class Row:
    """One line of the table: a surface, source, condition and size, and what happened."""

    surface: str
    source: str
    condition: str
    size: tuple[int, int]
    times: list[float | None] = field(default_factory=list)
    """Per still, clear board: seconds from rest to commit (None: not within GIVE_UP_S)."""
    wrong: int = 0
    under_hand: int = 0
    after_hand: list[float | None] = field(default_factory=list)
    """Per board that had a hand over it first: seconds from the hand leaving to commit."""
    illegal: int = 0
    illegal_as_legal: int = 0
    refused: int = 0
    """Boards whose table could not be set up (its calibration refused): never committed."""
    seconds: float = 0.0
    """CPU seconds the row took (rendering included)."""

    def still(self, seconds: float | None, wrong: bool = False) -> None:
        """A still board: committed after ``seconds`` (None: never), ``wrong`` if mis-committed."""
        self.times.append(seconds)
        self.wrong += wrong

    def hand_left(self, seconds: float | None, under_hand: int = 0) -> None:
        """A board after a hand left: committed ``seconds`` later; ``under_hand`` commits made
        while the hand was there."""
        self.after_hand.append(seconds)
        self.under_hand += under_hand

    def illegal_move(self, as_legal: bool, wrong: bool = False) -> None:
        """A sequence ending in an illegal move: committed as a legal position or not."""
        self.illegal += 1
        self.illegal_as_legal += as_legal
        self.wrong += wrong

    def refuse(self) -> None:
        """A board on a table that could not be set up: counted as never committed."""
        self.refused += 1
        self.still(None)

    def in_time(self) -> float:
        """Share of still boards committed within :data:`LIMIT_S`."""
        done = [t for t in self.times if t is not None and t <= LIMIT_S + 1e-9]
        return len(done) / max(len(self.times), 1)

    def cells(self) -> list[str]:
        """The row as table cells."""
        done = sorted(t for t in self.times if t is not None)
        median = f"{statistics.median(done):.2f}" if done else "-"
        worst = "never" if None in self.times else f"{max(done):.2f}" if done else "-"
        hands = self.after_hand
        quick = sum(t is not None and t <= AFTER_HAND_S + 1e-9 for t in hands)
        late = [t for t in hands if t is not None]
        hand_worst = "never" if None in hands else f"{max(late):.2f}" if late else "-"
        return [
            self.surface,
            self.source,
            self.condition,
            f"{self.size[0]}x{self.size[1]}",
            str(len(self.times)),
            f"{self.in_time():.1%}",
            median,
            worst,
            str(self.wrong),
            str(self.under_hand),
            f"{quick}/{len(hands)} ({hand_worst})" if hands else "-",
            f"{self.illegal_as_legal}/{self.illegal}" if self.illegal else "-",
            str(self.refused),
        ]


HEADER = [
    "surface",
    "source",
    "condition",
    "size",
    "boards",
    f"in {LIMIT_S:g}s",
    "median",
    "worst",
    "wrong",
    "hand",
    f"after hand <={AFTER_HAND_S:g}s",
    "illegal as legal",
    "refused",
]


class SimClock:
    """Seconds the settling filter sees: moved one frame at a time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def tick(self) -> None:
        """One frame later."""
        self.now += 1 / FPS


def first_commit(
    step: Callable[[int], object | None], frames: int, start: int = 0
) -> tuple[int | None, object | None]:
    """Feed frames ``start``.. until ``step(k)`` returns a commit: its frame index and what
    was committed; (None, None) when none came within ``frames`` frames."""
    for index in range(start, start + frames):
        committed = step(index)
        if committed is not None:
            return index, committed
    return None, None


def seconds_of(frames: int | None) -> float | None:
    """Seconds from the first frame (index 0) to the frame of that index."""
    return None if frames is None else frames / FPS


def plug_ins() -> dict[str, Callable[[Options], Iterable[Row]]]:
    """Every ``benchmarks/perception_<name>.py`` module's ``rows``, by name."""
    found = {}
    for path in sorted(Path(__file__).resolve().parent.glob("perception_*.py")):
        module = importlib.import_module(f"benchmarks.{path.stem}")
        found[path.stem.removeprefix("perception_")] = module.rows
    return found


def print_rows(rows: Sequence[Row]) -> None:
    """The table, columns padded."""
    table = [HEADER, *(row.cells() for row in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADER))]
    for line in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))


def summary(rows: Sequence[Row]) -> None:
    """Per surface and source: worst condition's share and the totals that must be 0."""
    keys = sorted({(row.surface, row.source) for row in rows})
    for surface, source in keys:
        mine = [row for row in rows if (row.surface, row.source) == (surface, source)]
        boards = sum(len(row.times) for row in mine)
        done = sum(row.in_time() * len(row.times) for row in mine)
        worst = min(mine, key=Row.in_time)
        hands = [t for row in mine for t in row.after_hand]
        quick = sum(t is not None and t <= AFTER_HAND_S + 1e-9 for t in hands)
        print(
            f"{surface} {source}: {done / max(boards, 1):.1%} of {boards} still boards within "
            f"{LIMIT_S:g} s (worst: {worst.condition} {worst.size[0]}x{worst.size[1]} "
            f"{worst.in_time():.1%}); after a hand {quick}/{len(hands)} within {AFTER_HAND_S:g} "
            f"s; wrong {sum(r.wrong for r in mine)}, under a hand "
            f"{sum(r.under_hand for r in mine)}, illegal as legal "
            f"{sum(r.illegal_as_legal for r in mine)}/{sum(r.illegal for r in mine)}; "
            f"tables refused at calibration {sum(r.refused for r in mine)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--long", action="store_true", help="six times as many boards")
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--source", choices=("both", TUNING, HELD_OUT), default=TUNING)
    parser.add_argument("--surface", default="", help="run only this surface's rows")
    parser.add_argument("--sizes", default="", help="e.g. 1280x720 (default: 1280x720,1920x1080)")
    parser.add_argument("--conditions", default="", help="only these, comma-separated")
    parser.add_argument(
        "--held-out-seed",
        type=int,
        default=HELD_OUT_SEEDS,
        help=f"first held-out seed (default {HELD_OUT_SEEDS:_}; take one never used before)",
    )
    parser.add_argument(
        "--speed",
        metavar="BASELINE",
        default="",
        help="time the peg disk reader and the decision against a checkout of today's code "
        "(e.g. a git worktree) instead of the table",
    )
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.speed:
        from benchmarks.peg_disk_speed import compare

        compare(Path(args.speed))
        return
    found = plug_ins()
    if args.surface and args.surface not in found:
        parser.error(f"unknown surface {args.surface!r}: use {', '.join(found)}")
    sources = (TUNING, HELD_OUT) if args.source == "both" else (args.source,)
    sizes = SIZES
    if args.sizes:
        sizes = tuple(_size(text) for text in args.sizes.split(","))
    scale = 6.0 if args.long else 0.25 if args.quick else 1.0
    wanted = tuple(name.strip() for name in args.conditions.split(",") if name.strip())
    if args.held_out_seed < HELD_OUT_SEEDS:
        parser.error(
            f"--held-out-seed {args.held_out_seed}: held-out seeds start at {HELD_OUT_SEEDS}"
        )
    options = Options(sources, sizes, scale, wanted, args.held_out_seed)
    print(
        f"OpenCV {cv2.__version__}, one thread, {FPS} frames/s; load average "
        "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    )
    rows: list[Row] = []
    for name, make_rows in found.items():
        if args.surface and name != args.surface:
            continue
        for row in make_rows(options):
            rows.append(row)
            print("  ".join(row.cells()) + f"  ({row.seconds:.0f} s)", flush=True)
    print()
    print_rows(rows)
    print()
    summary(rows)


def _size(text: str) -> tuple[int, int]:
    width, height = text.lower().split("x")
    return int(width), int(height)


def cpu_seconds() -> float:
    """This process's CPU seconds (to report what a row cost)."""
    return time.process_time()


if __name__ == "__main__":
    main()
