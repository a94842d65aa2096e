"""The Kogworks rules on bitboards: which wheels turn, which moves are legal, and why not.

A colour's board (``own``) holds its base and its cogs; ``occupied`` adds the
other colour and the top wheel. A group of meshed wheels turns exactly when
breadth-first layers two-colour it (it has no odd cycle).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from games.kogworks.board import (
    BASES,
    BIT,
    CORNERS,
    TOP,
    TRIANGLES,
    VALID,
    Peg,
    corner_forbidden,
    dilate,
    flood,
    neighbours,
    peg_name,
    pegs_of,
    triangle_forbidden,
)

TOP_BIT = BIT[TOP]
BASE_BITS = (BIT[BASES[0]], BIT[BASES[1]])


@dataclass(frozen=True, slots=True)
class Group:
    """A connected group of meshed wheels and whether it can turn."""

    mask: int
    turns: bool
    bad: int
    """Empty-or-not pegs whose filling would leave this group (joined) locked."""


def group_from(seed: int, within: int) -> Group:
    """The group of ``within`` holding ``seed``, two-coloured by BFS layer parity."""
    even, odd, frontier, region = seed, 0, seed, seed
    parity = 0
    while True:
        # dilate() inlined: this loop is the hot path of move generation.
        frontier = (
            (frontier << 1)
            | (frontier >> 1)
            | (frontier << 11)
            | (frontier >> 11)
            | (frontier << 12)
            | (frontier >> 12)
        ) & (within & ~region)
        if not frontier:
            break
        region |= frontier
        parity ^= 1
        if parity:
            odd |= frontier
        else:
            even |= frontier
    if region == seed:
        return Group(region, True, 0)
    grown_even, grown_odd = dilate(even), dilate(odd)
    turns = not (grown_even & even) and not (grown_odd & odd)
    return Group(region, turns, grown_even & grown_odd if turns else grown_even | grown_odd)


def groups_of(occupied: int) -> list[Group]:
    """Every connected group of wheels in ``occupied``."""
    found = []
    remaining = occupied
    while remaining:
        group = group_from(remaining & -remaining, occupied)
        found.append(group)
        remaining &= ~group.mask
    return found


def _holding(groups: list[Group], bit: int) -> Group:
    """The group that holds ``bit``."""
    for group in groups:
        if group.mask & bit:
            return group
    raise LookupError("no group holds that wheel")


def _bad_of(groups: list[Group]) -> int:
    """The union of the groups' bad pegs."""
    bad = 0
    for group in groups:
        bad |= group.bad
    return bad


@dataclass(frozen=True, slots=True)
class MoveMasks:
    """One player's legal moves in one position, as bitboards.

    ``place`` are the legal placement pegs (0 without reserve); ``moves`` maps a
    source peg to its legal targets. ``*_wins`` are the subsets that turn the
    top wheel.
    """

    place: int
    place_wins: int
    moves: dict[Peg, int]
    move_wins: dict[Peg, int]

    def count(self) -> int:
        """How many legal moves there are."""
        return self.place.bit_count() + sum(mask.bit_count() for mask in self.moves.values())

    def any_win(self) -> bool:
        """True if some legal move turns the top wheel."""
        return bool(self.place_wins) or any(self.move_wins.values())


def _wins(targets: int, base: Group, top: Group) -> int:
    """The targets that join the base's group to the top wheel's."""
    if base.mask & TOP_BIT:
        return targets
    return targets & dilate(base.mask) & dilate(top.mask)


def generate(own: int, occupied: int, player: int, reserve: int) -> MoveMasks:
    """All legal moves of ``player`` whose colour is ``own`` (base included).

    Move generation never tries moves one by one. For placements, with ``B`` the
    mover's base group, filling peg ``q`` locks the base exactly when ``q`` touches
    ``B`` and also touches a locked group, or both colour classes of one turning
    group; that is a whole mask at once. Moving a cog from ``s`` changes only the
    group that held ``s``, so only that group is recomputed per source.
    """
    base_bit = BASE_BITS[player]
    empty = VALID & ~occupied
    groups = groups_of(occupied)
    base, top = _holding(groups, base_bit), _holding(groups, TOP_BIT)
    bad = _bad_of(groups)
    triangles = triangle_forbidden(own)
    place = _targets(own, empty, base, bad, triangles) if reserve > 0 else 0
    moves: dict[Peg, int] = {}
    wins: dict[Peg, int] = {}
    scene = _Scene(own, empty, base_bit, groups, _bad_without(groups), base, top, triangles)
    for source in pegs_of(own & ~base_bit):
        moves[source], wins[source] = _source_targets(BIT[source], scene)
    return MoveMasks(place, _wins(place, base, top), moves, wins)


def _targets(own: int, empty: int, base: Group, bad: int, triangles: int) -> int:
    """Empty pegs where one more cog of ``own`` keeps every ban and the base turning.

    ``triangles`` is ``triangle_forbidden(own)``, passed in because callers share it.
    """
    if not base.turns:
        return 0
    return empty & ~triangles & ~corner_forbidden(own) & ~(dilate(base.mask) & bad)


def _bad_without(groups: list[Group]) -> list[int]:
    """For each group, the bad pegs of all the other groups (prefix and suffix unions)."""
    before, after = [0] * len(groups), [0] * len(groups)
    for index in range(1, len(groups)):
        before[index] = before[index - 1] | groups[index - 1].bad
        after[-index - 1] = after[-index] | groups[-index].bad
    return [first | last for first, last in zip(before, after, strict=True)]


