"""Cogs and Commissars at the table: the card mat read by the camera, seat buttons, seat LEDs.

Without a card mat in the profile nothing is read from the camera: every draw,
flip and play goes through the console and a pass is a seat's pass (or
confirm) button, as before. With one (:meth:`CommissarsAdapter.fitted`) the
engine runs in table mode (``hands = "unknown"``, see
:mod:`games.commissars.table_mode`) and the table referees from the mat
(:mod:`cogtable.tables.commissars.cards`, :mod:`~cogtable.tables.commissars.judge`):

- each seat's zone holds its draw deck (face down) and its discard pile (face
  up); the centre zone is the stack. A card laid on the stack is its owner's
  play (refused, with the reason, when the hand could not hold it or it is
  not the seat's turn: the seat blinks red until the card is taken off); a
  card turned up on a pile is a Produce flip while the table asks for one
  (the active seat pulses white), else a discard;
- a draw is the drawing seat's confirm (or pass) button, one press a card
  (its LED pulses white while the table waits for it): a pile of backs
  shows one back whatever it holds, so the camera cannot see a card leave it;
- the response window: the seat asked to respond pulses in its colour, the
  seats still to be asked before the top card resolves pulse dim; a pass
  is that seat's pass (or confirm) button, a Blitz laid on the stack its
  response; when all have passed the top card resolves (last in, first out)
  and the table says which ("Stifle Free Speech (player 2) resolves"), and
  until it lies on its owner's pile the status names the pile;
- whose turn and which phase: the active seat glows in its colour, brighter
  as the turn goes on (Discard/Draw dim, Propaganda half, Action full); its
  confirm button ends the phase;
- a seat's pass or confirm with nothing to answer shows its Citizen points
  for a few seconds (:meth:`CommissarsAdapter.seat_summary`): the seat glows
  as bright as its share of the 15 a Revolution needs, and the screen says
  the count;
- a Revolution that succeeds: the winner's seat runs the winner chase.

Decisions a card asks for beyond these (a leader power's produce or draw, a
card retrieved or searched out, a Doublespeak duplicate's target) are typed
at the console. Who could answer with a Blitz is a secret of their hand: the
LEDs and the status show only the player the game waits for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cogtable.commit_decision import Explanations
from cogtable.sensors import Sensors
from cogtable.tables.base import (
    AMBER,
    DIM,
    RED,
    RESPOND_PULSE_S,
    CameraRegion,
    Scene,
    SeatSummaries,
    TableAdapter,
    TableSetup,
    Verdict,
    show_requests,
    show_winners,
)
from cogtable.tables.card_zones import REGION, zones_of
from cogtable.tables.commissars.cards import (
    CommissarsMat,
    Committed,
    Holding,
    Reported,
    TagBook,
    read_mat,
)
from cogtable.tables.commissars.explain import (
    Label,
    explanations,
    position_of_mat,
    position_of_zones,
)
from cogtable.tables.commissars.judge import differing_seats, judge_mat
from cogtable.tables.commissars.terminal import render
from games.commissars.actions import Discard, EndPhase, Play, TopCard, UnseenDraw
from games.commissars.cards import KIND_NAMES
from games.commissars.state import MAIN_PHASES, CommissarsState
from games.commissars.tasks import DiscardCards, Flip, Intercept
from games.core import CHANCE, Action, Event, Request, State
from hardware.leds import SOLID, Frame, blink, pulse, scale
from hardware.profile import Profile
from vision.cards.mat import CardMatLayout

CAMERA_NOTE = "the camera reads no cards: plays and draws come from the console"
PHASE_LEVELS: Mapping[str, float] = {"discard": 0.35, "propaganda": 0.65, "action": 1.0}
"""How bright the active seat glows in each phase of its turn."""
REVOLUTION_POINTS = 15
"""The points a Revolution needs: a seat's summary glows as bright as its share of them."""
WINDOW_QUEUE_LEVEL = 0.3
"""The seats to be asked later in a response window pulse this bright."""
CAMERA_DECISIONS = (DiscardCards, Intercept)
"""The decisions the camera sees (a card on a pile, a card on the stack); others are typed."""


