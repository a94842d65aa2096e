"""The one protocol every game's table adapter keeps, and what adapters share.

The table core (:class:`cogtable.table.GameTable`, the runtime, the journal,
the service, the mock table) knows no game. Everything game-specific sits
behind :class:`TableAdapter`, one subclass per game, in that game's kit
(``cogtable/tables/<game>/adapter.py``):

- what the camera must read (:meth:`TableAdapter.camera_regions`);
- what a settled observation means (:meth:`TableAdapter.judge`): a move,
  a take-back, a piece lifted, an illegal change (with the places to blink),
  out of sync, or nothing yet;
- how a sensed answer fills a request (:meth:`TableAdapter.fill`);
- the LED frame (:meth:`TableAdapter.frame`) and the terminal screen
  (:meth:`TableAdapter.screen`) for a state;
- which parts of a profile the game needs (:meth:`TableAdapter.missing`).

The defaults here are what a game without a camera reader gets: nothing is
read from the camera, every request goes to a sensor or the console, and the
seat LEDs show whose turn it is, who may respond and who won.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal

from cogtable.commit_decision import Explanations
from games.core import CHANCE, Action, Event, Request, RequestKind, State
from hardware.leds import SOLID, Frame, pulse
from hardware.profile import Profile
from vision.layout import PartLayout

if TYPE_CHECKING:
    from cogtable.sensors import Sensors

RGB = tuple[int, int, int]
WHITE: Final = (255, 255, 255)
RED: Final = (255, 0, 0)
AMBER: Final = (255, 140, 0)
GREEN: Final = (0, 255, 0)
DIM: Final = 0.15
RESPOND_PULSE_S: Final = 1.2
"""Period of a seat LED that may respond (pulsing in the seat's colour)."""

ReaderKind = Literal["peg-disk", "parts", "cards"]
"""The vision readers a camera region may name (the runtime picks the sight by it)."""
PEG_DISK: Final[ReaderKind] = "peg-disk"
"""The Kogworks peg disk: 55 pegs read by colour (:mod:`vision.peg_disk.reader`)."""
PRINTED_PARTS: Final[ReaderKind] = "parts"
"""Printed parts with their own markers and places (:mod:`vision.parts.reader`)."""
CARD_MAT: Final[ReaderKind] = "cards"
"""A card mat: tagged cards per zone (:mod:`vision.cards.reader`)."""

VerdictKind = Literal[
    "in-sync",
    "move",
    "choose",
    "take-back",
    "lifted",
    "illegal",
    "out-of-sync",
    "carry-out",
    "nothing",
]
"""``carry-out``: another table's move (``action``), journaled here, is not yet on this board:
the LEDs guide the local player to make it (a game played across two tables)."""


@dataclass(frozen=True)
class Verdict:
    """What a settled observation means for the game.

    ``places`` are indices in the adapter's :attr:`TableAdapter.places_segment`
    (Kogworks: pegs) to light: the lifted piece, the illegal places, or the
    differing ones; ``other_places`` the same in other segments (segment name,
    indices). A ``choose`` verdict is a change that several legal actions
    explain (a cog placed with or without a star power): ``options`` lists
    them, the plain one first, which a seat's confirm button takes.
    """

    kind: VerdictKind
    action: Action | None = None
    places: tuple[int, ...] = ()
    reason: str = ""
    options: tuple[Action, ...] = ()
    other_places: tuple[tuple[str, tuple[int, ...]], ...] = ()


@dataclass(frozen=True)
class Flash:
    """An action just accepted: its places flash green from ``start``."""

    places: tuple[int, ...]
    start: float


@dataclass(frozen=True)
class CameraRegion:
    """One part of the table the camera must read, and the vision reader for it."""

    name: str
    """The physical part: ``disk`` (the Kogworks peg disk), later a C.O.G. mat, a card mat."""
    reader: ReaderKind
    """The vision reader that reads it (:data:`PEG_DISK`, :data:`PRINTED_PARTS` with a
    ``layout``, :data:`CARD_MAT`)."""
    answers: tuple[RequestKind, ...] = ("choice",)
    """The kinds of request its settled readings answer (Kogworks: the mover's choice)."""
    layout: PartLayout | None = None
    """For the ``parts`` reader: the printed part, its markers and places."""


@dataclass(frozen=True)
class Scene:
    """What the table shows beyond the engine state: the verdict, the requests, a flash."""

    verdict: Verdict
    seat_colours: tuple[RGB, ...]
    requests: tuple[Request, ...] = ()
    """The requests the table is asking for now (public ones only)."""
    routes: tuple[str, ...] = ()
    """Where each request goes: ``camera``, ``dice`` or ``console``."""
    accepted: Flash | None = None
    message: str = ""
    last: str = ""
    """The last thing that happened, in words (an event or an action)."""

    def choosing(self) -> tuple[int, ...]:
        """The players asked to choose, in the order the table asks them (first: whose turn)."""
        return tuple(
            request.player
            for request in self.requests
            if request.kind == "choice" and request.player is not None
        )


@dataclass(frozen=True)
class Sensed:
    """An answer a sensor or a person gave: a die value, or text typed at the console."""

    source: Literal["dice", "console", "camera"]
    text: str
    """The die's value as text ("4"), or what was typed."""


class TableAdapter(ABC):
    """One game at the table. Subclasses set :attr:`game` and override what they read."""

    game: ClassVar[str]
    places_segment: ClassVar[str | None] = None
    """The LED segment whose indices a verdict's places name (None: the game has none)."""
    player_counts: ClassVar[Mapping[str, Sequence[int]]] = {}
    """Allowed player counts by variant (``""``: the only variant)."""
    camera_note: ClassVar[str] = ""
    """Why the camera reads nothing for this game yet (shown in the status), if so."""

    # -- what the table needs and how the game is set up ---------------------------

    def fitted(self, sensors: Sensors) -> TableAdapter:
        """This game's adapter for a table with ``sensors`` (default: the same adapter).

        A game read only where the profile has the part (the Cookie's card mat)
        declares its camera regions here; without the part it goes by the console.
        """
        return self

    def camera_regions(self) -> tuple[CameraRegion, ...]:
        """What the camera must read for this game (none: every move comes another way)."""
        return ()

    def regions_for(self, state: State) -> tuple[CameraRegion, ...]:
        """The regions a game in ``state`` reads (a two-player game: two mats, not four)."""
        return self.camera_regions()

    def segments_needed(self) -> tuple[str, ...]:
        """LED segments the game needs besides ``seats`` and ``status``."""
        return (self.places_segment,) if self.places_segment else ()

    def segments_drawn(self) -> tuple[str, ...]:
        """LED segments the game draws on where the profile has them (the terminal shows them)."""
        return self.segments_needed()

    # -- what a settled observation means ----------------------------------------------

    def judge(
        self,
        state: State,
        observation: Any,
        before: State | None,
        camera_requests: Sequence[Request] = (),
    ) -> Verdict:
        """What a settled camera observation means; a game with no reader sees nothing.

        ``camera_requests`` are the open requests this table routes to the
        camera (a letter drawn into a slot; a die in its slot when the
        profile's dice are read by the camera): only those may be answered.
        """
        return Verdict("nothing", reason="this game reads nothing from the camera")

    def memory(self) -> object:
        """What this adapter remembers beyond the engine (None: nothing).

        The table's memory is the journal's: an adapter keeps no history the engine
        and the last reading it committed to cannot give it, so a table rebuilt from
        the journal and given this (:meth:`recall`) judges the next reading alike.
        """
        return None

    def recall(self, memory: object) -> None:  # noqa: B027 (an adapter remembering nothing)
        """Take ``memory`` (another table's :meth:`memory` at the same ply) as its own."""

    def explanations(self, state: State, before: State | None) -> Explanations | None:
        """What the camera's regions may show next, for the commit decision
        (:mod:`cogtable.commit_decision`): the game's position, its legal successors, a
        take-back, physical mistakes. None (the default): no game narrows what is seen, and
        every place needs its own certainty."""
        return None

    def differing(self, state: State, observation: Any) -> tuple[int, ...]:
        """The places where the observation differs from the game."""
        return ()

    def difference_words(self, state: State, observation: Any) -> str:
        """What the observation shows where it differs from the game, in words ("": the table
        only counts the differing places): what a waiting table says it sees."""
        return ""

    def resync(self, state: State, observation: Any) -> Verdict:
        """Not in sync yet: whether the observation now matches the game, or what differs."""
        places = self.differing(state, observation)
        if places:
            return Verdict(
                "out-of-sync", places=places, reason="put the board back as the LEDs show"
            )
        return Verdict("in-sync", reason="the board matches the game")

    def resets_board(self, before: State, state: State) -> bool:
        """Whether the board is cleared after the move from ``before`` to ``state``.

        True where the game starts afresh on the table (the Cookie's cards are
        gathered between rounds): the table then only compares readings until
        the board matches again, so a card left from the last round is never
        taken for a move of the next.
        """
        return False

    def places_of(self, action: Action) -> tuple[int, ...]:
        """The places an action touches, to flash when it is accepted."""
        return ()

    def start_in_sync(self) -> bool:
        """Whether a fresh or resumed game may count changes at once (no board to compare)."""
        return not self.camera_regions()

    # -- requests and answers ----------------------------------------------------------

    def camera_reads(self, state: State, request: Request) -> bool:
        """Whether a camera region answers ``request`` (by its kind; games refine it)."""
        return any(request.kind in region.answers for region in self.camera_regions())

    def waited_for(self, state: State) -> tuple[int, ...]:
        """The players the table shows as acting: ``to_act`` less any secret (games override)."""
        return tuple(player for player in state.to_act() if player != CHANCE)

    def confirmed(self, state: State, request: Request) -> Action | None:
        """What the asked seat's confirm button stands for in ``request`` (default: the game's).

        A table may give the button a meaning the engine has no default for
        (the Cookie on a card mat: "I looked" at the exclusion card).
        """
        return request.default

    def pressed(self, state: State, seat: int) -> str:
        """A seat's confirm that stands for no action: a mark the adapter keeps, in words.

        "" (the default): the press means nothing now. The Cookie: "my card is
        down", where the camera cannot see its back.
        """
        return ""

    def fill(self, request: Request, answer: Sensed) -> Action | None:
        """The action a sensed answer stands for in ``request``; None if it fits none."""
        if answer.source == "dice" and request.kind != "die":
            return None
        return request.option(answer.text)

    def describe(
        self, state: State, action: Action, events: Sequence[Event], chance: Request | None
    ) -> str:
        """What just happened, in words the whole table may hear.

        A die or a draw from the table's own bag is public; a deal, a reveal or
        a draw from a player's deck is said by its purpose only (``chance`` is
        the request it answered), so the screen never names a secret.
        """
        if chance is not None and not is_public(chance):
            return f"{chance.kind} for {chance.purpose}"
        if self.is_secret(action):
            return f"{state.player_name(action.player)} laid a card face down"
        described = "; ".join(event.describe() for event in events)
        return described or f"{state.player_name(action.player)}: {action.safe_notation()}"

    def is_secret(self, action: Action) -> bool:
        """Whether a player's action stays hidden until it is revealed (a card face down)."""
        return False

    def describe_undo(self, state: State, action: Action) -> str:
        """A taken-back action in words the whole table may hear."""
        if action.player == CHANCE:
            return "the last draw or roll"
        if self.is_secret(action):
            return f"{state.player_name(action.player)}'s face-down card"
        return action.safe_notation()

    def undo_words(self, state: State, action: Action, board: bool) -> str:
        """What the table says once ``action`` is taken back (``state``: the game after it).

        ``board``: the table still shows the action and must be put right, in
        the game's words (:meth:`put_right`): "the last move (+8.1) was taken
        back: lift the cog". A draw, a roll or a face-down card is said as
        :meth:`describe_undo` says it, naming no secret.
        """
        what = self.describe_undo(state, action)
        plain = action.player == CHANCE or self.is_secret(action)
        said = f"{what} was taken back" if plain else f"the last move ({what}) was taken back"
        fix = self.put_right(state, action) if board else ""
        return f"{said}: {fix}" if fix else said

    def put_right(self, state: State, action: Action) -> str:
        """What to do on the table once ``action`` is taken back ("": nothing the camera sees).

        An action that touched no place (a button's "done", a card typed) leaves nothing to do.
        """
        if not self.camera_regions() or not self.places_of(action):
            return ""
        return "put the board back as the LEDs show"

    def parse(self, text: str, state: State, player: int) -> Action | None:
        """A choice typed at the console for ``player``: a listed label, or None."""
        return state.choice_request(player).option(text)

    # -- LEDs and screen -----------------------------------------------------------------

    def frame(self, state: State, scene: Scene, template: Frame) -> Frame:
        """The LED frame: seat LEDs for turn, responders and winners; amber while asking."""
        leds = template.copy()
        leds.clear()
        if state.is_over():
            show_winners(leds, state, scene.seat_colours)
            return leds
        show_turn(leds, scene.choosing(), scene)
        show_requests(leds, scene)
        return leds

    def screen(self, state: State, scene: Scene) -> list[str]:
        """The game as the table knows it, as lines: the public position (games override)."""
        return self.draw(state).splitlines()

    def draw(self, state: State) -> str:
        """The game's own terminal drawing of what all may see (its kit's ``terminal.render``)."""
        raise NotImplementedError(f"{type(self).__name__} draws no position")

    def arrangement(self) -> dict[str, Sequence[Sequence[int]]]:
        """How the terminal lays out LED segments (rows of indices); default one row each."""
        return {}


def is_public(request: Request) -> bool:
    """Whether the answers to ``request`` may be shown to the whole table.

    A die, and a draw from the table's own supply (the letter bag, the cabinet
    deck), are seen by everyone; a deal, a reveal, a draw from a player's deck
    and a player's choices (their hand) are not listed.
    """
    return request.kind == "die" or (request.kind == "draw" and request.player is None)


# -- shared LED drawing ---------------------------------------------------------------


def show_turn(leds: Frame, acting: Sequence[int], scene: Scene) -> None:
    """Whose turn: the first acting seat glows; the others that may respond pulse."""
    colours = scene.seat_colours
    for number, player in enumerate(acting):
        if not 0 <= player < len(colours) or player >= _segment_size(leds, "seats"):
            continue
        animation = SOLID if number == 0 else pulse(RESPOND_PULSE_S)
        leds.set("seats", player, colours[player], animation)


def show_requests(leds: Frame, scene: Scene) -> None:
    """A request for a die or a draw: its seat (or the status LED) pulses white."""
    for request, route in zip(scene.requests, scene.routes, strict=False):
        if request.kind == "choice":
            continue
        player = request.player
        if player is not None and 0 <= player < _segment_size(leds, "seats"):
            leds.set("seats", player, WHITE, pulse(RESPOND_PULSE_S))
        elif route in ("dice", "console") and _segment_size(leds, "status"):
            leds.set("status", 0, WHITE, pulse(RESPOND_PULSE_S))


def show_winners(leds: Frame, state: State, colours: Sequence[RGB]) -> None:
    """Each winner's seat runs a chase in the winner's colour."""
    outcome = state.outcome()
    for winner in outcome.winners if outcome else ():
        if 0 <= winner < min(len(colours), _segment_size(leds, "seats")):
            leds.chase("seats", colours[winner], period=1.5, indices=[winner])


def paused_frame(template: Frame) -> Frame:
    """Paused (or shut down): only the status LED, pulsing amber."""
    leds = template.copy()
    leds.clear()
    if _segment_size(leds, "status"):
        leds.set("status", 0, AMBER, pulse(3.0))
    return leds


def _segment_size(leds: Frame, name: str) -> int:
    return len(leds.looks.get(name, ()))


class Variants:
    """Mixin of a game with variants (the Cookie's hunt and big-hunt): which one options name.

    The table's game-setup policy (:mod:`cogtable.game_choice`) reads it.
    """

    def variant(self, options: Mapping[str, Any]) -> str:
        """The variant named by ``options``."""
        raise NotImplementedError


class TableSetup:
    """Mixin of a game whose engine options depend on the table (a card mat: cards seen late)."""

    def table_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """``options`` with what this table adds (default: as given)."""
        return options

    def table_problems(self, profile: Profile, options: Mapping[str, Any]) -> list[str]:
        """What this table lacks for the game besides seats and LED segments."""
        return []


class LooksAgainAfterChoice:
    """Mixin of a game whose ``choose`` verdicts read only part of what was laid.

    Once the seat makes the choice (confirm, or typed), the table judges the
    same reading again, which then holds more (the Cookie's Role card turned
    up, after "which of the two was it").
    """


class SeatSummaries:
    """Mixin of a game whose seat button, with nothing to answer, shows that seat's summary.

    The table says it on the screen and, for a few seconds, on the seat's LED
    (Cogs and Commissars: the seat's Citizen points).
    """

    def seat_summary(self, state: State, seat: int) -> str:
        """The summary in words ("": nothing to show)."""
        raise NotImplementedError

    def show_summary(self, leds: Frame, state: State, scene: Scene, seat: int) -> None:
        """Draw the summary of ``seat`` on the LED frame the adapter drew."""
        raise NotImplementedError
