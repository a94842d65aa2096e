"""Kogworks game state, actions, events and notation on the shared engine contract.

Player 0 is Red (base on row 10, first peg), player 1 is Blue (base on row 10,
last peg). Notation: ``+7.3`` places a cog from the reserve on row 7, position
3; ``7.3-8.4`` moves the cog on 7.3 to 8.4.

>>> state = new_game()
>>> [str(event) for event in state.apply(parse("+9.1", 0))]
['Red placed a cog on 9.1']
>>> state.to_act(), state.reserves()
((1,), (13, 14))
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from games.core import (
    Action,
    BadOptions,
    Event,
    IllegalAction,
    JsonDict,
    Outcome,
    State,
    merge_options,
)
from games.kogworks import rules
from games.kogworks.board import (
    BASES,
    BIT,
    NUM_PEGS,
    TOP,
    Peg,
    flood,
    mask_of,
    parse_peg,
    peg_name,
    pegs_of,
)
from games.kogworks.position import KogworksPosition

NAME: Final = "kogworks"
PLAYERS: Final = ("Red", "Blue")
RESERVE: Final = 14
"""Movable cogs each player starts with in reserve."""
DEFAULTS: Final[JsonDict] = {"first": "red", "repetition_draw": False}
"""``first``: who starts, ``red`` or ``blue``; ``repetition_draw``: the optional
house rule (a draw on the third repetition of a position, same player to move)."""

REASON_TOP: Final = "turned the top wheel"
REASON_BLOCKED: Final = "blocked: no legal move"
REASON_REPETITION: Final = "draw by threefold repetition"


def _check_peg(value: Any, what: str) -> None:
    """Reject a peg field that is not a peg number (records may hold anything)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < NUM_PEGS:
        raise ValueError(f"{what} must be a peg number 0..{NUM_PEGS - 1}, not {value!r}")


@dataclass(frozen=True)
class Place(Action):
    """Put a cog from the player's reserve on an empty peg."""

    peg: Peg

    def __post_init__(self) -> None:
        _check_peg(self.peg, "peg")

    def notation(self) -> str:
        return f"+{peg_name(self.peg)}"


@dataclass(frozen=True)
class Move(Action):
    """Move one of the player's cogs from ``source`` to the empty peg ``target``."""

    source: Peg
    target: Peg

    def __post_init__(self) -> None:
        _check_peg(self.source, "source")
        _check_peg(self.target, "target")

    def notation(self) -> str:
        return f"{peg_name(self.source)}-{peg_name(self.target)}"


ACTIONS: Final = (Place, Move)


def parse(text: str, player: int) -> Place | Move:
    """Read ``+7.3`` or ``7.3-8.4`` for ``player``; ValueError says what is wrong.

    >>> parse("7.3-8.4", 1).notation()
    '7.3-8.4'
    """
    if player not in (0, 1):
        raise ValueError(f"player must be 0 (Red) or 1 (Blue), not {player!r}")
    written = text.strip()
    if written.startswith("+"):
        return Place(parse_peg(written[1:]), player=player)
    parts = written.split("-")
    if len(parts) != 2:
        raise ValueError(
            f"{written!r} is neither a placement (+7.3) nor a move (7.3-8.4)"
            if written
            else "nothing written; a placement looks like +7.3, a move like 7.3-8.4"
        )
    source, target = parse_peg(parts[0]), parse_peg(parts[1])
    if source == target:
        raise ValueError("a move must go to a different peg")
    return Move(source, target, player=player)


@dataclass(frozen=True)
class Placed(Event):
    """A cog went from a reserve onto the board."""

    player: int
    peg: Peg

    def describe(self) -> str:
        return f"{PLAYERS[self.player]} placed a cog on {peg_name(self.peg)}"


@dataclass(frozen=True)
class Moved(Event):
    """A cog moved on the board."""

    player: int
    source: Peg
    target: Peg

    def describe(self) -> str:
        name = PLAYERS[self.player]
        return f"{name} moved a cog from {peg_name(self.source)} to {peg_name(self.target)}"


@dataclass(frozen=True)
class Won(Event):
    """The mover turned the top wheel; ``group`` is every wheel that turns with it."""

    player: int
    group: tuple[Peg, ...]

    def describe(self) -> str:
        return f"{PLAYERS[self.player]} turns the top wheel and wins"


@dataclass(frozen=True)
class LostByBlock(Event):
    """The player to move has no legal move and loses."""

    player: int

    def describe(self) -> str:
        name = PLAYERS[self.player]
        return f"{name} has no move that lets their base turn: {name} loses"


