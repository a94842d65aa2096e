"""C.O.G.'s chance: which letter, card or die the table waits for, and where the outcome goes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.cog.actions import DrawCard, DrawLetter, RollDie
from games.cog.base import CogBase
from games.cog.effects import (
    BonusLetter,
    CardDraw,
    CardFor,
    CentreLetter,
    DieRoll,
    Effect,
    GoalRoll,
    LetterDraw,
    LetterFor,
    MovePawn,
    NeutralRoll,
    Reroll,
    SlotCard,
    SlotLetter,
    icon_effects,
)
from games.core import CHANCE, Action, IllegalAction, Request, RequestKind, chance_options


class Chance(CogBase):
    """Chance outcomes, the requests that name them, and applying a drawn letter, card or die."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.to_act() != (CHANCE,):
            return []
        head = self.queue[0]
        if isinstance(head, LetterDraw):
            total = self._bag_total()
            return [(DrawLetter(k, player=CHANCE), n / total) for k, n in self.bag.items() if n]
        if isinstance(head, CardDraw):
            return [(DrawCard(card, player=CHANCE), 1 / len(self.deck)) for card in self.deck]
        return [(RollDie(value, player=CHANCE), 1 / 6) for value in range(1, 7)]

    # -- what the table must sense ----------------------------------------------

    def chance_request(self) -> Request:
        """The die, letter or cabinet card the table waits for, and what it is for.

        Dice are labelled by face ("1" to "6"), letters by the tile ("A"), cabinet
        cards by name (a second copy in the deck: "Lucky find #2"). The bag and
        the deck are the table's (player None); a re-roll is the die of the
        player who re-rolls.
        """
        kind, player, purpose = self._chance_purpose(self.queue[0])
        return Request(kind, player, purpose, chance_options(self.chance_outcomes(), self._label))

    def _chance_purpose(self, effect: Effect) -> tuple[RequestKind, int | None, str]:
        """The request's kind, whose it is and what for, from the waiting effect."""
        match effect:
            case GoalRoll():
                return "die", None, "goal card to remove"
            case NeutralRoll():
                return "die", None, "neutral pawns"
            case DieRoll(die):
                return "die", None, f"die slot {die + 1} ({self.dice[die]} die)"
            case Reroll(player):
                die = self.mats[player].die
                colour = "" if die is None else f" ({self.dice[die]} die)"
                return "die", player, f"re-roll for {self.player_name(player)}{colour}"
            case SlotCard(slot):
                return "draw", None, f"cabinet slot {slot + 1}"
            case CardFor(player):
                return "draw", None, f"cabinet card for {self.player_name(player)}"
            case SlotLetter(slot, wild):
                return "draw", None, f"top slot {slot + 1}" + (" (face down: wild)" * wild)
            case CentreLetter(square):
                return "draw", None, f"centre square {square + 1}"
            case BonusLetter():
                return "draw", None, f"turn-order #{self.num_players} bonus"
            case LetterFor(player):
                return "draw", None, f"letter for {self.player_name(player)}"
        raise TypeError(f"{effect!r} waits for no chance")  # pragma: no cover

    def _label(self, action: Action) -> str:
        """What a person types or a sensor reports for a chance outcome."""
        if isinstance(action, RollDie):
            return str(action.value)
        if isinstance(action, DrawLetter):
            return action.letter
        assert isinstance(action, DrawCard)
        return self.card(action.card).name

    # -- applying an outcome ---------------------------------------------------

    def _chance_handler(self, action: Action) -> Callable[[Any], None]:
        head = self.queue[0]
        expected = (
            DrawLetter
            if isinstance(head, LetterDraw)
            else DrawCard
            if isinstance(head, CardDraw)
            else RollDie
        )
        if not isinstance(action, expected):
            raise IllegalAction(
                f"the table is waiting for a {expected.__name__}, not {action.notation()}"
            )
        return {DrawLetter: self._draw_letter, DrawCard: self._draw_card, RollDie: self._roll}[
            expected
        ]

    def _draw_letter(self, action: DrawLetter) -> None:
        if self.bag.get(action.letter, 0) <= 0:
            raise IllegalAction(f"there is no {action.letter!r} left in the bag")
        head = self.queue.pop(0)
        self.bag[action.letter] -= 1
        letter = action.letter
        match head:
            case LetterFor(player):
                self.mats[player].add_tiles([letter])
                self._note(player, f"{self.player_name(player)} draws {letter}")
            case SlotLetter(slot, wild):
                self.top[slot].append(letter.lower() if wild else letter)
            case BonusLetter():
                self.turn_bonus[self.num_players - 1] = letter
            case CentreLetter(square):
                self.centre[square] = letter

    def _draw_card(self, action: DrawCard) -> None:
        if action.card not in self.deck:
            raise IllegalAction(f"cabinet card #{action.card} is not in the deck")
        head = self.queue.pop(0)
        self.deck.remove(action.card)
        match head:
            case SlotCard(slot):
                self.card_slots[slot] = action.card
            case CardFor(player):
                self._acquire(player, action.card)

    def _roll(self, action: RollDie) -> None:
        if action.value not in range(1, 7):
            raise IllegalAction(f"a die shows 1 to 6, not {action.value}")
        head = self.queue.pop(0)
        value = action.value
        match head:
            case GoalRoll():
                self.removed_goal = value
                self._note(CHANCE, f"goal card {value} is removed")
            case DieRoll(die):
                self.die_values[die] = value
            case Reroll(player):
                die = self.mats[player].die
                assert die is not None
                self.die_values[die] = value
                self._push([MovePawn(player)])
            case NeutralRoll():
                self.neutral = [(pawn + value) % len(self.ed.track) for pawn in self.neutral]
                self._note(CHANCE, f"the neutral pawns move {value}")

    # -- acquiring cabinet cards ---------------------------------------------

    def _acquire(self, player: int, card_id: int) -> None:
        """A card arrives: immediate cards fire and are discarded, wild letters flip."""
        card, mat = self.card(card_id), self.mats[player]
        self._note(player, f"{self.player_name(player)} takes {card.label()}")
        if card.timing == "immediate":
            self.discard.append(card_id)
            self._push(icon_effects(player, card.powers))
            return
        mat.cards.append(card_id)
        if card.timing == "always":
            mat.wild = "".join(sorted(set(mat.wild) | set(card.wild)))
