"""The mock table's synthetic camera for a table nobody plays at (``cogtable service run``).

A still simulated board (no people, no hands) filmed by the mock world's camera:
the runtime opens it when the profile's camera source is ``synthetic``.
"""

from __future__ import annotations

from typing import Any

from cogtable.board_setup import board_geometry
from cogtable.mock.world import MockWorld
from hardware.profile import Profile


def still_table(profile: Profile, size: tuple[int, int]) -> Any:
    """The camera over a still mock board of ``profile``'s geometry, at ``size``."""
    return MockWorld(geometry=board_geometry(profile)).camera_for(size)
