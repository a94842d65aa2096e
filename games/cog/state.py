"""The C.O.G. game state: setup, the five phases of a round, scoring.

How the rulebook's flow maps onto the engine contract:

- Every random event is a chance action. Effects that need one (a letter from
  the bag, a cabinet card from the deck, a die roll) wait in a queue of
  *effects*; while the first waiting effect needs chance, ``to_act()`` is
  ``(CHANCE,)``. Effects that need a player's choice (which centre letter to
  take, what to return or convert at Task 6 of Phase V) make that player
  act. Effects that need neither (VPs, a star) resolve at once.
- Phase I (Prepare) is a run of chance actions.
- Phase II (Collect) is sequential in turn order, four turns each.
- Phase III (Activate) is simultaneous among the players who hold a
  once-per-round card their die can pay for; each says :class:`Finish` or
  runs out of cards to activate. Nobody eligible: the phase is skipped.
- Phase IV (Construct) is simultaneous (everyone acts until they
  :class:`Finish`), or in turn order in a round when the bag ran out.
- Phase V (Conclude) is automatic apart from Task 6, the limits: in turn
  order, a player over 7 letters or 3 stars chooses step by step between
  returning a letter (:class:`ReturnLetter`) or a star (:class:`ReturnStar`)
  and converting (:class:`LettersForStar`, :class:`StarsForLetter` while the
  bag has a letter), until both limits hold (a conversion may push the other
  limit over). With the bag empty, returning is the only way down from too
  many stars, so the excess stars go back without asking.
- The game ends after Phase V of the round the bag first ran out in (Tasks
  2-6 are played), or at once in Phase V of the last round (the clock on its
  last space skips Tasks 2-6). ``round`` is the round being played (the last
  one played once the game is over); it advances when the next round starts.

"Any time" actions (the conversions and deconstruction) are offered to a
player whenever that player is asked for a free decision: their turn in
Phase II and their part of Phases III and IV. They are not offered while a
forced choice (a centre letter, Task 6's limits) or chance is pending; at
Task 6 the conversions that bring a player within the limits are offered.
This keeps ``to_act()`` meaningful and the action lists small, and loses
nothing a player could want: the resources they convert are only spent in
those decisions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from itertools import combinations
from typing import Any

from games.cog.actions import (
    Activate,
    CompleteItem,
    Deconstruct,
    DrawCard,
    DrawLetter,
    Finish,
    Happened,
    LettersForStar,
    MakeCellWild,
    MakeWild,
    PlaceWord,
    PlaceWordWild,
    ReturnLetter,
    ReturnStar,
    RollDie,
    StarsForLetter,
    TakeCard,
    TakeCentre,
    TakeDie,
    TakeLetters,
    TakeTurnOrder,
)
from games.cog.edition import CabinetCard, Edition
from games.cog.grid import Placed, is_wild
from games.cog.mat import Mat, unfilled_spots
from games.core import (
    CHANCE,
    Action,
    Event,
    IllegalAction,
    Outcome,
    Request,
    RequestKind,
    State,
    chance_options,
)

COLOURS = ("Red", "Blue", "Green", "Yellow")
STAR_TOKENS = 20
MAX_LETTERS = 7
MAX_STARS = 3
FEW_LETTERS = 3
TURN_BONUSES = (None, "star", "vp3", "letter")
"""Turn-order bonuses by position: #1 none, #2 a star, #3 3 VP, #4 a letter."""
CHANCE_EFFECTS = {
    "letter",
    "slot",
    "tobonus",
    "centre_fill",
    "card_slot",
    "card",
    "roll",
    "reroll",
    "neutral",
    "goal",
}
LETTER_EFFECTS = {"letter", "slot", "tobonus", "centre_fill"}
CARD_EFFECTS = {"card_slot", "card"}
CHOICE_EFFECTS = {"pick_centre", "limits"}
EDGES = ("top", "bottom", "dice", "turn")


def top_slots_for(players: int) -> tuple[int, ...]:
    """Which of the four top slots are used: 4 players all, 3 not the leftmost, 2 the middle two."""
    return {4: (0, 1, 2, 3), 3: (1, 2, 3), 2: (1, 2)}[players]


