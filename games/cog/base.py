"""The C.O.G. state's fields and the rule questions every part of the engine asks.

:class:`CogBase` names what a position holds; the mixins in :mod:`games.cog.flow`,
:mod:`games.cog.chance`, :mod:`games.cog.moves`, :mod:`games.cog.legality` and
:mod:`games.cog.scoring` add behaviour, and :class:`games.cog.state.CogState` joins them.
"""

from __future__ import annotations

from typing import Any

from games.cog.actions import (
    Happened,
    LettersForStar,
    ReturnLetter,
    ReturnStar,
    StarsForLetter,
)
from games.cog.edition import CabinetCard, Edition
from games.cog.effects import DieRoll, Effect
from games.cog.mat import Mat
from games.cog.supply import COLOURS, MAX_LETTERS, MAX_STARS
from games.core import CHANCE, Action, Event, State


class CogBase(State):
    """What a C.O.G. position holds (set up by :class:`games.cog.state.CogState`)."""

    ed: Edition
    rounds: int
    round: int
    phase: str
    """setup, prepare, collect, activate, construct, conclude or over."""
    order: list[int]
    bag: dict[str, int]
    spares_added: bool
    ran_out: bool
    supply_stars: int
    removed_goal: int
    dice: tuple[str, ...]
    deck: list[int]
    discard: list[int]
    centre: list[str | None]
    top_slots: tuple[int, ...]
    top: dict[int, list[str]]
    top_stars: dict[int, int]
    top_cogs: dict[int, int | None]
    card_slots: list[int | None]
    card_cogs: list[int | None]
    die_values: list[int]
    die_cogs: list[int | None]
    turn_cogs: list[int | None]
    protected: list[bool]
    turn_bonus: list[str | None]
    neutral: list[int]
    collect_turn: int
    done: list[int]
    queue: list[Effect]
    mats: list[Mat]
    final: list[dict[str, int]]
    _events: list[Event]
    _placement_cache: dict[tuple[Any, ...], list[Any]]

    # -- names and notes ---------------------------------------------------

    def player_name(self, player: int) -> str:
        """The player's colour."""
        return "chance" if player == CHANCE else COLOURS[player]

    def _note(self, player: int, text: str) -> None:
        self._events.append(Happened(player, text))

    def card(self, card_id: int) -> CabinetCard:
        """The cabinet card with this number."""
        return self.ed.cabinet[card_id]

    def goals_in_play(self) -> list[int]:
        """The goal card numbers every player has (all but the one the die removed)."""
        return [g.number for g in self.ed.goals if g.number != self.removed_goal]

    def permitted_words(self) -> list[str]:
        """Every word on a goal card in play, completed or not."""
        return [w for number in self.goals_in_play() for w in self.ed.goal(number).words]

    # -- the queue, the bag ------------------------------------------------

    def waiting(self) -> Effect | None:
        """The effect at the front of the queue: what the game waits for (None: nothing)."""
        return self.queue[0] if self.queue else None

    def _push(self, effects: list[Effect]) -> None:
        """Effects that resolve before anything already waiting."""
        self.queue[0:0] = effects

    def _bag_total(self) -> int:
        return sum(self.bag.values())

    def _return_to_bag(self, tiles: list[str]) -> None:
        for tile in tiles:
            letter = tile.upper()
            self.bag[letter] = self.bag.get(letter, 0) + 1

    # -- rule questions ----------------------------------------------------

    def _may_activate(self, player: int) -> bool:
        return player not in self.done and bool(self._activatable(player))

    def _activatable(self, player: int) -> list[int]:
        mat = self.mats[player]
        return [c for c in mat.cards if c not in mat.used and self._die_pays(player, c)]

    def _die_pays(self, player: int, card_id: int) -> bool:
        card, die = self.card(card_id), self.mats[player].die
        if card.timing != "round" or die is None:
            return False
        return card.cost == self.dice[die] or self.die_values[die] in card.pips

    def _over_limits(self, player: int) -> bool:
        """Whether ``player`` still holds too many letters or stars at Task 6."""
        mat = self.mats[player]
        return len(mat.reserve) > MAX_LETTERS or mat.stars > MAX_STARS

    def _limit_kinds(self, player: int) -> set[type[Action]]:
        """The kinds of action that bring ``player`` towards Task 6's limits now."""
        mat, kinds = self.mats[player], set()
        if len(mat.reserve) > MAX_LETTERS:
            kinds |= {ReturnLetter, LettersForStar} if self.supply_stars else {ReturnLetter}
        if mat.stars > MAX_STARS:
            kinds |= {ReturnStar, StarsForLetter} if self._bag_total() else {ReturnStar}
        return kinds

    def bump_space(self, position: int) -> int | None:
        """The empty space that absorbs a bump at ``position`` (None: the bump is impossible)."""
        for space in range(position, self.num_players):
            if self.turn_cogs[space] is None:
                return space
            if self.protected[space]:
                return None
        return None

    def die_rolled(self, die: int) -> bool:
        """Whether die number ``die`` shows this round's roll (it is not waiting to be rolled)."""
        return DieRoll(die) not in self.queue and bool(self.die_values[die])

    def _cube_allowed(self, player: int, word: str) -> bool:
        mat, goal = self.mats[player], self.ed.goal_of_word(word)
        in_play = goal in self.goals_in_play() and goal not in mat.goals_done
        return in_play and word not in mat.cubes and mat.cubes_left() > 0

    def _item_cube_allowed(self, player: int, word: str) -> bool:
        on_grid = word in self.mats[player].grid.spelled()
        return not on_grid and self._cube_allowed(player, word)
