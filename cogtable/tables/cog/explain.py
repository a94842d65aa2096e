"""What the C.O.G. board and mats may show next: the explanations the commit decision weighs.

Places are ``(part, place)`` (``("mat1", "r3c4")``), labels the parts reader's
(:mod:`cogtable.sights.part_evidence`). The base is the table laid out as the game says
(:func:`cogtable.tables.cog.parts.laid_out`); every read place the game says nothing of
(a top slot not in play) is empty.

Cogs, dice and pawns move as whole positions, listed as explanations:

- unchanged (in sync); the last move taken back (the position before it);
- the legal successors: every placement the players to act may make (a cog put on a
  space, the cogs it bumps moved down, the die it takes gone), a die laid in the slot the
  roll is for, showing any face;
- physical mistakes, never to be mistaken for a legal move: a cog of any colour in play on
  any empty space that no legal placement explains.

Tiles move in ways too many to list (a word from any of a reserve's tiles, a reserve laid
in any order, letters carried from a top slot to a reserve while a hand is still at work):
every tile place is free (:attr:`cogtable.commit_decision.Explanations.free`), each with
the classes the game allows there, so the game narrows which letters are plausible:

- a board tile place (a top slot, a centre square, the turn-order bonus): its tile, a
  face-down tile, a star token, empty; where the draw the game waits for goes, the bag's
  remaining letters too;
- a grid cell: its tile, a face-down tile, empty; an empty cell, the letters its player's
  reserve holds too;
- a reserve place: the letters of the player's reserve, face down, a star, empty; while
  the game waits for that player, the letters of the board's tile places too (taken from
  a top slot, a centre square); while a draw into that reserve waits, the bag's letters;
- a star place: a star token or empty;

besides whatever the base, the take-back or the committed board has there. Whether a word
is a permitted one is not a prior: a word laid wrong must be read as laid, and the adapter
shows it red (:meth:`cogtable.tables.cog.adapter.CogAdapter.judge`). A letter the game does
not allow is committed only when the evidence is clear of every class (as seen: out of sync).
"""

from __future__ import annotations

import functools

from cogtable.commit_decision import (
    IN_SYNC,
    Explanation,
    ExplanationKind,
    Explanations,
    taken_back,
)
from cogtable.tables.cog.parts import (
    BOARD,
    PIECE_COLOURS,
    Cell,
    CogSpace,
    die_slot_of,
    laid_out,
    mat_name,
    mat_player,
    part_layouts,
)
from games.cog.actions import TakeCard, TakeDie, TakeLetters, TakeTurnOrder
from games.cog.edition import load_edition
from games.cog.effects import CentreLetter, DieRoll, LetterDraw, LetterFor, SlotLetter
from games.cog.state import CogState
from games.core import CHANCE, IllegalAction
from vision.layout import DIE_LABELS, EMPTY, LETTERS, STAR, WILD

Spot = tuple[str, str]
"""A place: (part, place name)."""
PLACEMENTS = (TakeLetters, TakeCard, TakeDie, TakeTurnOrder)
"""The actions that put a cog on the board (Phase II)."""
PIECE_KINDS = ("cog", "die", "pawn")
"""The kinds of place that move as whole positions (the rest, tiles, are free)."""


@functools.cache
def read_places(players: int) -> dict[Spot, str]:
    """Every read place of the board and ``players`` mats, and its kind."""
    return {
        (part.name, place.name): place.kind
        for part in part_layouts(load_edition(), players)
        for place in part.read_places()
    }


def position_of(state: CogState) -> dict[Spot, str]:
    """Every read place as the camera should see the table laid out as ``state`` says."""
    edition = state.ed
    assert edition.layout is not None
    seen = dict.fromkeys(read_places(state.num_players), EMPTY)
    for part, places in laid_out(state, edition.layout).items():
        seen.update({(part, place): label for place, label in places.items()})
    return seen


def explanations(state: CogState, before: CogState | None) -> Explanations:
    """The positions the table may show next (see the module docstring)."""
    base = position_of(state)
    options = [IN_SYNC]
    if before is not None:
        options.append(taken_back(base, position_of(before)))
    if not state.is_over():
        options += _successors(state, base)
        options += _stray_cogs(state, base, options)
    return Explanations(base, tuple(options), _free(state, base))


def _pieces(position: dict[Spot, str], kinds: dict[Spot, str]) -> dict[Spot, str]:
    return {spot: label for spot, label in position.items() if kinds.get(spot) in PIECE_KINDS}


