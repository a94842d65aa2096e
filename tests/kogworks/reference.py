"""A slow, obviously correct Kogworks move generator, straight from rules/NOTES.md.

Plain sets of (row, col) pairs and breadth-first search; no bitboards, nothing
shared with the engine's move generation. The fast generator must agree with it.
"""

from __future__ import annotations

from collections import deque
from itertools import combinations

Spot = tuple[int, int]
ROWS = 10
TOP: Spot = (0, 0)
BASES: tuple[Spot, Spot] = ((9, 0), (9, 9))
SPOTS = [(r, c) for r in range(ROWS) for c in range(r + 1)]


def neighbours(spot: Spot) -> set[Spot]:
    """The six lattice neighbours of NOTES.md that exist on the board."""
    r, c = spot
    candidates = [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c), (r + 1, c + 1)]
    return {(a, b) for a, b in candidates if 0 <= a < ROWS and 0 <= b <= a}


def number(spot: Spot) -> int:
    """The engine's peg number of a spot (row by row from the apex)."""
    return SPOTS.index(spot)


def group(wheels: set[Spot], start: Spot) -> set[Spot]:
    """The wheels connected to ``start``."""
    seen, queue = {start}, deque([start])
    while queue:
        for other in neighbours(queue.popleft()) & wheels:
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return seen


def turns(wheels: set[Spot], start: Spot) -> bool:
    """True if the group holding ``start`` can be two-coloured (has no odd cycle)."""
    colour = {start: 0}
    queue = deque([start])
    while queue:
        spot = queue.popleft()
        for other in neighbours(spot) & wheels:
            if other not in colour:
                colour[other] = 1 - colour[spot]
                queue.append(other)
            elif colour[other] == colour[spot]:
                return False
    return True


def own_triangle(own: set[Spot]) -> bool:
    """Three mutually neighbouring pegs all of one colour."""
    for spot in own:
        for a, b in combinations(neighbours(spot) & own, 2):
            if b in neighbours(a):
                return True
    return False


def corner_blocked(own: set[Spot]) -> bool:
    """A corner wheel whose two neighbours are both of this colour."""
    return any(neighbours(corner) <= own for corner in (TOP, *BASES))


def legal_after(own: set[Spot], other: set[Spot], player: int) -> bool:
    """The three conditions a position after a move must meet."""
    wheels = own | other | {TOP}
    return not own_triangle(own) and not corner_blocked(own) and turns(wheels, BASES[player])


def legal_moves(
    own: set[Spot], other: set[Spot], player: int, reserve: int
) -> dict[tuple[Spot | None, Spot], bool]:
    """Every legal (source or None for a placement, target) with whether it wins."""
    wheels = own | other | {TOP}
    empty = [spot for spot in SPOTS if spot not in wheels]
    sources: list[Spot | None] = [s for s in own if s != BASES[player]]
    if reserve > 0:
        sources.append(None)
    found = {}
    for source in sources:
        for target in empty:
            after = (own - {source}) | {target}
            if legal_after(after, other, player):
                found[(source, target)] = TOP in group(after | other | {TOP}, BASES[player])
    return found
