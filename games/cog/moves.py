"""What each player action does in C.O.G., checked before anything changes.

Phase II places cogs (letters, a cabinet card, a die, a turn-order position),
Phase III activates cards, Phase IV spells words and completes items, Task 6
of Phase V returns and converts; conversions and deconstruction may come at
any free decision. Every handler raises :class:`IllegalAction` before it
changes anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
from games.cog.effects import (
    CardFor,
    LetterFor,
    Limits,
    MovePawn,
    PickCentre,
    Reroll,
    icon_effects,
)
from games.cog.flow import Flow
from games.cog.grid import Placed, is_wild
from games.cog.mat import Mat
from games.core import CHANCE, Action, IllegalAction

PHASE_NAMES = {
    "collect": "Phase II (Collect)",
    "activate": "Phase III (Activate)",
    "construct": "Phase IV (Construct)",
}


def _positions(spots: tuple[int, ...]) -> str:
    """1-based positions in a word, as players count: ``2, 4``."""
    return ", ".join(str(spot + 1) for spot in spots)


class Moves(Flow):
    """The handlers of player actions, chosen by the phase and what the queue waits for."""

    def _handler(self, action: Action) -> Callable[[Any], None]:
        if action.player == CHANCE:
            return self._chance_handler(action)
        if self.queue:
            return self._choice_handler(action)
        if isinstance(action, StarsForLetter | LettersForStar | Deconstruct):
            return self._any_time_handler(action)
        handlers: dict[str, dict[type, Callable[[Any], None]]] = {
            "collect": {
                TakeLetters: self._take_letters,
                TakeCard: self._take_card,
                TakeDie: self._take_die,
                TakeTurnOrder: self._take_turn_order,
            },
            "activate": {Activate: self._activate, Finish: self._finish},
            "construct": {
                PlaceWord: self._place_word,
                PlaceWordWild: self._place_word,
                CompleteItem: self._complete_item,
                MakeWild: self._make_wild,
                MakeCellWild: self._make_cell_wild,
                Finish: self._finish,
            },
        }
        handler = handlers.get(self.phase, {}).get(type(action))
        if handler is None:
            phase = PHASE_NAMES.get(self.phase, self.phase)
            raise IllegalAction(f"{action.notation()} is not possible in {phase}")
        return handler

    def _choice_handler(self, action: Action) -> Callable[[Any], None]:
        head = self.queue[0]
        if isinstance(head, PickCentre) and isinstance(action, TakeCentre):
            return self._take_centre
        if isinstance(head, Limits) and type(action) in self._limit_kinds(action.player):
            return {
                ReturnLetter: self._return_letter,
                ReturnStar: self._return_star,
                LettersForStar: self._letters_for_star,
                StarsForLetter: self._stars_for_letter,
            }[type(action)]
        wanted = (
            "a centre letter"
            if isinstance(head, PickCentre)
            else "what to return or convert to get within 7 letters and 3 stars"
        )
        raise IllegalAction(f"first choose {wanted}, not {action.notation()}")

    def _any_time_handler(self, action: Action) -> Callable[[Any], None]:
        if self.phase not in ("collect", "activate", "construct"):
            raise IllegalAction(f"{action.notation()} is not possible now")
        return {
            StarsForLetter: self._stars_for_letter,
            LettersForStar: self._letters_for_star,
            Deconstruct: self._deconstruct,
        }[type(action)]

    # -- Phase II: collect ---------------------------------------------------

    def _placing(self, player: int, edge: str) -> Mat:
        mat = self.mats[player]
        if edge in mat.edges:
            raise IllegalAction(f"you already have a cog on the {edge} edge this round")
        return mat

    def _placed(self, mat: Mat, edge: str) -> None:
        mat.edges.append(edge)
        self.collect_turn += 1

    def _pay_stars(self, mat: Mat, count: int, why: str) -> None:
        if mat.stars < count:
            raise IllegalAction(f"{why} needs {count} star token(s); you have {mat.stars}")

    def _take_letters(self, action: TakeLetters) -> None:
        mat = self._placing(action.player, "top")
        if self.top_cogs.get(action.slot, -1) is not None:
            raise IllegalAction(f"top slot {action.slot + 1} is not open")
        self.top_cogs[action.slot] = action.player
        self._placed(mat, "top")
        mat.add_tiles(self.top[action.slot])
        mat.stars += self.top_stars[action.slot]
        self.top[action.slot], self.top_stars[action.slot] = [], 0

    def _take_card(self, action: TakeCard) -> None:
        mat = self._placing(action.player, "bottom")
        if action.slot not in range(self.num_players) or self.card_cogs[action.slot] is not None:
            raise IllegalAction(f"cabinet slot {action.slot + 1} is not open")
        card = self.card_slots[action.slot]
        if action.swap:
            self._pay_stars(mat, 1, "swapping the card")
            if card is None:
                raise IllegalAction("there is no card in that slot to swap")
        self.card_cogs[action.slot] = action.player
        self._placed(mat, "bottom")
        self.card_slots[action.slot] = None
        if card is not None and action.swap:
            mat.stars, self.supply_stars = mat.stars - 1, self.supply_stars + 1
            self.discard.append(card)
            self._push([CardFor(action.player)])
        elif card is not None:
            self._acquire(action.player, card)

    def _take_die(self, action: TakeDie) -> None:
        mat = self._placing(action.player, "dice")
        if action.slot not in range(len(self.dice)) or self.die_cogs[action.slot] is not None:
            raise IllegalAction(f"die slot {action.slot + 1} is not open")
        if action.reroll:
            self._pay_stars(mat, 1, "a re-roll")
        self.die_cogs[action.slot] = action.player
        self._placed(mat, "dice")
        mat.die = action.slot
        if action.reroll:
            mat.stars, self.supply_stars = mat.stars - 1, self.supply_stars + 1
        self._push([Reroll(action.player) if action.reroll else MovePawn(action.player)])

    def _take_turn_order(self, action: TakeTurnOrder) -> None:
        mat, position = self._placing(action.player, "turn"), action.position
        if position not in range(self.num_players):
            raise IllegalAction(f"there is no turn-order position #{position + 1}")
        bump = self.turn_cogs[position] is not None
        space = self.bump_space(position)
        if space is None:
            raise IllegalAction(
                f"#{position + 1} is taken and cannot be bumped"
                " (a protected cog, or no empty space below)"
            )
        self._pay_stars(mat, bump + action.protect, "bumping and protecting")
        for index in range(space, position, -1):
            self.turn_cogs[index] = self.turn_cogs[index - 1]
            self.protected[index] = self.protected[index - 1]
        self.turn_cogs[position], self.protected[position] = action.player, action.protect
        mat.stars -= bump + action.protect
        self.supply_stars += bump
        self._placed(mat, "turn")
        self._take_turn_bonus(mat, position)

    def _take_turn_bonus(self, mat: Mat, position: int) -> None:
        bonus, self.turn_bonus[position] = self.turn_bonus[position], None
        if bonus == "star":
            mat.stars += 1
        elif bonus == "vp3":
            mat.vp += 3
        elif bonus is not None:
            mat.add_tiles([bonus])

    def _take_centre(self, action: TakeCentre) -> None:
        if action.square not in range(len(self.centre)) or self.centre[action.square] is None:
            raise IllegalAction(f"centre square {action.square + 1} holds no letter")
        self.queue.pop(0)
        letter, self.centre[action.square] = self.centre[action.square], None
        assert letter is not None
        self.mats[action.player].add_tiles([letter])

    # -- Phase III: activate -------------------------------------------------

    def _activate(self, action: Activate) -> None:
        if action.card not in self._activatable(action.player):
            raise IllegalAction(
                f"you cannot activate card #{action.card} now"
                " (not yours, used already, or your die does not pay for it)"
            )
        self.mats[action.player].used.append(action.card)
        self._push(icon_effects(action.player, self.card(action.card).powers))

    def _finish(self, action: Finish) -> None:
        self.done.append(action.player)

    # -- Phase IV: construct -------------------------------------------------

    def _place_word(self, action: PlaceWord) -> None:
        if action.word not in self.permitted_words():
            raise IllegalAction(
                f"{action.word} is not a permitted word (not on a goal card in play)"
            )
        mat = self.mats[action.player]
        cells = mat.grid.check(action.word, action.row, action.col, action.down, mat.wild)
        placed = Placed(action.word, action.row, action.col, action.down)
        spots = [placed.cells().index(cell) for cell in cells]
        letters = [action.word[spot] for spot in spots]
        tiles = mat.assign(letters)
        if tiles is None:
            raise IllegalAction(f"your reserve lacks the letters {''.join(letters)}")
        chosen = action.chosen_wild()
        if chosen is not None:
            tiles = self._chosen_tiles(mat, action.word, spots, chosen)
        mat.take_tiles(tiles)
        mat.grid.place(placed, tiles)
        self._note(action.player, f"{self.player_name(action.player)} spells {placed.describe()}")
        self._grid_bonuses(action.player, cells)
        if self._cube_allowed(action.player, action.word):
            self._place_cube(action.player, action.word, "grid")

    def _chosen_tiles(
        self, mat: Mat, word: str, spots: list[int], chosen: tuple[int, ...]
    ) -> list[str]:
        """The tiles for a word whose player chose the wild tiles' places (checked here)."""
        if not chosen or list(chosen) != sorted(set(chosen)):
            raise IllegalAction("name the wild tiles' places in the word once each, in order")
        for spot in chosen:
            if spot not in spots:
                raise IllegalAction(
                    f"letter {spot + 1} of {word} is not a new tile (off the word or on the grid)"
                )
        letters = [word[spot] for spot in spots]
        wild_spots = tuple(spots.index(spot) for spot in chosen)
        tiles = mat.assign_chosen(letters, wild_spots)
        if tiles is None:
            raise IllegalAction(
                f"your reserve cannot put wild tiles on letters {_positions(chosen)} of {word}"
                " and plain tiles on the rest"
            )
        if wild_spots == mat.default_wild_spots(letters):
            raise IllegalAction(
                f"the wild tiles go there anyway: spell {word} without choosing them"
            )
        return tiles

    def _grid_bonuses(self, player: int, cells: list[tuple[int, int]]) -> None:
        mat = self.mats[player]
        for cell in cells:
            if cell in self.ed.grid_bonus and cell not in mat.bonus_claimed:
                mat.bonus_claimed.append(cell)
                self._push(icon_effects(player, self.ed.grid_bonus[cell]))

    def _place_cube(self, player: int, word: str, source: str) -> None:
        """A cube beside the word; a card with every word cubed pays its bonus."""
        mat = self.mats[player]
        mat.cubes[word] = source
        goal = self.ed.goal(self.ed.goal_of_word(word))
        if all(w in mat.cubes for w in goal.words):
            mat.goals_done.append(goal.number)
            for w in goal.words:
                del mat.cubes[w]
            self._note(player, f"{self.player_name(player)} completes goal card {goal.number}")
            self._push(icon_effects(player, goal.bonus))

    def _complete_item(self, action: CompleteItem) -> None:
        mat = self.mats[action.player]
        if action.card not in mat.cards or self.card(action.card).kind != "item":
            raise IllegalAction(f"you hold no item card #{action.card}")
        card = self.card(action.card)
        tiles = mat.assign(list(card.missing))
        if tiles is None:
            raise IllegalAction(f"your reserve lacks {''.join(card.missing)} for {card.word}")
        if action.cube and not self._item_cube_allowed(action.player, card.word):
            raise IllegalAction(f"no cube may go beside {card.word}: take the item card's bonus")
        mat.take_tiles(tiles)
        self._return_to_bag(tiles)
        mat.cards.remove(action.card)
        mat.items.append(action.card)
        if action.cube:
            self._place_cube(action.player, card.word, "item")
        else:
            self._push(icon_effects(action.player, card.bonus))

    def _make_wild(self, action: MakeWild) -> None:
        mat = self.mats[action.player]
        if action.letter not in mat.reserve or is_wild(action.letter, mat.wild):
            raise IllegalAction(f"your reserve has no plain {action.letter!r} to make wild")
        self._pay_stars(mat, 1, "making a letter wild")
        mat.take_tiles([action.letter])
        mat.add_tiles([action.letter.lower()])
        mat.stars, self.supply_stars = mat.stars - 1, self.supply_stars + 1

    def _make_cell_wild(self, action: MakeCellWild) -> None:
        mat, cell = self.mats[action.player], (action.row, action.col)
        tile = mat.grid.tiles.get(cell)
        if tile is None or is_wild(tile, mat.wild):
            raise IllegalAction(
                f"there is no plain tile at row {action.row + 1}, column {action.col + 1}"
            )
        self._pay_stars(mat, 1, "making a tile wild")
        mat.grid.tiles[cell] = tile.lower()
        mat.stars, self.supply_stars = mat.stars - 1, self.supply_stars + 1

    # -- any time: conversions and deconstruction ------------------------------

    def _stars_for_letter(self, action: StarsForLetter) -> None:
        mat = self.mats[action.player]
        self._pay_stars(mat, 2, "a letter")
        mat.stars, self.supply_stars = mat.stars - 2, self.supply_stars + 2
        self._push([LetterFor(action.player)])

    def _letters_for_star(self, action: LettersForStar) -> None:
        mat = self.mats[action.player]
        if len(action.letters) != 2 or tuple(sorted(action.letters)) != action.letters:
            raise IllegalAction("name exactly two letters, in alphabetical order")
        if not mat.has_tiles(action.letters):
            raise IllegalAction(f"your reserve does not hold the two letters {action.letters}")
        if not self.supply_stars:
            raise IllegalAction("the supply has no star token left")
        mat.take_tiles(list(action.letters))
        self._return_to_bag(list(action.letters))
        mat.stars, self.supply_stars = mat.stars + 1, self.supply_stars - 1

    def _deconstruct(self, action: Deconstruct) -> None:
        mat = self.mats[action.player]
        if self.ed.goal_of_word(action.word) in mat.goals_done:
            raise IllegalAction(f"{action.word} is on a completed goal card and cannot be removed")
        mat.grid.removal(action.word)
        self._return_to_bag(mat.grid.remove(action.word))
        if mat.cubes.get(action.word) == "grid":
            del mat.cubes[action.word]
        self._note(action.player, f"{self.player_name(action.player)} takes {action.word} off")

    # -- Phase V choices (Task 6; which ones are allowed: _limit_kinds) ---------

    def _return_letter(self, action: ReturnLetter) -> None:
        mat = self.mats[action.player]
        if action.letter not in mat.reserve:
            raise IllegalAction(f"your reserve has no {action.letter!r}")
        mat.take_tiles([action.letter])
        self._return_to_bag([action.letter])

    def _return_star(self, action: ReturnStar) -> None:
        mat = self.mats[action.player]
        mat.stars, self.supply_stars = mat.stars - 1, self.supply_stars + 1
