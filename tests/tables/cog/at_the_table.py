"""Shared by the tests of C.O.G. refereed at the table: seeded positions, readings, a table.

Every reading is what the camera would report of a table laid out as the
game says (:func:`cogtable.tables.cog.parts.laid_out`), edited where a test
makes a person's mistake. The states come from a few seeded games (greedy
play with some random choices), played once by the engine alone; a test's
table resumes a journal holding such a game (:class:`Journals`, the
``table_at`` fixture in conftest.py) and is put in sync with one reading.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cogtable.game_choice import GameChoice
from cogtable.inputs import BoardSettled, ButtonName, ButtonPressed
from cogtable.journal import Journal
from cogtable.sensing import Asked
from cogtable.sensors import Sensors
from cogtable.table import GameTable
from cogtable.table_status import TableStatus
from cogtable.tables.base import RED
from cogtable.tables.cog.adapter import MAT_CHANGES, PLACEMENTS
from cogtable.tables.cog.parts import BOARD, laid_out
from games.cog.actions import (
    Deconstruct,
    PlaceWord,
    TakeCentre,
    TakeLetters,
)
from games.cog.edition import load_edition
from games.cog.layout import Layout
from games.cog.players import greedy_player, random_player
from games.cog.state import CogState
from games.core import CHANCE, Action, new_game
from hardware.leds import Frame
from tests.runtime.neutral_helpers import FrameLog, make_table, sources

Reading = dict[str, dict[str, str]]
"""A settled reading: part -> place -> label (what the camera reports)."""

CAMERA_DICE = Sensors(camera_dice=True)
GAMES = ((2, 21), (3, 22), (4, 23))
"""The seeded games (players, seed) every test takes its states from."""
PLY_CAP = 600
"""The longest seeded game kept (a whole game is 200 to 350 plies)."""
TABLE_PLIES = 170
"""How many plies of each seeded game the property plays through a table (about 5 rounds)."""
RANDOM_SHARE = 0.3
"""How often a seeded player makes a random choice instead of the greedy one."""
CAMERA_KINDS = (*PLACEMENTS, *MAT_CHANGES, TakeCentre, PlaceWord, Deconstruct)
"""Player actions the camera reads (PlaceWordWild is a PlaceWord)."""
VP_WORDS = re.compile(r"\bvps?\b|victory|score|points", re.IGNORECASE)


def _layout() -> Layout:
    layout = load_edition().layout
    assert layout is not None, "the built-in C.O.G. edition has a [layout]"
    return layout


LAYOUT = _layout()


# -- the seeded games ---------------------------------------------------------------


def seeded_choice(state: CogState, rng: random.Random) -> Action:
    """Chance from the seed; a player's choice greedy, now and then random."""
    if state.to_act() == (CHANCE,):
        return state.sample_chance()
    player = state.to_act()[0]
    chooser = random_player if rng.random() < RANDOM_SHARE else greedy_player
    return chooser(state.clone(), player, rng)


@cache
def script(players: int, seed: int) -> tuple[Action, ...]:
    """The actions of one seeded game, to its end (or :data:`PLY_CAP`)."""
    state = new_game("cog", {"players": players}, seed)
    assert isinstance(state, CogState)
    rng = random.Random(seed)
    actions: list[Action] = []
    while not state.is_over() and len(actions) < PLY_CAP:
        action = seeded_choice(state, rng)
        state.apply(action)
        actions.append(action)
    return tuple(actions)


@dataclass(frozen=True)
class Position:
    """A state of a seeded game: how many play, the actions that lead to it, the one played next."""

    players: int
    actions: tuple[Action, ...]
    following: Action | None = None


def position_where(
    wanted: Callable[[CogState], bool],
    players: tuple[int, ...] = (2, 3, 4),
    games: tuple[tuple[int, int], ...] = GAMES,
) -> Position:
    """The first state of the seeded ``games`` (of these player counts) that is ``wanted``."""
    for count, seed in games:
        if count not in players:
            continue
        state = new_game("cog", {"players": count}, 0)
        assert isinstance(state, CogState)
        for ply, action in enumerate(script(count, seed)):
            if wanted(state):
                return Position(count, script(count, seed)[:ply], action)
            state.apply(action)
    raise AssertionError("no seeded C.O.G. game reaches the wanted state")


