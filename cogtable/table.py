"""The game at the table: journal, engine, adapter and LEDs, driven by the controller.

:class:`GameTable` handles one input at a time and knows no game: the game's
:class:`~cogtable.tables.base.TableAdapter` says what a settled reading means,
how a sensed answer fills a request, and how the LEDs and screen look
(:mod:`cogtable.table_display`). An action is journaled before the LEDs change;
an answer to a request no longer asked is refused; nothing refused is
recorded. A game read by the camera counts changes as moves only while the
board is in sync with the game (after a restart, a new game or an undo it is
compared until it matches).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cogtable.commit_decision import Explanations
from cogtable.game_choice import GameChoice
from cogtable.inputs import (
    BoardSettled,
    BoardUnsettled,
    ButtonPressed,
    ConsoleCommand,
    DiceRolled,
    Input,
    PartStatus,
    RemotePartner,
    RemoteRecord,
    RemoteStopped,
)
from cogtable.journal import REMOTE, Journal, JournaledGame, JournalError
from cogtable.reading_plan import PlanPost
from cogtable.sensing import Asked, KeyBook, open_requests
from cogtable.sensors import Sensors
from cogtable.table_display import TableDisplay
from cogtable.table_remote import RemoteGame, RemotePlay
from cogtable.table_status import TableStatus
from cogtable.tables import adapter_for
from cogtable.tables.base import (
    RGB,
    Flash,
    LooksAgainAfterChoice,
    SeatSummaries,
    Sensed,
    TableAdapter,
    Verdict,
    VerdictKind,
    is_public,
)
from cogtable.waits import Wait, WaitWatch
from games.core import CHANCE, Action, IllegalAction, State, replay
from hardware.leds import Frame, Renderer

log = logging.getLogger(__name__)
FLASH_SECONDS = 0.5
MAX_ACTIONS_PER_READING = 64
"""At most this many actions are read off one settled reading (a guard against a loop)."""
CHOICE_SHOWN_SECONDS = 3.0
"""How long the seat LEDs show which game a long press of new game chose."""
SUMMARY_SECONDS = 4.0
"""How long a seat's LED shows what its button asked for (:class:`SeatSummaries`)."""
CONFIRM_SECONDS = 5.0
"""A second press of new game within this many seconds abandons the game in progress."""


class Screen(Protocol):
    """Where the table's screen goes (the terminal); gets the lines and the LED frame."""

    def show(
        self,
        lines: Sequence[str],
        frame: Frame,
        now: float,
        arrangement: Mapping[str, Sequence[Sequence[int]]] | None = None,
    ) -> None:
        """Draw the screen: the lines, then the LED frame laid out by ``arrangement``."""


@dataclass
class TableView:
    """What the table currently shows and knows beyond the engine state."""

    verdict: Verdict = field(default_factory=lambda: Verdict("in-sync"))
    synced: bool = False
    waiting: str = ""
    paused: bool = False
    accepted: Flash | None = None
    message: str = ""
    last: str = ""
    chosen_at: float | None = None
    """When a long press of new game chose the game (the seat LEDs show it for a while)."""
    new_game_armed_at: float | None = None
    """When new game was pressed once during a game (a second press abandons it)."""
    taken_back: str = ""
    """After an undo, until the board matches again: what was taken back and how to put it right."""
    summary: tuple[int, float, str] | None = None
    """A seat's summary asked for by its button: the seat, since when, the words."""


