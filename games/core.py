"""The contract every rules engine keeps: :class:`State`, actions, events and records.

Engines are pure: standard library only, no I/O, no clocks, no threads.
Randomness comes from the seed and the ply number alone, so a state rebuilt by
:func:`replay` is equal to the original in every respect.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import pkgutil
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar, Final, Literal, Protocol, TypeVar

CHANCE: Final = -1
"""The pseudo-player who acts at a chance node (a die, a draw, a deal)."""

JsonDict = dict[str, Any]


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why, for a player."""


class BadRecord(ValueError):
    """A game record (or an action's JSON) that cannot be read or replayed."""


class BadOptions(ValueError):
    """Game options with an unknown key or a value of the wrong kind."""


def _to_json_value(value: Any) -> Any:
    """Turn tuples (and nested tuples) into lists so the value is JSON-ready."""
    if isinstance(value, tuple | list):
        return [_to_json_value(item) for item in value]
    return value


def _from_json_value(value: Any) -> Any:
    """Turn lists back into tuples: dataclass fields of actions hold tuples."""
    if isinstance(value, list):
        return tuple(_from_json_value(item) for item in value)
    return value


class JsonDataclass:
    """Mixin for frozen dataclasses that travel as ``{"type": Name, **fields}``."""

    def to_json(self) -> JsonDict:
        """This object as a JSON-ready dict naming its type."""
        data: JsonDict = {"type": type(self).__name__}
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            data[field.name] = _to_json_value(getattr(self, field.name))
        return data


D = TypeVar("D", bound=JsonDataclass)


def decode(data: Any, classes: Iterable[type[D]]) -> D:
    """Rebuild an action or event from its JSON form, given the allowed classes.

    Raises :class:`BadRecord` naming what is wrong (not a dict, unknown type,
    missing or unexpected fields, values the class rejects).
    """
    by_name = {cls.__name__: cls for cls in classes}
    if not isinstance(data, dict):
        raise BadRecord(f"expected a JSON object, got {type(data).__name__}")
    name = data.get("type")
    if name not in by_name:
        raise BadRecord(f"unknown type {name!r}; expected one of {sorted(by_name)}")
    cls = by_name[name]
    names = {field.name for field in dataclasses.fields(cls)}  # type: ignore[arg-type]
    given = set(data) - {"type"}
    if given != names:
        missing, extra = sorted(names - given), sorted(given - names)
        raise BadRecord(f"{name}: missing fields {missing}, unexpected fields {extra}")
    kwargs = {key: _from_json_value(data[key]) for key in names}
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as error:
        raise BadRecord(f"{name}: {error}") from error


@dataclasses.dataclass(frozen=True, kw_only=True)
class Action(JsonDataclass):
    """One thing a player (or chance) does. Subclasses add their own fields.

    Every action names the player who takes it, so simultaneous choices and
    response windows need no extra bookkeeping.
    """

    player: int

    def notation(self) -> str:
        """Short text for logs and prompts; games override with their notation."""
        values = ",".join(
            str(getattr(self, f.name)) for f in dataclasses.fields(self) if f.name != "player"
        )
        return f"{type(self).__name__}({values})"

    def __str__(self) -> str:
        return self.notation()

    def safe_notation(self) -> str:
        """The notation, or the plain field list when bad values (a garbage record) break it."""
        try:
            return self.notation()
        except (TypeError, ValueError, AttributeError, IndexError, KeyError):
            return Action.notation(self)


