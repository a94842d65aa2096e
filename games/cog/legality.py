"""Which actions a C.O.G. player may take now: the listings behind ``legal_actions``.

A free decision (a turn in Phase II, a part of Phases III and IV) lists the
phase's actions and the any-time ones (conversions, deconstruction); a forced
choice (a centre letter, Task 6's limits) lists only its answers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from games.cog.actions import (
    Activate,
    CompleteItem,
    Deconstruct,
    Finish,
    LettersForStar,
    MakeCellWild,
    MakeWild,
    PlaceWord,
    PlaceWordWild,
    ReturnLetter,
    ReturnStar,
    StarsForLetter,
    TakeCard,
    TakeCentre,
    TakeDie,
    TakeLetters,
    TakeTurnOrder,
)
from games.cog.base import CogBase
from games.cog.effects import PickCentre
from games.cog.grid import Placed, TileLine, fits, is_wild
from games.cog.mat import unfilled_spots
from games.core import CHANCE, Action, IllegalAction


def _plain_shortage(letters: list[str], plain: list[str]) -> dict[str, int]:
    """For each letter, how many of its places the plain tiles held cannot fill."""
    return dict(Counter(letters) - Counter(plain))


def _covers(chosen: tuple[int, ...], letters: list[str], short: dict[str, int]) -> bool:
    """Whether wild tiles on the ``chosen`` places leave only letters plain tiles can fill."""
    if not short:
        return True
    left = dict(short)
    for index in chosen:
        if letters[index] in left:
            left[letters[index]] -= 1
    return all(count <= 0 for count in left.values())


def _as_seen(tile: str) -> str | None:
    """A grid tile as the camera tells it: its letter, None face down ("" for no tile)."""
    return None if tile.islower() else tile


def _where_of(placed: Placed) -> tuple[str, int, int, bool]:
    """A placement's fields in :class:`PlaceWord` order."""
    return placed.word, placed.row, placed.col, placed.down


