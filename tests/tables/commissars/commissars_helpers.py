"""A Cogs and Commissars card mat as people lay it, and a table that reads it: for the table tests.

:class:`Cards` is the physical mat: per seat a discard pile (tag ids, bottom
first; the camera sees its top), a draw deck (one back while it holds
cards), and the stack in the centre (fanned: every tag seen). It starts as
the game holds it (:meth:`Cards.of`, one tag per face-up copy) and is changed
the way people change it. Games reach the wanted position by seeded random
play with known hands, then go to the journal as a table would have seen
them (:func:`games.commissars.table_mode.unseen_draws_record`: every draw unseen).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cogtable.game_choice import GameChoice
from cogtable.inputs import BoardSettled, ButtonPressed
from cogtable.journal import Journal
from cogtable.sensors import Sensors
from cogtable.table import GameTable
from cogtable.table_status import TableStatus
from cogtable.tables.commissars.cards import counted_position, tags_for
from games.commissars.state import CommissarsState
from games.commissars.table_mode import unseen_draws_record
from games.core import Action, State
from hardware.leds import Frame
from tests.runtime.neutral_helpers import FrameLog, make_table, play_until
from vision.cards.mat import standard_mat

MAT = standard_mat(6)
CAMERA = Sensors(card_mat=MAT)
JOURNAL = "journal.sqlite3"
TABLE_MODE = {"players": 2, "hands": "unknown"}


@dataclass
class Cards:
    """The cards on the mat: piles (bottom first), the stack (oldest first), decks with cards."""

    factions: tuple[str, ...]
    piles: dict[int, list[int]]
    stack: list[int] = field(default_factory=list)
    decks: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, state: CommissarsState) -> Cards:
        """The mat as the game holds it: a distinct tag for every copy face up."""
        factions = tuple(seat.faction for seat in state.seats)
        cards = cls(factions, {seat: [] for seat in range(state.num_players)})
        for seat, player in enumerate(state.seats):
            for name in player.discard:
                cards.piles[seat].append(cards.tag(seat, name))
            cards.decks[seat] = 1 if player.deck_size() else 0
        for entry in state.stack:
            if not entry.copy:
                cards.stack.append(cards.tag(entry.home, entry.card))
        return cards

    def tag(self, seat: int, name: str) -> int:
        """A tag of ``seat``'s deck's ``name`` that is not on the mat yet."""
        used = {tag for pile in self.piles.values() for tag in pile} | set(self.stack)
        free = [tag for tag in tags_for(self.factions[seat], name) if tag not in used]
        assert free, f"every {name} of seat {seat + 1} is on the mat"
        return free[0]

    def play(self, seat: int, name: str) -> int:
        """``seat`` lays its ``name`` on the stack; the tag laid."""
        tag = self.tag(seat, name)
        self.stack.append(tag)
        return tag

    def on_pile(self, seat: int, name: str) -> int:
        """A card of ``seat``'s deck laid on its pile (a flip, a discard); the tag laid."""
        tag = self.tag(seat, name)
        self.piles[seat].append(tag)
        return tag

    def pile_to_stack(self, seat: int, name: str) -> int:
        """``seat`` lays a ``name`` from deep in its own discard pile on the stack (a mistake)."""
        tag = next(tag for tag in self.piles[seat] if tag in tags_for(self.factions[seat], name))
        self.piles[seat].remove(tag)
        self.stack.append(tag)
        return tag

    def off_stack(self, tag: int) -> None:
        """A card taken off the stack, back into a hand."""
        self.stack.remove(tag)

    def off_pile(self, seat: int) -> int:
        """The top card of ``seat``'s pile taken off."""
        return self.piles[seat].pop()

    def resolve(self, tag: int, home: int) -> None:
        """A resolved card moved from the stack to its owner's pile."""
        self.stack.remove(tag)
        self.piles[home].append(tag)

    def reading(self) -> dict[str, tuple[tuple[int, ...], int]]:
        """What the camera reports of this mat once it settles (each pile: its top only)."""
        tops = {seat: pile[-1:] for seat, pile in self.piles.items()}
        return counted_position(MAT, tops, self.stack, self.decks)


@dataclass
class CommissarsTable:
    """A table on the mock profile with the card mat, and the frames it showed."""

    table: GameTable
    frames: FrameLog
    cards: Cards
    now: float = 1.0

    @property
    def state(self) -> CommissarsState:
        return self.table.state  # type: ignore[no-any-return]

    def see(self) -> TableStatus:
        """The camera settles on the cards as they lie: the table judges them; its status after."""
        self.now += 1.0
        self.table.handle(BoardSettled(self.cards.reading(), self.now), self.now)
        return self.table.status()

    def press(self, seat: int, button: str = "pass", held: bool = False) -> TableStatus:
        """``seat`` presses a button (``held``: past its hold time, as undo needs)."""
        self.now += 1.0
        self.table.handle(ButtonPressed(button, seat, held), self.now)  # type: ignore[arg-type]
        return self.table.status()

    @property
    def frame(self) -> Frame:
        return self.frames.frames[-1]

    def actions(self) -> list[Action]:
        return list(self.state.history)


def journal_of(folder: Path, actions: tuple[Action, ...], options: dict[str, Any]) -> None:
    """A journal at ``folder`` holding one Commissars game of ``actions``."""
    journal = Journal(folder / JOURNAL, clock=lambda: 0.0)
    game = journal.new_game("commissars", options, seed=0)
    for action in actions:
        game.apply(action, "simulation")
    journal.close()


def commissars_table(
    folder: Path, actions: tuple[Action, ...] = (), options: dict[str, Any] | None = None
) -> CommissarsTable:
    """A table resuming a journal holding ``actions`` (table mode), put in sync by one look."""
    options = options or TABLE_MODE
    journal_of(folder, actions, options)
    table, frames = make_table(folder / JOURNAL, GameChoice("commissars", options), CAMERA)
    at = CommissarsTable(table, frames, Cards.of(table.state))
    status = at.see()
    assert status.in_sync, table.view.verdict
    return at


def seen_by_the_table(state: State) -> tuple[tuple[Action, ...], dict[str, Any]]:
    """A known-hands game's actions and options as a table saw them (every draw unseen)."""
    record = unseen_draws_record(state.record())
    return record.actions, dict(record.options)


def table_at(
    folder: Path, stop: Callable[[State], bool], seeds: int = 40, players: int = 2
) -> CommissarsTable:
    """A table at the first seeded random game (known hands) that reaches ``stop``."""
    for seed in range(seeds):
        found = play_until("commissars", {"players": players}, seed, stop)
        if found is not None:
            actions, options = seen_by_the_table(found)
            return commissars_table(folder, actions, options)
    raise AssertionError(f"no game in {seeds} seeds reached the wanted state")