class GameTable(TableDisplay, RemotePlay):
    """One game in progress at the table, any game with a table adapter."""

    def __init__(
        self,
        journal: Journal,
        renderer: Renderer,
        template: Frame,
        seat_colours: tuple[RGB, ...],
        *,
        game: str | GameChoice,
        seed: int = 0,
        clock: Callable[[], float],
        sensors: Sensors | None = None,
        games: Sequence[GameChoice] = (),
        screen: Screen | None = None,
    ) -> None:
        self.journal = journal
        self.renderer = renderer
        self.template = template
        self.seat_colours = seat_colours
        self.choice = game if isinstance(game, GameChoice) else GameChoice(game)
        self.games = tuple(games) or (self.choice,)
        """The games a long press of new game steps through (those this table can referee)."""
        self.seed = seed
        self.clock = clock
        self.sensors = sensors or Sensors()
        self.screen = screen
        self.keys = KeyBook()
        self.seen: Any = None
        """The last settled camera observation (None before the first)."""
        self.explanations: Explanations | None = None
        """What the camera may see next (:meth:`TableAdapter.explanations`), as last published:
        the camera thread reads it, the controller thread replaces it."""
        self._explained: tuple[Any, ...] | None = None
        self.published = TableStatus()
        """The status as last shown: what a person reads off the screen (any thread may read it)."""
        self.plans = PlanPost()
        """What the camera thread reads now (:class:`ReadingPlan`), published after each change:
        the camera thread reads only this, never :attr:`state`."""
        self.parts: dict[str, tuple[str, str]] = {}
        """Each part's last reported status and detail (the camera, the Pico link, GPIO)."""
        self.watch = WaitWatch()
        self.wait: Wait | None = None
        """What the table has waited for long enough to say so (None: nothing)."""
        self.remote = RemoteGame()
        """The other table of a game played across two (:mod:`cogtable.table_remote`)."""
        self.game: JournaledGame = (
            journal.resume()
            or _last_finished(journal)
            or journal.new_game(self.choice.game, self.choice.options, seed=seed)
        )
        self.adapter: TableAdapter = adapter_for(self.state.game).fitted(self.sensors)
        self.view = TableView(synced=self.adapter.start_in_sync())
        self._recall_taken_back()
        self.before: State | None = self._previous_state()
        self.show(clock())

    def _recall_taken_back(self) -> None:
        """After a restart right after an undo: say again what was taken back (the journal knows).

        Until a reading shows the board put right, the words say what to do.
        """
        taken = None if self.view.synced else self.game.taken_back()
        if taken is not None:
            self.view.last = self.adapter.undo_words(self.state, taken, board=False)
            self.view.taken_back = self._put_right_words(taken)

    @property
    def game_name(self) -> str:
        """The engine name of the game in progress."""
        return str(self.state.game)

    @property
    def state(self) -> Any:
        """The engine state of the game in progress."""
        return self.game.state

    # -- the controller's Table protocol ------------------------------------

    def handle(self, item: Input, now: float) -> None:
        """React to one input, then show the LEDs for the result."""
        if isinstance(item, RemotePartner | RemoteRecord | RemoteStopped):
            self.remote_input(item, now)
        elif self.remote.stopped and not isinstance(item, PartStatus):
            pass  # a stopped shared game: nothing counts until the table is restarted
        elif isinstance(item, BoardSettled):
            self._settled(item, now)
        elif isinstance(item, BoardUnsettled):
            self.view.waiting = item.reason
        elif isinstance(item, DiceRolled):
            self._die(item, now)
        elif isinstance(item, ButtonPressed):
            self._button(item, now)
        elif isinstance(item, ConsoleCommand):
            self._console(item, now)
        elif isinstance(item, PartStatus):
            self.parts[item.part] = (item.status, item.detail)
        self.show(now)

    def tick(self, now: float) -> None:
        """End an accepted-move flash or a shown game choice once it has run."""
        flash = self.view.accepted
        if flash is not None and now - flash.start > FLASH_SECONDS:
            self.view.accepted = None
            self.show(now)
        chosen = self.view.chosen_at
        if chosen is not None and now - chosen > CHOICE_SHOWN_SECONDS:
            self.view.chosen_at = None
            self.show(now)
        summary = self.view.summary
        if summary is not None and now - summary[1] > SUMMARY_SECONDS:
            self.view.summary = None
            self.show(now)
        if self.wait is not None or self._due_wait(self.asking(), now) is not None:
            self.show(now)  # a wait is said once it has lasted, and how long it has lasted

    def pause(self) -> None:
        """Leave the LEDs in the paused pattern and close the journal."""
        self.view.paused = True
        self.show(self.clock())
        self.journal.close()

    def asking(self) -> list[Asked]:
        """The requests the table is asking for now (only what the whole table may know)."""
        if self.view.paused:
            return []
        return open_requests(self.state, self.game.id, self.adapter, self.sensors, self.keys)

    # -- the camera ----------------------------------------------------------------

    def _settled(self, item: BoardSettled, now: float) -> None:
        self.view.waiting = ""
        self.seen = item.observation
        if self.view.paused or not self.adapter.camera_regions():
            return
        if not self.view.synced:
            self._resync(item.observation)
            return
        self._judge_all(item.observation, now)

    def _judge_again(self, now: float) -> None:
        """A choice between readings was made whose reading holds more: judge it again."""
        if self.seen is not None and self.view.synced and self.adapter.camera_regions():
            self._judge_all(self.seen, now, applied=True)

    def _judge_all(self, seen: Any, now: float, applied: bool = False) -> None:
        """Apply every action one settled reading holds, one after another (see :meth:`_judge`).

        ``applied``: an action was just applied (an "in sync" verdict keeps saying it).
        """
        for _ in range(MAX_ACTIONS_PER_READING):
            if not self._judge(seen, now, applied):
                return
            applied = True
            if not self.view.synced:  # the move cleared the board: compare until it matches
                self._resync(seen)
                return

    def _judge(self, seen: Any, now: float, applied: bool) -> bool:
        """Judge one settled reading; True when an action was applied (judge it again).

        One reading may hold several actions (the letters of a whole Phase I
        laid before the camera settled): each applied action is followed by
        another look at the same reading, until it explains nothing more.
        """
        camera = [ask.request for ask in self.asking() if ask.route == "camera"]
        verdict = self.adapter.judge(self.state, seen, self.before, camera)
        if verdict.kind == "take-back":
            self.view.verdict = verdict
            self._undo(keep_sync=True)
            return False
        if verdict.kind != "move" or verdict.action is None:
            if not (applied and verdict.kind == "in-sync"):  # keep saying what was just applied
                self.view.verdict = verdict
            return False
        ply = len(self.state.history)
        self._apply(verdict.action, "camera", now)
        return len(self.state.history) > ply

    def _resync(self, seen: Any) -> None:
        """Not in sync: only compare, and show where the board differs (and why, after an undo).

        After an undo the status and the terminal's ``last`` line then say what to
        do ("...: lift the cog"), as they do right after an undo held at the table,
        also when the undo was recalled after a restart.
        """
        if self.remote.carry:
            self.carry_out(seen)  # the other table's moves are not all on this board yet
            return
        verdict = self.adapter.resync(self.state, seen)
        self.view.synced = verdict.kind == "in-sync"
        if self.view.synced:
            self.view.taken_back = ""
        elif self.view.taken_back:
            verdict = dataclasses.replace(verdict, reason=self.view.taken_back)
            self.view.last = self.view.taken_back
        self.view.verdict = verdict

    # -- dice, buttons and the console ------------------------------------------------

    def _die(self, rolled: DiceRolled, now: float) -> None:
        """A die was rolled: it answers the open ``die`` request the dice serve, if any."""
        if self.view.paused:
            return
        for ask in self.asking():
            if ask.route == "dice":
                action = self.adapter.fill(ask.request, Sensed("dice", str(rolled.value)))
                if action is None:
                    self.view.message = f"the die shows {rolled.value}: not a face this roll allows"
                    return
                self._apply(action, "button", now)  # a roll button pressed
                return
        self.view.message = f"the die shows {rolled.value}, but the table is not waiting for a roll"

    def _button(self, press: ButtonPressed, now: float) -> None:
        if press.button == "undo" and press.held:
            self._undo(keep_sync=self.adapter.start_in_sync())
        elif press.button == "new_game":
            self._next_game(now) if press.held else self._new_game_pressed(now)
        elif press.button == "pause":
            self.view.paused = not self.view.paused
            self.view.synced = self.adapter.start_in_sync()  # what happened while paused is checked
        elif press.button in ("confirm", "pass") and press.seat is not None:
            self._seat_default(press, now)

    def _new_game_pressed(self, now: float) -> None:
        """A short press of new game: at once after a game; twice in a row while one runs.

        A game in progress is never lost to one stray press: the first press
        only asks for a second. A long press (which starts with a press) goes
        on to the next game in any case.
        """
        if not self.state.history and not self.state.is_over():
            self.view.message = "a new game is ready (hold new game to choose another game)"
            return
        armed = self.view.new_game_armed_at
        if self.state.is_over() or (armed is not None and now - armed <= CONFIRM_SECONDS):
            self.new_game()
            return
        self.view.new_game_armed_at = now
        self.view.message = "a game is in progress: press new game again to abandon it"

    def _seat_default(self, press: ButtonPressed, now: float) -> None:
        """A seat's confirm or pass: the seat's default choice, if it is asked for one."""
        if self.view.paused:
            return
        chosen = self.view.verdict
        if chosen.kind == "choose" and chosen.options and chosen.options[0].player == press.seat:
            self._apply(chosen.options[0], "button", now)  # the plain reading of what was laid
            if isinstance(self.adapter, LooksAgainAfterChoice):
                self._judge_again(now)
            return
        for ask in self.asking():
            default = self.adapter.confirmed(self.state, ask.request)
            if ask.request.player == press.seat and default is not None:
                self._apply(default, "button", now)
                return
        marked = self.adapter.pressed(self.state, press.seat) if press.button == "confirm" else ""
        if marked:
            self.view.message = marked
            if self.seen is not None and self.view.synced and self.adapter.camera_regions():
                self._judge_all(self.seen, now)  # the mark may change what the mat means
            return
        summary = self._summary_of(press.seat)
        if summary:
            self.view.summary = (press.seat, now, summary)
            return
        who = self._seat_name(press.seat)
        self.view.message = (
            f"{who}'s {press.button} button: nothing for {who} to {press.button} now"
        )

    def _console(self, command: ConsoleCommand, now: float) -> None:
        text = command.text.strip()
        if text == "undo":
            self._undo(keep_sync=self.adapter.start_in_sync())
        elif text == "new":
            self.new_game()
        elif text and not self.view.paused:
            self._console_answer(command, text, now)

    def _console_answer(self, command: ConsoleCommand, text: str, now: float) -> None:
        """Typed text answers the request it names, or the one open request it fits."""
        state = self.state
        if state.is_over():
            self.view.message = "the game is over: press new game"
            return
        asked = self.asking()
        if command.answers is not None:
            asked = [ask for ask in asked if ask.key == command.answers]
            if not asked:
                self.view.message = "that question is no longer asked (answered or taken back)"
                return
        action = self._typed_action(state, asked, command.seat, text)
        if action is None:
            return
        choosing = self.view.verdict.kind == "choose"
        self._apply(action, "console", now)
        if not self.adapter.start_in_sync():
            self.view.synced = False  # the board must now be made to match the game
            if self.seen is not None:
                self._resync(self.seen)  # it may match already (nothing there to move)
            if choosing and isinstance(self.adapter, LooksAgainAfterChoice):
                self._judge_again(now)

    def _typed_action(
        self, state: State, asked: list[Asked], seat: int | None, text: str
    ) -> Action | None:
        """The action typed text stands for; None (with the reason shown) if it fits nothing."""
        chance = [ask for ask in asked if ask.request.kind != "choice"]
        if seat is not None and not self._plays(seat):
            self.view.message = f"seat {seat + 1} has no player in this game"
            return None
        try:
            if chance:
                return self._typed_chance(chance[0], text)
            players = [seat] if seat is not None else [a.request.player for a in asked]
            for player in players:
                action = None if player is None else self.adapter.parse(text, state, player)
                if action is not None:
                    return action
        except ValueError as error:
            self.view.message = str(error)
            return None
        whose = f" for {self._seat_name(seat)}" if seat is not None else ""
        self.view.message = f"that is not a legal choice{whose} now"  # a choice may be secret
        return None

    def _typed_chance(self, ask: Asked, text: str) -> Action | None:
        action = self.adapter.fill(ask.request, Sensed("console", text))
        if action is None:
            allowed = ", ".join(ask.request.labels()[:12])
            more = " ..." if len(ask.request.options) > 12 else ""
            public = is_public(ask.request)  # a deal or a deck draw names no card
            answer, listed = (f"{text!r}", f": {allowed}{more}") if public else ("that", "")
            self.view.message = f"{answer} is not possible for {ask.request.purpose}{listed}"
        return action

    # -- changing the game -------------------------------------------------------------

    def _apply(self, action: Action, source: str, now: float, *, from_table: str = "") -> None:
        refused = self.remote_refusal(action, from_table)
        if refused:
            places = self.adapter.places_of(action)
            self.view.verdict = Verdict("illegal", action=action, places=places, reason=refused)
            self.view.message = refused
            return
        previous = self.state
        chance = previous.chance_request() if action.player == CHANCE else None
        try:
            events = self.game.apply(action, source, table=from_table if source == REMOTE else None)
        except IllegalAction as error:
            self.view.message = f"{action.safe_notation()} not applied: {error}"
            log.warning("%s", self.view.message)
            return
        except JournalError as error:
            self._not_recorded(action, error)
            return
        self.before = previous
        self.keys.answered(action.player)
        self.view.last = self.adapter.describe(self.state, action, events, chance)
        self.view.verdict = Verdict("in-sync", reason=self.view.last)
        self.view.accepted = Flash(self.adapter.places_of(action), now)
        self.view.message = self.view.taken_back = ""
        if self.adapter.resets_board(previous, self.state):
            self.view.synced = False
        log.info("%s", self.view.last)

    def _not_recorded(self, action: Action, error: JournalError) -> None:
        """The journal refused the move (a full disk): the board must go back until it can."""
        self.view.message = f"{action.safe_notation()} not recorded: {error}"
        self.view.synced = self.adapter.start_in_sync()
        reason = "the move could not be recorded: put it back and make it again"
        places = self.adapter.places_of(action)
        self.view.verdict = Verdict("out-of-sync", places=places, reason=reason)
        log.warning("%s", self.view.message)

    def _undo(self, keep_sync: bool) -> None:
        if self.refused_take_back():
            return
        taken = self.game.undo()
        if taken is None:
            self.view.message = "nothing to take back"
            return
        self.before = self._previous_state()
        self.view.synced = keep_sync
        self.keys.retire_all()
        words = self.adapter.undo_words(self.state, taken, board=not keep_sync)
        places = () if keep_sync else self.adapter.places_of(taken)
        kind: VerdictKind = "in-sync" if keep_sync else "out-of-sync"
        self.view.verdict = Verdict(kind, places=places, reason=words)
        self.view.taken_back = "" if keep_sync else self._put_right_words(taken)
        self.view.message, self.view.accepted = "", None  # no green flash for what is undone
        self.view.last = words
        log.info("%s", words)
        if not keep_sync and self.seen is not None:
            self._resync(self.seen)  # nothing to put back (a card typed): in sync at once

    def _put_right_words(self, taken: Action) -> str:
        """The undo's words while they say how to put the board right; "" when they do not.

        Words that only name what was taken back would hide what the board
        comparison finds (the cards a typed choice moved): that is shown instead.
        """
        words = self.adapter.undo_words(self.state, taken, board=True)
        return "" if words == self.adapter.undo_words(self.state, taken, board=False) else words

    def new_game(self, choice: GameChoice | None = None) -> None:
        """Start a new game (of ``choice``, else the current game); wait for the board."""
        choice = choice or self._current_choice()
        seed = self.seed + self.game.id
        self.game = self.journal.new_game(choice.game, choice.options, seed=seed)
        self.adapter = adapter_for(choice.game).fitted(self.sensors)
        self.choice = choice
        self.before = None
        self.keys.retire_all()
        self.remote.carry.clear()
        message = f"new {choice.game} game" + (
            ": clear the board" if self.adapter.camera_regions() else ""
        )
        self.view = TableView(
            synced=self.adapter.start_in_sync(), message=message, paused=self.view.paused
        )
        self._explain()
        self._publish_plan()  # the camera reads the new game's regions from now on

    def _current_choice(self) -> GameChoice:
        """The game in progress with its options (what a short press of new game restarts)."""
        return GameChoice(self.game_name, dict(self.state.options))

    def _next_game(self, now: float) -> None:
        """A long press of new game: the next game this table can referee, started afresh."""
        here = self._choice_number()
        self.new_game(self.games[(here + 1) % len(self.games)])
        self.view.chosen_at = now

    def _choice_number(self) -> int:
        """Where the game in progress stands in :attr:`games` (-1: not there), by its label."""
        labels = [choice.label() for choice in self.games]
        current = self._current_choice().label()
        return labels.index(current) if current in labels else -1

    def _summary_of(self, seat: int) -> str:
        """What the seat's button shows when it has nothing to answer ("": nothing)."""
        if not isinstance(self.adapter, SeatSummaries) or not self._plays(seat):
            return ""
        return self.adapter.seat_summary(self.state, seat)

    def _seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        return self.state.player_name(seat) if self._plays(seat) else f"seat {seat + 1}"

    def _plays(self, seat: int) -> bool:
        """Whether the seat has a player in this game (a 6-seat table may host 2 players)."""
        return 0 <= seat < self.state.num_players

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