class CommissarsAdapter(TableSetup, SeatSummaries, TableAdapter):
    """Cogs and Commissars for 2 to 6 players; read on the card mat where the profile has one."""

    game = "commissars"
    places_segment = "seats"
    player_counts: Mapping[str, Sequence[int]] = {"": (2, 3, 4, 5, 6)}

    def __init__(self, mat: CardMatLayout | None = None) -> None:
        self.mat = mat
        self.camera_note = "" if mat is not None else CAMERA_NOTE
        self.remembered = MatMemory()
        self.judged: dict[str, Label] | None = None
        """The zones of the last reading judged (the base of :meth:`explanations`)."""

    def draw(self, state: State) -> str:
        """The public position as the terminal draws it."""
        return render(state)

    def fitted(self, sensors: Sensors) -> CommissarsAdapter:
        """Read by the camera where the profile has a card mat; else by the console."""
        return CommissarsAdapter(sensors.card_mat)

    def table_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """On a card mat, table mode: nobody names the cards drawn."""
        if self.mat is not None:
            options.setdefault("hands", "unknown")
        return options

    def table_problems(self, profile: Profile, options: Mapping[str, Any]) -> list[str]:
        """On a card mat the decks must be the tagged faction decks."""
        problems = []
        decks = options.get("decks", "preconstructed")
        if self.mat is not None and decks != "preconstructed":
            problems.append(
                f"commissars: the card mat reads the faction decks only, not decks = {decks!r} "
                "(a tag says which faction's card it is)"
            )
        return problems

    def waited_for(self, state: State) -> tuple[int, ...]:
        """Only the players the game waits for; never who could interject with a Blitz."""
        return tuple(player for player in state.view()["to_act"] if player != CHANCE)

    # -- the camera --------------------------------------------------------------------

    def camera_regions(self) -> tuple[CameraRegion, ...]:
        """The card mat, when the profile has one."""
        if self.mat is None:
            return ()
        return (CameraRegion(REGION, "cards", answers=("choice", "draw")),)

    def camera_reads(self, state: State, request: Request) -> bool:
        """Plays, discards and Produce flips; never a draw into a hand, nor a typed decision."""
        assert isinstance(state, CommissarsState)
        if self.mat is None:
            return False
        task = state.tasks[0] if state.tasks else None
        if request.kind == "choice":
            return task is None or isinstance(task, CAMERA_DECISIONS)
        return request.kind == "draw" and isinstance(task, Flip)

    def confirmed(self, state: State, request: Request) -> Action | None:
        """A seat's confirm: pass in a window, draw when asked to, end the phase on its turn."""
        assert isinstance(state, CommissarsState)
        if self.mat is None:
            return super().confirmed(state, request)
        if (
            request.kind == "draw"
            and state.unknown_hands
            and state.pending_draw() == request.player
        ):
            return UnseenDraw(player=CHANCE)
        if request.kind == "choice" and _on_turn(state, request.player):
            return EndPhase(player=request.player)  # type: ignore[arg-type]
        return super().confirmed(state, request)

    def seat_summary(self, state: State, seat: int) -> str:
        """The seat's Citizens and points (a seat's button with nothing to answer asks for it)."""
        assert isinstance(state, CommissarsState)
        citizens = state.seats[seat].citizens
        counts = ", ".join(f"{citizens[kind]} {KIND_NAMES[kind]}" for kind in citizens)
        return f"{state.player_name(seat)}: {state.seats[seat].points()} points ({counts})"

    def judge(
        self,
        state: State,
        observation: Any,
        before: State | None,
        camera_requests: Sequence[Request] = (),
    ) -> Verdict:
        """What the settled card mat means now (see :mod:`cogtable.tables.commissars.judge`)."""
        assert isinstance(state, CommissarsState) and self.mat is not None
        seen = read_mat(observation, self.mat, state)
        if seen is None:
            return Verdict("nothing", reason="waiting for the camera to see the card mat")
        zones = zones_of(observation)
        if zones is not None:
            self.judged = position_of_zones(self.mat, zones)
        book = self._book(state)
        verdict = judge_mat(state, seen, book)
        if book.reported is not None:
            self.remembered = MatMemory(self.remembered.committed, Pending(book.reported, seen))
        elif verdict.kind == "in-sync":
            self.remembered = MatMemory(Committed(seen, Holding.of(state)))
        return verdict

    def memory(self) -> MatMemory:
        """The last reading committed to, and a card reported as laid that the game may take."""
        return self.remembered

    def recall(self, memory: object) -> None:
        """Judge from now on as a table that remembers ``memory``."""
        assert isinstance(memory, MatMemory)
        self.remembered = memory
        self.judged = None

    def explanations(self, state: State, before: State | None) -> Explanations | None:
        """What the mat may show next (:mod:`cogtable.tables.commissars.explain`), from the
        last reading judged (or remembered); None before the mat was ever read."""
        if self.mat is None or not isinstance(state, CommissarsState):
            return None
        position = self.judged
        committed = self.remembered.committed
        if position is None and committed is not None:
            position = position_of_mat(self.mat, committed.seen)
        if position is None:
            return None
        earlier = before if isinstance(before, CommissarsState) else None
        return explanations(state, earlier, self.mat, position)

    def _book(self, state: CommissarsState) -> TagBook:
        """The tag book of the last committed reading (with a card reported as laid, once taken)."""
        memory = self.remembered
        pending = memory.pending
        if pending is not None and len(state.history) > pending.reported.ply:
            committed = memory.committed
            if state.history[pending.reported.ply] in pending.reported.actions:
                holding = Holding.of(state)
                base = committed or Committed(pending.seen, holding)
                committed = base.taking(pending.seen, pending.reported.zone, holding)
            self.remembered = MatMemory(committed)
        return TagBook.committed_to(self.remembered.committed)

    def resync(self, state: State, observation: Any) -> Verdict:
        """In sync once the mat shows what the game holds; a card it does not hold must go."""
        verdict = self.judge(state, observation, None)
        self.remembered = MatMemory(self.remembered.committed)  # nothing laid counts here
        if verdict.kind in ("nothing", "in-sync"):
            return Verdict("in-sync", reason="the card mat matches the game")
        if verdict.kind == "out-of-sync":
            return verdict
        card = _card_of(verdict)
        reason = f"take {card} off the mat: the game does not have it there" if card else ""
        return Verdict("out-of-sync", places=verdict.places, reason=reason or verdict.reason)

    def differing(self, state: State, observation: Any) -> tuple[int, ...]:
        """The seats whose zone differs from the game."""
        assert isinstance(state, CommissarsState)
        seen = None if self.mat is None else read_mat(observation, self.mat, state)
        return () if seen is None else differing_seats(state, seen, self._book(state))

    def start_in_sync(self) -> bool:
        """With the camera, a fresh or resumed game first compares the mat."""
        return self.mat is None

    def places_of(self, action: Action) -> tuple[int, ...]:
        """The seat whose card was played or discarded: it flashes."""
        return (action.player,) if isinstance(action, Play | Discard) else ()

    def put_right(self, state: State, action: Action) -> str:
        """What to do on the mat once ``action`` is taken back."""
        if self.mat is None:
            return ""
        if isinstance(action, Play):
            return f"take {action.card} off the stack, back into the hand"
        if isinstance(action, Discard):
            return f"take {action.card} off {state.player_name(action.player)}'s pile"
        if isinstance(action, TopCard):
            return f"put {action.card} back on top of the deck"
        if isinstance(action, UnseenDraw):
            return "put the card drawn back on top of the deck"
        return ""

    def describe(
        self, state: State, action: Action, events: Sequence[Event], chance: Request | None
    ) -> str:
        """As the base; a Produce flip is face up, so the table names it."""
        if isinstance(action, TopCard) and chance is not None and "produce" in chance.purpose:
            return "; ".join(event.describe() for event in events) or action.safe_notation()
        return super().describe(state, action, events, chance)

    # -- LEDs -------------------------------------------------------------------------------

    def frame(self, state: State, scene: Scene, template: Frame) -> Frame:
        """Whose turn and phase, the response window, draws and flips, refusals."""
        assert isinstance(state, CommissarsState)
        if self.mat is None:
            return super().frame(state, scene, template)
        leds = template.copy()
        leds.clear()
        if state.is_over():
            show_winners(leds, state, scene.seat_colours)
            return leds
        lit = range(min(state.num_players, leds.size("seats"), len(scene.seat_colours)))
        if state.window is not None and not state.tasks:
            _show_window(leds, state, scene, lit)
        else:
            _show_turn(leds, state, scene, lit)
        show_requests(leds, scene)
        _show_verdict(leds, scene.verdict, lit)
        return leds

    def show_summary(self, leds: Frame, state: State, scene: Scene, seat: int) -> None:
        """On a card mat, while the game goes on: the seat's Citizen points on its LED."""
        assert isinstance(state, CommissarsState)
        lit = range(min(state.num_players, leds.size("seats"), len(scene.seat_colours)))
        if self.mat is not None and not state.is_over() and seat in lit:
            _show_points(leds, state, scene, seat)