@dataclass(frozen=True)
class Drawn(Event):
    """The game ended without a winner (only under the repetition house rule)."""

    reason: str

    def describe(self) -> str:
        return f"draw ({self.reason})"


_PLACE_CACHE: dict[int, tuple[Place, ...]] = {}
_MOVE_CACHE: dict[tuple[int, Peg], tuple[Move, ...]] = {}


def _place_actions(player: int) -> tuple[Place, ...]:
    """Every placement action of ``player``, built once and shared."""
    if player not in _PLACE_CACHE:
        _PLACE_CACHE[player] = tuple(Place(peg, player=player) for peg in range(NUM_PEGS))
    return _PLACE_CACHE[player]


def _move_actions(player: int, source: Peg) -> tuple[Move, ...]:
    """Every move action of ``player`` from ``source``, indexed by target."""
    key = (player, source)
    if key not in _MOVE_CACHE:
        _MOVE_CACHE[key] = tuple(Move(source, target, player=player) for target in range(NUM_PEGS))
    return _MOVE_CACHE[key]


class LegalActions(Sequence[Action]):
    """A player's legal actions, generated as bitboards and listed only when asked.

    ``len`` counts bits; ``in`` tests a bit; iterating builds (once) a list of
    shared, pre-built action objects.
    """

    __slots__ = ("_listed", "masks", "player")

    def __init__(self, masks: rules.MoveMasks, player: int) -> None:
        self.masks = masks
        self.player = player
        self._listed: list[Action] | None = None

    def __len__(self) -> int:
        return self.masks.count()

    def __bool__(self) -> bool:
        return bool(self.masks.place) or any(self.masks.moves.values())

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Place | Move) or action.player != self.player:
            return False
        if isinstance(action, Place):
            return bool(self.masks.place & BIT[action.peg])
        return bool(self.masks.moves.get(action.source, 0) & BIT[action.target])

    def __iter__(self) -> Iterator[Action]:
        return iter(self.listed())

    def __getitem__(self, index: Any) -> Any:
        return self.listed()[index]

    def __repr__(self) -> str:
        return f"LegalActions({[action.notation() for action in self.listed()]})"

    def listed(self) -> list[Action]:
        """The actions as a list (built once)."""
        if self._listed is None:
            places = _place_actions(self.player)
            listed: list[Action] = [places[peg] for peg in pegs_of(self.masks.place)]
            for source, targets in self.masks.moves.items():
                row = _move_actions(self.player, source)
                listed += [row[target] for target in pegs_of(targets)]
            self._listed = listed
        return self._listed


_NO_ACTIONS = LegalActions(rules.MoveMasks(0, 0, {}, {}), 0)


