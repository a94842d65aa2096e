"""The table's memory is the journal's: a table rebuilt from the journal judges alike (issue 24).

A seeded whole game of every game on the mock table; at every ply, before the
running table judges a settled reading, a second table is rebuilt from the
journal (read-only, as after a restart at that ply) and given what the running
table's adapter remembers beyond the engine (:meth:`TableAdapter.memory`: the
last reading it committed to, nothing for most games). Both judge the same
reading; their verdicts must be the same. An adapter that kept a history of
its own (a tag book that drifted from the engine) fails here, where before it
only stalled a sim now and then.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from cogtable.cli import build_parser
from cogtable.commands import sim
from cogtable.journal import JOURNAL_NAME, Journal
from cogtable.runtime import Runtime
from cogtable.table import GameTable
from cogtable.tables.base import Verdict
from hardware.leds import Frame
from hardware.profile import load_profile

RUNS = {
    "kogworks": ["kogworks", "--seed", "3", "--undo-rate", "0.3"],
    "cog": ["cog", "--players", "2", "--seed", "2", "--undo-rate", "0.3"],
    "commissars": ["commissars", "--players", "2", "--seed", "4", "--undo-rate", "0.3"],
    "cookie hunt": ["cookie", "--variant", "hunt", "--players", "4", "--seed", "1"],
    "cookie big-hunt": ["cookie", "--variant", "big-hunt", "--players", "2", "--seed", "2"],
}
"""One seeded sim per game and variant, with many undos where the game has them."""


class NoLeds:
    """The rebuilt table's LEDs: nowhere (it only judges)."""

    def show(self, frame: Frame, now: float) -> None:
        """Show nothing."""

    def close(self) -> None:
        """Nothing to close."""


@dataclass
class Differences:
    """Every reading judged at a ply by the running table and by one rebuilt from the journal."""

    runtime: Runtime
    plies: set[int] = field(default_factory=set)
    differing: list[tuple[int, Verdict, Verdict]] = field(default_factory=list)
    hooked: Any = None

    def __call__(self, world: Any, runtime: Runtime, people: Any) -> None:
        """Every frame (the camera thread): hook the running adapter's judge once it is there."""
        adapter = runtime.table.adapter
        if adapter is self.hooked:
            return
        self.hooked = adapter
        real = adapter.judge

        def judge(state: Any, observation: Any, before: Any, camera_requests: Any = ()) -> Verdict:
            ply = len(state.history)
            theirs = None
            if ply not in self.plies:  # the first reading judged at this ply
                self.plies.add(ply)
                theirs = self.rebuilt(adapter.memory(), observation)
            ours = real(state, observation, before, camera_requests)
            if theirs is not None and theirs != ours:
                self.differing.append((ply, ours, theirs))
            return ours

        adapter.judge = judge

    def rebuilt(self, memory: object, observation: Any) -> Verdict:
        """The verdict of a table rebuilt from the journal now, remembering ``memory``."""
        running = self.runtime.table
        journal = Journal(self.runtime.state_dir / JOURNAL_NAME, read_only=True)
        try:
            table = GameTable(
                journal,
                NoLeds(),
                running.template,
                running.seat_colours,
                game=running.choice,
                clock=lambda: 0.0,
                sensors=running.sensors,
            )
            table.adapter.recall(memory)
            camera = [ask.request for ask in table.asking() if ask.route == "camera"]
            return table.adapter.judge(table.state, observation, table.before, camera)
        finally:
            journal.close()


@pytest.mark.parametrize("name", list(RUNS))
def test_a_table_rebuilt_from_the_journal_judges_every_ply_alike(name: str, tmp_path: Path) -> None:
    args = build_parser().parse_args(["sim", *RUNS[name], "--camera", "truth", "--quiet"])
    found: list[Differences] = []

    def differences(world: Any, runtime: Runtime, people: Any) -> None:
        if not found:
            found.append(Differences(runtime))
        found[0](world, runtime, people)

    played = sim.play(args, load_profile(), tmp_path, [differences])
    assert sim.report(played, tmp_path) == 0, played.reason
    checked = found[0]
    assert len(checked.plies) >= 10, f"only {len(checked.plies)} plies judged"
    assert not checked.differing, "\n".join(
        f"ply {ply}: running {ours}, rebuilt {theirs}" for ply, ours, theirs in checked.differing
    )