@dataclass(frozen=True)
class Pending:
    """A card the judge reported as laid (in ``seen``), counted once the game takes it."""

    reported: Reported
    seen: CommissarsMat


@dataclass(frozen=True)
class MatMemory:
    """All a Commissars table remembers of the mat (:meth:`CommissarsAdapter.memory`)."""

    committed: Committed | None = None
    pending: Pending | None = None


def _on_turn(state: CommissarsState, player: int | None) -> bool:
    """Whether ``player`` is the active player in a phase of their turn (nothing else asked)."""
    return (
        player == state.active
        and not state.tasks
        and state.window is None
        and state.phase in MAIN_PHASES
    )


def _card_of(verdict: Verdict) -> str:
    action = verdict.options[0] if verdict.options else verdict.action
    if isinstance(action, Play | Discard | TopCard):
        return action.card
    return ""


def _show_window(leds: Frame, state: CommissarsState, scene: Scene, lit: range) -> None:
    """The seat asked to respond pulses in its colour; those asked later before it resolves, dim."""
    assert state.window is not None
    count = state.num_players
    still = count - state.window.passes
    for step in range(still):
        seat = (state.window.next + step) % count
        if seat not in lit:
            continue
        colour = scene.seat_colours[seat]
        shown = colour if step == 0 else scale(colour, WINDOW_QUEUE_LEVEL)
        leds.set("seats", seat, shown, pulse(RESPOND_PULSE_S))