def dice_for(players: int, colours: tuple[str, ...]) -> tuple[str, ...]:
    """The dice in play: 3 players drop the black die, 2 players black and aqua."""
    dropped = {4: (), 3: ("black",), 2: ("black", "aqua")}[players]
    return tuple(colour for colour in colours if colour not in dropped)


FIELD_TYPES: dict[str, tuple[type, type | None]] = {
    "int": (int, None),
    "bool": (bool, None),
    "str": (str, None),
    "tuple[str, ...]": (tuple, str),
    "tuple[int, ...]": (tuple, int),
}
"""Each action field's annotation: the type of its value and of the items of a tuple."""


def _wrong_type(value: object, expected: type) -> bool:
    """Whether ``value`` is not of ``expected`` (a bool does not count as an int)."""
    return not isinstance(value, expected) or (expected is int and isinstance(value, bool))


def _check_field_types(action: Action) -> None:
    """Refuse actions whose fields have the wrong kind of value (say, from bad JSON)."""
    for field in fields(action):
        value = getattr(action, field.name)
        expected, item_type = FIELD_TYPES[str(field.type)]
        wrong = _wrong_type(value, expected)
        if item_type is not None and not wrong:
            wrong = any(_wrong_type(item, item_type) for item in value)
        if wrong:
            raise IllegalAction(
                f"{type(action).__name__}.{field.name} = {value!r} is not a {field.type}"
            )


def _positions(spots: tuple[int, ...]) -> str:
    """1-based positions in a word, as players count: ``2, 4``."""
    return ", ".join(str(spot + 1) for spot in spots)


def _plain_shortage(letters: list[str], plain: list[str]) -> dict[str, int]:
    """For each letter, how many of its places the plain tiles held cannot fill."""
    short = Counter(letters) - Counter(plain)
    return dict(short)


def _covers(chosen: tuple[int, ...], letters: list[str], short: dict[str, int]) -> bool:
    """Whether wild tiles on the ``chosen`` places leave only letters plain tiles can fill."""
    if not short:
        return True
    left = dict(short)
    for index in chosen:
        if letters[index] in left:
            left[letters[index]] -= 1
    return all(count <= 0 for count in left.values())


def _where_of(placed: Placed) -> tuple[str, int, int, bool]:
    """A placement's fields in :class:`PlaceWord` order."""
    return placed.word, placed.row, placed.col, placed.down


