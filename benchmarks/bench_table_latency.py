"""Latency of the mock table, every game: from a sensed event to the LED frame leaving the host.

Plays whole games on the mock table (``cogtable sim``: simulated people, the
real firmware on the simulated Pico behind a pseudo-terminal, the real link,
controller, game table and journal with fsync, the real LED renderer) and
reports, per game and per kind of sensed event, how many events changed the
LEDs and the median, p99 and max of the interval below. Every interval ends
when :class:`~cogtable.outputs.PicoRenderer` has written the LED frame to the
Pico link (``PicoRenderer.sent_at``, :func:`time.perf_counter`); the Pico's
own time to light the LEDs is not in it. Where each interval starts:

- settled board (Kogworks, and C.O.G. read in printed parts: a word laid, a
  cog placed, a letter drawn, each judged and answered on the LEDs): the
  moment the camera frame in which the board settled was taken (rendered, or
  with ``--camera truth`` produced without pixels), the start the runtime's
  own figure ``Runtime.latencies`` uses (printed too, as a cross-check).
  Included: reading the frame, the settling filter, the queue, the
  controller, the journal commit, the LED frame. The settling window itself
  (0.3 s of simulated time before that frame) is not part of the figure.
- button (a seat's confirm or pass, undo held, ...) and die roll: the moment
  the host's link thread has decoded the Pico's event and delivers it
  (``Link.events.put``). Included: the hop to the runtime's Pico thread,
  the controller's queue (waiting behind anything queued before it), the
  game table, the journal commit, the LED frame. Not included: the firmware's
  debounce or hold time, its dice animation, the serial line before the host.
- console: the moment the answer is put on the controller's queue
  (``Runtime.put``). Included: the queue, the game table, the journal commit,
  the LED frame.

Only events after which the LED frame actually changed count: the renderer's
``sends`` went up while the controller handled that very event (a frame sent
for something else, say a flash ending on an idle tick, is never credited to
it). Events that changed no LED (a refused press, an answer that changes
nothing lit) are counted apart as ``no LED change``. The goal, at most 30 ms,
is judged on the p99.

The measuring hooks live in this script only: a :class:`Runtime` subclass
(swapped in for ``cogtable.commands.sim.Runtime`` while the games play)
time-stamps the Pico link's event queue and the controller queue, and wraps
the game table's ``handle``. The journal is kept in the system's temporary
folder (``TMPDIR``; on a tmpfs its fsync would cost nothing). The mock people act in lock step
with the controller, so the queue is nearly always empty: these figures are
the table's own work, not its behaviour under a burst of inputs.

By default: one Kogworks game (rendered camera, 1280x720), one C.O.G. game
for 2, one Commissars game for 3 capped at 30 turns, one Cookie game for 4;
about a minute on two cores.

    .venv/bin/python benchmarks/bench_table_latency.py [--only GAME] [--games 1] [--seed 0]
        [--camera render|truth] [--size 1280x720] [--players N] [--max-turns 4] [--strict]

Exit status: 0 when every game finished with at least one sample; 1 when a
game did not finish or gave no sample; with ``--strict`` also 2 when a p99 misses the goal.
"""

from __future__ import annotations

import argparse
import collections
import logging
import math
import queue
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cogtable.cli import build_parser
from cogtable.commands import sim
from cogtable.inputs import BoardSettled, ButtonPressed, ConsoleCommand, DiceRolled, Input
from cogtable.runtime import Runtime
from hardware.profile import load_profile

GOAL_MS = 30.0
GAMES = ("kogworks", "cog", "commissars", "cookie")
PLAYERS = {"cog": 2, "commissars": 3, "cookie": 4}
"""Default players per console game (Cookie's default variant, hunt, needs 4 to 6)."""
PICO_THREAD = "pico-events"
"""The runtime's thread that turns link events into inputs (Runtime._pump_link)."""
SENSED = (ButtonPressed, DiceRolled, ConsoleCommand)


# -- the hooks ------------------------------------------------------------------------


class TimedEvents(queue.Queue):  # type: ignore[type-arg]
    """The link's event queue, noting when each event was delivered by the link thread.

    ``arrived`` is the delivery time of the event the last ``get`` returned; only
    the runtime's Pico thread takes from this queue.
    """

    def __init__(self) -> None:
        super().__init__()
        self.arrived = 0.0

    def _put(self, item: Any) -> None:
        self.queue.append((time.perf_counter(), item))

    def _get(self) -> Any:
        self.arrived, item = self.queue.popleft()
        return item


