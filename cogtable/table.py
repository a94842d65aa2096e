"""The game at the table: journal, engine, adapter and LEDs, driven by the controller.

:class:`GameTable` is what :class:`cogtable.controller.Controller` drives. It
keeps the journaled game, asks the game's adapter what each settled reading
means, applies moves through the journal (so an action is durable before the
LEDs change) and shows the adapter's LED frame.

The table is *in sync* when the physical board matches the game. After a
restart, a new game or an undo button, it is not: readings are then only
compared, with the differing pegs shown, until the board matches; only then do
changes count as moves. So a board that still shows an undone move is never
read as that move made again.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cogtable.adapters import kogworks as adapter
from cogtable.inputs import (
    BoardSettled,
    BoardUnsettled,
    ButtonPressed,
    ConsoleCommand,
    Input,
    ReloadProfile,
)
from cogtable.journal import Journal, JournaledGame, JournalError
from games.core import IllegalAction, State, replay
from hardware.leds import Frame, Renderer

log = logging.getLogger(__name__)
FLASH_SECONDS = 0.5
RGB = tuple[int, int, int]


@dataclass
class TableView:
    """What the table currently shows and knows beyond the engine state."""

    verdict: adapter.Verdict = field(default_factory=lambda: adapter.Verdict("in-sync"))
    synced: bool = False
    waiting: str = ""
    paused: bool = False
    accepted: adapter.Flash | None = None
    message: str = ""


class GameTable:
    """One game in progress at the table (Kogworks for now)."""

    def __init__(
        self,
        journal: Journal,
        renderer: Renderer,
        template: Frame,
        seat_colours: tuple[RGB, ...],
        *,
        game: str = "kogworks",
        seed: int = 0,
        clock: Callable[[], float],
    ) -> None:
        self.journal = journal
        self.renderer = renderer
        self.template = template
        self.seat_colours = seat_colours
        self.game_name = game
        self.seed = seed
        self.clock = clock
        self.view = TableView()
        self.game: JournaledGame = (
            journal.resume() or _last_finished(journal) or journal.new_game(game, seed=seed)
        )
        self.before: State | None = self._previous_state()
        self.show(clock())

    # -- the controller's Table protocol ------------------------------------

    def handle(self, item: Input, now: float) -> None:
        """React to one input, then show the LEDs for the result."""
        if isinstance(item, BoardSettled):
            self._settled(adapter.pieces_from_reading(item.pieces), now)
        elif isinstance(item, BoardUnsettled):
            self.view.waiting = item.reason
        elif isinstance(item, ButtonPressed):
            self._button(item, now)
        elif isinstance(item, ConsoleCommand):
            self._console(item.text.strip(), now)
        elif isinstance(item, ReloadProfile):
            log.info("profile reload requested")
        self.show(now)

    def tick(self, now: float) -> None:
        """End an accepted-move flash once it has run."""
        flash = self.view.accepted
        if flash is not None and now - flash.start > FLASH_SECONDS:
            self.view.accepted = None
            self.show(now)

    def status(self) -> dict[str, Any]:
        """Game, turn, sync and the last thing the table said."""
        state = self.state
        outcome = state.outcome()
        acting = state.to_act()
        return {
            "game": self.game_name,
            "game_id": self.game.id,
            "ply": len(state.history),
            "turn": state.player_name(acting[0]) if acting else None,
            "in_sync": self.view.synced,
            "waiting": self.view.waiting,
            "message": self.view.message or self.view.verdict.reason,
            "outcome": outcome.to_json() if outcome else None,
        }

    def pause(self) -> None:
        """Leave the LEDs in the paused pattern and close the journal."""
        self.view.paused = True
        self.show(self.clock())
        self.journal.close()

    # -- what inputs do ----------------------------------------------------------

    @property
    def state(self) -> Any:
        """The engine state of the game in progress."""
        return self.game.state

    def _settled(self, seen: dict[int, str], now: float) -> None:
        self.view.waiting = ""
        if self.view.paused:
            return
        if not self.view.synced:
            self._resync(seen)
            return
        verdict = adapter.judge(self.state, seen, self.before)
        self.view.verdict = verdict
        if verdict.kind == "move" and verdict.action is not None:
            self._apply(verdict.action, "camera", now)
        elif verdict.kind == "take-back":
            self._undo(keep_sync=True)

    def _resync(self, seen: dict[int, str]) -> None:
        """Not in sync: only compare, and show where the board differs."""
        pegs = adapter.differing(self.state, seen)
        self.view.synced = not pegs
        if pegs:
            reason = "put the board back as the LEDs show"
            self.view.verdict = adapter.Verdict("out-of-sync", pegs=pegs, reason=reason)
        else:
            self.view.verdict = adapter.Verdict("in-sync", reason="the board matches the game")

    def _apply(self, action: Any, source: str, now: float) -> None:
        previous = self.state
        try:
            self.game.apply(action, source)
        except IllegalAction as error:
            self.view.message = f"{action.notation()} not applied: {error}"
            log.warning("%s", self.view.message)
            return
        except JournalError as error:
            self._not_recorded(action, error)
            return
        self.before = previous
        self.view.verdict = adapter.Verdict("in-sync", reason=action.notation())
        self.view.accepted = adapter.Flash(adapter.pegs_of_action(action), now)
        self.view.message = ""
        log.info("%s played %s", previous.player_name(action.player), action.notation())

    def _not_recorded(self, action: Any, error: JournalError) -> None:
        """The journal refused the move (a full disk): the board must go back until it can."""
        self.view.message = f"{action.notation()} not recorded: {error}"
        self.view.synced = False
        reason = "the move could not be recorded: put it back and make it again"
        self.view.verdict = adapter.Verdict(
            "out-of-sync", pegs=adapter.pegs_of_action(action), reason=reason
        )
        log.warning("%s", self.view.message)

    def _undo(self, keep_sync: bool) -> None:
        taken = self.game.undo()
        if taken is None:
            self.view.message = "nothing to take back"
            return
        self.before = self._previous_state()
        self.view.synced = keep_sync
        self.view.message = f"took back {taken.notation()}"
        log.info("%s", self.view.message)

    def _button(self, press: ButtonPressed, now: float) -> None:
        if press.button == "undo" and press.held:
            self._undo(keep_sync=False)
        elif press.button == "new_game":
            self.new_game()
        elif press.button == "pause":
            self.view.paused = not self.view.paused
            self.view.synced = False  # whatever happened while paused is checked, not played

    def _console(self, text: str, now: float) -> None:
        if text == "undo":
            self._undo(keep_sync=False)
        elif text == "new":
            self.new_game()
        elif text:
            self._console_move(text, now)

    def _console_move(self, text: str, now: float) -> None:
        acting = self.state.to_act()
        if not acting:
            self.view.message = "the game is over: press new game"
            return
        try:
            action = adapter.parse_move(text, acting[0])
        except ValueError as error:
            self.view.message = str(error)
            return
        self._apply(action, "console", now)
        self.view.synced = False

    def new_game(self) -> None:
        """Start a new game; wait until the board is cleared to the start position."""
        self.game = self.journal.new_game(self.game_name, seed=self.seed + self.game.id)
        self.before = None
        self.view = TableView(message="new game: clear the board", paused=self.view.paused)

    # -- LEDs ------------------------------------------------------------------

    def frame(self) -> Frame:
        """The LED frame for what the table knows now."""
        if self.view.paused:
            return adapter.paused_frame(self.template)
        leds = adapter.frame(
            self.state, self.view.verdict, self.seat_colours, self.template, self.view.accepted
        )
        if self.view.waiting:
            leds.set("status", 0, adapter.AMBER)
        return leds

    def show(self, now: float) -> None:
        """Send the current frame to the renderer."""
        self.renderer.show(self.frame(), now)

    def _previous_state(self) -> State | None:
        """The position before the last move (to recognise a take-back), from memory."""
        record = self.state.record()
        if not record.actions:
            return None
        return replay(dataclasses.replace(record, actions=record.actions[:-1]))


def _last_finished(journal: Journal) -> JournaledGame | None:
    """The newest game if it ended with a result: after a restart the winner stays shown."""
    games = journal.games()
    if games and games[-1].status == "finished":
        return journal.load(games[-1].id)
    return None
