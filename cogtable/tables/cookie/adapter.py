"""The Cookie 2.0 at the table: cards on the card mat read by the camera, seat buttons, LEDs.

Without a card mat in the profile the adapter reads nothing from the camera and
every deal, role and card goes through the console, as before. With one
(:meth:`CookieAdapter.fitted`), the camera referees the game from the mat's
zones:

- each seat's zone (``CardZone.seat``) is where that seat lays its card; the
  mat shows only what the camera must read now (a zone holds two cards side
  by side): Role cards lie face down off the mat, in front of their owners,
  until turned up in their owner's zone; a card the engine has taken may stay
  where it lay or leave the mat (:mod:`cogtable.tables.cookie.layout`);
  a Sword or Shield is aimed by laying it in the *target's* zone, and its
  tag's colour set says whose it is;
- a card laid this turn is a back in the seat's zone: the seat LED shows it
  "placed" (solid white; where the camera cannot see the back, the seat's
  confirm says so: :meth:`CookieAdapter.pressed`); once every seat has
  placed the seat LEDs pulse green, the reveal signal, and each card turned
  up is that seat's
  :class:`~games.cookie.actions.Play` (The Big Hunt, Phase 3: ``Hunt``); a card
  turned up before everyone has placed blinks its seat red until it is laid
  face down again;
- aims are taken clockwise from the first player, as the engine asks for
  them: the aiming seat's Sword or Shield seen in another seat's zone is its
  :class:`~games.cookie.actions.Aim`; an aim the rules refuse blinks that seat
  red until the card is moved (a later seat's card already moved is judged
  when its turn comes);
- Role cards turned up (for scoring, a Phase 2 challenge, the open exclusion
  card and the target in the centre zone) answer the engine's ``reveal``
  requests, in whatever order the camera sees them;
- The Big Hunt: a claim is the claimer's character laid face up in their zone
  (one at a time, in turn: another seat laying one blinks red); Phase 2 is a
  Role card turned up in another seat's zone, or the seat's confirm button
  ("I looked", :meth:`CookieAdapter.confirmed`);
- after a round is scored the table waits for the mat to be cleared
  (:meth:`CookieAdapter.resets_board`), and meanwhile the seat LEDs show the
  round's coins (brighter: more; dark: none).

Placements are not journaled: a back is on the mat, not in the engine, which
takes a card only when it is seen face up. After a power cut the camera sees
the same backs and the LEDs say "placed" again. The first player's seat is
marked: dim white when it has nothing else to show, solid (the others
pulsing) among the seats still to act.

Both variants; the variant is the engine's ``variant`` option (``hunt``:
Every Man for Himself, ``big-hunt``: The Big Hunt).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cogtable.commit_decision import Explanations
from cogtable.sensors import Sensors
from cogtable.tables.base import (
    AMBER,
    DIM,
    GREEN,
    RED,
    RESPOND_PULSE_S,
    WHITE,
    CameraRegion,
    LooksAgainAfterChoice,
    Scene,
    TableAdapter,
    TableSetup,
    Variants,
    Verdict,
    show_requests,
    show_winners,
)
from cogtable.tables.card_zones import REGION, zones_of
from cogtable.tables.cookie.cards import CookieCards, read_cards
from cogtable.tables.cookie.explain import Label, explanations, position_of_zones
from cogtable.tables.cookie.judge import judge_cards, simultaneous
from cogtable.tables.cookie.layout import differences, differing_seats, fresh_round
from cogtable.tables.cookie.terminal import render
from games.cookie import DEFAULTS, PLAYER_COUNTS
from games.cookie.actions import (
    Aim,
    Challenge,
    Claim,
    Hunt,
    Look,
    OpenExclusion,
    Play,
    RevealRole,
    RevealTarget,
)
from games.cookie.bighunt import BigHuntState
from games.cookie.common import CookieState
from games.core import Action, Event, Request, State
from hardware.leds import SOLID, Frame, blink, flash, pulse, scale
from vision.cards.mat import CardMatLayout

CAMERA_NOTE = "the camera reads no cards: deals, reveals and cards come from the console"
REVEAL_PULSE_S = 0.6
"""The reveal signal: every seat pulses green this fast."""
CAMERA_CHANCE = (RevealRole, RevealTarget, OpenExclusion)
"""The cards the table turns up that the camera reads (a deal face down it cannot)."""


class CookieAdapter(LooksAgainAfterChoice, Variants, TableSetup, TableAdapter):
    """The Cookie 2.0: Every Man for Himself (4-6 players), The Big Hunt (2-4).

    Its one ``choose`` verdict (which Role card the checker turned up) holds the
    Role card itself too, judged once the checker said which it was.
    """

    game = "cookie"
    places_segment = "seats"
    player_counts: Mapping[str, Sequence[int]] = PLAYER_COUNTS

    def __init__(self, mat: CardMatLayout | None = None) -> None:
        self.mat = mat
        self.marks: set[tuple[int, str, int]] = set()
        """Seats that pressed confirm for a card the camera cannot see face down, by position.

        Not journaled: the card itself is on the table (its back, once seen, says it again).
        """
        self.camera_note = "" if mat is not None else CAMERA_NOTE
        self.judged: dict[str, Label] | None = None
        """The zones of the last reading judged (the base of :meth:`explanations`)."""

    def draw(self, state: State) -> str:
        """The public position as the terminal draws it."""
        return render(state)

    def fitted(self, sensors: Sensors) -> CookieAdapter:
        """Read by the camera where the profile has a card mat; else by the console."""
        return CookieAdapter(sensors.card_mat)

    def variant(self, options: Mapping[str, Any]) -> str:
        """``hunt`` or ``big-hunt``."""
        return str(options.get("variant", DEFAULTS["variant"]))

    def table_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """With a card mat, the Role cards are supplied when they are turned up."""
        if self.mat is not None:
            options.setdefault("roles_known_at_deal", False)
        return options

    def describe(
        self, state: State, action: Action, events: Sequence[Event], chance: Request | None
    ) -> str:
        """As the base; a card turned up on the mat is seen by everyone, so it is named.

        A card laid is named once every card of the turn is in (one typed at
        the console may still lie face down before that).
        """
        if self.mat is not None and isinstance(action, CAMERA_CHANCE):
            said = "; ".join(event.describe() for event in events)
            return said or action.safe_notation()
        if self.mat is not None and isinstance(action, Play | Hunt):
            said = "; ".join(event.describe() for event in events)  # the last: all revealed
            return said or f"{state.player_name(action.player)}'s card is in"  # may be typed
        return super().describe(state, action, events, chance)

    def is_secret(self, action: Action) -> bool:
        """A card laid (Every Man for Himself) or a hunt card (The Big Hunt) lies face down."""
        return isinstance(action, Play | Hunt)

    # -- the camera ----------------------------------------------------------------

    def camera_regions(self) -> tuple[CameraRegion, ...]:
        """The card mat, when the profile has one."""
        if self.mat is None:
            return ()
        return (CameraRegion(REGION, "cards", answers=("choice", "reveal", "deal")),)

    def camera_reads(self, state: State, request: Request) -> bool:
        """Cards laid, aimed, claimed and turned up; never a face-down deal."""
        if self.mat is None:
            return False
        if request.kind == "choice":
            return True
        actions = [option.action for option in request.options]
        return bool(actions) and all(isinstance(a, CAMERA_CHANCE) for a in actions)

    def confirmed(self, state: State, request: Request) -> Action | None:
        """Phase 2 of The Big Hunt on a card mat: the checker's confirm says "I looked"."""
        if self.mat is not None and isinstance(state, BigHuntState) and state.phase == "check":
            looked = Look(player=request.player)  # type: ignore[arg-type]
            if request.kind == "choice" and looked in state.legal_actions(request.player):
                return looked
        return super().confirmed(state, request)

    def pressed(self, state: State, seat: int) -> str:
        """A seat's confirm while every seat lays a card: "my card is down" (placed)."""
        assert isinstance(state, CookieState)
        if self.mat is None or not simultaneous(state) or seat not in state.to_act():
            return ""
        self.marks.add(_mark(state, seat))
        return f"{state.player_name(seat)} pressed confirm: placed"

    def memory(self) -> frozenset[tuple[int, str, int]]:
        """The confirm presses that said "placed" (no camera sees a card face down), by position."""
        return frozenset(self.marks)

    def recall(self, memory: object) -> None:
        """Judge from now on as a table whose seats pressed ``memory``'s confirms."""
        assert isinstance(memory, frozenset)
        self.marks = set(memory)
        self.judged = None

    def explanations(self, state: State, before: State | None) -> Explanations | None:
        """What the mat may show next (:mod:`cogtable.tables.cookie.explain`), from the last
        reading judged; None before the mat was read."""
        if self.mat is None or self.judged is None or not isinstance(state, CookieState):
            return None
        return explanations(state, self.mat, self.judged)

    def _marked(self, state: CookieState) -> frozenset[int]:
        """The seats marked placed by their confirm in this very position."""
        return frozenset(seat for seat in state.to_act() if _mark(state, seat) in self.marks)

    def judge(
        self,
        state: State,
        observation: Any,
        before: State | None,
        camera_requests: Sequence[Request] = (),
    ) -> Verdict:
        """What the settled card mat means now (see the module docstring)."""
        assert isinstance(state, CookieState) and self.mat is not None
        seen = read_cards(observation, self.mat, state.num_players)
        if seen is None:
            return Verdict("nothing", reason="waiting for the camera to see the card mat")
        zones = zones_of(observation)
        if zones is not None:
            self.judged = position_of_zones(self.mat, zones)
        verdict = judge_cards(state, seen, camera_requests, self._marked(state))
        if verdict.kind == "out-of-sync" and _shows_before(state, seen, before):
            return Verdict("take-back", reason="the last card was taken back")
        return verdict

    def resync(self, state: State, observation: Any) -> Verdict:
        """In sync once the mat shows what the game holds (at a round's start: a cleared mat).

        A card turned up that the engine asks for next (a Role card after a
        restart mid-reveal) counts as in sync: it is taken at the next
        reading. A player's card does not: after an undo the card must be put
        back first, or the next reading would take it again.
        """
        verdict = self.judge(state, observation, None)
        pending_reveal = verdict.kind == "move" and isinstance(verdict.action, CAMERA_CHANCE)
        if verdict.kind in ("nothing", "in-sync") or (pending_reveal and not fresh_round(state)):
            return Verdict("in-sync", reason="the card mat matches the game")
        places, reason = verdict.places, verdict.reason
        seen = read_cards(observation, self.mat, state.num_players)  # type: ignore[arg-type]
        if seen is not None and verdict.kind == "move":
            places = differing_seats(state, seen) or self.places_of(verdict.action)  # type: ignore[arg-type]
            reason = _put_back_words(state, verdict.action)  # type: ignore[arg-type]
        if seen is not None and fresh_round(state) and state.last_round is not None:
            reason = _clear_words(state)  # the last round's cards
        return Verdict("out-of-sync", places=places, reason=reason)

    def differing(self, state: State, observation: Any) -> tuple[int, ...]:
        """The seats whose zone differs from the game."""
        assert isinstance(state, CookieState)
        if self.mat is None:
            return ()
        seen = read_cards(observation, self.mat, state.num_players)
        return differing_seats(state, seen) if seen is not None else ()

    def resets_board(self, before: State, state: State) -> bool:
        """A round was scored (the cards are gathered for the next one)."""
        assert isinstance(state, CookieState) and isinstance(before, CookieState)
        return self.mat is not None and state.round != before.round

    def places_of(self, action: Action) -> tuple[int, ...]:
        """The seat a card was laid, aimed at, claimed or turned up in: it flashes green."""
        if isinstance(action, Aim):
            return (action.target,)
        if isinstance(action, Challenge | RevealRole):
            return (action.seat,)
        if isinstance(action, Play | Hunt | Claim):
            return (action.player,)
        return ()

    def put_right(self, state: State, action: Action) -> str:
        """What to do on the mat once ``action`` is taken back, naming no secret."""
        if self.mat is None:
            return ""
        who = state.player_name(action.player)
        if isinstance(action, Aim):
            return f"move {who}'s card back into {who}'s zone"
        if isinstance(action, Play | Hunt):
            return f"turn {who}'s card face down again"
        if isinstance(action, Claim):
            return f"take {who}'s claim back into the hand"
        if isinstance(action, Challenge | RevealRole):
            return f"turn {state.player_name(action.seat)}'s Role card face down again"
        if isinstance(action, RevealTarget | OpenExclusion):
            return "turn the card in the centre face down again"
        return ""

    def start_in_sync(self) -> bool:
        """With the camera, a fresh or resumed game first compares the mat."""
        return self.mat is None

    def screen(self, state: State, scene: Scene) -> list[str]:
        """The game's drawing, after what the mat shows (who placed, what the table waits for)."""
        lines = super().screen(state, scene)
        said = scene.verdict.reason
        if self.mat is None or not said or said in (scene.last, scene.message):
            return lines
        return [f"mat: {said}", *lines]

    # -- LEDs ------------------------------------------------------------------------

    def frame(self, state: State, scene: Scene, template: Frame) -> Frame:
        """The seat LEDs: placed, the reveal, refused aims, whose turn, the round's coins."""
        assert isinstance(state, CookieState)
        leds = template.copy()
        leds.clear()
        if state.is_over():
            show_winners(leds, state, scene.seat_colours)
            return leds
        lit = _seats(leds, state)
        verdict = scene.verdict
        scores = _showing_scores(state, verdict)
        if scores:
            _show_scores(leds, state, scene.seat_colours, lit)
        elif simultaneous(state):
            _show_laying(leds, state, scene, lit)
        else:
            _show_acting(leds, state, scene, lit)
        if scene.accepted is not None and not scores:  # a card just taken: a green flash
            for seat in scene.accepted.places:
                if seat in lit:
                    leds.set("seats", seat, GREEN, flash(scene.accepted.start))
        if verdict.kind == "out-of-sync" and leds.size("status"):
            leds.set("status", 0, AMBER)
        if verdict.kind == "illegal" or (verdict.kind == "out-of-sync" and not scores):
            colour, animation = (RED, blink(0.5)) if verdict.kind == "illegal" else (AMBER, blink())
            for seat in verdict.places:
                if seat in lit:
                    leds.set("seats", seat, colour, animation)
        show_requests(leds, scene)
        _mark_first(leds, state, lit)
        return leds


