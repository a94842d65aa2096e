"""How long the unattended hardware self-test takes on the mock table, and printing the sheets.

Run from the repository root::

    .venv/bin/python benchmarks/bench_selftest.py [--runs 3] [--dpi 150]

Self-test: the simulated Pico's start, then each step's seconds and the
questions it asked (the median of ``--runs``); per question, what one LED
check costs (light, wait for the Pico's acknowledgement, look, answer on a
GPIO mock pin) against one Pico button press (the firmware debounces it for
20 ms). Sheets: the seconds to draw the Kogworks sheet and tile it on each
paper at ``--dpi``, and the pages it makes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogtable.commands.board import kogworks_notes
from cogtable.mock.people.selftest import SimulatedPerson
from cogtable.mock.world import SimClock
from cogtable.selftest import (
    TableParts,
    button_step,
    dice_step,
    firmware_step,
    led_step,
    open_table_parts,
    seat_led_step,
)
from cogtable.selftest_camera import camera_step
from cogtable.selftest_terms import Answer, Question
from cogtable.sheet_tiling import PAPER_CHOICES, tile_pages
from firmware_bridge.firmware_config import read_firmware_config
from firmware_bridge.simulator import Simulator
from hardware.profile import load_profile
from vision.peg_disk.geometry import BoardGeometry
from vision.peg_disk.sheet import annotated_sheet


class CountingPerson(SimulatedPerson):
    """The simulated person, counting the questions each step asks."""

    def __init__(self, parts: TableParts, clock: SimClock) -> None:
        super().__init__(parts, clock)
        self.step = ""
        self.counts: dict[str, int] = {}

    def ask(self, question: Question) -> Answer:
        """Count, then answer as the simulated person does."""
        self.counts[self.step] = self.counts.get(self.step, 0) + 1
        return super().ask(question)


def one_run() -> tuple[float, dict[str, float], dict[str, int]]:
    """(seconds to start the simulated Pico and connect, seconds per step, questions per step)."""
    profile, config = load_profile(), read_firmware_config()
    clock = SimClock()
    start = time.perf_counter()
    with (
        Simulator() as simulator,
        open_table_parts(profile, simulator.port, simulator=simulator, clock=clock.now) as parts,
    ):
        started = time.perf_counter() - start
        person = CountingPerson(parts, clock)
        steps = {
            "Pico firmware": lambda: firmware_step(parts, config),
            "LED chain": lambda: led_step(parts, person),
            "seat LEDs (GPIO)": lambda: seat_led_step(parts, person),
            "buttons": lambda: button_step(parts, person),
            "dice": lambda: dice_step(parts, person, config),
            "camera": lambda: camera_step(profile),
        }
        seconds = {}
        for name, step in steps.items():
            person.step = name
            begin = time.perf_counter()
            result = step()
            seconds[name] = time.perf_counter() - begin
            if result.failed:
                raise SystemExit(f"the mock table failed {name}: {result.found}")
        return started, seconds, person.counts


def bench_selftest(runs: int) -> None:
    """Print the median of ``runs`` self-tests, step by step."""
    results = [one_run() for _ in range(runs)]
    start = statistics.median(r[0] for r in results)
    print(f"self-test on the mock table, median of {runs} runs")
    print(f"  start the simulated Pico and connect  {start:7.3f} s")
    total = start
    for name in results[0][1]:
        seconds = statistics.median(r[1][name] for r in results)
        asked = results[0][2].get(name, 0)
        per = f"  {1000 * seconds / asked:6.1f} ms a question" if asked else ""
        print(f"  {name:<36} {seconds:7.3f} s  {asked:4d} questions{per}")
        total += seconds
    print(f"  total                                 {total:7.3f} s")


def bench_sheets(dpi: float) -> None:
    """Print the seconds to draw and tile the Kogworks sheet on each paper."""
    geometry = BoardGeometry()
    begin = time.perf_counter()
    sheet = annotated_sheet(geometry, dpi, kogworks_notes("Kogworks board, benchmark"))
    drawn = time.perf_counter() - begin
    print(
        f"Kogworks sheet at {dpi:g} dpi: drawn in {drawn:.3f} s ({sheet.shape[1]}x{sheet.shape[0]})"
    )
    for paper in PAPER_CHOICES:
        begin = time.perf_counter()
        pages = tile_pages(sheet, geometry.sheet_size, paper, dpi, "benchmark")
        print(f"  {paper:<6} {len(pages):2d} page(s) in {time.perf_counter() - begin:.3f} s")


def main() -> None:
    """Parse the options, run both benchmarks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="self-tests to take the median of")
    parser.add_argument("--dpi", type=float, default=150.0, help="the sheets' dots per inch")
    args = parser.parse_args()
    bench_selftest(args.runs)
    bench_sheets(args.dpi)


if __name__ == "__main__":
    main()
