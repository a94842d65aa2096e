"""How a C.O.G. game moves on: the effect queue settles, then the phases of a round follow.

Setup, then rounds of five phases: I Prepare (chance only), II Collect (turns
in order, four each), III Activate and IV Construct (simultaneous until each
player finishes; in turn order once the bag ran out), V Conclude (automatic
but for Task 6's limits). Effects that need nobody resolve here at once.
"""

from __future__ import annotations

from games.cog.base import CogBase
from games.cog.chance import Chance
from games.cog.effects import (
    BonusLetter,
    CardDraw,
    CentreLetter,
    ChanceEffect,
    Choice,
    DieRoll,
    Effect,
    GainStar,
    GainVp,
    GoalRoll,
    LetterDraw,
    LetterFor,
    Limits,
    MovePawn,
    NeutralRoll,
    PickCentre,
    Refill,
    SlotCard,
    SlotLetter,
    icon_effects,
)
from games.cog.scoring import Scoring
from games.cog.supply import FEW_LETTERS, MAX_STARS, TURN_BONUSES
from games.core import CHANCE


class Flow(Chance, Scoring, CogBase):
    """Settling the effect queue and stepping through setup, rounds and phases."""

    # -- setup ---------------------------------------------------------------

    def _setup(self) -> None:
        """Board, supply and player setup (rulebook steps 1-14) as effects."""
        self.queue.append(GoalRoll())
        self.queue.extend(CentreLetter(k) for k in range(len(self.centre)))
        for _ in range(2):
            self.queue.extend(LetterFor(p) for p in self.order)
        for position, player in enumerate(self.order):
            self.queue.extend(self._turn_bonus_effects(position, player))

    def _turn_bonus_effects(self, position: int, player: int) -> list[Effect]:
        bonus = TURN_BONUSES[position]
        if bonus is None:
            return []
        if bonus == "vp3":
            return [GainVp(player, 3)]
        return [GainStar(player) if bonus == "star" else LetterFor(player)]

    # -- settling ------------------------------------------------------------

    def _settle(self) -> None:
        """Resolve automatic effects and phase ends until a player or chance must act."""
        while self.phase != "over":
            if self.queue:
                if not self._resolve_automatic(self.queue[0]):
                    return
            elif not self._advance_phase():
                return

    def _resolve_automatic(self, head: Effect) -> bool:
        """Resolve ``head`` if it needs nobody; False if chance or a player must act."""
        if isinstance(head, LetterDraw) and not self._bag_total():
            self._bag_empty(head)
            return True
        if isinstance(head, CardDraw) and not self.deck:
            return self._deck_empty()
        if isinstance(head, ChanceEffect):
            return False
        if isinstance(head, Choice):
            return self._skip_choice(head)
        self.queue.pop(0)
        self._resolve(head)
        return True

    def _resolve(self, effect: Effect) -> None:
        """Carry out an effect that needs neither chance nor a choice."""
        match effect:
            case GainVp(player, amount):
                self.mats[player].vp += amount
            case GainStar(player):
                if self.supply_stars:
                    self.supply_stars -= 1
                    self.mats[player].stars += 1
            case Refill():
                empty = [k for k, letter in enumerate(self.centre) if letter is None]
                self._push([CentreLetter(k) for k in empty])
            case MovePawn(player):
                self._move_pawn(player)
            case _:  # pragma: no cover - every other effect waits for chance or a choice
                raise TypeError(f"no automatic resolution for {effect!r}")

    def _skip_choice(self, head: Choice) -> bool:
        """A choice with nothing to choose from is dropped."""
        if isinstance(head, Limits):
            self._return_stars_if_bag_empty(head.player)
        if isinstance(head, PickCentre):
            needed = any(self.centre)
        else:
            needed = self._over_limits(head.player)
        if not needed:
            self.queue.pop(0)
        return not needed

    def _move_pawn(self, player: int) -> None:
        """Move the pawn clockwise by the die; an empty landing space pays its icons."""
        mat = self.mats[player]
        assert mat.die is not None
        mat.pawn = (mat.pawn + self.die_values[mat.die]) % len(self.ed.track)
        others = [m.pawn for p, m in enumerate(self.mats) if p != player] + self.neutral
        if mat.pawn in others:
            self._note(player, f"{self.player_name(player)} lands on an occupied space: no bonus")
            return
        self._push(icon_effects(player, self.ed.track[mat.pawn]))

    def _return_stars_if_bag_empty(self, player: int) -> None:
        """Task 6 with the bag empty: returning is the only way down from too many stars."""
        mat = self.mats[player]
        if not self._bag_total() and mat.stars > MAX_STARS:
            self.supply_stars += mat.stars - MAX_STARS
            mat.stars = MAX_STARS

    def _bag_empty(self, head: LetterDraw) -> None:
        """Out of letters: spares the first time; then 2 VP per letter owed to a player."""
        if not self.spares_added:
            self.spares_added = True
            self.ran_out = True
            for letter, count in self.ed.spares.items():
                self.bag[letter] = self.bag.get(letter, 0) + count
            self._note(CHANCE, "the bag is empty: the spare tiles go in; the game ends this round")
            return
        self.queue.pop(0)
        if isinstance(head, LetterFor):
            self.mats[head.player].vp += 2
            name = self.player_name(head.player)
            self._note(head.player, f"the bag is empty again: {name} takes 2 VP")

    def _deck_empty(self) -> bool:
        """A new deck from the discards; with none, the draw is lost."""
        if self.discard:
            self.deck, self.discard = sorted(self.discard), []
            return True
        self.queue.pop(0)
        return True

    # -- phases ----------------------------------------------------------------

    def _advance_phase(self) -> bool:
        """Start the next phase once this one is over; False while players still act in it."""
        if self._phase_running():
            return False
        {
            "setup": self._start_prepare,
            "prepare": self._start_collect,
            "collect": self._start_activate,
            "activate": self._start_construct,
            "construct": self._start_conclude,
            "conclude": self._end_round,
        }[self.phase]()
        return True

    def _phase_running(self) -> bool:
        """Whether players still act in the current phase (the queue being empty)."""
        if self.phase == "collect":
            return self.collect_turn < 4 * self.num_players
        return self.phase in ("activate", "construct") and bool(self.to_act())

    def _start_prepare(self) -> None:
        """Phase I: top slots, cabinet cards, dice and turn-order bonuses."""
        self.phase = "prepare"
        for slot in self.top_slots:
            letters, stars = self.ed.top_slots[slot]
            wild = self.num_players == 4 and slot == 3
            self.queue.extend(SlotLetter(slot, wild) for _ in range(letters))
            placed = min(stars, self.supply_stars)
            self.supply_stars -= placed
            self.top_stars[slot] += placed
        empty = [slot for slot, card in enumerate(self.card_slots) if card is None]
        self.queue.extend(SlotCard(slot) for slot in empty)
        self.queue.extend(DieRoll(die) for die in range(len(self.dice)))
        for position in range(self.num_players):
            self._prepare_turn_bonus(position)

    def _prepare_turn_bonus(self, position: int) -> None:
        """Put a bonus on an empty turn-order slot (a bonus nobody took stays)."""
        bonus = TURN_BONUSES[position]
        if bonus is None or self.turn_bonus[position] is not None:
            return
        if bonus == "letter":
            self.queue.append(BonusLetter())
        elif bonus == "vp3" or self.supply_stars:
            self.supply_stars -= bonus == "star"
            self.turn_bonus[position] = bonus

    def _start_collect(self) -> None:
        self.phase = "collect"
        self.collect_turn = 0
        if self.num_players == 2:
            self.queue.append(NeutralRoll())

    def _start_activate(self) -> None:
        self.phase = "activate"
        self.done = []

    def _start_construct(self) -> None:
        """Once-per-round cards turn face up again as Phase III ends."""
        for mat in self.mats:
            mat.used = []
        self.phase = "construct"
        self.done = []

    def _start_conclude(self) -> None:
        """Phase V: clock, turn order, cogs and dice back, a letter for 3 or fewer, limits."""
        self.phase = "conclude"
        self.done = []
        if self.round == self.rounds:
            self._finish_game()  # Task 1: the clock is on its last space
            return
        self.order = [p for p in self.turn_cogs if p is not None]
        self._retrieve_cogs()
        low = [p for p in self.order if len(self.mats[p].reserve) <= FEW_LETTERS]
        self.queue.extend(LetterFor(p) for p in low)
        self.queue.extend(Limits(p) for p in self.order)

    def _retrieve_cogs(self) -> None:
        self.top_cogs = {slot: None for slot in self.top_slots}
        self.card_cogs = [None] * self.num_players
        self.die_cogs = [None] * self.num_players
        self.turn_cogs = [None] * self.num_players
        self.supply_stars += sum(self.protected)
        self.protected = [False] * self.num_players
        for mat in self.mats:
            mat.edges = []
            mat.die = None

    def _end_round(self) -> None:
        """After Phase V: the game ends if the bag ran out this round, else a new round."""
        if self.ran_out:
            self._finish_game()
        else:
            self.round += 1
            self._start_prepare()