def _mark(state: CookieState, seat: int) -> tuple[int, str, int]:
    """A confirm press's key: the position (ply and last action) and the seat."""
    last = state.history[-1].notation() if state.history else ""
    return len(state.history), last, seat


def _shows_before(state: CookieState, seen: CookieCards, before: State | None) -> bool:
    """The mat shows the game as it was before the last action (of this round): a take-back."""
    return (
        isinstance(before, CookieState)
        and before.round == state.round
        and not differences(before, seen)
    )


def _seats(leds: Frame, state: CookieState) -> range:
    return range(min(state.num_players, leds.size("seats")))


def _showing_scores(state: CookieState, verdict: Verdict) -> bool:
    """A round was just scored and nothing of the next one is on the mat yet."""
    return (
        state.last_round is not None
        and fresh_round(state)
        and verdict.kind in ("in-sync", "out-of-sync")
    )


def _show_scores(leds: Frame, state: CookieState, colours: Sequence[Any], lit: range) -> None:
    """Each seat glows in its colour as bright as its share of the round's best gain."""
    gains = (state.last_round or {}).get("gains", [])
    best = max(gains, default=0)
    for seat in lit:
        gain = gains[seat] if seat < len(gains) else 0
        if gain and best:
            leds.set("seats", seat, scale(colours[seat], gain / best))


