"""A Kogworks position as data: whose cogs stand on which pegs, and who moves.

>>> from games.kogworks import KogworksState
>>> position = KogworksPosition.parse(red="9.1 8.1", blue="9.9", mover=1)
>>> state = KogworksState.from_position(position)
>>> state.reserves(), state.to_act()
((12, 13), (1,))
>>> state.position() == position
True
"""

from __future__ import annotations

from dataclasses import dataclass

from games.kogworks.board import BASES, Peg, parse_peg, peg_name


@dataclass(frozen=True)
class KogworksPosition:
    """Red's and Blue's cogs off their bases (peg numbers) and the player to move (0: Red)."""

    red: frozenset[Peg] = frozenset()
    blue: frozenset[Peg] = frozenset()
    mover: int = 0

    def __post_init__(self) -> None:
        if self.mover not in (0, 1):
            raise ValueError(f"the mover is 0 (Red) or 1 (Blue), not {self.mover!r}")
        if self.red & self.blue:
            shared = " ".join(peg_name(peg) for peg in sorted(self.red & self.blue))
            raise ValueError(f"a peg holds one cog, not two: {shared}")
        if {BASES[0], BASES[1]} & (self.red | self.blue):
            raise ValueError("the bases are always there: name only the other pegs")

    @classmethod
    def parse(cls, red: str = "", blue: str = "", mover: int = 0) -> KogworksPosition:
        """A position from the notation of its pegs (``"9.1 8.2"``; a base named is left out).

        ValueError says what is wrong.
        """
        return cls(_pegs(red) - {BASES[0]}, _pegs(blue) - {BASES[1]}, mover)

    def cogs(self, player: int) -> frozenset[Peg]:
        """``player``'s cogs off the base."""
        return self.blue if player else self.red


def _pegs(text: str) -> frozenset[Peg]:
    return frozenset(parse_peg(name) for name in text.split())
