"""What the Kogworks disk may show next: the explanations the commit decision weighs.

Between two commits only a few positions are possible (docs/ARCHITECTURE.md, "Reading the
physical board"), as changes from the game's position (every peg, by the
camera's (row, column), and the colour seen there or None):

- unchanged (in sync);
- every legal move of the mover: a cog placed from the reserve, or one moved;
- the last move taken back (the position before it);
- physical mistakes the table must show, never mistake for a legal move: the
  mover's cog placed or moved where the rules forbid it, a cog of the other
  colour placed (not its turn), one of the mover's cogs lifted (its
  destinations light).

Anything else (two cogs at once, a cog knocked off) is left to the decision's
"as seen", which needs every place it changes to be clear.
"""

from __future__ import annotations

from cogtable.commit_decision import (
    IN_SYNC,
    Explanation,
    ExplanationKind,
    Explanations,
    taken_back,
)
from games.kogworks import BASES, TOP, KogworksState, Move, Place, peg_at
from games.kogworks.board import ROWS

Spot = tuple[int, int]
SPOTS: dict[int, Spot] = {
    peg_at(row, col): (row, col) for row in range(ROWS) for col in range(row + 1)
}
"""Every engine peg number and the camera's (row, column) of it."""
COLOURS = ("red", "blue")
"""Each player's cog colour as the camera reads it."""


def position_of(state: KogworksState) -> dict[Spot, str | None]:
    """Every peg as the camera should see it in ``state`` (None: empty)."""
    seen: dict[Spot, str | None] = dict.fromkeys(SPOTS.values())
    seen[SPOTS[TOP]] = "gold"
    for player, colour in enumerate(COLOURS):
        for peg in state.cogs(player):
            seen[SPOTS[peg]] = colour
    return seen


def explanations(state: KogworksState, before: KogworksState | None) -> Explanations:
    """The positions the disk may show next (see the module docstring)."""
    base = position_of(state)
    options = [IN_SYNC]
    if before is not None:
        options.append(taken_back(base, position_of(before)))
    if not state.is_over():
        options += _moves(state, base)
    return Explanations(base, tuple(options))


def _moves(state: KogworksState, base: dict[Spot, str | None]) -> list[Explanation]:
    """Every placement and move of the mover, legal or not, the other colour placed, and
    each of the mover's cogs lifted."""
    mover = state.mover
    colour, other = COLOURS[mover], COLOURS[1 - mover]
    empty = [peg for peg, spot in SPOTS.items() if base[spot] is None]
    legal = set(state.legal_actions(mover))
    has_reserve = state.reserves()[mover] > 0
    options: list[Explanation] = []
    for target in empty:
        spot = SPOTS[target]
        place = Place(target, player=mover)
        if has_reserve:
            options.append(_explained(place in legal, {spot: colour}, place.notation()))
        options.append(
            Explanation(ExplanationKind.ILLEGAL, {spot: other}, f"{other} placed: not its turn")
        )
    for source in state.cogs(mover):
        if source == BASES[mover]:
            continue
        lifted = {SPOTS[source]: None}
        options.append(Explanation(ExplanationKind.ILLEGAL, lifted, f"{colour} lifted"))
        for target in empty:
            move = Move(source, target, player=mover)
            changes = {**lifted, SPOTS[target]: colour}
            options.append(_explained(move in legal, changes, move.notation()))
    return options


def _explained(legal: bool, changes: dict[Spot, str | None], name: str) -> Explanation:
    kind = ExplanationKind.LEGAL if legal else ExplanationKind.ILLEGAL
    return Explanation(kind, changes, name)