class Legality(CogBase):
    """The legal actions of each player in each phase."""

    def legal_actions(self, player: int | None = None) -> Sequence[Action]:
        acting = self.to_act()
        if acting == (CHANCE,):
            wanted = player in (None, CHANCE)
            return [action for action, _ in self.chance_outcomes()] if wanted else []
        players = acting if player is None else [p for p in acting if p == player]
        return [action for p in players for action in self._legal_for(p)]

    def _legal_for(self, player: int) -> list[Action]:
        if self.queue:
            return self._choices(player)
        listing = {
            "collect": self._legal_collect,
            "activate": self._legal_activate,
            "construct": self._legal_construct,
        }[self.phase]
        return listing(player) + self._legal_any_time(player)

    def _choices(self, player: int) -> list[Action]:
        if isinstance(self.queue[0], PickCentre):
            return [TakeCentre(k, player=player) for k, x in enumerate(self.centre) if x]
        return self._limit_choices(player)

    def _limit_choices(self, player: int) -> list[Action]:
        """Task 6: every way to return or convert towards 7 letters and 3 stars."""
        kinds, reserve = self._limit_kinds(player), self.mats[player].reserve
        found: list[Action] = []
        if ReturnLetter in kinds:
            found += [ReturnLetter(t, player=player) for t in sorted(set(reserve))]
        if LettersForStar in kinds:
            pairs = sorted(set(combinations(reserve, 2)))
            found += [LettersForStar(pair, player=player) for pair in pairs]
        found += [kind(player=player) for kind in (ReturnStar, StarsForLetter) if kind in kinds]
        return found

    # -- Phase II ---------------------------------------------------------------

    def _legal_collect(self, player: int) -> list[Action]:
        mat = self.mats[player]
        found: list[Action] = []
        if "top" not in mat.edges:
            found += [TakeLetters(s, player=player) for s, c in self.top_cogs.items() if c is None]
        if "bottom" not in mat.edges:
            found += self._legal_cards(player)
        if "dice" not in mat.edges:
            open_dice = [d for d, c in enumerate(self.die_cogs) if c is None]
            rerolls = (False, True) if mat.stars else (False,)
            found += [TakeDie(d, r, player=player) for d in open_dice for r in rerolls]
        if "turn" not in mat.edges:
            found += self._legal_turn_order(player)
        return found

    def _legal_cards(self, player: int) -> list[Action]:
        found: list[Action] = []
        for slot, cog in enumerate(self.card_cogs):
            if cog is None:
                found.append(TakeCard(slot, False, player=player))
                if self.mats[player].stars and self.card_slots[slot] is not None:
                    found.append(TakeCard(slot, True, player=player))
        return found

    def _legal_turn_order(self, player: int) -> list[Action]:
        stars = self.mats[player].stars
        found: list[Action] = []
        for position in range(self.num_players):
            if self.bump_space(position) is None:
                continue
            bump = self.turn_cogs[position] is not None
            found += [
                TakeTurnOrder(position, protect, player=player)
                for protect in (False, True)
                if bump + protect <= stars
            ]
        return found

    # -- Phases III and IV --------------------------------------------------------

    def _legal_activate(self, player: int) -> list[Action]:
        cards = self._activatable(player)
        return [Activate(card, player=player) for card in cards] + [Finish(player=player)]

    def _legal_construct(self, player: int) -> list[Action]:
        mat = self.mats[player]
        found: list[Action] = list(self.word_placements(player))
        found += self._legal_items(player)
        if mat.stars:
            plain = sorted({t for t in mat.reserve if not is_wild(t, mat.wild)})
            found += [MakeWild(t, player=player) for t in plain]
            cells = sorted(c for c, t in mat.grid.tiles.items() if not is_wild(t, mat.wild))
            found += [MakeCellWild(r, c, player=player) for r, c in cells]
        return [*found, Finish(player=player)]

    def word_placements(self, player: int) -> list[PlaceWord]:
        """Every word ``player`` can spell on their grid now with their reserve.

        Results are cached by what they depend on (reserve, grid, wild
        letters, goal cards in play), so repeated listings of one position are cheap.
        """
        mat = self.mats[player]
        key = (player, tuple(mat.reserve), frozenset(mat.grid.tiles.items()),
               tuple(mat.grid.words), mat.wild, self.removed_goal)  # fmt: skip
        found = self._placement_cache.get(key)
        if found is None:
            found = self._find_placements(player)
            if len(self._placement_cache) > 512:
                self._placement_cache.clear()
            self._placement_cache[key] = found
        return list(found)

    def _find_placements(self, player: int) -> list[PlaceWord]:
        mat = self.mats[player]
        crossing = 1 if mat.grid.words else 0
        words = [w for w in self.permitted_words() if mat.shortfall(w) <= len(w) * crossing - 1
                 or mat.shortfall(w) == 0]  # fmt: skip
        found = []
        plain, wild = mat.split_reserve()
        for placed in mat.grid.candidates(words, mat.wild):
            letters = [
                letter
                for cell, letter in zip(placed.cells(), placed.word, strict=True)
                if cell not in mat.grid.tiles
            ]
            if mat.assign(letters) is not None:
                found.append(
                    PlaceWord(placed.word, placed.row, placed.col, placed.down, player=player)
                )
                if wild:
                    found += self._wild_variants(player, placed, letters, plain, len(wild))
        return found

    def _wild_variants(
        self, player: int, placed: Placed, letters: list[str], plain: list[str], wild: int
    ) -> list[PlaceWord]:
        """The same placement with the player choosing which new cells take wild tiles.

        Every set of new cells the ``wild`` tiles held can cover while the
        ``plain`` tiles fill the rest, except the set :meth:`Mat.assign` picks anyway.
        """
        tiles = self.mats[player].grid.tiles
        spots = [i for i, cell in enumerate(placed.cells()) if cell not in tiles]
        default, short = unfilled_spots(letters, plain), _plain_shortage(letters, plain)
        found: list[PlaceWord] = []
        for size in range(1, min(wild, len(letters)) + 1):
            for chosen in combinations(range(len(letters)), size):
                if chosen != default and _covers(chosen, letters, short):
                    wild_at = tuple(spots[i] for i in chosen)
                    found.append(PlaceWordWild(*_where_of(placed), wild_at, player=player))
        return found

    def _legal_items(self, player: int) -> list[Action]:
        mat = self.mats[player]
        found: list[Action] = []
        for card_id in mat.cards:
            card = self.card(card_id)
            if card.kind != "item" or mat.assign(list(card.missing)) is None:
                continue
            found.append(CompleteItem(card_id, False, player=player))
            if self._item_cube_allowed(player, card.word):
                found.append(CompleteItem(card_id, True, player=player))
        return found

    # -- words seen on a grid -----------------------------------------------------

    def words_from_tiles(self, player: int, line: TileLine) -> list[PlaceWord]:
        """The words ``line``'s tiles may spell on ``player``'s grid, as the actions laying them.

        A new tile face down, or a face-up always-wild letter read as another
        letter, is a wild tile at that place of the word. Where the reserve would
        put its wild tiles there anyway the plain word is the action (the engine
        refuses to be told what it would do by itself). Legality is not checked.
        """
        return [
            action
            for word in dict.fromkeys(self.permitted_words())
            if len(word) == len(line.tiles)
            for action in [self._word_action(player, word, line)]
            if action is not None
        ]

    def _word_action(self, player: int, word: str, line: TileLine) -> PlaceWord | None:
        always = self.mats[player].wild
        wild_at = []
        for index, ((letter_seen, new), letter) in enumerate(zip(line.tiles, word, strict=True)):
            if letter_seen is not None and not fits(letter_seen, letter, always):
                return None
            if new and letter_seen != letter:
                wild_at.append(index)
        (row, col), down = line.start, line.down
        plain = PlaceWord(player=player, word=word, row=row, col=col, down=down)
        if not wild_at or self._lays(plain, line):
            return plain
        return PlaceWordWild(
            player=player, word=word, row=row, col=col, down=down, wild_at=tuple(wild_at)
        )

    def _lays(self, action: PlaceWord, line: TileLine) -> bool:
        """Whether ``action`` puts down exactly the tiles seen on the line."""
        twin = self.clone()
        try:
            twin.apply(action)
        except IllegalAction:
            return False
        tiles = twin.mats[action.player].grid.tiles
        cells = Placed(action.word, action.row, action.col, action.down).cells()
        laid = [_as_seen(tiles.get(cell, "")) for cell in cells[: len(line.tiles)]]
        return laid == [letter for letter, _ in line.tiles]

    # -- any time ---------------------------------------------------------------

    def _legal_any_time(self, player: int) -> list[Action]:
        mat = self.mats[player]
        found: list[Action] = []
        if mat.stars >= 2:
            found.append(StarsForLetter(player=player))
        if self.supply_stars:
            pairs = sorted(set(combinations(mat.reserve, 2)))
            found += [LettersForStar(pair, player=player) for pair in pairs]
        for placed in mat.grid.words:
            if self._may_deconstruct(player, placed.word):
                found.append(Deconstruct(placed.word, player=player))
        return found

    def _may_deconstruct(self, player: int, word: str) -> bool:
        mat = self.mats[player]
        if self.ed.goal_of_word(word) in mat.goals_done:
            return False
        try:
            mat.grid.removal(word)
        except IllegalAction:
            return False
        return True
