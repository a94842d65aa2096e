"""Simulated people at a table whose game the camera does not read (yet).

They play any game through the routes a person at such a table has: they read
what the table asks (its status, as the screen and the status file show it),
roll the simulated Pico's electronic dice when a die is asked for and read
the pips off its LEDs, draw from the physical bag or deck (a seeded draw from
what the rules allow) and type what they drew, type their choices at the
console, and press their seat's confirm or pass button for a default. They
keep their own copy of the game from the answers they saw accepted (the
table's move count went on), never the controller's.

Now and then they make a person's mistakes, which the table must refuse
without changing the record: a seat's confirm pressed out of turn, a choice
typed that the rules do not allow, an answer to a question already answered.
Sometimes the last player to choose holds undo.

Across a restart of the program they keep the games they finished and
whether they were about to press new game (written down before the press);
the game in progress they take from the table, which they believe over
their memory.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from cogtable.errors import data_fault
from cogtable.game_choice import GameChoice
from cogtable.inputs import ConsoleCommand
from cogtable.mock.world import MockWorld
from firmware_bridge.firmware.config import DICE
from games.cookie.actions import Hunt
from games.cookie.actions import Play as CookiePlay
from games.core import CHANCE, Action, Record, Request, State, new_game, replay

FACE_DOWN = (CookiePlay, Hunt)
"""Actions the rules have laid face down (the Cookie's cards): the table hears no name."""
FACE_LEDS = 7


class Table(Protocol):
    """What the people use of the runtime: its screen, its console, buttons and dice."""

    def shown_status(self) -> dict[str, Any]:
        """What the table shows now (its screen and status file)."""

    def console(self, line: ConsoleCommand) -> bool:
        """Type a line at the console; True once the table has taken it."""

    def press(self, seat: int | None, kind: str, held: bool = False) -> bool:
        """Press a button; True once the table has taken the press."""

    def roll(self, die: int = 0) -> bool:
        """Press a die's roll button; True once the roll is handled."""

    def die_leds(self) -> list[tuple[int, int, int]] | None:
        """The LED chain as the simulated Pico shows it (None without one)."""

    def game_record(self) -> Record | None:
        """The game as the table journaled it (its screen and web view show it)."""


@dataclass
class ConsoleStyle:
    """How the people play: a built-in player per seat, how often they err or undo."""

    seats: tuple[str, ...]
    mistake_rate: float = 0.05
    undo_rate: float = 0.02
    think_frames: int = 1


@dataclass
class ConsoleLog:
    """One finished game as the people saw it."""

    moves: int
    winners: tuple[int, ...]
    mistakes: int
    undos: int


@dataclass
class ConsolePeople:
    """Everyone at the table, acting once per frame of the mock world."""

    table: Table
    choice: GameChoice
    seed: int = 0
    style: ConsoleStyle = field(default_factory=lambda: ConsoleStyle(("random",) * 2))
    games: int = 1
    say: Callable[[str], object] = lambda text: None
    on_finish: Callable[[ConsolePeople], object] = lambda people: None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.memory: State = new_game(self.choice.game, self.choice.options, self.seed)
        self.game_id: int | None = None
        self.players = _players(self.choice.game, self.style.seats, self.seed)
        self.mistakes = 0
        self.undos = 0
        self.played: list[ConsoleLog] = []
        self.finished = False
        self.next_game = False
        """The game over is logged; new game is to be pressed (saved before it is pressed)."""
        self.wait_until = 0

    @property
    def history(self) -> list[Action]:
        """The actions of the current game as the people remember them."""
        return list(self.memory.history)

    def adopt(self, record: Record, game_id: int) -> None:
        """Take the table's journaled game as the game in progress (a resumed table)."""
        self.memory = replay(record)
        self.game_id = game_id

    def _follow(self, status: dict[str, Any]) -> None:
        """A new game on the table: start remembering it as the table announced it."""
        if status.get("game_id") != self.game_id and status.get("ply") == 0:
            self.memory = new_game(status["game"], status["options"], status["seed"])
            self.game_id = status["game_id"]
            self.next_game = False

    def to_json(self) -> dict[str, Any]:
        """What the people remember across a restart: the games they finished, a press due."""
        logs = [[log.moves, list(log.winners), log.mistakes, log.undos] for log in self.played]
        return {"played": logs, "finished": self.finished, "next_game": self.next_game}

    def restore(self, data: dict[str, Any]) -> None:
        """Remember what :meth:`to_json` kept; ValueError if it is not that."""
        self.played, self.finished, self.next_game = self.check_saved(data)

    @staticmethod
    def check_saved(data: Any) -> tuple[list[ConsoleLog], bool, bool]:
        """The games, the finished flag and the press due :meth:`to_json` kept; else ValueError."""
        try:
            logs = [ConsoleLog(int(m), tuple(w), int(e), int(u)) for m, w, e, u in data["played"]]
            finished = data["finished"]
            next_game = data.get("next_game", False)
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not what the mock people remember: {data_fault(error)}") from error
        for name, flag in (("finished", finished), ("next_game", next_game)):
            if not isinstance(flag, bool):
                raise ValueError(f"not what the mock people remember: {name} = {flag!r}")
        return logs, finished, next_game

    # -- one frame ---------------------------------------------------------------

    def __call__(self, world: MockWorld) -> None:
        """Look at the table and do one thing, at one frame of ``world``."""
        if self.finished or world.frames < self.wait_until:
            return
        self.wait_until = world.frames + self.style.think_frames
        status = self.table.shown_status()
        self._follow(status)
        if status.get("game_id") != self.game_id:
            return
        if self.memory.is_over() or status.get("outcome"):
            self._game_over(status)
            return
        asked = status.get("waiting_for") or []
        if asked and status.get("ply") == len(self.memory.history):
            self._answer(asked[0], status)

    def _answer(self, asked: dict[str, Any], status: dict[str, Any]) -> None:
        roll = self.rng.random()
        if asked["kind"] == "choice" and self.memory.history and roll < self.style.undo_rate:
            self._undo()
        elif asked["kind"] == "choice" and roll > 1 - self.style.mistake_rate:
            self._mistake(asked)
        elif asked["route"] == "dice":
            self._roll(asked)
        elif asked["kind"] == "choice":
            self._choose(asked)
        else:
            self._draw(asked)

    # -- answering -------------------------------------------------------------------

    def _roll(self, asked: dict[str, Any]) -> None:
        """Press the die's roll button, read the pips, and remember the roll if it counted."""
        die = DICE[0][0]
        if not self.table.roll(die):
            return
        value = self._pips(die)
        action = self._request(asked).option(str(value)) if value else None
        if action is not None:
            self._accepted(action, f"rolled {value} for {asked['purpose']}")

    def _pips(self, die: int) -> int:
        """How many pips the die's LED face shows (0 if it cannot be seen)."""
        leds = self.table.die_leds()
        first = next(first for number, _, first, _ in DICE if number == die)
        if leds is None or len(leds) < first + FACE_LEDS:
            return 0
        return sum(1 for colour in leds[first : first + FACE_LEDS] if any(colour))

    def _draw(self, asked: dict[str, Any]) -> None:
        """Draw from the physical bag or deck (what the rules allow) and type what it was."""
        outcomes = self.memory.chance_outcomes()
        actions = [action for action, _ in outcomes]
        drawn = self.rng.choices(actions, [chance for _, chance in outcomes])[0]
        label = next(o.label for o in self._request(asked).options if o.action == drawn)
        if self.table.console(ConsoleCommand(label, answers=asked["key"])):
            said = label if _seen_by_all(self._request(asked)) else "done"  # a deal stays secret
            self._accepted(drawn, f"{asked['kind']} for {asked['purpose']}: {said}")

    def _choose(self, asked: dict[str, Any]) -> None:
        """The seat's built-in player chooses; a default may go on the seat's button."""
        player = asked["player"]
        action = self.players[player](self.memory.clone(), player, self.rng)
        request = self.memory.choice_request(player)
        if action == request.default and self.rng.random() < 0.5:
            taken = self.table.press(player, "pass")
        else:
            line = ConsoleCommand(action.notation(), seat=player, answers=asked["key"])
            taken = self.table.console(line)
        if taken:
            name = self.memory.player_name(player)
            secret = isinstance(action, FACE_DOWN)
            said = "laid a card face down" if secret else action.notation()  # the table hears it
            self._accepted(action, f"{name}: {said}")

    def _accepted(self, action: Action, words: str) -> None:
        """Remember ``action`` if the table counted it (its move count went on by one)."""
        if self.table.shown_status().get("ply") == len(self.memory.history) + 1:
            self.memory.apply(action)
            self.say(f"{words}: accepted")
        else:
            self.say(f"{words}: refused ({self.table.shown_status().get('message', '')})")

    def _request(self, asked: dict[str, Any]) -> Request:
        """The request as the people's own copy of the game sees it (with every option)."""
        if asked["kind"] == "choice":
            return self.memory.choice_request(asked["player"])
        return self.memory.chance_request()

    # -- mistakes and undo --------------------------------------------------------------

    def _mistake(self, asked: dict[str, Any]) -> None:
        """A person's slip the table must refuse: out-of-turn button, bad choice, stale answer."""
        before = self.table.shown_status().get("ply")
        kind = self.rng.choice(("button", "choice", "stale"))
        seats = len(self.style.seats)
        asked_now = {entry["player"] for entry in self.table.shown_status()["waiting_for"]}
        others = [s for s in range(seats) if s not in asked_now]
        if kind == "button" and others:
            seat = self.rng.choice(others)
            self.table.press(seat, "confirm")
            what = f"seat {seat + 1} pressed confirm out of turn"
        elif kind in ("choice", "button"):
            self.table.console(ConsoleCommand("no such move", seat=asked["player"]))
            what = "typed a choice the rules do not allow"
        else:
            self.table.console(ConsoleCommand("pass", answers="0/0/stale"))
            what = "answered a question already answered"
        self.mistakes += 1
        if self.table.shown_status().get("ply") != before:
            raise AssertionError(f"the table recorded a mistake: {what}")
        self.say(f"{what}: refused ({self.table.shown_status().get('message', '')})")

    def _undo(self) -> None:
        """The last player to choose holds undo; if the table takes it back, so do they."""
        last = self.memory.history[-1]
        seat = last.player if last.player != CHANCE else 0
        if not self.table.press(seat, "undo", held=True):
            return
        if self.table.shown_status().get("ply") == len(self.memory.history) - 1:
            record = self.memory.record()
            self.memory = replay(
                Record(record.game, record.options, record.seed, record.actions[:-1])
            )
            self.undos += 1
            self.say(f"{self.memory.player_name(seat)} held undo: took back {last.notation()}")

    # -- between games ---------------------------------------------------------------

    def _game_over(self, status: dict[str, Any]) -> None:
        """Log the game the table ended; at the next look, press new game if more are to come."""
        if self.next_game:
            self._press_new_game(status)
            return
        outcome = self.memory.outcome()
        if outcome is None or not status.get("outcome"):
            return
        self.played.append(
            ConsoleLog(len(self.memory.history), outcome.winners, self.mistakes, self.undos)
        )
        names = " and ".join(self.memory.player_name(w) for w in outcome.winners) or "nobody"
        self.say(f"game over: {names} won ({outcome.reason})")
        self.mistakes = self.undos = 0
        if len(self.played) >= self.games:
            self.finished = True
            self.on_finish(self)
        else:
            self.next_game = True  # saved with the game logged; pressed at the next look

    def _press_new_game(self, status: dict[str, Any]) -> None:
        """Press new game while the table shows the ended game (the new one is then followed)."""
        if status.get("outcome"):
            self.table.press(None, "new_game")


def _players(game: str, seats: tuple[str, ...], seed: int) -> list[Callable[..., Action]]:
    """Each seat's built-in player from the game's ``players`` module, as f(state, seat, rng)."""
    built_in = importlib.import_module(f"games.{game}.players").PLAYERS
    unknown = [name for name in seats if name not in built_in]
    if unknown:
        raise ValueError(f"unknown {game} players {unknown}; built-in: {', '.join(built_in)}")
    return [_as_function(built_in[name], seed + seat) for seat, name in enumerate(seats)]


def _as_function(player: Any, seed: int) -> Callable[..., Action]:
    """A built-in player as f(state, seat, rng): plain functions, or classes with choose()."""
    if isinstance(player, type):
        chooser = player(seed)
        return lambda state, seat, rng: chooser.choose(state, seat)
    return player  # type: ignore[no-any-return]


def _seen_by_all(request: Request) -> bool:
    """Whether everyone sees what is drawn: a die, a draw from the table's own supply (the
    letter bag, a shared deck); never a deal or a draw from a player's own deck."""
    return request.kind == "die" or (request.kind == "draw" and request.player is None)