class KogworksState(State):
    """A Kogworks game: two colours of cogs on 55 pegs, Red (0) against Blue (1)."""

    game = NAME

    def __init__(self, options: Mapping[str, Any], seed: int) -> None:
        super().__init__(options, seed, num_players=2)
        self.boards = [BIT[BASES[0]], BIT[BASES[1]]]
        """Each colour's wheels (base included) as bitboards."""
        self.mover = 0 if options["first"] == "red" else 1
        self.result: Outcome | None = None
        self.won_group = 0
        self.seen: dict[tuple[int, int, int], int] = {}
        self._masks: rules.MoveMasks | None = None
        self._legal: LegalActions | None = None
        self._remember_position()

    # -- positions -------------------------------------------------------------

    @classmethod
    def from_position(
        cls, position: KogworksPosition, options: Mapping[str, Any] | None = None, seed: int = 0
    ) -> KogworksState:
        """A game set up in ``position`` (it has no history, so its record does not replay)."""
        state = new_game(options, seed)
        state.set_position(position)
        return state

    def position(self) -> KogworksPosition:
        """The position now, as data."""
        red, blue = (frozenset(self.cogs(p)) - {BASES[p]} for p in (0, 1))
        return KogworksPosition(red, blue, self.mover)

    def set_position(self, position: KogworksPosition) -> None:
        """Set the board and the mover (the game starts over from there: no history, no result)."""
        self.boards = [BIT[BASES[p]] | mask_of(position.cogs(p)) for p in (0, 1)]
        self.mover = position.mover
        self.result, self.won_group, self.seen, self.history = None, 0, {}, []
        self._masks, self._legal = None, None
        self._remember_position()

    # -- the board -----------------------------------------------------------

    def occupied(self) -> int:
        """Every wheel on the board, top wheel included, as a bitboard."""
        return self.boards[0] | self.boards[1] | BIT[TOP]

    def reserves(self) -> tuple[int, int]:
        """Cogs each player still has off the board."""
        return (
            RESERVE + 1 - self.boards[0].bit_count(),
            RESERVE + 1 - self.boards[1].bit_count(),
        )

    def owner(self, peg: Peg) -> int | None:
        """0 or 1 for a coloured wheel (bases included), None for the top wheel or empty."""
        bit = BIT[peg]
        return 0 if self.boards[0] & bit else 1 if self.boards[1] & bit else None

    def cogs(self, player: int) -> list[Peg]:
        """The pegs of ``player``'s wheels, base included."""
        return pegs_of(self.boards[player])

    def player_name(self, player: int) -> str:
        return PLAYERS[player] if player in (0, 1) else super().player_name(player)

    # -- the contract ----------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        return () if self.result is not None else (self.mover,)

    def legal_actions(self, player: int | None = None) -> LegalActions:
        if self.result is not None or player not in (None, self.mover):
            return _NO_ACTIONS
        if self._legal is None or self._legal.masks is not self.move_masks():
            self._legal = LegalActions(self.move_masks(), self.mover)
        return self._legal

    def move_masks(self) -> rules.MoveMasks:
        """The mover's legal moves as bitboards (computed once per position)."""
        if self._masks is None:
            mover = self.mover
            self._masks = rules.generate(
                self.boards[mover], self.occupied(), mover, self.reserves()[mover]
            )
        return self._masks

    def _apply(self, action: Action) -> list[Event]:
        masks = self.move_masks()
        if isinstance(action, Place) and masks.place & BIT[action.peg]:
            return self._commit(action.peg, None, bool(masks.place_wins & BIT[action.peg]))
        if isinstance(action, Move) and masks.moves.get(action.source, 0) & BIT[action.target]:
            wins = masks.move_wins[action.source] & BIT[action.target]
            return self._commit(action.target, action.source, bool(wins))
        reasons = self.why_illegal(action)
        raise IllegalAction(reasons[0].text if reasons else f"{action} is not a legal move")

    def _commit(self, target: Peg, source: Peg | None, wins: bool) -> list[Event]:
        """Change the board (the move is known to be legal) and settle the game's end."""
        player = self.mover
        if source is not None:
            self.boards[player] &= ~BIT[source]
        self.boards[player] |= BIT[target]
        self._masks = None
        events: list[Event] = [
            Placed(player, target) if source is None else Moved(player, source, target)
        ]
        if wins:
            return [*events, self._win(player)]
        self.mover = 1 - player
        return events + self._after_turn()

    def _win(self, player: int) -> Event:
        self.won_group = flood(BIT[BASES[player]], self.occupied())
        self.result = Outcome((player,), _scores(player), REASON_TOP)
        return Won(player, tuple(pegs_of(self.won_group)))

    def _after_turn(self) -> list[Event]:
        """Repetition (if the house rule is on) and the loss of a blocked player."""
        if self._remember_position() >= 3:
            self.result = Outcome((), (0.5, 0.5), REASON_REPETITION)
            return [Drawn("the same position came up a third time")]
        if not self.legal_actions(self.mover):
            self.result = Outcome((1 - self.mover,), _scores(1 - self.mover), REASON_BLOCKED)
            return [LostByBlock(self.mover)]
        return []

    def _remember_position(self) -> int:
        """Count this position (board and mover) when the repetition rule is on."""
        if not self.options["repetition_draw"]:
            return 0
        key = (self.boards[0], self.boards[1], self.mover)
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key]

    def outcome(self) -> Outcome | None:
        return self.result

    def view(self, player: int | None = None) -> JsonDict:
        """The whole board (Kogworks hides nothing), in notation, for any player."""
        return {
            "red": [peg_name(peg) for peg in self.cogs(0)],
            "blue": [peg_name(peg) for peg in self.cogs(1)],
            "reserves": list(self.reserves()),
            "to_move": None if self.result else PLAYERS[self.mover],
            "base_turns": [self.base_turns(0), self.base_turns(1)],
            "outcome": self.result.to_json() if self.result else None,
        }

    def snapshot(self) -> JsonDict:
        return {
            "red": self.cogs(0),
            "blue": self.cogs(1),
            "mover": self.mover,
            "outcome": self.result.to_json() if self.result else None,
            "won_group": pegs_of(self.won_group),
            # The repetition table follows from the history (compared by State.__eq__);
            # a summary keeps snapshots constant-size as games grow long.
            "repetitions": self.seen.get((self.boards[0], self.boards[1], self.mover), 0),
            "positions_seen": len(self.seen),
        }

    def clone(self) -> KogworksState:
        twin = KogworksState.__new__(KogworksState)
        twin.__dict__.update(self.__dict__)
        twin.options = dict(self.options)
        twin.history = list(self.history)
        twin.boards = list(self.boards)
        twin.seen = dict(self.seen)
        return twin

    # -- answers for the table's LEDs ----------------------------------------------

    def destinations(self, source: Peg | None = None) -> list[Peg]:
        """Legal target pegs for the mover's cog on ``source`` (None: from the reserve)."""
        if self.result is not None:
            return []
        masks = self.move_masks()
        return pegs_of(masks.place if source is None else masks.moves.get(source, 0))

    def base_turns(self, player: int) -> bool:
        """True if ``player``'s base wheel can turn now."""
        return rules.base_turns(self.occupied(), player)

    def winning_group(self) -> list[Peg]:
        """After a win: every wheel of the group that turns the top wheel; else []."""
        return pegs_of(self.won_group)

    def winning_moves(self) -> list[Action]:
        """The mover's legal actions that win at once."""
        if self.result is not None:
            return []
        masks = self.move_masks()
        places = _place_actions(self.mover)
        listed: list[Action] = [places[peg] for peg in pegs_of(masks.place_wins)]
        for source, targets in masks.move_wins.items():
            row = _move_actions(self.mover, source)
            listed += [row[target] for target in pegs_of(targets)]
        return listed

    def why_illegal(self, action: Action) -> list[rules.Violation]:
        """Every reason ``action`` is illegal now, with the pegs involved; [] if legal."""
        if self.result is not None:
            return [rules.Violation("game-over", (), "the game is over")]
        if action in self.legal_actions(self.mover):
            return []
        basic = self._basic_violation(action)
        if basic is not None:
            return [basic]
        return self._after_violations(action)  # type: ignore[arg-type]

    def _basic_violation(self, action: Action) -> rules.Violation | None:
        """Wrong turn, wrong kind, occupied target, not own cog, empty reserve."""
        if action.player != self.mover:
            text = f"it is {PLAYERS[self.mover]}'s turn"
            return rules.Violation("turn", (), text)
        if not isinstance(action, Place | Move):
            return rules.Violation("kind", (), f"{action!r} is not a Kogworks action")
        occupied = self.occupied()
        if occupied & BIT[action.peg if isinstance(action, Place) else action.target]:
            return _occupied(action.peg if isinstance(action, Place) else action.target)
        if isinstance(action, Place):
            if self.reserves()[self.mover] == 0:
                return rules.Violation("reserve", (), "no cogs left in the reserve: move one")
            return None
        return self._source_violation(action)

    def _source_violation(self, action: Move) -> rules.Violation | None:
        """A move must start from one of the mover's own movable cogs."""
        source, name = action.source, peg_name(action.source)
        if source == action.target:
            return rules.Violation("same-peg", (source,), "a move must go to a different peg")
        if source == BASES[self.mover]:
            return rules.Violation("base", (source,), "the base wheel never moves")
        if not self.boards[self.mover] & BIT[source]:
            empty = self.owner(source) is None and source != TOP
            text = f"{name} holds no cog" if empty else f"the wheel on {name} is not your cog"
            return rules.Violation("not-own", (source,), text)
        return None

    def _after_violations(self, action: Place | Move) -> list[rules.Violation]:
        own = self.boards[self.mover]
        if isinstance(action, Move):
            own &= ~BIT[action.source]
        target = action.peg if isinstance(action, Place) else action.target
        own |= BIT[target]
        occupied = own | self.boards[1 - self.mover] | BIT[TOP]
        return rules.after_move_violations(own, occupied, self.mover, target)


def _occupied(peg: Peg) -> rules.Violation:
    return rules.Violation("occupied", (peg,), f"{peg_name(peg)} is not empty")


def _scores(winner: int) -> tuple[float, float]:
    return (1.0, 0.0) if winner == 0 else (0.0, 1.0)


def new_game(options: Mapping[str, Any] | None = None, seed: int = 0) -> KogworksState:
    """A new game: empty board but for the top wheel and both bases."""
    merged = merge_options(options, DEFAULTS)
    first = merged["first"].lower()
    if first not in ("red", "blue"):
        raise BadOptions(f"option 'first' = {merged['first']!r}: expected 'red' or 'blue'")
    merged["first"] = first
    return KogworksState(merged, seed)
