"""What the simulated people at a card mat share: the mat as they mean it, and a hand laying it.

The Cookie's and Commissars' people (``cogtable.mock.cookie_people``,
``cogtable.mock.commissars_people``) both change the mat with a hand over it
for a few frames, then wait for the table to take what they laid; only how
each game's cards move (turned up, or taken and laid) is their own.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from cogtable.mock.cards_world import CardsWorld
from games.core import Action

HAND_FRAMES = (2, 4)
"""A hand stays over the mat this many frames (fewest, most) while laying a card."""
Zones = dict[str, tuple[Counter[int], int]]
"""Zone name -> (face-up tag ids, backs): a mat as the people mean it to be."""


@dataclass
class Laying:
    """A hand at work on the mat: the zones to change, until when, and what it means."""

    who: str
    target: Zones
    until: int
    actions: tuple[Action, ...]
    mistake: bool = False


@dataclass
class Waiting:
    """Something laid or pressed, waiting for the table to take it (its move count to go on)."""

    actions: tuple[Action, ...]
    ply: int
    since: int
    mistake: bool = False


def mat_of(world: CardsWorld) -> Zones:
    """The world's mat as it lies now."""
    return {name: (Counter(up), down) for name, (up, down) in world.contents().items()}


def zone_differs(mat: Zones, target: Zones, name: str) -> bool:
    """Whether zone ``name`` lies otherwise than ``target`` wants it."""
    up, down = mat.get(name, (Counter(), 0))
    want_up, want_down = target.get(name, (Counter(), 0))
    return +up != +want_up or down != want_down


def differs(mat: Zones, target: Zones) -> bool:
    """Whether any zone lies otherwise than ``target`` wants it."""
    return any(zone_differs(mat, target, name) for name in set(mat) | set(target))


def start_laying(
    world: CardsWorld,
    rng: random.Random,
    who: str,
    target: Zones,
    actions: tuple[Action, ...],
    *,
    mistake: bool = False,
) -> Laying | None:
    """Reach over the first zone to change (None: nothing to change); the hand stays a while."""
    changed = [name for name in target if zone_differs(mat_of(world), target, name)]
    if not changed:
        return None
    world.reach(who, changed[0])
    return Laying(who, target, world.frames + rng.randint(*HAND_FRAMES), actions, mistake)
