"""The sensors a table profile declares that can answer the engine's requests.

A leaf: the adapters and the request routing (:mod:`cogtable.sensing`) both read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from cogtable.card_mat_setup import card_mat
from hardware.profile import Profile
from vision.cards.mat import CardMatLayout


@dataclass(frozen=True)
class Sensors:
    """The sensors a profile declares that can answer requests."""

    dice: bool = False
    """Electronic dice on the Pico, or a GPIO roll button."""
    camera_dice: bool = False
    """Physical dice the camera reads in the board's die slots (``[dice] camera``)."""
    card_mat: CardMatLayout | None = None
    """The profile's card mat (``[cards]``), where the camera reads cards; None: none."""

    @classmethod
    def of(cls, profile: Profile) -> Sensors:
        """What ``profile`` declares."""
        return cls(
            dice=bool(profile.dice.pico) or profile.dice.roll_pin is not None,
            camera_dice=profile.dice.camera,
            card_mat=card_mat(profile) if profile.cards is not None else None,
        )