# -- readings -------------------------------------------------------------------------


def after(state: CogState, action: Action) -> CogState:
    twin = state.clone()
    twin.apply(action)
    return twin


def reading(state: CogState) -> Reading:
    """The table laid out as ``state`` says (stars beyond the star places lie in the reserve)."""
    return laid_out(state, LAYOUT)


def edited(seen: Mapping[str, Mapping[str, str]], part: str, **places: str) -> Reading:
    """A copy of a reading with some places of one part showing other labels."""
    copy = {name: dict(labels) for name, labels in seen.items()}
    copy[part].update(places)
    return copy


def changed_places(before: Reading, now: Reading, part: str) -> dict[str, str]:
    """The places of ``part`` whose label differs between two readings, with the new label."""
    return {place: label for place, label in now[part].items() if before[part][place] != label}


def with_pawns_of(seen: Reading, old: Reading) -> Reading:
    """``seen`` with the pawn track as ``old`` shows it (a pawn nobody moved yet)."""
    track = {place: label for place, label in old[BOARD].items() if place.startswith("track")}
    return edited(seen, BOARD, **track)


# -- the table -------------------------------------------------------------------------


@dataclass
class Table:
    """A game table at a seeded position, its LED frames and the journal's sources."""

    table: GameTable
    leds: FrameLog

    @property
    def state(self) -> CogState:
        state = self.table.state
        assert isinstance(state, CogState)
        return state

    def see(self, seen: Reading, now: float = 1.0) -> TableStatus:
        """The camera settles on ``seen``; the status afterwards."""
        self.table.handle(BoardSettled(seen), now)
        return self.table.status()

    def press(self, seat: int, button: ButtonName = "confirm") -> None:
        self.table.handle(ButtonPressed(button, seat=seat), 2.0)

    def sources(self) -> list[str]:
        return sources(self.table)

    def frame(self) -> Frame:
        return self.leds.frames[-1]

    def asked_of(self, player: int) -> Asked:
        return next(ask for ask in self.table.asking() if ask.request.player == player)


JOURNAL = "journal.sqlite3"
TableAt = Callable[[Position], Table]
"""A table on the mock profile at a seeded position, in sync (the ``table_at`` fixture)."""


class Journals:
    """Journals at seeded positions, each written once per module and copied for each test.

    The journal commits every action to disk: 200 actions take a few tenths of a second.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.written: dict[Position, Path] = {}

    def table_at(self, tmp_path: Path, position: Position) -> Table:
        """A table resuming a copy of the journal at ``position``, put in sync by one reading."""
        folder = self.written.get(position) or self._write(position)
        for file in folder.iterdir():
            shutil.copy(file, tmp_path / file.name)
        choice = GameChoice("cog", {"players": position.players})
        table, frames = make_table(tmp_path / JOURNAL, choice, CAMERA_DICE)
        at = Table(table, frames)
        assert at.see(reading(at.state), 0.5).in_sync, at.table.status().message
        return at

    def _write(self, position: Position) -> Path:
        folder = self.root / f"position{len(self.written)}"
        folder.mkdir()
        journal = Journal(folder / JOURNAL, clock=lambda: 0.0)
        game = journal.new_game("cog", {"players": position.players}, seed=0)
        for action in position.actions:
            game.apply(action, "simulation")
        journal.close()
        self.written[position] = folder
        return folder


def blinks_red(frame: Frame, segment: str, index: int) -> bool:
    look = frame.look(segment, index)
    return look.colour == RED and look.animation.kind == "blink"


def no_vp_words(status: TableStatus) -> None:
    text = json.dumps(status.to_json())
    assert not VP_WORDS.search(text), f"victory points in the status: {text}"


def collecting(state: CogState) -> bool:
    """A player's turn in Phase II, nothing else waiting."""
    return state.phase == "collect" and not state.queue and state.to_act() != (CHANCE,)


def turn_of(state: CogState) -> int:
    (player,) = state.to_act()
    return player


def open_top_slot(state: CogState) -> int | None:
    return next((slot for slot, cog in sorted(state.top_cogs.items()) if cog is None), None)


def may_take_letters(state: CogState) -> bool:
    return collecting(state) and any(isinstance(a, TakeLetters) for a in state.legal_actions())