def _show_turn(leds: Frame, state: CommissarsState, scene: Scene, lit: range) -> None:
    """The active seat in its phase's brightness; a seat asked to decide glows in its colour."""
    deciding = scene.choosing()
    if deciding and deciding[0] != state.active and deciding[0] in lit:
        leds.set("seats", deciding[0], scene.seat_colours[deciding[0]])
    if state.active in lit:
        level = PHASE_LEVELS.get(state.phase, DIM)
        leds.set("seats", state.active, scale(scene.seat_colours[state.active], level), SOLID)


def _show_verdict(leds: Frame, verdict: Verdict, lit: range) -> None:
    """A refused card blinks its seat red; a difference blinks amber (the status LED too)."""
    if verdict.kind not in ("illegal", "out-of-sync"):
        return
    colour, animation = (RED, blink(0.5)) if verdict.kind == "illegal" else (AMBER, blink())
    for seat in verdict.places:
        if seat in lit:
            leds.set("seats", seat, colour, animation)
    if verdict.kind == "out-of-sync" and leds.size("status"):
        leds.set("status", 0, AMBER)


def _show_points(leds: Frame, state: CommissarsState, scene: Scene, seat: int) -> None:
    """The seat glows as bright as its share of a Revolution's points (at least faintly)."""
    share = min(state.seats[seat].points() / REVOLUTION_POINTS, 1.0)
    leds.set("seats", seat, scale(scene.seat_colours[seat], max(share, DIM)), SOLID)
