"""A Cookie card mat as people lay it, and a table that reads it: for the Cookie table tests.

:class:`Mat` is the physical mat: per seat zone the cards face up and the
backs, and the centre. It starts as the game holds it
(:func:`cogtable.tables.cookie.layout.expected_layout`) and is changed the
way people change it (a card laid face down, turned up, a Sword moved).
:meth:`Mat.reading` is what the camera reports once it settles.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cogtable.game_choice import GameChoice
from cogtable.inputs import BoardSettled, ButtonPressed, ConsoleCommand
from cogtable.journal import Journal
from cogtable.sensors import Sensors
from cogtable.table import GameTable
from cogtable.table_status import TableStatus
from cogtable.tables.cookie.cards import Card, ZoneCards, position_of, role, set_card
from cogtable.tables.cookie.layout import expected_layout
from games.cookie.common import CookieState
from games.core import Action
from hardware.leds import Frame
from tests.runtime.neutral_helpers import FrameLog, make_table
from vision.cards.mat import CardMatLayout, standard_mat

MAT = standard_mat(6)
CAMERA = Sensors(card_mat=MAT)
JOURNAL = "journal.sqlite3"


@dataclass
class Mat:
    """The card mat: per seat zone the cards face up and the number of backs; the centre."""

    face_up: dict[int, set[Card]]
    backs: dict[int, int]
    centre: set[Card] = field(default_factory=set)
    centre_backs: int = 2
    layout: CardMatLayout = MAT

    @classmethod
    def of(cls, state: CookieState) -> Mat:
        """The mat as the game holds it (nothing laid face down yet)."""
        layout = expected_layout(state)
        seats = range(state.num_players)
        return cls(
            {seat: set(layout.seats[seat].face_up) for seat in seats},
            {seat: 0 for seat in seats},
            set(layout.centre_roles),
        )

    def place(self, seat: int) -> None:
        """``seat`` lays a card face down in its zone."""
        self.backs[seat] += 1

    def turn_up(self, seat: int, name: str) -> None:
        """``seat`` turns its face-down card up: its own card ``name``."""
        self.backs[seat] -= 1
        self.face_up[seat].add(set_card(name, seat))

    def lay(self, seat: int, card: Card) -> None:
        """A card laid face up in ``seat``'s zone (a claim, a Sword aimed there)."""
        self.face_up[seat].add(card)

    def move(self, card: Card, to: int) -> None:
        """A face-up card moved from wherever it lies to ``to``'s zone."""
        for cards in self.face_up.values():
            cards.discard(card)
        self.face_up[to].add(card)

    def take(self, seat: int, card: Card) -> None:
        """A card taken out of ``seat``'s zone."""
        self.face_up[seat].discard(card)

    def role_up(self, seat: int, character: str) -> None:
        """``seat``'s Role card (face down in front of them) turned up in their zone."""
        self.face_up[seat].add(role(character))

    def centre_up(self, character: str) -> None:
        """A face-down Role card in the centre turned up (the exclusion card, the target)."""
        self.centre_backs -= 1
        self.centre.add(role(character))

    def reading(self) -> dict[str, tuple[tuple[int, ...], int]]:
        """What the camera reports of this mat once it settles."""
        seats = {
            seat: ZoneCards(frozenset(self.face_up[seat]), self.backs[seat])
            for seat in self.face_up
        }
        return position_of(seats, self.layout, ZoneCards(frozenset(self.centre), self.centre_backs))


@dataclass
class CookieTable:
    """A table on the mock profile with the card mat, and the frames it showed."""

    table: GameTable
    frames: FrameLog
    now: float = 1.0

    @property
    def state(self) -> CookieState:
        return self.table.state  # type: ignore[no-any-return]

    def see(self, mat: Mat) -> TableStatus:
        """The camera settles on ``mat``: the table judges it; its status after."""
        self.now += 1.0
        self.table.handle(BoardSettled(mat.reading(), self.now), self.now)
        return self.table.status()

    def press(self, seat: int, button: str = "confirm") -> TableStatus:
        """``seat`` presses a button."""
        self.now += 1.0
        self.table.handle(ButtonPressed(button, seat), self.now)  # type: ignore[arg-type]
        return self.table.status()

    def type(self, seat: int, text: str) -> TableStatus:
        """``seat`` types ``text`` at the console."""
        self.now += 1.0
        self.table.handle(ConsoleCommand(text, seat=seat), self.now)
        return self.table.status()

    @property
    def frame(self) -> Frame:
        return self.frames.frames[-1]

    def actions(self) -> list[Action]:
        return list(self.state.history)


def cookie_table(
    folder: Path, options: dict[str, Any], actions: tuple[Action, ...] = (), seed: int = 0
) -> CookieTable:
    """A table resuming a journal holding ``actions`` of a Cookie game, put in sync by one look."""
    journal = Journal(folder / JOURNAL, clock=lambda: 0.0)
    game = journal.new_game("cookie", options, seed=seed)
    for action in actions:
        game.apply(action, "simulation")
    journal.close()
    table, frames = make_table(folder / JOURNAL, GameChoice("cookie", options), CAMERA)
    at = CookieTable(table, frames)
    status = at.see(Mat.of(at.state))
    assert status.in_sync, status.message
    return at


def hunt_options(players: int = 4, first: int = 0) -> dict[str, Any]:
    return {
        "variant": "hunt",
        "players": players,
        "roles_known_at_deal": False,
        "first_player": first,
    }


def big_hunt_options(players: int) -> dict[str, Any]:
    return {"variant": "big-hunt", "players": players, "roles_known_at_deal": False}


def sample(state: CookieState, rng: random.Random) -> Action:
    """A chance outcome drawn by weight (a Role card turned up, the target)."""
    outcomes = state.chance_outcomes()
    actions = [action for action, _ in outcomes]
    return rng.choices(actions, weights=[weight for _, weight in outcomes])[0]
