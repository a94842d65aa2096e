"""Simulated Cookie 2.0 players at a table whose camera reads the card mat.

They play as people at such a table do, with their hands on the simulated
mat (:class:`~cogtable.mock.cards_world.CardsWorld`): each turn every seat
lays its card face down in its zone, and once the seat LEDs give the reveal
signal (every seat pulsing green) they turn their cards up together; a
Sword or Shield is aimed by moving it into the target's zone; Role cards,
kept face down in front of their owners, are turned up in their zones when
the table asks for them (all at once at a round's end, in no particular
order); The Big Hunt's claims are laid face up in turn, a challenge is a
Role card turned up in another seat's zone, "I looked" is the seat's
confirm button, and the target and the exclusion card are turned up in the
centre. A card the table has taken leaves the mat at the next look (into the
owner's row in front of them), so a zone never holds more than it can.

They make a person's mistakes, which the table must refuse: a Sword or
Shield laid before a player the rules do not allow (they move it when the
seat blinks red), a card turned up before everyone has placed, a claim laid
out of turn; and now and then someone forgets to press "I looked" for a
while. Sometimes the last player to act holds undo, and the mat is then put as the
game says. Whatever the table cannot read (a deal the table was told to
know) they answer at the console as :class:`~cogtable.mock.people.console.ConsolePeople`.
``meant`` is every action they meant the table to take, in the engine's order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from cogtable.card_decks import load_deck
from cogtable.inputs import ConsoleCommand
from cogtable.mock.people.card_hands import CardMatPeople, Waiting, Zones
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
from games.cookie.hunt import HuntState
from games.core import CHANCE, Action, replay
from vision.cards.mat import CENTRE

FORGET_FRAMES = 12
"""How long someone who forgot to press "I looked" takes to remember."""
REVEAL_GREEN = (0, 255, 0)
"""Every seat LED pulsing this green says all may turn their cards up (the table's manual)."""
ROLE_PREFIX = "Role: "
"""How the printed tag list names a Role card."""


@cache
def _printed() -> dict[tuple[str, str], int]:
    """(deck, card name) -> the tag printed on that card, as the shipped tag list says."""
    found: dict[tuple[str, str], int] = {}
    for tag in load_deck("cookie").tags:
        found.setdefault((tag.deck, tag.name), tag.tag_id)
    return found


@cache
def _colour_sets() -> tuple[str, ...]:
    """The colour sets in the tag list's order: seat 1 is handed the first."""
    return tuple(dict.fromkeys(deck for deck, _ in _printed() if deck.endswith(" set")))


def set_tag(name: str, seat: int) -> int:
    """The tag on the card ``name`` of the colour set seat ``seat`` (from 0) holds."""
    return _printed()[(_colour_sets()[seat], name)]


def role_tag(character: str) -> int:
    """The tag on the Role card of ``character``."""
    return next(tag for (_, name), tag in _printed().items() if name == ROLE_PREFIX + character)


def all_lay_face_down(state: CookieState) -> bool:
    """Whether every seat lays a card face down now, as the rulebook says: a turn of The Hunt,
    Phase 3 of The Big Hunt."""
    return (isinstance(state, HuntState) and state.phase == "play") or (
        isinstance(state, BigHuntState) and state.phase == "hunt"
    )


@dataclass
class CookieTablePeople(CardMatPeople):
    """Everyone at a Cookie table read by the camera, acting once per frame of the world."""

    placed: dict[int, str] = field(default_factory=dict)
    """The card each seat laid face down this turn (their secret)."""

    def _pick(self, asked: list[dict[str, Any]]) -> dict[str, Any]:
        """Any of the seats the table waits for (they act together)."""
        return self.rng.choice(asked)

    # -- keeping up with the table ----------------------------------------------------

    def _catch_up(self, status: dict[str, Any]) -> None:
        """Believe the table's game over memory (an undo, a restart): its record, replayed."""
        record = self._table_record()
        if record is not None and list(record.actions) != self.memory.history:
            if len(record.actions) < len(self.memory.history):
                del self.meant[len(record.actions) - len(self.memory.history) :]
            self.memory = replay(record)
        acting = set(self.memory.to_act())
        self.placed = {seat: card for seat, card in self.placed.items() if seat in acting}
        if not all_lay_face_down(self.state):
            self.placed.clear()

    @property
    def state(self) -> CookieState:
        assert isinstance(self.memory, CookieState)
        return self.memory

    def _target(self) -> Zones:
        """The mat as it should be now: backs of cards laid this turn, Swords still to aim.

        (Cards the table has taken leave the mat.)
        """
        zones: Zones = {zone.name: (Counter(), 0) for zone in self.world.mat.zones}  # type: ignore[union-attr]
        for seat in self.placed:
            zones[self.zones[seat]] = (Counter(), 1)
        state = self.state
        if isinstance(state, HuntState) and state.phase == "aim":
            for seat in state.aiming:
                zones[self.zones[seat]][0][set_tag(state.played[seat][-1], seat)] += 1
        return zones

    # -- answering ---------------------------------------------------------------------

    def _answer(self, asked: dict[str, Any], status: dict[str, Any]) -> None:
        if asked["route"] != "camera":
            super()._answer(asked, status)
            return
        if asked["kind"] != "choice":
            self._turn_up_chance()
        elif self.memory.history and not self.placed and self.rng.random() < self.style.undo_rate:
            self._undo()
        elif all_lay_face_down(self.state):
            self._lay_face_down(asked["player"])
        elif isinstance(self.state, HuntState):
            self._aim(asked["player"])
        elif self.state.phase == "claim":
            self._claim(asked["player"])
        else:
            self._check(asked["player"])

    def _choice(self, seat: int) -> Action:
        return self.players[seat](self.memory.clone(), seat, self.rng)

    def _lay_face_down(self, seat: int) -> None:
        """A seat lays its card face down; when all have and the LEDs say so, all turn up."""
        waiting = [s for s in self.state.seat_order() if s in self.state.to_act()]
        if seat in self.placed:
            if set(self.placed) >= set(waiting) and self._reveal_shown():
                self._turn_up_all(waiting)
            return
        card = _card(self.players[seat](self._with_placed(), seat, self.rng))
        zone = self.zones[seat]
        if len(waiting) - len(self.placed) > 1 and self.rng.random() < self.style.mistake_rate:
            target = self._mat()  # too soon: turned up before the others have placed
            target[zone] = (Counter({set_tag(card, seat): 1}), 0)
            self._lay(self._name(seat), target, (), mistake=True)
            return
        self.placed[seat] = card
        self._lay(self._name(seat), self._target(), ())

    def _with_placed(self) -> CookieState:
        """The game with the cards already laid face down this turn taken.

        The roles are supplied only at the round's end, so a card must fit a
        dealing of the roles together with the others' cards of this turn (a
        person's own hand always does; a simulated one is chosen to).
        """
        twin = self.state.clone()
        make = Play if isinstance(twin, HuntState) else Hunt
        for seat in twin.seat_order():
            if seat in self.placed:
                twin.apply(make(self.placed[seat], player=seat))
        return twin

    def _reveal_shown(self) -> bool:
        """Every seat LED of a player pulses green: the table's reveal signal."""
        frame = getattr(self.table, "visible_frame", lambda: None)()
        if frame is None:
            return True
        looks = frame.looks.get("seats", [])[: self.state.num_players]
        return bool(looks) and all(look.colour == REVEAL_GREEN for look in looks)

    def _turn_up_all(self, waiting: list[int]) -> None:
        """Everyone turns their card up at once: the table takes them in seat order."""
        make = Play if isinstance(self.state, HuntState) else Hunt
        actions = tuple(make(self.placed[seat], player=seat) for seat in waiting)
        target = self._mat()
        for seat in waiting:
            target[self.zones[seat]] = (Counter({set_tag(self.placed[seat], seat): 1}), 0)
        self.placed.clear()
        self._lay("everyone", target, actions)

    def _aim(self, seat: int) -> None:
        """Move the Sword or Shield to the chosen player's zone (now and then a refused one)."""
        state = self.state
        assert isinstance(state, HuntState)
        aim = self._choice(seat)
        assert isinstance(aim, Aim)
        card = set_tag(state.played[seat][-1], seat)
        allowed = state.allowed_targets(seat)
        refused = [t for t in range(state.num_players) if t != seat and t not in allowed]
        mistake = bool(refused) and self.rng.random() < self.style.mistake_rate
        target_seat = self.rng.choice(refused) if mistake else aim.target
        target = self._mat()
        target[self.zones[seat]][0][card] -= 1
        target[self.zones[target_seat]][0][card] += 1
        self._lay(self._name(seat), target, () if mistake else (aim,), mistake)

    def _claim(self, seat: int) -> None:
        """Phase 1: lay the claimed character face up (now and then another seat out of turn)."""
        claim = self._choice(seat)
        assert isinstance(claim, Claim)
        others = [s for s in range(self.state.num_players) if s != seat]
        if self.rng.random() < self.style.mistake_rate:
            eager = self.rng.choice(others)
            card = set_tag(self.rng.choice(self.state.hands[eager]), eager)  # type: ignore[attr-defined]
            self._lay_cards(self._name(eager), {self.zones[eager]: [card]}, (), mistake=True)
            return
        card = set_tag(claim.character, seat)
        self._lay_cards(self._name(seat), {self.zones[seat]: [card]}, (claim,))

    def _check(self, seat: int) -> None:
        """Phase 2: turn up another player's Role card, or press confirm for "I looked"."""
        state = self.state
        assert isinstance(state, BigHuntState)
        action = self._choice(seat)
        if isinstance(action, Look):
            if self._forgets(f"{self._name(seat)} forgot to press confirm", FORGET_FRAMES):
                return
            if self.table.press(seat, "confirm"):
                self.meant.append(action)
            return
        assert isinstance(action, Challenge)
        twin = state.clone()
        twin.apply(action)
        turned = self._sampled(twin)
        assert isinstance(turned, RevealRole)
        meant = (action, RevealRole(action.seat, turned.character, action.slot, player=CHANCE))
        self._lay_cards(
            self._name(seat), {self.zones[action.seat]: [role_tag(turned.character)]}, meant
        )

    def _turn_up_chance(self) -> None:
        """Role cards for scoring (all at once), the exclusion card or the target (centre)."""
        twin = self.state.clone()
        turned: list[Action] = []
        laid: dict[str, list[int]] = {}
        while twin.to_act() == (CHANCE,) and not twin.is_over() and twin.round == self.state.round:
            action = self._sampled(twin)
            twin.apply(action)
            turned.append(action)
            if isinstance(action, RevealRole):
                laid.setdefault(self.zones[action.seat], []).append(role_tag(action.character))
            elif isinstance(action, OpenExclusion | RevealTarget):
                laid.setdefault(CENTRE, []).append(role_tag(action.character))
            if not isinstance(action, RevealRole) or not isinstance(twin, HuntState):
                break  # one card at a time, but every Role card at a round's end
        self._lay_cards("the table", laid, tuple(turned))

    def _sampled(self, state: CookieState) -> Action:
        outcomes = state.chance_outcomes()
        return self.rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]

    # -- hands on the mat --------------------------------------------------------------

    def _lay_cards(
        self,
        who: str,
        cards: dict[str, list[int]],
        actions: tuple[Action, ...],
        mistake: bool = False,
    ) -> None:
        """Lay ``cards`` (tag ids) face up in their zones (the rest of the mat as it is)."""
        target = self._mat()
        for zone, laid in cards.items():
            for tag in laid:
                target[zone][0][tag] += 1
        self._lay(who, target, actions, mistake)

    def _move_cards(self, mat: Zones, target: Zones) -> None:
        """A back turned up where a card is to go, else the card laid; cards taken away."""
        assert self.world is not None
        for name in target:
            up, down = mat.get(name, (Counter(), 0))
            want_up, want_down = target[name]
            gone, new = +(up - want_up), +(want_up - up)
            for tag in gone.elements():
                self.world.take(name, tag)
            turned = min(down - want_down, sum(new.values())) if down > want_down else 0
            new_tags = list(new.elements())
            for tag in new_tags[:turned]:
                self.world.turn_up(name, tag)
            for tag in new_tags[turned:]:
                self.world.lay(name, tag)
            for _ in range(max(0, down - turned - want_down)):
                self.world.take(name, None)
            for _ in range(max(0, want_down - down)):
                self.world.lay(name, None)

    def _refused(self, waiting: Waiting, message: str) -> None:
        self.say(f"the table blinks red: {message}; putting it right")

    def _say_which(self, challenge: Action, status: dict[str, Any]) -> None:
        """Two Role cards: the table asks which was turned up; confirm the likelier, or type it."""
        assert isinstance(challenge, Challenge) and isinstance(self.state, BigHuntState)
        shown = str(status.get("message", ""))  # the screen: what confirm takes, what to type
        if f"'{challenge.notation()}'" in shown:
            self.table.console(ConsoleCommand(challenge.notation(), seat=challenge.player))
        else:
            self.table.press(challenge.player, "confirm")
        self._patient_again()

    def _undo(self) -> None:
        """The last player holds undo; the mat is then put as the game says."""
        if self._hold_undo():
            self.meant.pop()

    def _name(self, seat: int) -> str:
        return self.memory.player_name(seat)


def _card(action: Action) -> str:
    assert isinstance(action, Play | Hunt), action
    return action.card if isinstance(action, Play) else action.character


TablePeople = CookieTablePeople
"""The people :mod:`cogtable.commands.sim` seats at a Cookie table read by the camera."""

__all__ = ["CookieTablePeople", "TablePeople"]