def _show_laying(leds: Frame, state: CookieState, scene: Scene, lit: range) -> None:
    """Cards face down: placed seats white, the others pulse (first player solid); all: reveal."""
    waiting = [seat for seat in state.seat_order() if seat in state.to_act() and seat in lit]
    placed = set(scene.verdict.places) if scene.verdict.kind == "nothing" else set()
    if waiting and placed >= set(waiting):
        for seat in lit:
            leds.set("seats", seat, GREEN, pulse(REVEAL_PULSE_S))
        return
    for seat in waiting:
        if seat in placed:
            leds.set("seats", seat, WHITE)
        else:
            animation = SOLID if seat == state.first else pulse(RESPOND_PULSE_S)
            leds.set("seats", seat, scene.seat_colours[seat], animation)


def _show_acting(leds: Frame, state: CookieState, scene: Scene, lit: range) -> None:
    """One seat acts (an aim, a claim, a check): it glows in its colour."""
    for seat in scene.choosing()[:1]:
        if seat in lit:
            leds.set("seats", seat, scene.seat_colours[seat])


def _mark_first(leds: Frame, state: CookieState, lit: range) -> None:
    """The First Player token: its seat glows dim white when nothing else lights it."""
    if state.first in lit and leds.look("seats", state.first).colour == (0, 0, 0):
        leds.set("seats", state.first, scale(WHITE, DIM))


def _put_back_words(state: CookieState, action: Action) -> str:
    """After an undo the mat still shows the action: what to put back."""
    return (
        f"{action.safe_notation()} was taken back: put the card back as it lay "
        "(face down, or in its own zone)"
    )


def _clear_words(state: CookieState) -> str:
    """What to do with a mat that still holds the last round's cards."""
    gains = (state.last_round or {}).get("gains")
    scored = ""
    if gains:
        scored = (
            "round scored ("
            + ", ".join(f"{state.player_name(seat)} +{gain}" for seat, gain in enumerate(gains))
            + "): "
        )
    round_number = state.round + 1
    return f"{scored}gather the cards; Role cards face down in each zone for round {round_number}"