def _successors(state: CogState, base: dict[Spot, str]) -> list[Explanation]:
    """Every placement of the players to act; a die laid for the roll the game waits for."""
    kinds = read_places(state.num_players)
    options = []
    if state.to_act() == (CHANCE,):
        head = state.waiting()
        if isinstance(head, DieRoll):
            slot = die_slot_of(state, head.die)
            for face in DIE_LABELS[1:]:
                options.append(
                    Explanation(ExplanationKind.LEGAL, {(BOARD, slot): face}, f"die {face}")
                )
        return options
    pieces = _pieces(base, kinds)
    for player in state.to_act():
        for action in state.legal_actions(player):
            if not isinstance(action, PLACEMENTS):
                continue
            twin = state.clone()
            try:
                twin.apply(action)
            except IllegalAction:
                continue
            after = _pieces(position_of(twin), kinds)
            changes = {spot: label for spot, label in after.items() if pieces[spot] != label}
            options.append(Explanation(ExplanationKind.LEGAL, changes, action.safe_notation()))
    return options


def _stray_cogs(
    state: CogState, base: dict[Spot, str], legal: list[Explanation]
) -> list[Explanation]:
    """A cog of any colour in play alone on an empty space, where no legal move puts it."""
    explained = {
        frozenset(option.changes.items())
        for option in legal
        if option.kind is ExplanationKind.LEGAL
    }
    options = []
    for spot, label in base.items():
        if spot[0] != BOARD or CogSpace.of(spot[1]) is None or label != EMPTY:
            continue
        for colour in PIECE_COLOURS[: state.num_players]:
            changes = {spot: colour}
            if frozenset(changes.items()) not in explained:
                name = f"a {colour} cog on {spot[1]}: not a legal placement"
                options.append(Explanation(ExplanationKind.ILLEGAL, changes, name))
    return options


def _free(state: CogState, base: dict[Spot, str]) -> dict[Spot, tuple[str, ...]]:
    """Every tile place and the classes the game allows there (see the module docstring)."""
    kinds = read_places(state.num_players)
    bag = _bag_letters(state)
    drawn = draw_place(state)
    board = {label for (part, _), label in base.items() if part == BOARD and label in LETTERS}
    free: dict[Spot, tuple[str, ...]] = {}
    for spot, kind in kinds.items():
        if kind != "tile":
            continue
        part, place = spot
        here = base.get(spot, EMPTY)
        if part == BOARD:
            allowed = {EMPTY, WILD, STAR, here, *(bag if place == drawn else ())}
        elif place.startswith("star"):
            allowed = {EMPTY, STAR}
        elif Cell.of(place) is not None:
            allowed = {EMPTY, WILD, here, *(_reserve_letters(state, part) if not here else ())}
        else:
            drawn_here = bag if _draws_into(state, part) else ()
            taken = board if _may_act(state, part) else ()
            allowed = {EMPTY, WILD, STAR, *_reserve_letters(state, part), *taken, *drawn_here}
        free[spot] = tuple(sorted(allowed))
    return free


def _may_act(state: CogState, part: str) -> bool:
    """Whether ``part``'s player is one the game waits for (who may take board letters)."""
    return any(mat_name(player) == part for player in state.to_act() if player != CHANCE)


def _draws_into(state: CogState, part: str) -> bool:
    """Whether the draw the game waits for goes into ``part``'s reserve."""
    head = state.waiting()
    return (
        state.to_act() == (CHANCE,)
        and isinstance(head, LetterFor)
        and part == mat_name(head.player)
    )


def draw_place(state: CogState) -> str | None:
    """The board place the letter the game waits for is laid on (None: no draw onto the
    board waits; a letter drawn into a reserve goes to any reserve place)."""
    head = state.waiting()
    if (
        state.to_act() != (CHANCE,)
        or not isinstance(head, LetterDraw)
        or isinstance(head, LetterFor)
    ):
        return None
    if isinstance(head, SlotLetter):
        return f"top{head.slot + 1}-{len(state.top[head.slot]) + 1}"
    if isinstance(head, CentreLetter):
        return f"centre{head.square + 1}"
    return f"bonus{state.num_players}"


def _bag_letters(state: CogState) -> set[str]:
    """The letters a draw may bring: the bag's, and the spares' until they are added."""
    letters = {letter for letter, count in state.bag.items() if count > 0}
    if not state.spares_added:
        letters |= {letter for letter, count in state.ed.spares.items() if count > 0}
    return {letter.upper() for letter in letters} & set(LETTERS)


def _reserve_letters(state: CogState, part: str) -> set[str]:
    """The letters ``part``'s player holds in the reserve (a face-down tile's letter too)."""
    player = mat_player(part)
    if player is None or player >= state.num_players:
        return set()
    return {tile.upper() for tile in state.mats[player].reserve if tile}
