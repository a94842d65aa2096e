"""Every Man for Himself (4 to 6 players); the round's steps are told at :class:`HuntState`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import CHANCE, Action, Event, IllegalAction, Request, chance_options

from .actions import Aim, DealRole, Play, Revealed, RevealRole, RoundScored, Said, seat_name
from .common import CookieState, can_assign, character_of, count_assignments, expect
from .reference import REFERENCES

SWORD, SHIELD, HILL = "Sword", "Shield", "Hill"


class HuntState(CookieState):
    """A game of Every Man for Himself.

    Each round: roles are dealt face down; each player's hand is their characters
    but their own role, plus Sword, Shield and (4 or 5 players) Hill. There are as
    many turns as players. Each turn everybody lays one card face down (a
    simultaneous choice); the cards are revealed together; then each revealed
    Sword and Shield is aimed in seat order from the round's first player. A Sword
    may not be aimed at a player whose Shield is aimed at its owner, a Shield not
    at a player whose Sword is aimed at its owner. Round scores: 3 for a Sword on
    your prey, 2 for a Shield on your hunter, 1 for Hill still in hand.

    Engine reading: a Sword or Shield that has no allowed player left when its
    turn to be aimed comes lies on the table without effect.

    With ``roles_known_at_deal`` off, the table has not seen the face-down roles:
    nothing is dealt, every character may be played as long as some dealing of
    the roles still fits what everybody played, and each role is supplied by a
    :class:`RevealRole` when the cards are turned up for scoring.
    """

    variant = "hunt"

    def __init__(self, options: Mapping[str, Any], seed: int) -> None:
        count = options["players"]
        super().__init__(options, seed, count, rounds=count)
        self.reference = REFERENCES[count]
        self.known = bool(options["roles_known_at_deal"])
        self.specials = (SWORD, SHIELD) if count == 6 else (SWORD, SHIELD, HILL)
        self.start_round()

    # -- setup ----------------------------------------------------------------

    def start_round(self) -> None:
        count = self.num_players
        self.roles: list[str | None] = [None] * count
        full = [*self.reference.characters, *self.specials]
        self.hands: list[list[str]] = [[] if self.known else list(full) for _ in range(count)]
        self.played: list[list[str]] = [[] for _ in range(count)]
        self.choices: list[str | None] = [None] * count
        self.sword_at: list[int | None] = [None] * count
        self.shield_at: list[int | None] = [None] * count
        self.aiming: list[int] = []
        self.turn = 0
        self.phase = "deal" if self.known else "play"

    # -- who acts and what they may do --------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self.phase in ("deal", "reveal"):
            return (CHANCE,)
        if self.phase == "play":
            return tuple(seat for seat, card in enumerate(self.choices) if card is None)
        if self.phase == "aim":
            return (self.aiming[0],)
        return ()

    def _choices_of(self, seat: int) -> list[Action]:
        if self.phase == "aim":
            return [Aim(t, player=seat) for t in self.allowed_targets(seat)]
        allowed = self._allowed_roles()
        return [
            Play(card, player=seat)
            for card in self.hands[seat]
            if self._may_lay(seat, card, allowed)
        ]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase == "deal":
            seat = self.roles.index(None)
            left = [c for c in self.reference.characters if c not in self.roles]
            return [(DealRole(seat, c, player=CHANCE), 1 / len(left)) for c in left]
        if self.phase == "reveal":
            return self._reveal_outcomes()
        return []

    def _reveal_outcomes(self) -> list[tuple[Action, float]]:
        seat = self.roles.index(None)
        weights = {c: self._assignments(seat, c) for c in self._possible_roles(seat)}
        total = sum(weights.values())
        return [
            (RevealRole(seat, c, player=CHANCE), weight / total)
            for c, weight in weights.items()
            if weight
        ]

    def chance_request(self) -> Request:
        """The next Role card: dealt at the start of a round, or turned up for scoring.

        Dealt (roles known at the deal) it is a ``deal``; turned up on a table
        that never saw it, a ``reveal``. Either way it is the seat's own
        secret, labelled by character.
        """
        seat = self.roles.index(None)
        kind = "deal" if self.phase == "deal" else "reveal"
        options = chance_options(self.chance_outcomes(), character_of)
        return Request(kind, seat, f"{self.player_name(seat)}'s role card", options)

    # -- what fits the face-down roles ----------------------------------------

    def _possible_roles(self, seat: int) -> list[str]:
        """Characters ``seat`` may hold, from what the table knows."""
        if self.roles[seat] is not None:
            return [self.roles[seat]]  # type: ignore[list-item]
        shown = {*self.played[seat], self.choices[seat]}
        taken = set(self.roles)
        return [c for c in self.reference.characters if c not in shown and c not in taken]

    def _assignments(self, seat: int, role: str) -> int:
        """How many dealings of the unseen roles fit if ``seat`` holds ``role``."""
        allowed = [self._possible_roles(s) for s in range(self.num_players)]
        allowed[seat] = [role]
        return count_assignments(allowed, self.reference.characters)

    def _allowed_roles(self) -> list[list[str]]:
        return [self._possible_roles(s) for s in range(self.num_players)]

    def _may_lay(self, seat: int, card: str, allowed: list[list[str]] | None = None) -> bool:
        """Whether laying ``card`` leaves every face-down role some character."""
        if self.known or card not in self.reference.characters:
            return True
        allowed = list(allowed or self._allowed_roles())
        allowed[seat] = [c for c in allowed[seat] if c != card]
        return can_assign(allowed, self.reference.characters)

    def allowed_targets(self, seat: int) -> list[int]:
        """Players the Sword or Shield of ``seat`` may be aimed at now."""
        card = self.played[seat][-1]
        blocking = self.shield_at if card == SWORD else self.sword_at
        return [t for t in range(self.num_players) if t != seat and blocking[t] != seat]

    # -- applying actions -------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        if self.phase == "deal":
            return self._deal(action)
        if self.phase == "play":
            return self._play(action)
        if self.phase == "aim":
            return self._aim(action)
        return self._reveal_role(action)

    def _deal(self, action: Action) -> list[Event]:
        deal = expect(action, DealRole, "the table is dealing the Role cards")
        seat = self.roles.index(None)
        left = [c for c in self.reference.characters if c not in self.roles]
        if deal.seat != seat or deal.slot != 0 or deal.character not in left:
            raise IllegalAction(f"the next Role card goes to {seat_name(seat)}, one of {left}")
        role = deal.character
        self.roles[seat] = role
        others = [c for c in self.reference.characters if c != role]
        self.hands[seat] = [*others, *self.specials]
        if None not in self.roles:
            self.phase = "play"
        return []

    def _play(self, action: Action) -> list[Event]:
        play = expect(action, Play, "every player lays one card face down")
        seat, card = play.player, play.card
        if card not in self.hands[seat]:
            held = ", ".join(self.hands[seat])
            raise IllegalAction(f"{seat_name(seat)} has no {card!r} in hand (holds {held})")
        if not self._may_lay(seat, card):
            raise IllegalAction(
                f"{seat_name(seat)} cannot have {card}: then no dealing of the roles fits the play"
            )
        self.hands[seat].remove(card)
        self.choices[seat] = card
        if None in self.choices:
            return []
        return self._turn_up()

    def _turn_up(self) -> list[Event]:
        """All cards are down: reveal them together and queue the Swords and Shields."""
        cards = tuple(self.choices)
        for seat, card in enumerate(cards):
            self.played[seat].append(card)  # type: ignore[arg-type]
        self.choices = [None] * self.num_players
        self.aiming = [s for s in self.seat_order() if cards[s] in (SWORD, SHIELD)]
        self.phase = "aim"
        return [Revealed(cards), *self._next_aim()]  # type: ignore[arg-type]

    def _next_aim(self) -> list[Event]:
        """Skip Swords and Shields that have nobody left to aim at; end the turn when done."""
        events: list[Event] = []
        while self.aiming and not self.allowed_targets(self.aiming[0]):
            seat = self.aiming.pop(0)
            card = self.played[seat][-1]
            events.append(Said(f"{seat_name(seat)}'s {card} has nobody it may be aimed at"))
        if not self.aiming:
            events.extend(self._end_turn())
        return events

    def _aim(self, action: Action) -> list[Event]:
        seat = self.aiming[0]
        card = self.played[seat][-1]
        aim = expect(action, Aim, f"{seat_name(seat)} aims the {card}")
        target = self.check_seat(aim.target, f"the {card}'s player")
        if target not in self.allowed_targets(seat):
            raise IllegalAction(self._why_not(seat, card, target))
        (self.sword_at if card == SWORD else self.shield_at)[seat] = target
        self.aiming.pop(0)
        said = Said(f"{seat_name(seat)} aims the {card} at {seat_name(target)}")
        return [said, *self._next_aim()]

    def _why_not(self, seat: int, card: str, target: int) -> str:
        if target == seat:
            return f"{seat_name(seat)} cannot aim the {card} at themselves"
        other = SHIELD if card == SWORD else SWORD
        return (
            f"{seat_name(seat)} cannot aim the {card} at {seat_name(target)}: "
            f"{seat_name(target)}'s {other} is aimed at {seat_name(seat)}"
        )

    def _end_turn(self) -> list[Event]:
        self.turn += 1
        if self.turn < self.num_players:
            self.phase = "play"
            return []
        if None in self.roles:
            self.phase = "reveal"
            return []
        return self._score()

    def _reveal_role(self, action: Action) -> list[Event]:
        reveal = expect(action, RevealRole, "the table turns up the Role cards")
        seat = self.roles.index(None)
        fitting = [a.character for a, _ in self._reveal_outcomes()]  # type: ignore[attr-defined]
        if reveal.seat != seat or reveal.slot != 0 or reveal.character not in fitting:
            raise IllegalAction(
                f"the next Role card turned up is {seat_name(seat)}'s; "
                f"what was played leaves only {fitting}"
            )
        self.roles[seat] = reveal.character
        if reveal.character in self.hands[seat]:
            self.hands[seat].remove(reveal.character)
        return [] if None in self.roles else self._score()

    # -- scoring ------------------------------------------------------------------

    def round_gains(self) -> list[int]:
        """This round's coins per seat; needs every role."""
        return [self._gain(seat) for seat in range(self.num_players)]

    def _gain(self, seat: int) -> int:
        role, roles = self.roles[seat], self.roles
        prey, hunter = self.reference.prey[role], self.reference.hunter[role]  # type: ignore[index]
        sword, shield = self.sword_at[seat], self.shield_at[seat]
        gain = 3 if sword is not None and roles[sword] == prey else 0
        gain += 2 if shield is not None and roles[shield] == hunter else 0
        return gain + (1 if HILL in self.hands[seat] else 0)

    def _score(self) -> list[Event]:
        gains = self.round_gains()
        summary = {
            "round": self.round,
            "roles": list(self.roles),
            "played": [list(cards) for cards in self.played],
            "swords": list(self.sword_at),
            "shields": list(self.shield_at),
        }
        event = RoundScored(self.round, tuple(gains))
        self.finish_round(summary, gains)
        return [event]

    # -- what players see -------------------------------------------------------

    def view(self, player: int | None = None) -> dict[str, Any]:
        shown = self.table_view() | {
            "turn": self.turn,
            "played": [list(cards) for cards in self.played],
            "swords": list(self.sword_at),
            "shields": list(self.shield_at),
            "laid_face_down": [card is not None for card in self.choices],
            "aiming": self.aiming[0] if self.aiming else None,
        }
        if player is not None and 0 <= player < self.num_players:
            shown |= {
                "seat": player,
                "role": self.roles[player],
                "hand": list(self.hands[player]),
                "face_down": self.choices[player],
            }
        return shown

    def snapshot(self) -> dict[str, Any]:
        return self.table_view(copy=False) | {
            "turn": self.turn,
            "roles": list(self.roles),
            "hands": [list(hand) for hand in self.hands],
            "played": [list(cards) for cards in self.played],
            "choices": list(self.choices),
            "swords": list(self.sword_at),
            "shields": list(self.shield_at),
            "aiming": list(self.aiming),
        }
