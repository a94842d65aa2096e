"""Simulated people at the mock table: they play Kogworks on the physical board.

The people know only what a person at the table knows: the board in front of
them, the LEDs, and their own memory of the game (a Kogworks state they keep
themselves from the moves they saw accepted). They never look at the
controller. Each camera frame they do one small thing:

- finish a gesture in progress (a hand reaches over the board, a cog is put
  down or moved, the hand withdraws);
- after a change, wait a settling window, then read the LEDs: the turn
  passed to the other seat (or the winner's chase runs) means the move was
  accepted; pegs blinking red (illegal) or amber (the board differs from the
  game) mean put the board back as it was;
- otherwise the player to move picks a move with a built-in player
  (``games.kogworks.players``) on their own copy of the game; with seeded
  probabilities they first try an illegal placement, or the player who just
  moved holds their undo button and takes the move back off the board.

``history`` (their memory's moves) is therefore exactly the list of legal
moves they made; the journal must hold the same list.

What they remember outlives a crash of the program (:meth:`People.to_json`),
and they write down what they are about to do before they do it: a move
(``pending``) before their hand reaches the board, holding undo or pressing
new game (``intent``) a frame before the press. After a restart they do not
know whether the table took it, so they believe the LEDs over their memory:
the turn back at the last mover (and the pegs of the last move blinking
amber) means the table took the move back, whatever they remember.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from cogtable.mock.world import MockWorld
from games.core import Action, decode
from games.kogworks import ACTIONS, NUM_PEGS, TOP, KogworksState, Move, Place, new_game
from games.kogworks.board import ROW_COL
from games.kogworks.players import PLAYERS as BUILT_IN
from hardware.leds import Frame

COLOURS = ("red", "blue")
WHITE = (255, 255, 255)
Pieces = dict[tuple[int, int], str]
Intent = Literal["undo", "new_game"]
"""A button the people are about to press: undo (held, by the last mover) or new game."""
INTENTS: tuple[Intent, ...] = ("undo", "new_game")


class Buttons(Protocol):
    """The buttons people can press: a seat's (``seat`` 0/1) or the table's (``None``)."""

    def press(self, seat: int | None, kind: str, held: bool = False) -> bool:
        """Press (or hold) a button; True once the table has taken the press."""


@dataclass(frozen=True)
class Sight:
    """What a person reads from the LEDs: whose turn, a winner, pegs blinking red or amber."""

    turn: int | None = None
    winner: int | None = None
    red: tuple[int, ...] = ()
    amber: tuple[int, ...] = ()
    take: tuple[int, ...] = ()
    """Pegs blinking white: take the cog from here (the other table's move, to carry out)."""
    white: tuple[int, ...] = ()
    """Pegs lit white: where a lifted cog may go, or where the other table's move puts one."""

    @classmethod
    def of(cls, frame: Frame) -> Sight:
        """Read the seat LEDs and the blinking or white peg LEDs of ``frame``."""
        turn = winner = None
        for seat, look in enumerate(frame.looks.get("seats", ())):
            if look.colour != (0, 0, 0):
                if look.animation.kind == "chase":
                    winner = seat
                elif look.animation.kind == "solid":
                    turn = seat
        red, amber, take, white = [], [], [], []
        for peg, look in enumerate(frame.looks.get("pegs", ())):
            blinking = look.animation.kind == "blink"
            if look.colour == WHITE:
                (take if blinking else white).append(peg)
            elif blinking and look.colour[0] >= 200:
                (red if look.colour[1] < 100 else amber).append(peg)
        return cls(turn, winner, tuple(red), tuple(amber), tuple(take), tuple(white))


@dataclass
class Style:
    """How the people play: built-in players per seat and how often they err or undo."""

    seats: tuple[str, str] = ("strong", "strong")
    illegal_rate: float = 0.08
    undo_rate: float = 0.03
    settle_frames: int = 5
    """Frames to wait after touching the board before reading the LEDs (> settling window)."""
    patience: int = 600
    """Frames to wait for any reaction to a move before taking it back and trying again."""
    here: tuple[int, ...] = (0, 1)
    """The seats played at this table; the others play at another table, whose moves the
    LEDs here show to carry out (a game played across two tables)."""

    def __post_init__(self) -> None:
        unknown = [name for name in self.seats if name not in BUILT_IN]
        if unknown or len(self.seats) != 2:
            raise ValueError(f"seats must be two of {', '.join(BUILT_IN)}, not {self.seats}")


@dataclass
class Pending:
    """A change made on the board that the table has not yet answered."""

    action: Action
    legal: bool
    before: Pieces
    since: int
    carried: bool = False
    """The other table's move, carried out here as the LEDs showed it."""


@dataclass
class GameLog:
    """One finished game as the people saw it."""

    moves: list[Action]
    winner: int | None
    illegal: int
    undos: int
    count: int = -1
    """How many moves the game had; kept when the moves are not (default: ``len(moves)``)."""

    def __post_init__(self) -> None:
        if self.count < 0:
            self.count = len(self.moves)

    def to_json(self, moves: bool = True) -> dict[str, Any]:
        """JSON-ready (``moves=False``: only their number; the journal has them)."""
        return {
            "moves": [action.to_json() for action in self.moves] if moves else [],
            "count": self.count,
            "winner": self.winner,
            "illegal": self.illegal,
            "undos": self.undos,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameLog:
        """Inverse of :meth:`to_json` (the count survives a log kept without its moves)."""
        moves = [decode(item, ACTIONS) for item in data["moves"]]
        count = data.get("count", len(moves))
        return cls(moves, data["winner"], data["illegal"], data["undos"], count)


@dataclass
class People:
    """Both players (and whoever presses the table's buttons) acting on a :class:`MockWorld`."""

    eyes: Callable[[], Frame | None]
    buttons: Buttons | None
    seed: int = 0
    style: Style = field(default_factory=Style)
    games: int = 1
    say: Callable[[str], object] = lambda text: None
    on_finish: Callable[[People], object] = lambda people: None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.hands = random.Random(self.seed + 1)
        self.memory: KogworksState = new_game()
        self.pending: Pending | None = None
        self.intent: Intent | None = None
        """A press decided and saved, not yet made (see the module doc)."""
        self.gesture: deque[Callable[[MockWorld], object]] = deque()
        self.wait_until = self.style.settle_frames
        """Look at the board (and let the table see it) before the first move."""
        self.illegal = 0
        self.undos = 0
        self.played: list[GameLog] = []
        self.finished = False

    def marker(self) -> tuple[Any, ...]:
        """Changes whenever what the people remember changes (to know when to save it)."""
        pending = None if self.pending is None else self.pending.action
        memory = (len(self.memory.history), pending, self.intent)
        return (*memory, len(self.played), self.finished)

    def awaiting_other_table(self) -> bool:
        """Whether the people here wait for a move made at the other table (nothing to do)."""
        idle = self.pending is None and not self.gesture and self.intent is None
        away = self.memory.mover not in self.style.here and not self.memory.is_over()
        return idle and away and not self.finished

    @property
    def history(self) -> list[Action]:
        """The legal moves made in the current game, as the people remember them."""
        return list(self.memory.history)

    # -- one frame ---------------------------------------------------------------

    def __call__(self, world: MockWorld) -> None:
        """Act once, at one camera frame of ``world``."""
        if self.gesture:
            self.gesture.popleft()(world)
            if not self.gesture:
                self.wait_until = world.frames + self.style.settle_frames
            return
        frame = self.eyes()
        if self.finished or frame is None or world.frames < self.wait_until:
            return
        self._look(world, Sight.of(frame))

    def _look(self, world: MockWorld, sight: Sight) -> None:
        if self.intent == "undo":
            self._hold_undo(world, sight)
        elif self.intent == "new_game":
            self._press_new_game(world, sight)
        elif sight.red or sight.amber:
            self._put_right(world, sight)
        elif self.pending is not None:
            self._await_answer(world, sight)
        elif self.memory.is_over():
            self._game_over(world, sight)
        elif self.memory.mover not in self.style.here:
            self._carry_out(world, sight)
        elif sight.turn == self.memory.mover:
            self._take_turn(world)

    def _await_answer(self, world: MockWorld, sight: Sight) -> None:
        pending = self.pending
        assert pending is not None
        guided = pending.carried and bool(sight.take or sight.white)  # not on the board yet
        if (
            pending.legal
            and not guided
            and (sight.winner is not None or sight.turn not in (None, pending.action.player))
        ):
            self.memory.apply(pending.action)
            self.pending = None
            self.say(f"{_name(pending.action.player)} played {pending.action.notation()}: accepted")
        elif world.frames - pending.since > self.style.patience:
            self.say(f"no answer to {pending.action.notation()}: taking it back to try again")
            self._restore(world, pending.before)
            self.pending = None

    def _put_right(self, world: MockWorld, sight: Sight) -> None:
        """The LEDs say the board is wrong: put it back as we remember it."""
        if self.pending is not None:
            colour = "red" if sight.red else "amber"
            self.say(f"{_name(self.pending.action.player)}: LEDs blink {colour}, putting it back")
            self._restore(world, self.pending.before)
            self.pending = None
        elif world.pieces() != pieces_of(self.memory):
            self.say("LEDs blink amber: putting the board back as the game stands")
            self._restore(world, pieces_of(self.memory))
        elif self._table_took_back(sight):
            self._take_back(world, held=False)

    def _restore(self, world: MockWorld, pieces: Pieces) -> None:
        differing = [peg for peg in world.position if world.position[peg] != pieces.get(peg)]
        if not differing:
            return
        self.gesture.extend(
            [
                lambda w: w.reach(differing[0], self.hands),
                lambda w: (w.arrange(_position(pieces)), w.reach(differing[-1], self.hands)),
                lambda w: w.reach(None, self.hands),
            ]
        )

    # -- a turn ------------------------------------------------------------------

    def _take_turn(self, world: MockWorld) -> None:
        roll = self.rng.random()
        if roll < self.style.undo_rate and self.memory.history and self.buttons is not None:
            self.intent = "undo"  # saved this frame; held at the next one
            return
        illegal = self._illegal_choice() if roll > 1 - self.style.illegal_rate else None
        if illegal is not None:
            self.illegal += 1
            self._make(world, illegal, legal=False)
            return
        choose = BUILT_IN[self.style.seats[self.memory.mover]]
        self._make(world, choose(self.memory.clone(), self.rng), legal=True)

    def _make(self, world: MockWorld, action: Action, legal: bool) -> None:
        self.pending = Pending(action, legal, world.pieces(), world.frames)
        colour = COLOURS[action.player]
        if isinstance(action, Move):
            source, target = ROW_COL[action.source], ROW_COL[action.target]
            steps = [
                lambda w: w.reach(source, self.hands),
                lambda w: (w.put(source, None), w.reach(target, self.hands)),
            ]
        else:
            target = ROW_COL[action.peg]  # type: ignore[attr-defined]
            steps = [lambda w: w.reach(target, self.hands)] * self.hands.randint(1, 2)
        steps += [
            lambda w: (w.put(target, colour), w.reach(target, self.hands)),
            lambda w: w.reach(None, self.hands),
        ]
        self.gesture.extend(steps)

    def _carry_out(self, world: MockWorld, sight: Sight) -> None:
        """The opponent plays at another table: make the move the LEDs show, once they show one.

        One peg lit white is where their cog goes; a peg blinking white, where it comes from
        (none: from their reserve). The cog is theirs: the colour of the seat to move.
        """
        if len(sight.white) != 1 or len(sight.take) > 1:
            return  # nothing to carry out yet: their move has not come
        mover, target = self.memory.mover, sight.white[0]
        action: Action = (
            Move(sight.take[0], target, player=mover) if sight.take else Place(target, player=mover)
        )
        if self.memory.why_illegal(action):
            return  # not a move of the game we remember: look again
        self._make(world, action, legal=True)
        assert self.pending is not None
        self.pending.carried = True
        self.say(f"{_name(mover)} played {action.notation()} at the other table: carrying it out")

    def _illegal_choice(self) -> Action | None:
        """A placement the rules forbid (a person's mistake), if the mover has a cog left."""
        state, mover = self.memory, self.memory.mover
        if state.reserves()[mover] == 0:
            return None
        empty = [peg for peg in range(NUM_PEGS) if peg != TOP and state.owner(peg) is None]
        wrong = [
            Place(peg, player=mover) for peg in empty if state.why_illegal(Place(peg, player=mover))
        ]
        return self.rng.choice(wrong) if wrong else None

    def _hold_undo(self, world: MockWorld, sight: Sight) -> None:
        """The last mover holds undo; if the table takes the move back, so do we.

        If the LEDs already give the turn back to the last mover, the table took
        the move back before (the press was made, then the program stopped):
        holding undo again would take back one move more.
        """
        last = self.memory.history[-1]
        if sight.turn == last.player:
            self._take_back(world, held=False)
            return
        if sight.turn != self.memory.mover:
            return  # the LEDs show no turn (paused, unplugged): look again later
        assert self.buttons is not None
        pressed = self.buttons.press(last.player, "undo", held=True)
        frame = self.eyes() if pressed else None
        if frame is not None and Sight.of(frame).turn == last.player:
            self._take_back(world, held=True)
        else:
            self.intent = None  # the table did not take it back: play on

    def _table_took_back(self, sight: Sight) -> bool:
        """The LEDs say the table no longer has our last move (taken back before a restart).

        The turn is back at its mover and exactly the pegs that move touched blink amber.
        """
        history = self.memory.history
        if not history or sight.turn != history[-1].player:
            return False
        before = pieces_of(_replayed(history[:-1]))
        now = pieces_of(self.memory)
        touched = {peg for peg in {*before, *now} if before.get(peg) != now.get(peg)}
        return set(sight.amber) == {PEG_OF[row_col] for row_col in touched}

    def _take_back(self, world: MockWorld, held: bool) -> None:
        """Forget the last move, as the table did, and take its cog back off the board.

        ``held``: the undo was just held; else the LEDs said it was taken back before.
        """
        last = self.memory.history[-1]
        self.memory = _replayed(self.memory.history[:-1])
        self.intent = None
        self.undos += 1
        if held:
            self.say(f"{_name(last.player)} held undo: took back {last.notation()}")
        else:
            self.say(f"the LEDs say {last.notation()} was taken back: putting the board back")
        self._restore(world, pieces_of(self.memory))

    # -- between games -------------------------------------------------------------

    def _game_over(self, world: MockWorld, sight: Sight) -> None:
        if sight.winner is None:
            return
        outcome = self.memory.outcome()
        winner = outcome.winners[0] if outcome and outcome.winners else None
        self.played.append(GameLog(self.history, winner, self.illegal, self.undos))
        self.say(f"game over: {_name(winner) if winner is not None else 'nobody'} wins")
        self.illegal = self.undos = 0
        if len(self.played) >= self.games:
            self.finished = True
            self.on_finish(self)
        elif self.buttons is not None:
            self.intent = "new_game"  # saved with the game played; pressed at the next frame

    def _press_new_game(self, world: MockWorld, sight: Sight) -> None:
        """Press new game while the LEDs show the ended game; then clear the board for the next.

        A turn shown and no winner means the new game stands already (pressed
        before a restart): pressing again would only ask to abandon it.
        """
        if sight.winner is None and sight.turn is None:
            return  # the LEDs show neither (paused, unplugged): look again later
        assert self.buttons is not None
        if sight.winner is not None and not self.buttons.press(None, "new_game"):
            return  # not taken: press again at the next look
        self.memory, self.intent = new_game(), None
        self._restore(world, pieces_of(self.memory))

    # -- memory that outlives a crash of the program --------------------------------

    def to_json(self) -> dict[str, Any]:
        """Everything the people remember, JSON-ready."""
        pending = self.pending
        return {
            "history": [action.to_json() for action in self.memory.history],
            "pending": None
            if pending is None
            else {
                "action": pending.action.to_json(),
                "legal": pending.legal,
                "carried": pending.carried,
                "before": [[r, c, colour] for (r, c), colour in pending.before.items()],
            },
            "intent": self.intent,
            "illegal": self.illegal,
            "undos": self.undos,
            "played": [log.to_json(moves=False) for log in self.played],
            "rng": self.rng.getstate(),
            "finished": self.finished,
        }

    def restore(self, data: dict[str, Any], frames: int) -> None:
        """Take back the memory :meth:`to_json` wrote (a gesture in progress is forgotten)."""
        self.memory = _replayed([decode(item, ACTIONS) for item in data["history"]])
        pending = data["pending"]
        self.pending = None
        if pending is not None:
            before = {(r, c): colour for r, c, colour in pending["before"]}
            action = decode(pending["action"], ACTIONS)
            carried = bool(pending.get("carried", False))
            self.pending = Pending(action, pending["legal"], before, frames, carried)
        intent = data.get("intent")
        if intent is not None and (intent not in INTENTS or not self.memory.history):
            raise ValueError(f"not something the people were about to do: {intent!r}")
        self.intent = intent
        self.illegal, self.undos = data["illegal"], data["undos"]
        self.played = [GameLog.from_json(item) for item in data["played"]]
        self.rng.setstate(_tupled(data["rng"]))
        self.finished = data["finished"]
        self.gesture.clear()
        self.wait_until = frames + self.style.settle_frames


def _name(player: int) -> str:
    return ("Red", "Blue")[player]


def pieces_of(state: KogworksState) -> Pieces:
    """The board a game state stands for, as the camera sees it."""
    pieces = {ROW_COL[TOP]: "gold"}
    for player, colour in enumerate(COLOURS):
        for peg in state.cogs(player):
            pieces[ROW_COL[peg]] = colour
    return pieces


PEG_OF = {row_col: peg for peg, row_col in enumerate(ROW_COL)}
"""(row, column) -> the engine's peg number (the index of its LED)."""


def _position(pieces: Pieces) -> dict[tuple[int, int], str | None]:
    return {ROW_COL[peg]: pieces.get(ROW_COL[peg]) for peg in range(NUM_PEGS)}


def position_of(state: KogworksState) -> dict[tuple[int, int], str | None]:
    """Every peg of the disk and what stands on it in ``state`` (None: empty)."""
    return _position(pieces_of(state))


def _replayed(actions: list[Action]) -> KogworksState:
    state = new_game()
    for action in actions:
        state.apply(action)
    return state


def _tupled(value: Any) -> Any:
    return tuple(_tupled(item) for item in value) if isinstance(value, list) else value
