"""A settled card-mat reading as typed zones: what any game read on the card mat starts from.

The card mat's sight (:class:`cogtable.sights.cards.CardsSight`) commits a
reading as ``{region: {zone name: (face-up tag ids, face-down count)}}``;
tests and the mock hand over the same position, or the zone readings
themselves (:class:`vision.cards.reader.ZoneReading`). :func:`zones_of` turns any of
these into :class:`ZoneSeen` per zone, or None when the observation is not a
card-mat position at all (the adapter then waits for the camera).

>>> zones = zones_of({"cards": {"seat1": ((3, 1), 1), "centre": ((), 0)}})
>>> zones["seat1"]
ZoneSeen(face_up=(1, 3), backs=1)
>>> zones_of({"seat1": "garbage"}) is None
True
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

REGION = "cards"
"""The camera region's name for the card mat."""


@dataclass(frozen=True)
class ZoneSeen:
    """One zone as the camera settled it: the tag ids lying face up (sorted), the backs."""

    face_up: tuple[int, ...] = ()
    backs: int = 0


def zones_of(observation: Any, region: str = REGION) -> dict[str, ZoneSeen] | None:
    """Zone name -> what lies there, from a settled position; None if it is not one.

    The position may sit under the region's name (``{"cards": {...}}``).
    """
    if not isinstance(observation, Mapping):
        return None
    inner = observation.get(region)
    if isinstance(inner, Mapping):
        observation = inner
    zones: dict[str, ZoneSeen] = {}
    for name, label in observation.items():
        seen = _zone(label)
        if seen is None:
            return None
        zones[str(name)] = seen
    return zones


def _zone(label: Any) -> ZoneSeen | None:
    """A zone's label: an (ids, backs) pair, or a ZoneReading-like object; None if neither."""
    if hasattr(label, "face_up") and hasattr(label, "face_down"):
        ids, backs = label.face_up, label.face_down
    elif isinstance(label, tuple | list) and len(label) == 2:
        ids, backs = label
    else:
        return None
    if isinstance(backs, bool) or not isinstance(backs, numbers.Integral) or int(backs) < 0:
        return None
    if not isinstance(ids, tuple | list) or not all(_is_id(tag) for tag in ids):
        return None
    return ZoneSeen(tuple(sorted(int(tag) for tag in ids)), int(backs))


def _is_id(tag: Any) -> bool:
    return isinstance(tag, numbers.Integral) and not isinstance(tag, bool) and int(tag) >= 0


def position_of(zones: Mapping[str, ZoneSeen]) -> dict[str, tuple[tuple[int, ...], int]]:
    """The settled position a camera would report of these zones (what tests and the mock lay)."""
    return {name: (zone.face_up, zone.backs) for name, zone in zones.items()}
