"""The table profile's card mat (``[cards]``), as the vision pipeline wants it.

``hardware`` and ``vision`` never import each other; this is where the
profile's :class:`hardware.profile.CardsProfile` becomes a
:class:`vision.cards.mat.CardMatLayout` (like :mod:`cogtable.board_setup` for the board).

>>> from hardware.profile import load_profile
>>> mat = card_mat(load_profile())
>>> mat.marker_ids, [zone.name for zone in mat.zones][-1]
((40, 41, 42, 43), 'centre')
"""

from __future__ import annotations

from cogtable.errors import UserError
from hardware.profile import Profile
from vision.cards.mat import CardMatLayout, CardZone, standard_mat
from vision.layout import Marker


def card_mat(profile: Profile) -> CardMatLayout:
    """The profile's card mat, or the standard mat for its seats when it declares none."""
    cards = profile.cards
    if cards is None:
        return standard_mat(len(profile.seats))
    markers = tuple(
        Marker(marker.id, marker.x_mm, marker.y_mm, cards.marker_size_mm)
        for marker in cards.markers
    )
    zones = tuple(
        CardZone(zone.name, zone.x_mm, zone.y_mm, zone.width_mm, zone.height_mm, zone.seat)
        for zone in cards.zones
    )
    try:
        return CardMatLayout("cardmat", cards.width_mm, cards.height_mm, markers, zones, "Card mat")
    except ValueError as error:
        raise UserError(f"{profile.source}: [cards]: {error}") from None