@dataclass
class Samples:
    """Latencies in seconds by kind of event, and the events that changed no LED."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: collections.defaultdict(list))
    unchanged: collections.Counter[str] = field(default_factory=collections.Counter)


def kind_of(item: Input) -> str:
    """The report's name for a sensed input."""
    if isinstance(item, ButtonPressed):
        return f"button {item.button}{' held' if item.held else ''}"
    if isinstance(item, DiceRolled):
        return "die roll"
    if isinstance(item, BoardSettled):
        return "settled board"
    return "console"


class TimedRuntime(Runtime):
    """The runtime with the benchmark's clocks: sensed input -> LED frame sent."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.samples = Samples()
        self._started: dict[int, tuple[Input, float]] = {}
        """id(item) -> (item, start); the item is kept so its id is not reused meanwhile."""
        self._started_lock = threading.Lock()
        super().__init__(*args, **kwargs)
        if self.link is not None:
            self.link.events = TimedEvents()  # before start(): nothing has arrived yet
        handle = self.table.handle
        self.table.handle = lambda item, now: self._timed(handle, item, now)  # type: ignore[method-assign]

    def put(self, item: Input) -> None:
        """Note when a sensed input starts its way: link delivery (Pico) or now (console)."""
        if isinstance(item, SENSED) and self.pico is not None:
            events = self.link.events if self.link is not None else None
            from_pico = threading.current_thread().name == PICO_THREAD
            if from_pico and isinstance(events, TimedEvents):
                start = events.arrived
            else:
                start = time.perf_counter()
            with self._started_lock:
                self._started[id(item)] = (item, start)
        super().put(item)

    def _timed(self, handle: Callable[[Input, float], None], item: Input, now: float) -> None:
        """Let the table handle ``item``; credit it with the LED frame if it sent one."""
        with self._started_lock:
            started = self._started.pop(id(item), None)
        start = started[1] if started is not None else None
        if isinstance(item, BoardSettled):
            start = self._grabbed.get(id(item))  # the frame's time; note_handled pops it later
        if start is None or self.pico is None:
            handle(item, now)
            return
        kind, sends = kind_of(item), self.pico.sends
        handle(item, now)
        if self.pico.sends > sends:
            self.samples.latencies[kind].append(self.pico.sent_at - start)
        else:
            self.samples.unchanged[kind] += 1


# -- running the games ------------------------------------------------------------------


@dataclass
class Result:
    """One game's run: its samples, how many actions, whether it finished, wall time."""

    game: str
    setting: str
    latencies: dict[str, list[float]]
    unchanged: collections.Counter[str]
    actions: int
    finished: bool
    reason: str
    elapsed: float
    runtime_settled: list[float]
    """The runtime's own settled-board figure (``Runtime.latencies``), for a cross-check."""


def sim_args(game: str, chosen: argparse.Namespace) -> tuple[argparse.Namespace, str]:
    """The ``cogtable sim GAME`` arguments for one game, and how it is set up."""
    argv = ["sim", game, "--quiet", "--games", str(chosen.games), "--seed", str(chosen.seed)]
    if game == "kogworks":
        argv += ["--camera", chosen.camera, "--size", chosen.size]
        setting = f"camera {chosen.camera} {chosen.size}"
    else:
        players = chosen.players or PLAYERS[game]
        argv += ["--players", str(players)]
        setting = f"{players} players"
        if game == "cog":  # read by the camera: its printed parts, settled part by part
            argv += ["--camera", chosen.cog_camera]
            setting += f", camera {chosen.cog_camera}"
        if game == "commissars" and chosen.max_turns:
            argv += ["--option", f"max_turns={chosen.max_turns}"]
            setting += f", max_turns={chosen.max_turns}"
    return build_parser().parse_args(argv), setting


def play(game: str, chosen: argparse.Namespace) -> Result:
    """Play ``chosen.games`` games of ``game`` on the mock table with the timed runtime."""
    args, setting = sim_args(game, chosen)
    started = time.perf_counter()
    plain, sim.Runtime = sim.Runtime, TimedRuntime  # type: ignore[misc]
    try:
        with tempfile.TemporaryDirectory(prefix="bench-latency-") as folder:
            played: Any = sim.play(args, load_profile(), Path(folder))
    finally:
        sim.Runtime = plain  # type: ignore[misc]
    elapsed = time.perf_counter() - started
    runtime: TimedRuntime = played.runtime
    actions = sum(
        len(log.moves) if game == "kogworks" else log.moves for log in played.people.played
    )
    return Result(
        game,
        setting,
        dict(runtime.samples.latencies),
        runtime.samples.unchanged,
        actions,
        bool(played.people.finished),
        played.reason,
        elapsed,
        list(runtime.latencies),
    )


