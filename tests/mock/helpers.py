"""Shared helpers of the mock-table tests: run the mock table in this process."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from cogtable.cli import build_parser
from cogtable.commands import sim
from cogtable.inputs import Shutdown
from cogtable.journal import JOURNAL_NAME, Journal
from games.core import Action
from hardware.profile import load_profile


def sim_args(*extra: str) -> object:
    """Parsed ``cogtable sim kogworks`` arguments: quiet, truth camera, no undo unless asked."""
    defaults = ["--quiet", "--camera", "truth", "--undo-rate", "0"]
    return build_parser().parse_args(["sim", "kogworks", *defaults, *extra])


def play(state_dir: Path, *extra: str, actors: Sequence[Callable[..., object]] = ()) -> sim.Played:
    """One mock run in this process."""
    return sim.play(sim_args(*extra), load_profile(), state_dir, actors)


def journal_games(state_dir: Path) -> list[tuple[str, list[Action]]]:
    """Every game in the journal: its status and its actions."""
    with Journal(state_dir / JOURNAL_NAME) as journal:
        return [(game.status, list(journal.record(game.id).actions)) for game in journal.games()]


@dataclass
class StopAfter:
    """An actor that stops a sim once the game has ``plies`` actions, or after ``max_frames``."""

    plies: int
    max_frames: int
    frames: int = 0
    """The frames the world had reached at the last call."""

    def __call__(self, world: Any, runtime: Any, people: Any) -> None:
        self.frames = world.frames
        if len(runtime.table.state.history) >= self.plies or world.frames >= self.max_frames:
            runtime.put(Shutdown("enough for the test"))


@dataclass(frozen=True)
class Journaled:
    """The one game a mock run journaled: its status, actions, their sources, its options."""

    status: str
    actions: list[Action]
    sources: list[str]
    """Where each action came from (``camera``, ``console``, ``button``...), in order."""
    options: dict[str, object]


def journaled_game(state_dir: Path) -> Journaled:
    """The only game in the journal of ``state_dir`` (it must hold exactly one)."""
    with Journal(state_dir / JOURNAL_NAME) as journal:
        (game,) = journal.games()
        record = journal.record(game.id)
        rows = journal.connection.execute("SELECT source FROM actions ORDER BY ply").fetchall()
    sources = [source for (source,) in rows]
    return Journaled(game.status, list(record.actions), sources, dict(record.options))


class ConsoleRun(NamedTuple):
    """One ``cogtable sim GAME`` run of a game the people play on printed parts or a card mat."""

    played: sim.Played
    status: int
    """What ``cogtable sim`` would exit with."""
    folder: Path
    """Its state folder (the journal)."""


def console_runs(
    game: str, runs: Mapping[str, Sequence[str]], folders: pytest.TempPathFactory
) -> dict[str, ConsoleRun]:
    """Each named run of ``cogtable sim GAME ARGV --quiet`` in this process, in its own folder."""
    done = {}
    for name, argv in runs.items():
        folder = folders.mktemp(f"{game}-{name}")
        args = build_parser().parse_args(["sim", game, *argv, "--quiet"])
        played = sim.play(args, load_profile(), folder)
        done[name] = ConsoleRun(played, sim.report(played, folder), folder)
    return done
