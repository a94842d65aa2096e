"""The C.O.G. game state: one class joining the engine's parts.

Every random event is a chance action and every consequence an effect in a
queue (:mod:`games.cog.effects`): while the front effect needs chance,
``to_act()`` is ``(CHANCE,)``; while it needs a choice, its player acts.
Otherwise the phase says who acts (:mod:`games.cog.flow`). "Any time"
conversions are offered only at a player's free decisions, so ``to_act()``
stays meaningful and the listings small.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from games.cog.actions import Finish
from games.cog.edition import CabinetCard, Edition, load_edition
from games.cog.effects import ChanceEffect, Choice
from games.cog.legality import Legality
from games.cog.mat import Mat
from games.cog.moves import Moves
from games.cog.position import CogPosition, Positions
from games.cog.supply import STAR_TOKENS, dice_for, top_slots_for
from games.core import CHANCE, Action, Event, IllegalAction

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


class CogState(Moves, Legality, Positions):
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
        self.discard = []
        self.centre = [None] * edition.centre_squares
        self.top_slots = top_slots_for(players)
        self.top = {slot: [] for slot in self.top_slots}
        self.top_stars = {slot: 0 for slot in self.top_slots}
        self.top_cogs = {slot: None for slot in self.top_slots}
        self.card_slots = [None] * players
        self.card_cogs = [None] * players
        self.die_values = [0] * players
        self.die_cogs = [None] * players
        self.turn_cogs = [None] * players
        self.protected = [False] * players
        self.turn_bonus = [None] * players
        self.neutral = [0, len(edition.track) // 2] if players == 2 else []
        self.collect_turn = 0
        self.done = []
        self.queue = []
        self.mats = [Mat(edition.grid_rows, edition.grid_cols) for _ in range(players)]
        self.final = []
        self._events = []
        self._placement_cache = {}
        self._setup()
        self._settle()

    @classmethod
    def from_position(
        cls, position: CogPosition, options: Mapping[str, Any] | None = None, seed: int = 0
    ) -> CogState:
        """A game set up in ``position`` (see :mod:`games.cog.position`); it has no history.

        ``options`` as :func:`games.cog.new_game` takes them; the players are the mats.
        """
        merged = {"edition": "", **(options or {})}
        merged.update(players=len(position.mats), first_player=position.order[0])
        state = cls(merged, seed, load_edition(merged["edition"]))
        state.set_position(position)
        return state

    def _card_in_game(self, card: CabinetCard) -> bool:
        """Cards paid by a die that is out of the game are removed at setup."""
        return card.cost not in self.ed.dice or card.cost in self.dice

    # -- who acts ----------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self.phase == "over":
            return ()
        if self.queue:
            head = self.queue[0]
            if isinstance(head, ChanceEffect):
                return (CHANCE,)
            assert isinstance(head, Choice)
            return (head.player,)
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
            "queue": [effect.to_json() for effect in self.queue],
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