class CogState(State):
    """A game of C.O.G. in progress (see the module docstring for the turn structure)."""

    game = "cog"

    def __init__(self, options: Mapping[str, Any], seed: int, edition: Edition) -> None:
        players = options["players"]
        super().__init__(options, seed, players)
        self.ed = edition
        self.rounds = 6 if players == 4 else 7
        self.round = 1
        self.phase = "setup"
        self.order = [(options["first_player"] + i) % players for i in range(players)]
        self.bag = dict(edition.tiles)
        self.spares_added = False
        self.ran_out = False
        self.supply_stars = STAR_TOKENS
        self.removed_goal = 0
        self.dice = dice_for(players, edition.dice)
        self.deck = [card.id for card in edition.cabinet if self._card_in_game(card)]
        self.discard: list[int] = []
        self.centre: list[str | None] = [None] * edition.centre_squares
        self.top_slots = top_slots_for(players)
        self.top: dict[int, list[str]] = {slot: [] for slot in self.top_slots}
        self.top_stars: dict[int, int] = {slot: 0 for slot in self.top_slots}
        self.top_cogs: dict[int, int | None] = {slot: None for slot in self.top_slots}
        self.card_slots: list[int | None] = [None] * players
        self.card_cogs: list[int | None] = [None] * players
        self.die_values = [0] * players
        self.die_cogs: list[int | None] = [None] * players
        self.turn_cogs: list[int | None] = [None] * players
        self.protected = [False] * players
        self.turn_bonus: list[str | None] = [None] * players
        self.neutral = [0, len(edition.track) // 2] if players == 2 else []
        self.collect_turn = 0
        self.done: list[int] = []
        self.queue: list[tuple[Any, ...]] = []
        self.mats = [Mat(edition.grid_rows, edition.grid_cols) for _ in range(players)]
        self.final: list[dict[str, int]] = []
        self._events: list[Event] = []
        self._placement_cache: dict[tuple[Any, ...], list[PlaceWord]] = {}
        self._setup()
        self._settle()

    def _card_in_game(self, card: CabinetCard) -> bool:
        """Cards paid by a die that is out of the game are removed at setup."""
        return card.cost not in self.ed.dice or card.cost in self.dice

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

    # -- setup ---------------------------------------------------------------

    def _setup(self) -> None:
        """Board, supply and player setup (rulebook steps 1-14) as effects."""
        self.queue.append(("goal",))
        self.queue.extend(("centre_fill", k) for k in range(len(self.centre)))
        for _ in range(2):
            self.queue.extend(("letter", p) for p in self.order)
        for position, player in enumerate(self.order):
            self.queue.extend(self._turn_bonus_effects(position, player))

    def _turn_bonus_effects(self, position: int, player: int) -> list[tuple[Any, ...]]:
        bonus = TURN_BONUSES[position]
        if bonus is None:
            return []
        return [("vp", player, 3) if bonus == "vp3" else (bonus, player)]

    # -- who acts ----------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self.phase == "over":
            return ()
        if self.queue:
            head = self.queue[0]
            return (CHANCE,) if head[0] in CHANCE_EFFECTS else (head[1],)
        if self.phase == "collect":
            return (self.order[self.collect_turn % self.num_players],)
        if self.phase == "activate":
            return tuple(p for p in range(self.num_players) if self._may_activate(p))
        return self._constructing()

    def _constructing(self) -> tuple[int, ...]:
        waiting = [p for p in self.order if p not in self.done]
        if self.ran_out:
            return tuple(waiting[:1])
        return tuple(sorted(waiting))

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

    # -- the effect queue ------------------------------------------------------

    def _push(self, effects: list[tuple[Any, ...]]) -> None:
        """Effects that resolve before anything already waiting."""
        self.queue[0:0] = effects

    def _icon_effects(self, player: int, icons: Sequence[str]) -> list[tuple[Any, ...]]:
        """The effects of a row of icons; centre letters are all taken before the refill."""
        effects: list[tuple[Any, ...]] = []
        for icon in icons:
            if icon.startswith("vp"):
                effects.append(("vp", player, int(icon[2:])))
            elif icon == "centre":
                effects.append(("pick_centre", player))
            else:
                effects.append((icon if icon != "cabinet" else "card", player))
        if "centre" in icons:
            effects.append(("refill",))
        return effects

    def _settle(self) -> None:
        """Resolve automatic effects and phase ends until a player or chance must act."""
        while self.phase != "over":
            if self.queue:
                if not self._resolve_automatic(self.queue[0]):
                    return
            elif not self._advance_phase():
                return

    def _resolve_automatic(self, head: tuple[Any, ...]) -> bool:
        """Resolve ``head`` if it needs nobody; False if chance or a player must act."""
        kind = head[0]
        if kind in LETTER_EFFECTS and not self._bag_total():
            self._bag_empty(head)
            return True
        if kind in CARD_EFFECTS and not self.deck:
            return self._deck_empty(head)
        if kind in CHANCE_EFFECTS:
            return False
        if kind in CHOICE_EFFECTS:
            return self._skip_choice(head)
        self.queue.pop(0)
        getattr(self, f"_effect_{kind}")(*head[1:])
        return True

    def _skip_choice(self, head: tuple[Any, ...]) -> bool:
        """A choice with nothing to choose from is dropped."""
        kind, player = head
        if kind == "limits":
            self._return_stars_if_bag_empty(player)
        needed = any(self.centre) if kind == "pick_centre" else self._over_limits(player)
        if not needed:
            self.queue.pop(0)
        return not needed

    def _effect_vp(self, player: int, amount: int) -> None:
        self.mats[player].vp += amount

    def _effect_star(self, player: int) -> None:
        if self.supply_stars:
            self.supply_stars -= 1
            self.mats[player].stars += 1

    def _effect_refill(self) -> None:
        empty = [k for k, letter in enumerate(self.centre) if letter is None]
        self._push([("centre_fill", k) for k in empty])

    def _effect_move(self, player: int) -> None:
        """Move the pawn clockwise by the die; an empty landing space pays its icons."""
        mat = self.mats[player]
        assert mat.die is not None
        mat.pawn = (mat.pawn + self.die_values[mat.die]) % len(self.ed.track)
        others = [m.pawn for p, m in enumerate(self.mats) if p != player] + self.neutral
        if mat.pawn in others:
            self._note(player, f"{self.player_name(player)} lands on an occupied space: no bonus")
            return
        self._push(self._icon_effects(player, self.ed.track[mat.pawn]))

    def _return_stars_if_bag_empty(self, player: int) -> None:
        """Task 6 with the bag empty: returning is the only way down from too many stars."""
        mat = self.mats[player]
        if not self._bag_total() and mat.stars > MAX_STARS:
            self.supply_stars += mat.stars - MAX_STARS
            mat.stars = MAX_STARS

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

    # -- the bag and the deck ------------------------------------------------

    def _bag_total(self) -> int:
        return sum(self.bag.values())

    def _bag_empty(self, head: tuple[Any, ...]) -> None:
        """Out of letters: spares the first time; then 2 VP per letter owed to a player."""
        if not self.spares_added:
            self.spares_added = True
            self.ran_out = True
            for letter, count in self.ed.spares.items():
                self.bag[letter] = self.bag.get(letter, 0) + count
            self._note(CHANCE, "the bag is empty: the spare tiles go in; the game ends this round")
            return
        self.queue.pop(0)
        if head[0] == "letter":
            self.mats[head[1]].vp += 2
            self._note(head[1], f"the bag is empty again: {self.player_name(head[1])} takes 2 VP")

    def _deck_empty(self, head: tuple[Any, ...]) -> bool:
        """A new deck from the discards; with none, the draw is lost."""
        if self.discard:
            self.deck, self.discard = sorted(self.discard), []
            return True
        self.queue.pop(0)
        return True

    def _return_to_bag(self, tiles: list[str]) -> None:
        for tile in tiles:
            letter = tile.upper()
            self.bag[letter] = self.bag.get(letter, 0) + 1

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.to_act() != (CHANCE,):
            return []
        kind = self.queue[0][0]
        if kind in LETTER_EFFECTS:
            total = self._bag_total()
            return [(DrawLetter(k, player=CHANCE), n / total) for k, n in self.bag.items() if n]
        if kind in CARD_EFFECTS:
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
        head = self.queue[0]
        kind, player, purpose = self._chance_purpose(head[0], head[1:])
        return Request(kind, player, purpose, chance_options(self.chance_outcomes(), self._label))

    def _chance_purpose(
        self, effect: str, args: tuple[Any, ...]
    ) -> tuple[RequestKind, int | None, str]:
        """The request's kind, whose it is and what for, from the waiting effect."""
        if effect == "goal":
            return "die", None, "goal card to remove"
        if effect == "neutral":
            return "die", None, "neutral pawns"
        if effect == "roll":
            return "die", None, f"die slot {args[0] + 1} ({self.dice[args[0]]} die)"
        if effect == "reroll":
            die = self.mats[args[0]].die
            colour = "" if die is None else f" ({self.dice[die]} die)"
            return "die", args[0], f"re-roll for {self.player_name(args[0])}{colour}"
        if effect == "card_slot":
            return "draw", None, f"cabinet slot {args[0] + 1}"
        if effect == "card":
            return "draw", None, f"cabinet card for {self.player_name(args[0])}"
        if effect == "slot":
            return "draw", None, f"top slot {args[0] + 1}" + (" (face down: wild)" * args[1])
        if effect == "centre_fill":
            return "draw", None, f"centre square {args[0] + 1}"
        if effect == "tobonus":
            return "draw", None, f"turn-order #{self.num_players} bonus"
        return "draw", None, f"letter for {self.player_name(args[0])}"

    def _label(self, action: Action) -> str:
        """What a person types or a sensor reports for a chance outcome."""
        if isinstance(action, RollDie):
            return str(action.value)
        if isinstance(action, DrawLetter):
            return action.letter
        assert isinstance(action, DrawCard)
        return self.card(action.card).name

    def default_action(self, player: int) -> Action | None:
        """ "done" in Phases III and IV (the player's part of the phase ends); else none."""
        free = not self.queue and self.phase in ("activate", "construct")
        return Finish(player=player) if free and player in self.to_act() else None

    # -- applying actions ----------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        _check_field_types(action)
        handler = self._handler(action)
        self._events = []
        handler(action)
        self._settle()
        return self._events

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
            raise IllegalAction(f"{action.notation()} is not possible in {self._phase_name()}")
        return handler

    def _phase_name(self) -> str:
        return {
            "collect": "Phase II (Collect)",
            "activate": "Phase III (Activate)",
            "construct": "Phase IV (Construct)",
        }.get(self.phase, self.phase)

    def _chance_handler(self, action: Action) -> Callable[[Any], None]:
        kind = self.queue[0][0]
        expected = (
            DrawLetter if kind in LETTER_EFFECTS else DrawCard if kind in CARD_EFFECTS else RollDie
        )
        if not isinstance(action, expected):
            raise IllegalAction(
                f"the table is waiting for a {expected.__name__}, not {action.notation()}"
            )
        return {DrawLetter: self._draw_letter, DrawCard: self._draw_card, RollDie: self._roll}[
            expected
        ]

    def _choice_handler(self, action: Action) -> Callable[[Any], None]:
        kind = self.queue[0][0]
        if kind == "pick_centre" and isinstance(action, TakeCentre):
            return self._take_centre
        if kind == "limits" and type(action) in self._limit_kinds(action.player):
            return self._limit_handler(action)
        wanted = (
            "a centre letter"
            if kind == "pick_centre"
            else "what to return or convert to get within 7 letters and 3 stars"
        )
        raise IllegalAction(f"first choose {wanted}, not {action.notation()}")

    def _limit_handler(self, action: Action) -> Callable[[Any], None]:
        return {
            ReturnLetter: self._return_letter,
            ReturnStar: self._return_star,
            LettersForStar: self._letters_for_star,
            StarsForLetter: self._stars_for_letter,
        }[type(action)]

    def _any_time_handler(self, action: Action) -> Callable[[Any], None]:
        if self.phase not in ("collect", "activate", "construct"):
            raise IllegalAction(f"{action.notation()} is not possible now")
        return {
            StarsForLetter: self._stars_for_letter,
            LettersForStar: self._letters_for_star,
            Deconstruct: self._deconstruct,
        }[type(action)]

    # -- chance --------------------------------------------------------------

    def _draw_letter(self, action: DrawLetter) -> None:
        if self.bag.get(action.letter, 0) <= 0:
            raise IllegalAction(f"there is no {action.letter!r} left in the bag")
        head = self.queue.pop(0)
        self.bag[action.letter] -= 1
        getattr(self, f"_letter_to_{head[0]}")(action.letter, *head[1:])

    def _letter_to_letter(self, letter: str, player: int) -> None:
        self.mats[player].add_tiles([letter])
        self._note(player, f"{self.player_name(player)} draws {letter}")

    def _letter_to_slot(self, letter: str, slot: int, wild: bool) -> None:
        self.top[slot].append(letter.lower() if wild else letter)

    def _letter_to_tobonus(self, letter: str) -> None:
        self.turn_bonus[self.num_players - 1] = letter

    def _letter_to_centre_fill(self, letter: str, square: int) -> None:
        self.centre[square] = letter

    def _draw_card(self, action: DrawCard) -> None:
        if action.card not in self.deck:
            raise IllegalAction(f"cabinet card #{action.card} is not in the deck")
        head = self.queue.pop(0)
        self.deck.remove(action.card)
        if head[0] == "card_slot":
            self.card_slots[head[1]] = action.card
        else:
            self._acquire(head[1], action.card)

    def _roll(self, action: RollDie) -> None:
        if action.value not in range(1, 7):
            raise IllegalAction(f"a die shows 1 to 6, not {action.value}")
        head = self.queue.pop(0)
        getattr(self, f"_rolled_{head[0]}")(action.value, *head[1:])

    def _rolled_goal(self, value: int) -> None:
        self.removed_goal = value
        self._note(CHANCE, f"goal card {value} is removed")

    def _rolled_roll(self, value: int, die: int) -> None:
        self.die_values[die] = value

    def _rolled_reroll(self, value: int, player: int) -> None:
        die = self.mats[player].die
        assert die is not None
        self.die_values[die] = value
        self._push([("move", player)])

    def _rolled_neutral(self, value: int) -> None:
        self.neutral = [(pawn + value) % len(self.ed.track) for pawn in self.neutral]
        self._note(CHANCE, f"the neutral pawns move {value}")

    # -- acquiring cabinet cards ---------------------------------------------

    def _acquire(self, player: int, card_id: int) -> None:
        """A card arrives: immediate cards fire and are discarded, wild letters flip."""
        card, mat = self.card(card_id), self.mats[player]
        self._note(player, f"{self.player_name(player)} takes {card.label()}")
        if card.timing == "immediate":
            self.discard.append(card_id)
            self._push(self._icon_effects(player, card.powers))
            return
        mat.cards.append(card_id)
        if card.timing == "always":
            mat.wild = "".join(sorted(set(mat.wild) | set(card.wild)))

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
            self.queue.extend(("slot", slot, wild) for _ in range(letters))
            placed = min(stars, self.supply_stars)
            self.supply_stars -= placed
            self.top_stars[slot] += placed
        empty = [slot for slot, card in enumerate(self.card_slots) if card is None]
        self.queue.extend(("card_slot", slot) for slot in empty)
        self.queue.extend(("roll", die) for die in range(len(self.dice)))
        for position in range(self.num_players):
            self._prepare_turn_bonus(position)

    def _prepare_turn_bonus(self, position: int) -> None:
        """Put a bonus on an empty turn-order slot (a bonus nobody took stays)."""
        bonus = TURN_BONUSES[position]
        if bonus is None or self.turn_bonus[position] is not None:
            return
        if bonus == "letter":
            self.queue.append(("tobonus",))
        elif bonus == "vp3" or self.supply_stars:
            self.supply_stars -= bonus == "star"
            self.turn_bonus[position] = bonus

    def _start_collect(self) -> None:
        self.phase = "collect"
        self.collect_turn = 0
        if self.num_players == 2:
            self.queue.append(("neutral",))

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
        self.queue.extend(("letter", p) for p in low)
        self.queue.extend(("limits", p) for p in self.order)

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
            self._push([("card", action.player)])
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
        self._push([("reroll" if action.reroll else "move", action.player)])

    def bump_space(self, position: int) -> int | None:
        """The empty space that absorbs a bump at ``position`` (None: the bump is impossible)."""
        for space in range(position, self.num_players):
            if self.turn_cogs[space] is None:
                return space
            if self.protected[space]:
                return None
        return None

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
        self._push(self._icon_effects(action.player, self.card(action.card).powers))

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
                self._push(self._icon_effects(player, self.ed.grid_bonus[cell]))

    def _cube_allowed(self, player: int, word: str) -> bool:
        mat, goal = self.mats[player], self.ed.goal_of_word(word)
        in_play = goal in self.goals_in_play() and goal not in mat.goals_done
        return in_play and word not in mat.cubes and mat.cubes_left() > 0

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
            self._push(self._icon_effects(player, goal.bonus))

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
            self._push(self._icon_effects(action.player, card.bonus))

    def _item_cube_allowed(self, player: int, word: str) -> bool:
        on_grid = word in self.mats[player].grid.spelled()
        return not on_grid and self._cube_allowed(player, word)

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
        self._push([("letter", action.player)])

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

    # -- the end -------------------------------------------------------------

    def final_order(self) -> list[int]:
        """Turn order from the final cog placement (used for every tie-break)."""
        placed = [p for p in self.turn_cogs if p is not None]
        return placed + [p for p in self.order if p not in placed]

    def _finish_game(self) -> None:
        self.phase = "over"
        self.queue = []
        rank = {player: index for index, player in enumerate(self.final_order())}
        items = self._item_scores(rank)
        self.final = [
            {
                "vp": mat.vp,
                "goals": self._incomplete_goal_score(mat),
                "items": items[player],
                "letters": len(mat.reserve) // 2,
            }
            for player, mat in enumerate(self.mats)
        ]
        for entry in self.final:
            entry["total"] = sum(entry.values())

    def _incomplete_goal_score(self, mat: Mat) -> int:
        """1 VP per completed word and 1 per letter in it, on each incomplete goal card."""
        return sum(1 + len(word) for word in mat.cubes)

    def _item_scores(self, rank: dict[int, int]) -> list[int]:
        """Most item cards: 3 + 3 each; second: 2 + 2 each (2 players: 2 each); others 1 each."""
        counts = [len(mat.items) for mat in self.mats]
        scores = list(counts)
        ranked = sorted(range(self.num_players), key=lambda p: (-counts[p], rank[p]))
        first, second = ranked[0], ranked[1]
        if counts[first]:
            scores[first] = 3 + 3 * counts[first]
        if counts[second]:
            extra = 0 if self.num_players == 2 else 2
            scores[second] = extra + 2 * counts[second]
        return scores

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        rank = {player: index for index, player in enumerate(self.final_order())}
        totals = [entry["total"] for entry in self.final]
        winner = min(range(self.num_players), key=lambda p: (-totals[p], rank[p]))
        tied = totals.count(totals[winner]) > 1
        reason = "most victory points" + (" (tie broken by turn order)" if tied else "")
        return Outcome((winner,), tuple(float(t) for t in totals), reason)

    # -- legal actions ---------------------------------------------------------

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
        if self.queue[0][0] == "pick_centre":
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

    # -- what players see --------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        return {
            **self._public(),
            "bag": dict(sorted((k, n) for k, n in self.bag.items() if n)),
            "deck": list(self.deck),
            "mats": [mat.to_json(True) for mat in self.mats],
            "final": [dict(entry) for entry in self.final],
        }

    def view(self, player: int | None = None) -> dict[str, Any]:
        over = self.phase == "over"
        return {
            **self._public(),
            "bag_size": self._bag_total(),
            "deck_size": len(self.deck),
            "mats": [mat.to_json(over or p == player) for p, mat in enumerate(self.mats)],
            "final": [dict(entry) for entry in self.final] if over else [],
            "you": player,
        }

    def _public(self) -> dict[str, Any]:
        return {
            "players": self.num_players,
            "round": self.round,
            "rounds": self.rounds,
            "phase": self.phase,
            "order": list(self.order),
            "removed_goal": self.removed_goal,
            "spares_added": self.spares_added,
            "ran_out": self.ran_out,
            "supply_stars": self.supply_stars,
            "discard": list(self.discard),
            "centre": list(self.centre),
            "top": {
                str(s): ["".join(self.top[s]), self.top_stars[s], self.top_cogs[s]]
                for s in self.top_slots
            },
            "cards": [list(pair) for pair in zip(self.card_slots, self.card_cogs, strict=True)],
            "dice": [
                [colour, value, cog]
                for colour, value, cog in zip(
                    self.dice, self.die_values, self.die_cogs, strict=True
                )
            ],
            "turn": [
                [cog, guard, bonus]
                for cog, guard, bonus in zip(
                    self.turn_cogs, self.protected, self.turn_bonus, strict=True
                )
            ],
            "neutral": list(self.neutral),
            "collect_turn": self.collect_turn,
            "done": list(self.done),
            "queue": [list(effect) for effect in self.queue],
        }

    def clone(self) -> CogState:
        """A fast independent copy (the edition is shared: it is never changed)."""
        twin = CogState.__new__(CogState)
        twin.__dict__.update(self.__dict__)
        for name in (
            "history",
            "order",
            "deck",
            "discard",
            "centre",
            "card_slots",
            "card_cogs",
            "die_values",
            "die_cogs",
            "turn_cogs",
            "protected",
            "turn_bonus",
            "neutral",
            "done",
            "queue",
            "_events",
        ):
            setattr(twin, name, list(getattr(self, name)))
        twin.options, twin.bag = dict(self.options), dict(self.bag)
        twin.top = {slot: list(tiles) for slot, tiles in self.top.items()}
        twin.top_stars, twin.top_cogs = dict(self.top_stars), dict(self.top_cogs)
        twin.mats = [mat.copy() for mat in self.mats]
        twin.final = [dict(entry) for entry in self.final]
        return twin
