"""The look of a table's printed parts' pieces: cog, pawn and die colours, pips, tiles.

:class:`PartsLook` is what the parts reader (:mod:`vision.parts.reader`) compares the
frame with, and what our renderer draws; :data:`REFERENCE` is the reference set's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.parts.dice import DieLook
from vision.parts.tiles import REFERENCE_LOOK, TileLook

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class PartsLook:
    """The colours of the pieces on the parts (BGR), the pips' layout, and the tiles' look.

    ``pieces`` are the cog and pawn colours (name, BGR); ``dice`` each die
    colour's (name, body BGR, pip BGR). Tuples keep the look hashable, so a
    renderer can cache what it drew with it; :meth:`piece` and :meth:`die`
    look a colour up by name. ``pip_offset`` is the distance of a die's outer
    pips from its centre and ``pip_radius`` a pip's radius, in die sides.
    """

    pieces: tuple[tuple[str, BGR], ...] = (
        ("red", (40, 45, 200)),
        ("blue", (190, 90, 35)),
        ("green", (60, 150, 40)),
        ("yellow", (40, 200, 230)),
    )
    dice: tuple[tuple[str, BGR, BGR], ...] = (
        ("black", (38, 36, 34), (235, 235, 232)),
        ("aqua", (190, 178, 40), (30, 28, 26)),
        ("red", (45, 40, 190), (30, 28, 26)),
        ("yellow", (40, 205, 235), (30, 28, 26)),
    )
    tiles: TileLook = field(default_factory=lambda: REFERENCE_LOOK)
    pip_offset: float = 0.27
    pip_radius: float = 0.095

    def piece(self, colour: str) -> BGR:
        """The BGR of the cog or pawn colour ``colour``; ValueError names an unknown one."""
        for name, bgr in self.pieces:
            if name == colour:
                return bgr
        raise ValueError(f"unknown piece colour {colour!r}: expected one of {self.piece_names()}")

    def die(self, colour: str) -> tuple[BGR, BGR]:
        """The (body, pip) BGR of the die colour ``colour``; ValueError names an unknown one."""
        for name, body, pip in self.dice:
            if name == colour:
                return body, pip
        names = ", ".join(name for name, _, _ in self.dice)
        raise ValueError(f"unknown die colour {colour!r}: expected one of {names}")

    def die_look(self, colour: str) -> DieLook:
        """Everything the die reader needs of a die of ``colour``."""
        body, pip = self.die(colour)
        return DieLook(body, pip, self.pip_offset, self.pip_radius)

    def piece_names(self) -> tuple[str, ...]:
        """The cog and pawn colour names, in order."""
        return tuple(name for name, _ in self.pieces)


REFERENCE = PartsLook()
"""The reference set's look."""
