"""Run ``cogtable sim GAME`` for the console games in this process, several at once, guarded.

A run whose camera thread died (an actor raised: say the people saw a mistake
recorded) or that never ends would leave the controller waiting for ever; the
guard then puts a Shutdown, so the run stops and reports that it did not finish.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cogtable.cli import build_parser
from cogtable.commands import sim
from cogtable.inputs import Shutdown
from cogtable.journal import JOURNAL_NAME, Journal
from cogtable.mock.world import MockWorld
from cogtable.runtime import Runtime
from games.core import Action, replay
from hardware.profile import load_profile

GIVE_UP_S = 240.0
"""A run still going after this long is stopped (it fails as unfinished; not a timing test)."""


@dataclass
class Guard:
    """An actor that keeps hold of the runtime, so a stuck run can be stopped from outside."""

    runtime: Runtime | None = None
    frames: int = 0

    def __call__(self, world: MockWorld, runtime: Runtime, people: Any) -> None:
        self.runtime = runtime
        self.frames = world.frames

    def camera_dead(self) -> bool:
        runtime = self.runtime
        if runtime is None:
            return False
        return any(t.name == "camera" and not t.is_alive() for t in runtime._threads)

    def stop(self, reason: str) -> None:
        if self.runtime is not None:
            self.runtime.put(Shutdown(reason))


@dataclass
class ConsoleRun:
    """One console-game run: its arguments, what it left, its exit status and time."""

    argv: list[str]
    state_dir: Path
    actors: Sequence[Callable[..., object]] = ()
    guard: Guard = field(default_factory=Guard)
    played: sim.Played | None = None
    exit_status: int | None = None
    seconds: float = 0.0

    def run(self) -> ConsoleRun:
        args = build_parser().parse_args(["sim", *self.argv, "--quiet"])
        started = time.perf_counter()
        self.played = sim.play(args, load_profile(), self.state_dir, [self.guard, *self.actors])
        self.exit_status = sim.report(self.played, self.state_dir)
        self.seconds = time.perf_counter() - started
        return self

    def journal(self) -> list[tuple[str, list[Action], Any]]:
        """Every game of the run's journal: status, actions, and its replayed outcome."""
        with Journal(self.state_dir / JOURNAL_NAME) as journal:
            found = []
            for game in journal.games():
                record = journal.record(game.id)
                found.append((game.status, list(record.actions), replay(record).outcome()))
            return found


def run_all(runs: Sequence[ConsoleRun], workers: int = 3) -> list[ConsoleRun]:
    """Run them (``workers`` at a time); a run whose camera thread died is stopped at once."""
    deadline = time.monotonic() + GIVE_UP_S
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures: list[tuple[ConsoleRun, Future[ConsoleRun]]] = [
            (run, pool.submit(run.run)) for run in runs
        ]
        while not all(future.done() for _, future in futures):
            for run, future in futures:
                if future.done():
                    continue
                if run.guard.camera_dead():
                    run.guard.stop("the camera thread died (an actor raised)")
                elif time.monotonic() > deadline:
                    run.guard.stop(f"still running after {GIVE_UP_S} s")
            time.sleep(0.2)
        return [future.result() for _, future in futures]