# -- the report ---------------------------------------------------------------------------


def percentile(samples: list[float], share: float) -> float:
    """The nearest-rank percentile of sorted ``samples``."""
    return samples[max(0, math.ceil(share * len(samples)) - 1)]


def line(game: str, kind: str, values: Iterable[float]) -> tuple[str, bool]:
    """One report line (milliseconds) and whether its p99 meets the goal."""
    samples = sorted(1000 * value for value in values)
    if not samples:
        return f"{game:<11} {kind:<20} {0:>6}  {'-':>9} {'-':>8} {'-':>8}  -", True
    p99 = percentile(samples, 0.99)
    met = p99 <= GOAL_MS
    return (
        f"{game:<11} {kind:<20} {len(samples):>6}  {statistics.median(samples):>9.1f} "
        f"{p99:>8.1f} {samples[-1]:>8.1f}  {'yes' if met else 'NO'}"
    ), met


def report(results: list[Result]) -> tuple[bool, bool]:
    """Print the table; (every game finished with samples, every p99 within the goal)."""
    complete = all_met = True
    print(f"{'game':<11} {'event -> LED frame':<20} {'count':>6}  {'median ms':>9} "
          f"{'p99 ms':>8} {'max ms':>8}  p99<={GOAL_MS:.0f}ms")  # fmt: skip
    for result in results:
        kinds = sorted(result.latencies, key=lambda k: (k != "settled board", k))
        for kind in kinds:
            text, met = line(result.game, kind, result.latencies[kind])
            print(text)
            all_met &= met
        every = [value for values in result.latencies.values() for value in values]
        if len(kinds) > 1:
            text, met = line(result.game, "all sensed", every)
            print(text)
            all_met &= met
        if not every or not result.finished:
            complete = False
    print()
    for result in results:
        unchanged = ", ".join(f"{n} {kind}" for kind, n in sorted(result.unchanged.items()))
        state = "finished" if result.finished else f"NOT finished: {result.reason}"
        print(
            f"{result.game}: {result.setting}; {result.actions} actions, {state}, "
            f"{result.elapsed:.1f} s; no LED change (not counted): {unchanged or 'none'}"
        )
        if result.runtime_settled:
            own = sorted(1000 * value for value in result.runtime_settled)
            print(
                f"  cross-check, the runtime's own settled-board figure (Runtime.latencies): "
                f"{len(own)} samples, median {statistics.median(own):.1f} ms, max {own[-1]:.1f} ms"
            )
    return complete, all_met


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument(
        "--only", choices=GAMES, action="append", help="just this game (repeatable)"
    )
    options.add_argument("--games", type=int, default=1, help="games of each (default 1)")
    options.add_argument("--seed", type=int, default=0)
    options.add_argument(
        "--size", default="1280x720", help="Kogworks camera frame size (the profile's)"
    )
    options.add_argument(
        "--camera", default="render", choices=("render", "truth"), help="Kogworks camera"
    )
    options.add_argument(
        "--cog-camera",
        default="truth",
        choices=("render", "truth"),
        help="C.O.G. camera (default truth: rendering 1920x1080 frames takes minutes a game)",
    )
    options.add_argument(
        "--players",
        type=int,
        help="players in each console game (default: cog 2, commissars 3, cookie 4)",
    )
    options.add_argument(
        "--max-turns", type=int, default=4, help="Commissars turn cap (0: none; default 4)"
    )
    options.add_argument("--strict", action="store_true", help="exit 2 when a p99 misses the goal")
    chosen = options.parse_args(argv)
    logging.basicConfig(level=logging.ERROR, format="%(message)s")
    started = time.perf_counter()
    results = [play(game, chosen) for game in (chosen.only or GAMES)]
    complete, met = report(results)
    print(f"wall time {time.perf_counter() - started:.1f} s")
    if not complete:
        print("a game did not finish, or gave no sample", file=sys.stderr)
        return 1
    return 2 if chosen.strict and not met else 0


if __name__ == "__main__":
    sys.exit(main())