@dataclass(frozen=True, slots=True)
class _Scene:
    """The position before a move, shared by every source's generation."""

    own: int
    empty: int
    base_bit: int
    groups: list[Group]
    bad_without: list[int]
    base: Group
    top: Group
    triangles: int


def _source_targets(source: int, scene: _Scene) -> tuple[int, int]:
    """Legal and winning targets of the cog on ``source``: only its group changes."""
    index = next(i for i, group in enumerate(scene.groups) if group.mask & source)
    held = scene.groups[index]
    own = scene.own & ~source
    if held.mask == source:  # a lone cog: no group splits, no own pair loses a member
        return _moved_targets(own, scene, scene.bad_without[index], scene.triangles)
    pieces = groups_of(held.mask & ~source)
    bad = scene.bad_without[index] | _bad_of(pieces)
    base = _holding(pieces, scene.base_bit) if held is scene.base else scene.base
    top = _holding(pieces, TOP_BIT) if held is scene.top else scene.top
    targets = _targets(own, scene.empty, base, bad, triangle_forbidden(own))
    return targets, _wins(targets, base, top)


def _moved_targets(own: int, scene: _Scene, bad: int, triangles: int) -> tuple[int, int]:
    """Targets of a lone cog: the base and top groups are the scene's own."""
    targets = _targets(own, scene.empty, scene.base, bad, triangles)
    return targets, _wins(targets, scene.base, scene.top)


def base_turns(occupied: int, player: int) -> bool:
    """True if ``player``'s base wheel can turn in this position."""
    return group_from(BASE_BITS[player], occupied).turns


def group_mask(occupied: int, peg: Peg) -> int:
    """The wheels meshed with the wheel on ``peg`` (itself included)."""
    return flood(BIT[peg], occupied)


@dataclass(frozen=True)
class Violation:
    """Why a move is illegal, and the pegs that make it so (for blinking LEDs)."""

    rule: str
    """``own-triangle``, ``corner``, ``base-locked`` or a basic rule (``occupied``...)."""
    pegs: tuple[Peg, ...]
    text: str
    group: tuple[Peg, ...] = ()
    """For ``base-locked``: the whole locked group holding the base."""


def after_move_violations(own: int, occupied: int, player: int, target: Peg) -> list[Violation]:
    """What breaks the rules in the position after a move (``own``/``occupied`` after it).

    ``target`` is the peg the cog arrived on; the bans concern it, the turning
    rule concerns the whole base group.
    """
    colour = ("Red", "Blue")[player]
    found = [_triangle_violation(own, target, colour), _corner_violation(own, colour)]
    found.append(_locked_violation(occupied, player, colour))
    return [violation for violation in found if violation is not None]


def _triangle_violation(own: int, target: Peg, colour: str) -> Violation | None:
    """Own-colour triangles through ``target``."""
    closed = [tri for tri in TRIANGLES if target in tri and all(own & BIT[p] for p in tri)]
    if not closed:
        return None
    pegs = tuple(sorted({peg for tri in closed for peg in tri}))
    names = ", ".join(peg_name(p) for p in pegs)
    return Violation("own-triangle", pegs, f"{names} would be a triangle of {colour} cogs only")


def _corner_violation(own: int, colour: str) -> Violation | None:
    """A corner wheel with both neighbours in the mover's colour."""
    for corner, first, second in CORNERS:
        if own & BIT[first] and own & BIT[second]:
            what = "top wheel" if corner == TOP else f"base on {peg_name(corner)}"
            text = (
                f"{peg_name(first)} and {peg_name(second)} would both be {colour}, "
                f"blocking the {what} with two cogs of one colour"
            )
            return Violation("corner", (corner, first, second), text)
    return None


def _locked_violation(occupied: int, player: int, colour: str) -> Violation | None:
    """The odd cycle that would lock the mover's base, if any."""
    cycle = odd_cycle(occupied, BASES[player])
    if cycle is None:
        return None
    group = tuple(pegs_of(group_mask(occupied, BASES[player])))
    names = ", ".join(peg_name(p) for p in cycle)
    text = f"{colour}'s base could not turn: the wheels {names} form an odd cycle"
    return Violation("base-locked", tuple(cycle), text, group)


def odd_cycle(occupied: int, start: Peg) -> list[Peg] | None:
    """An odd cycle in the group holding ``start`` (plain BFS), or None if it turns."""
    parent, depth = {start: start}, {start: 0}
    queue = deque([start])
    while queue:
        peg = queue.popleft()
        for other in neighbours(peg):
            if not occupied & BIT[other]:
                continue
            if other not in depth:
                parent[other], depth[other] = peg, depth[peg] + 1
                queue.append(other)
            elif depth[other] == depth[peg]:
                return _close_cycle(peg, other, parent)
    return None


def _close_cycle(first: Peg, second: Peg, parent: dict[Peg, Peg]) -> list[Peg]:
    """The cycle made by the edge first-second and both BFS paths to their meeting point."""
    left, right = [first], [second]
    while left[-1] != right[-1]:
        left.append(parent[left[-1]])
        right.append(parent[right[-1]])
    return left + right[-2::-1]