@dataclasses.dataclass(frozen=True)
class Event(JsonDataclass):
    """Something that happened because of an action, for LEDs, logs and players."""

    def describe(self) -> str:
        """One line a player understands; games override."""
        return type(self).__name__

    def __str__(self) -> str:
        return self.describe()


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` is empty for a draw and holds several players for a shared win.
    ``scores`` has one number per player (1/0 for games without points).
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str

    def to_json(self) -> JsonDict:
        """This outcome as a JSON-ready dict."""
        return {"winners": list(self.winners), "scores": list(self.scores), "reason": self.reason}


RequestKind = Literal["die", "draw", "deal", "reveal", "choice"]
"""What a request waits for: a die rolled, a draw (from a bag or a deck), a deal,
a secret revealed (a card turned up), or a player's choice."""
REQUEST_KINDS: Final[tuple[RequestKind, ...]] = ("die", "draw", "deal", "reveal", "choice")


@dataclasses.dataclass(frozen=True)
class RequestOption:
    """One allowed answer to a request: the label a person types or a sensor reports."""

    label: str
    """A die face ("4"), a letter ("A"), a card's name, an action's notation."""
    action: Action
    probability: float | None = None
    """Its chance at a chance node (None for a player's choice)."""


@dataclasses.dataclass(frozen=True)
class Request:
    """What the game waits for from the table, as data (never parsed from prose).

    At a chance node the engine says which chance it is (``kind``), whose it is
    (``player``: whose die, deck or secret; None for the table's own, like the
    letter bag), what for (``purpose``, in words: "die slot 2", "top slot 3",
    "player 2's deck, produce") and the allowed outcomes. A player who must
    choose gets a ``choice`` request with their legal actions; ``default`` is
    the action a seat's confirm button stands for, where the game has one
    (a pass in a response window).

    >>> die = Request("die", None, "die slot 1", (RequestOption("1", Action(player=CHANCE)),))
    >>> die.option("1") is not None, die.option("7")
    (True, None)
    """

    kind: RequestKind
    player: int | None
    purpose: str
    options: tuple[RequestOption, ...]
    default: Action | None = None

    def option(self, label: str) -> Action | None:
        """The action an answer names (compared by :func:`label_key`); None if none."""
        wanted = label_key(label)
        for option in self.options:
            if label_key(option.label) == wanted:
                return option.action
        return None

    def labels(self) -> list[str]:
        """Every allowed answer's label, in order."""
        return [option.label for option in self.options]

    def to_json(self) -> JsonDict:
        """JSON-ready: kind, player, purpose, the labels and the default's notation."""
        return {
            "kind": self.kind,
            "player": self.player,
            "purpose": self.purpose,
            "options": self.labels(),
            "default": None if self.default is None else self.default.notation(),
        }


def label_key(label: Any) -> str:
    """How labels compare: without case, runs of spaces as one.

    >>> label_key("  Lucky   Find ")
    'lucky find'
    """
    return " ".join(str(label).split()).casefold()


def unique_labels(labels: Iterable[Any]) -> list[str]:
    """The labels in order, a repeated one (compared by :func:`label_key`) numbered from #2.

    Two copies of a card are two outcomes with one name: the first keeps the
    name, the next is ``Name #2``, so every answer stays typeable and distinct.

    >>> unique_labels(["Lucky find", "Rod", "lucky find", "Lucky find"])
    ['Lucky find', 'Rod', 'lucky find #2', 'Lucky find #3']
    """
    texts = [" ".join(str(label).split()) for label in labels]
    keys = [text.casefold() for text in texts]
    if len(set(keys)) == len(keys):
        return texts  # the usual case, kept fast: choices list hundreds of actions
    seen: set[str] = set()
    found: list[str] = []
    for base in texts:
        text, number = base, 1
        while text.casefold() in seen:
            number += 1
            text = f"{base} #{number}"
        seen.add(text.casefold())
        found.append(text)
    return found


def chance_options(
    outcomes: Sequence[tuple[Action, float]], label: Any = None
) -> tuple[RequestOption, ...]:
    """Request options for chance outcomes, labelled by ``label(action)`` (default: notation).

    The options keep the outcomes' order and odds; labels are made unique
    (:func:`unique_labels`), so each answer names exactly one outcome.

    >>> outcomes = [(Action(player=CHANCE), 0.5), (Action(player=CHANCE), 0.5)]
    >>> [option.label for option in chance_options(outcomes, lambda action: "Nut")]
    ['Nut', 'Nut #2']
    """
    name = label or (lambda action: action.notation())
    labels = unique_labels(name(action) for action, _ in outcomes)
    return tuple(
        RequestOption(text, action, chance)
        for text, (action, chance) in zip(labels, outcomes, strict=True)
    )


class GameModule(Protocol):
    """What a game package (``games.<name>``) provides."""

    NAME: str
    ACTIONS: tuple[type[Action], ...]

    def new_game(self, options: Mapping[str, Any] | None = None, seed: int = 0) -> State: ...


def merge_options(given: Mapping[str, Any] | None, defaults: Mapping[str, Any]) -> JsonDict:
    """Defaults overlaid with the given options, each checked against its default's type.

    Raises :class:`BadOptions` naming the key, the value and what was expected.
    """
    if given is not None and not isinstance(given, Mapping):
        raise BadOptions(f"options must be a mapping of names to values, not {given!r}")
    merged = dict(defaults)
    for key, value in (given or {}).items():
        if key not in defaults:
            raise BadOptions(f"unknown option {key!r}; known options: {sorted(defaults)}")
        expected = type(defaults[key])
        if (expected is int and isinstance(value, bool)) or not isinstance(value, expected):
            raise BadOptions(
                f"option {key!r} = {value!r}: expected {expected.__name__}, "
                f"like the default {defaults[key]!r}"
            )
        merged[key] = value
    return merged


class State(ABC):
    """A game in progress. Mutable; :meth:`clone` for a copy.

    Subclasses implement the abstract methods. :meth:`apply` checks that the
    action's player may act now, then calls :meth:`_apply`, which must check
    everything else *before* it changes anything, so an illegal action leaves
    the state untouched.

    A game module exposes ``new_game(options, seed)`` returning a mutable
    :class:`State`, and ``ACTIONS``: the action classes its records may hold.
    The state says who may act (:meth:`State.to_act`), what they may do
    (:meth:`State.legal_actions`), applies one action at a time
    (:meth:`State.apply`) and reports the end (:meth:`State.outcome`).

    The contract fits every kind of turn the four games have:

    - sequential turns: ``to_act()`` is one player;
    - simultaneous choices and response windows: ``to_act()`` is several players,
      each of whom applies their own action (an action always names its player);
    - chance nodes: ``to_act()`` is ``(CHANCE,)``; :meth:`State.chance_outcomes`
      lists the outcomes with probabilities, and the table supplies the one a
      sensor saw (in simulation :meth:`State.sample_chance` draws one);
    - hidden information: :meth:`State.view` shows one player only what they may
      know; a secret the table cannot see is supplied as a chance action when it
      is revealed.
    """

    game: ClassVar[str]
    """The name of the game module, for records."""

    def __init__(self, options: Mapping[str, Any], seed: int, num_players: int) -> None:
        self.options: JsonDict = dict(options)
        self.seed = seed
        self.num_players = num_players
        self.history: list[Action] = []

    # -- who acts and what they may do ------------------------------------

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The players who may act now, ``(CHANCE,)`` at a chance node, ``()`` at the end."""

    @abstractmethod
    def legal_actions(self, player: int | None = None) -> Sequence[Action]:
        """The actions ``player`` may take now (every acting player's if ``None``).

        A player who may not act now has none. At a chance node the chance
        actions are listed (the same as :meth:`chance_outcomes` without odds).
        """

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node, each possible outcome with its probability; else ``[]``."""
        return []

    def sample_chance(self) -> Action:
        """Draw a chance outcome from the seed and ply: the same every replay."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalAction("nothing is left to chance now")
        rng = random.Random(f"{self.seed}/{len(self.history)}")
        actions = [action for action, _ in outcomes]
        weights = [probability for _, probability in outcomes]
        return rng.choices(actions, weights)[0]

    # -- what the table must sense ---------------------------------------------

    def requests(self) -> list[Request]:
        """What the game waits for now: the chance request, or one choice per acting player."""
        acting = self.to_act()
        if acting == (CHANCE,):
            return [self.chance_request()]
        return [self.choice_request(player) for player in acting]

    def chance_request(self) -> Request:
        """The chance node as a request; games override to say which chance it is and what for."""
        return Request("draw", None, "a chance outcome", chance_options(self.chance_outcomes()))

    def choice_request(self, player: int) -> Request:
        """``player``'s legal actions as a request, with the game's default (if any)."""
        actions = list(self.legal_actions(player))
        labels = unique_labels([action.notation() for action in actions])
        options = tuple(map(RequestOption, labels, actions))
        purpose = f"{self.player_name(player)}'s choice"
        return Request("choice", player, purpose, options, self.default_action(player))

    def default_action(self, player: int) -> Action | None:
        """The action a seat's confirm button stands for now (a pass); None where there is none."""
        return None

    # -- changing the state ------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Check and apply one action; return the events it caused.

        Raises :class:`IllegalAction`, with the reason in a player's words,
        and leaves the state unchanged when the action is not allowed.
        """
        if not isinstance(action, Action):
            raise IllegalAction(f"{action!r} is not an action")
        acting = self.to_act()
        if not acting:
            raise IllegalAction("the game is over")
        if action.player not in acting:
            raise IllegalAction(self._not_your_turn(action.player, acting))
        events = self._apply(action)
        self.history.append(action)
        return events

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Validate fully, then mutate; called only for a player who may act."""

    def _not_your_turn(self, player: int, acting: tuple[int, ...]) -> str:
        if acting == (CHANCE,):
            return "the table is waiting for a chance outcome (a die, a draw or a deal)"
        if player == CHANCE:
            return "nothing is left to chance now"
        waiting = ", ".join(self.player_name(p) for p in acting)
        return f"it is not {self.player_name(player)}'s turn (waiting for {waiting})"

    # -- the end, what players see, copies --------------------------------

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game runs; then how it ended."""

    @abstractmethod
    def view(self, player: int | None = None) -> JsonDict:
        """What ``player`` may know, JSON-ready (``None``: what the whole table sees)."""

    @abstractmethod
    def snapshot(self) -> JsonDict:
        """The whole state, secrets included, JSON-ready; equality compares it."""

    def player_name(self, player: int) -> str:
        """A name players recognise; games override (Red, Blue, ...)."""
        return "chance" if player == CHANCE else f"player {player + 1}"

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.outcome() is not None

    def clone(self) -> State:
        """An independent copy; games may override with something faster."""
        return copy.deepcopy(self)

    def record(self) -> Record:
        """Everything needed to rebuild this state with :func:`replay`."""
        return Record(self.game, dict(self.options), self.seed, tuple(self.history))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State) or type(other) is not type(self):
            return NotImplemented
        return (
            self.options == other.options
            and self.seed == other.seed
            and self.history == other.history
            and self.snapshot() == other.snapshot()
        )

    __hash__ = None  # type: ignore[assignment]


@dataclasses.dataclass(frozen=True)
class Record:
    """A game as data: game name, options, seed and every applied action."""

    game: str
    options: JsonDict
    seed: int
    actions: tuple[Action, ...]

    def to_json(self) -> JsonDict:
        """The record as a JSON-ready dict."""
        return {
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "actions": [action.to_json() for action in self.actions],
        }

    def dumps(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record; raises :class:`BadRecord` saying what is wrong."""
        if not isinstance(data, dict):
            raise BadRecord("a game record must be a JSON object")
        missing = {"game", "options", "seed", "actions"} - set(data)
        if missing:
            raise BadRecord(f"the record lacks {sorted(missing)}")
        game, options, seed, actions = (data[k] for k in ("game", "options", "seed", "actions"))
        if not isinstance(options, dict):
            raise BadRecord("the record's options must be a JSON object")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadRecord(f"the record's seed must be a whole number, not {seed!r}")
        if not isinstance(actions, list):
            raise BadRecord("the record's actions must be a list")
        module = load_game(game)
        decoded = tuple(decode(action, module.ACTIONS) for action in actions)
        return cls(game, options, seed, decoded)

    @classmethod
    def loads(cls, text: str) -> Record:
        """Read a record from JSON text; garbage gets a :class:`BadRecord`."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise BadRecord(f"not valid JSON: {error}") from error
        return cls.from_json(data)


def load_game(name: Any) -> GameModule:
    """The game module called ``name``; :class:`BadRecord` if there is none."""
    known = available_games()
    if name not in known:
        raise BadRecord(f"unknown game {name!r}; known games: {', '.join(known)}")
    module: ModuleType = importlib.import_module(f"games.{name}")
    return module  # type: ignore[return-value]


def available_games() -> list[str]:
    """The names of the game packages installed beside this module.

    The folder is this file's (not the ``games`` package's ``__path__``), so the
    package that re-exports this module is not imported back from it.
    """
    here = str(Path(__file__).resolve().parent)
    return sorted(info.name for info in pkgutil.iter_modules([here]) if info.ispkg)


def new_game(name: str, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
    """Start the game called ``name``."""
    try:
        return load_game(name).new_game(options, seed)
    except BadRecord as error:
        raise BadOptions(str(error)) from error


def replay(record: Record) -> State:
    """Rebuild a state exactly from a record's options, seed and actions.

    Raises :class:`BadRecord` naming the first action that does not apply.
    """
    try:
        state = load_game(record.game).new_game(record.options, record.seed)
    except (BadOptions, IllegalAction) as error:
        raise BadRecord(f"cannot start {record.game}: {error}") from error
    for number, action in enumerate(record.actions, start=1):
        try:
            state.apply(action)
        except IllegalAction as error:
            raise BadRecord(
                f"action {number} ({action.safe_notation()}) does not apply: {error}"
            ) from error
    return state
