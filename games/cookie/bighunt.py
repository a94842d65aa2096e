"""The Big Hunt (2 to 4 players), on the Reference card for 6 players; the round's
steps are told at :class:`BigHuntState`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import CHANCE, Action, Event, IllegalAction, Request, RequestKind, chance_options

from .actions import (
    Challenge,
    Claim,
    DealRole,
    DrawTarget,
    Hunt,
    Look,
    OpenExclusion,
    Revealed,
    RevealRole,
    RevealTarget,
    RoundScored,
    Said,
    seat_name,
)
from .common import CookieState, character_of, expect, is_int
from .reference import REFERENCES

CHARACTERS = REFERENCES[6].characters


class BigHuntState(CookieState):
    """A game of The Big Hunt.

    Each round: a target is drawn face down from the six Role cards and the rest
    are dealt: one role each (two with 2 players), the last card the exclusion
    card (with 3 players two exclusion cards, one turned face up). Phase 1: in
    seat order from the first player each player claims a character by laying its
    card face up (twice each, in turn, with 2 players). Phase 2: in seat order
    each player either turns up another player's Role card (a bluffer caught pays
    the revealer one Coin if they have one) or looks at the secret exclusion card.
    Phase 3: everybody lays one character face down (a simultaneous choice); the
    cards and the target are turned up; eliminations are simultaneous (an
    eliminated character still eliminates what it hunts, but cannot claim the
    target). Coins: 1 per other player's character your card eliminates, 3 for
    the target if your character survives, 2 as the only survivor, 1 guaranteed.
    Everybody starts with 1 Coin; the game ends after everyone was first player
    twice (``extra_rounds`` plays on).

    With ``roles_known_at_deal`` off, the table has not seen the face-down cards:
    the roles and the target are supplied by :class:`RevealRole` and
    :class:`RevealTarget` when they are turned up, and a look at the exclusion
    card is recorded without its face.
    """

    variant = "big-hunt"

    def __init__(self, options: Mapping[str, Any], seed: int) -> None:
        count = options["players"]
        super().__init__(options, seed, count, rounds=2 * count + options["extra_rounds"])
        self.reference = REFERENCES[6]
        self.known = bool(options["roles_known_at_deal"])
        self.slots = 2 if count == 2 else 1
        self.coins = [1] * count
        self.start_round()

    # -- setup ----------------------------------------------------------------

    def start_round(self) -> None:
        count, slots = self.num_players, self.slots
        self.target: str | None = None
        self.roles: list[list[str | None]] = [[None] * slots for _ in range(count)]
        self.open_exclusion: str | None = None
        self.secret_exclusion: str | None = None
        self.hands: list[list[str]] = [list(CHARACTERS) for _ in range(count)]
        self.claims: list[list[str]] = [[] for _ in range(count)]
        self.revealed: list[list[bool]] = [[False] * slots for _ in range(count)]
        self.looked: list[bool] = [False] * count
        self.checks: list[str] = []
        self.hunts: list[str | None] = [None] * count
        self.challenge: list[int] | None = None
        self.step = 0
        self.phase = "deal" if self.known or count == 3 else "claim"

    def claim_order(self) -> list[int]:
        """Phase 1: seat order from the first player, twice round with 2 players."""
        return self.seat_order() * self.slots

    # -- who acts and what they may do --------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self.phase in ("deal", "turn-up", "target"):
            return (CHANCE,)
        if self.phase == "claim":
            return (self.claim_order()[self.step],)
        if self.phase == "check":
            return (self.seat_order()[self.step],)
        if self.phase == "hunt":
            return tuple(seat for seat, card in enumerate(self.hunts) if card is None)
        return ()

    def _choices_of(self, seat: int) -> list[Action]:
        if self.phase == "claim":
            return [Claim(c, player=seat) for c in self.hands[seat]]
        if self.phase == "hunt":
            return [Hunt(c, player=seat) for c in self.hands[seat]]
        return [Look(player=seat), *(Challenge(s, k, player=seat) for s, k in self._hidden(seat))]

    def _hidden(self, seat: int) -> list[tuple[int, int]]:
        """Other players' Role cards still face down: what ``seat`` may turn up."""
        return [
            (other, slot)
            for other in range(self.num_players)
            for slot in range(self.slots)
            if other != seat and not self.revealed[other][slot]
        ]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        actions = self._chance_actions()
        return [(action, 1 / len(actions)) for action in actions]

    def _chance_actions(self) -> list[Action]:
        if self.phase == "deal":
            return self._deal_actions()
        unseen = self._unseen()
        if self.phase == "turn-up":
            _, seat, slot = self.challenge  # type: ignore[misc]
            return [RevealRole(seat, c, slot, player=CHANCE) for c in unseen]
        if self.phase == "target":
            return [RevealTarget(c, player=CHANCE) for c in unseen]
        return []

    def _deal_actions(self) -> list[Action]:
        """The next card the table deals: target, then roles seat by seat, then the open card."""
        unseen = self._unseen()
        if self.known and self.target is None:
            return [DrawTarget(c, player=CHANCE) for c in unseen]
        for seat in range(self.num_players):
            for slot in range(self.slots):
                if self.known and self.roles[seat][slot] is None:
                    return [DealRole(seat, c, slot, player=CHANCE) for c in unseen]
        return [OpenExclusion(c, player=CHANCE) for c in unseen]

    def chance_request(self) -> Request:
        """The card the table deals or turns up now, whose it is and what for, by character.

        At the round's start the target, the Role cards and (3 players) the open
        exclusion card are dealt (kind ``deal``); on a table that cannot see face-down
        cards a Role card challenged in Phase 2 and the target after Phase 3 are
        supplied when turned up (``reveal``). The target and the exclusion card
        are the table's (player None).
        """
        outcomes = self.chance_outcomes()
        kind, player, purpose = self._chance_purpose(outcomes[0][0])
        return Request(kind, player, purpose, chance_options(outcomes, character_of))

    def _chance_purpose(self, action: Action) -> tuple[RequestKind, int | None, str]:
        kind: RequestKind = "deal" if self.phase == "deal" else "reveal"
        if isinstance(action, DealRole | RevealRole):
            return kind, action.seat, self.role_card_name(action.seat, action.slot)
        if isinstance(action, OpenExclusion):
            return kind, None, "the open exclusion card"
        return kind, None, "the target card"

    def role_card_name(self, seat: int, slot: int) -> str:
        """``P2's role card`` (with 2 players, who hold two: ``P2's role card 2``)."""
        number = f" {slot + 1}" if self.slots > 1 else ""
        return f"{self.player_name(seat)}'s role card{number}"

    def _unseen(self) -> list[str]:
        """Characters whose Role card the engine has not placed anywhere yet."""
        placed = {self.target, self.open_exclusion, *self._all_roles()}
        return [c for c in CHARACTERS if c not in placed]

    # -- applying actions -------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        if self.phase in ("deal", "turn-up", "target"):
            return self._chance(action)
        if self.phase == "claim":
            return self._claim(action)
        if self.phase == "check":
            return self._check(action)
        return self._hunt(action)

    def _chance(self, action: Action) -> list[Event]:
        allowed = self._chance_actions()
        if action not in allowed:
            raise IllegalAction(
                f"{action.notation()} is not what the table can turn up now; "
                f"expected one of: {', '.join(a.notation() for a in allowed)}"
            )
        if isinstance(action, RevealRole):
            return self._turned_up(action)
        if isinstance(action, RevealTarget):
            self.target = action.character
            return self._score()
        if isinstance(action, DrawTarget):
            self.target = action.character
        elif isinstance(action, DealRole):
            self.roles[action.seat][action.slot] = action.character
        elif isinstance(action, OpenExclusion):
            self.open_exclusion = action.character
        return self._dealt()

    def _dealt(self) -> list[Event]:
        """After a dealt card: once everything is out, Phase 1 begins."""
        roles_out = not self.known or None not in (self.target, *self._all_roles())
        if not roles_out or (self.num_players == 3 and self.open_exclusion is None):
            return []
        if self.known:
            self.secret_exclusion = self._unseen()[0]
        self.phase = "claim"
        return []

    def _all_roles(self) -> list[str | None]:
        return [role for roles in self.roles for role in roles]

    def _claim(self, action: Action) -> list[Event]:
        seat = action.player
        claim = expect(action, Claim, f"{seat_name(seat)} names a character (Phase 1)")
        if claim.character not in self.hands[seat]:
            raise IllegalAction(
                f"{seat_name(seat)} has no {claim.character!r} card left to claim with"
            )
        self.hands[seat].remove(claim.character)
        self.claims[seat].append(claim.character)
        self.step += 1
        if self.step == len(self.claim_order()):
            self.phase, self.step = "check", 0
        return [Said(action.notation())]

    def _check(self, action: Action) -> list[Event]:
        seat = action.player
        if isinstance(action, Look):
            self.looked[seat] = True
            return self._checked(f"{seat_name(seat)} looked at the exclusion card")
        challenge = expect(
            action, Challenge, f"{seat_name(seat)} turns up a Role card or looks (Phase 2)"
        )
        target, slot = challenge.seat, challenge.slot
        if not (is_int(target) and is_int(slot)) or (target, slot) not in self._hidden(seat):
            raise IllegalAction(self._why_not_reveal(seat, target, slot))
        if self.known:
            return self._settle(seat, target, slot)
        self.challenge = [seat, target, slot]
        self.phase = "turn-up"
        return [Said(action.notation())]

    def _why_not_reveal(self, seat: int, target: object, slot: object) -> str:
        if target == seat:
            return f"{seat_name(seat)} cannot turn up their own Role card"
        if not is_int(target) or not 0 <= target < self.num_players:  # type: ignore[operator]
            return f"there is no player {target!r}; players are P1 to P{self.num_players}"
        if not is_int(slot) or not 0 <= slot < self.slots:  # type: ignore[operator]
            return f"{seat_name(target)} has {self.slots} Role card(s); there is no card {slot!r}"
        return f"{seat_name(target)}'s Role card is already face up"

    def _turned_up(self, action: RevealRole) -> list[Event]:
        seat, target, slot = self.challenge  # type: ignore[misc]
        self.roles[target][slot] = action.character
        self.challenge = None
        self.phase = "check"
        return self._settle(seat, target, slot)

    def _settle(self, seat: int, target: int, slot: int) -> list[Event]:
        """A Role card is face up: a caught bluffer pays the revealer one Coin if they can."""
        self.revealed[target][slot] = True
        role, claimed = self.roles[target][slot], self.claims[target][slot]
        text = f"{seat_name(seat)} turned up {seat_name(target)}'s role: {role}"
        if role == claimed:
            return self._checked(f"{text}, as claimed")
        if self.coins[target] == 0:
            return self._checked(f"{text}, not {claimed}; {seat_name(target)} has no Coin to pay")
        self.coins[target] -= 1
        self.coins[seat] += 1
        return self._checked(
            f"{text}, not {claimed}; {seat_name(target)} pays {seat_name(seat)} 1 Coin"
        )

    def _checked(self, text: str) -> list[Event]:
        self.checks.append(text)
        self.step += 1
        if self.step == self.num_players:
            self.phase, self.step = "hunt", 0
        return [Said(text)]

    def _hunt(self, action: Action) -> list[Event]:
        seat = action.player
        hunt = expect(action, Hunt, "every player lays one character face down (Phase 3)")
        if hunt.character not in self.hands[seat]:
            raise IllegalAction(
                f"{seat_name(seat)} has no {hunt.character!r} card in hand to hunt with"
            )
        self.hands[seat].remove(hunt.character)
        self.hunts[seat] = hunt.character
        if None in self.hunts:
            return []
        revealed: list[Event] = [Revealed(tuple(self.hunts))]  # type: ignore[arg-type]
        if self.target is None:
            self.phase = "target"
            return revealed
        return [*revealed, *self._score()]

    # -- scoring ------------------------------------------------------------------

    def eliminated(self) -> list[bool]:
        """Per seat: is the character it laid hunted by any laid card (all at once)."""
        prey = self.reference.prey
        hunted = {prey[card] for card in self.hunts}  # type: ignore[index]
        return [card in hunted for card in self.hunts]

    def round_gains(self) -> list[int]:
        """This round's coins per seat, from the laid cards and the target."""
        out = self.eliminated()
        survivors = [seat for seat, gone in enumerate(out) if not gone]
        return [self._gain(seat, out, survivors) for seat in range(self.num_players)]

    def _gain(self, seat: int, out: list[bool], survivors: list[int]) -> int:
        prey = self.reference.prey[self.hunts[seat]]  # type: ignore[index]
        victims = sum(1 for card in self.hunts if card == prey)
        target = 3 if prey == self.target and not out[seat] else 0
        alone = 2 if survivors == [seat] else 0
        return 1 + victims + target + alone

    def _score(self) -> list[Event]:
        gains = self.round_gains()
        summary = {
            "round": self.round,
            "target": self.target,
            "hunts": list(self.hunts),
            "eliminated": self.eliminated(),
            "claims": [list(c) for c in self.claims],
            "revealed_roles": self._public_roles(),
        }
        event = RoundScored(self.round, tuple(gains))
        self.finish_round(summary, gains)
        return [Said(f"the target is {summary['target']}"), event]

    # -- what players see -------------------------------------------------------

    def _public_roles(self) -> list[list[str | None]]:
        return [
            [role if shown else None for role, shown in zip(roles, flags, strict=True)]
            for roles, flags in zip(self.roles, self.revealed, strict=True)
        ]

    def view(self, player: int | None = None) -> dict[str, Any]:
        shown = self.table_view() | {
            "claims": [list(c) for c in self.claims],
            "revealed_roles": self._public_roles(),
            "open_exclusion": self.open_exclusion,
            "checks": list(self.checks),
            "looked": list(self.looked),
            "laid_face_down": [card is not None for card in self.hunts],
        }
        if player is not None and 0 <= player < self.num_players:
            shown |= self._private(player)
        return shown

    def _private(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "roles": list(self.roles[seat]) if self.known else self._public_roles()[seat],
            "exclusion": self.secret_exclusion if self.looked[seat] else None,
            "hand": list(self.hands[seat]),
            "face_down": self.hunts[seat],
        }

    def snapshot(self) -> dict[str, Any]:
        return self.table_view(copy=False) | {
            "target": self.target,
            "roles": [list(r) for r in self.roles],
            "open_exclusion": self.open_exclusion,
            "secret_exclusion": self.secret_exclusion,
            "hands": [list(h) for h in self.hands],
            "claims": [list(c) for c in self.claims],
            "revealed": [list(r) for r in self.revealed],
            "looked": list(self.looked),
            "checks": list(self.checks),
            "hunts": list(self.hunts),
            "challenge": self.challenge,
            "step": self.step,
        }
