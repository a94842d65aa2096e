"""Build Kogworks positions for tests from the notation of their pegs."""

from __future__ import annotations

from games.kogworks import KogworksPosition
from games.kogworks.board import BIT, ROW_COL, pegs_of
from games.kogworks.state import KogworksState
from tests.kogworks import reference


def position(red: str = "", blue: str = "", mover: int = 0, **options: object) -> KogworksState:
    """A state with Red's and Blue's cogs on the named pegs (bases are added).

    Tests use it to ask rule questions about a position a figure of the rulebook describes.
    """
    return KogworksState.from_position(KogworksPosition.parse(red, blue, mover), options or None)


def spots(mask: int) -> set[reference.Spot]:
    """A bitboard as the reference's (row, col) set."""
    return {ROW_COL[peg] for peg in pegs_of(mask)}


def reference_moves(state: KogworksState) -> dict[tuple[int | None, int], bool]:
    """The reference's legal moves of the mover, as engine peg numbers."""
    player = state.mover
    found = reference.legal_moves(
        spots(state.boards[player]),
        spots(state.boards[1 - player]),
        player,
        state.reserves()[player],
    )
    return {
        (None if source is None else reference.number(source), reference.number(target)): wins
        for (source, target), wins in found.items()
    }


def engine_moves(state: KogworksState) -> dict[tuple[int | None, int], bool]:
    """The engine's legal moves of the mover, in the same form."""
    masks = state.move_masks()
    found = {(None, peg): bool(masks.place_wins & BIT[peg]) for peg in pegs_of(masks.place)}
    for source, targets in masks.moves.items():
        for target in pegs_of(targets):
            found[(source, target)] = bool(masks.move_wins[source] & BIT[target])
    return found
