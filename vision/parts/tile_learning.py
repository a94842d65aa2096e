"""Learning the look of the owner's tiles (face, ink, back, star token) from the teach layout.

The teach step (``cogtable calibrate cog --teach``) asks for the 26 letters face
up, one tile face down and one star token on the first player's mat. Each of
those places' sample points (:meth:`vision.parts.reader.PartsReader.tile_samples`,
relative to the local paper, so the light cancels) that does not show the place's
own empty print shows the tile: the commonest colour of the letter tiles is their
face and the farthest their ink; the face-down tile's two colours are its back and
its lines; the token's two its ground and its star. The result is a
:class:`~vision.parts.tiles.TileLook` in the paper's terms
(:func:`vision.parts.colours.absolute`), which the reader's colour vote then uses,
and a list of what could not be used, for the one line the teach step prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.part_sheet import PAPER_BGR
from vision.parts.colours import (
    absolute,
    alike,
    relative_log,
    squared_distance_each,
    token_like_face,
)
from vision.parts.part_reading import TileSamples
from vision.parts.tiles import REFERENCE_LOOK, TileLook
from vision.peg_disk.colour import LUMINANCE_WEIGHT

OFF_EMPTY = 0.2
"""A sample point farther than this from its place's empty print shows a tile (relative log)."""
TILE_SHARE = 0.6
"""A tile place with at least this share of its points off the empty print holds a tile."""
TOKEN_SHARE = 0.35
"""The same for the star token (smaller than a tile: some points see the paper round it)."""
CORE = 0.25
"""The face is the mean of the points within this of the commonest colour."""
INK_DISTANCE = 0.45
"""Points this far from the face are ink (or the letter's blurred edge)."""
SECOND_SHARE = 0.08
"""A second colour of a back or a token counts when this share of its points shows it."""


@dataclass(frozen=True)
class LearnedTiles:
    """The owner's tile look and what the teach layout could not give (one phrase each)."""

    look: TileLook
    unused: tuple[str, ...]
    """Cells or colours not learned, e.g. "r2c3 (K): no tile seen" (empty: everything used)."""
    letter_cells: tuple[str, ...]
    """The letter cells that held a tile (the others are named in ``unused``)."""


def learn_tiles(
    samples: Sequence[TileSamples],
    letters: Sequence[tuple[str, str]],
    wild_cell: str,
    star_cell: str,
    base: TileLook = REFERENCE_LOOK,
) -> LearnedTiles:
    """The tile look shown by the teach layout in ``samples`` (frames of one part).

    ``letters`` are (cell, letter) pairs; ``wild_cell`` holds a face-down tile and
    ``star_cell`` a star token. A colour with no place to learn it from stays as in
    ``base``. ValueError when no frame read the part or no letter tile was seen.
    """
    read = [sample for sample in samples if sample.colours is not None]
    if not read:
        raise ValueError("the part was not read in any frame")
    held = [(cell, letter) for cell, letter in letters if _held(read, cell, TILE_SHARE)]
    if not held:
        raise ValueError("no letter tile seen where the letters go")
    face = _commonest(_off_points(read, [cell for cell, _ in held]))
    held = [(cell, letter) for cell, letter in letters if _held(read, cell, TILE_SHARE, face)]
    unused = [
        f"{cell} ({letter}): no tile seen" for cell, letter in letters if (cell, letter) not in held
    ]
    face_points = _off_points(read, [cell for cell, _ in held], face)
    face = _commonest(face_points)
    look = replace(base, face=_bgr(face), ink=_bgr(_ink(face_points, face, base)))
    if _held(read, wild_cell, TILE_SHARE):
        back, line = _two_colours(_off_points(read, [wild_cell]))
        look = replace(look, back=_bgr(back), back_line=_bgr(line))
    else:
        unused.append(f"{wild_cell} (face-down tile): none seen, the standard back kept")
    if _held(read, star_cell, TOKEN_SHARE):
        star, mark = _two_colours(_off_points(read, [star_cell]))
        look = replace(look, star=_bgr(star), star_mark=_bgr(mark))
    else:
        unused.append(f"{star_cell} (star token): none seen, the standard token kept")
    unused += _clashes(look)
    return LearnedTiles(look, tuple(unused), tuple(cell for cell, _ in held))


def _rows(sample: TileSamples, cells: Sequence[str]) -> list[int]:
    return [sample.places.index(cell) for cell in cells if cell in sample.places]


def _off(sample: TileSamples, row: int, face: np.ndarray | None = None) -> np.ndarray:
    """Which sample points of a place show something other than its empty print (far from
    it, or, once the face is known, nearer the face than the empty print)."""
    assert sample.colours is not None and sample.empty is not None
    colours = sample.colours[row]
    distance = squared_distance_each(colours, sample.empty[row], LUMINANCE_WEIGHT)
    off = distance > OFF_EMPTY**2
    if face is not None:
        off |= squared_distance_each(colours, face, LUMINANCE_WEIGHT) < distance
    return off


def _held(
    samples: Sequence[TileSamples], cell: str, share: float, face: np.ndarray | None = None
) -> bool:
    """Whether the place ``cell`` holds something in most frames."""
    votes = [float(_off(s, row, face).mean()) >= share for s in samples for row in _rows(s, [cell])]
    return bool(votes) and sum(votes) * 2 > len(votes)


def _off_points(
    samples: Sequence[TileSamples], cells: Sequence[str], face: np.ndarray | None = None
) -> np.ndarray:
    """(N, 3) every off-paper sample point of these places over the frames."""
    points = [
        s.colours[row][_off(s, row, face)]  # type: ignore[index]
        for s in samples
        for row in _rows(s, cells)
    ]
    return np.concatenate(points) if points else np.zeros((0, 3), np.float32)


MODE_CANDIDATES = 200
"""At most this many points are tried as the centre of the commonest colour."""


def _commonest(points: np.ndarray) -> np.ndarray:
    """The colour most points lie near: of some points tried as centres, the one with most
    points within :data:`CORE`, then the mean of those (a mode: a token's ground, not the
    average of its ground and its star)."""
    step = max(1, len(points) // MODE_CANDIDATES)
    candidates = points[::step]
    near = np.stack(
        [squared_distance_each(points, c, LUMINANCE_WEIGHT) < CORE**2 for c in candidates]
    )
    centre = points[near[int(near.sum(axis=1).argmax())]].mean(axis=0)
    for _ in range(3):
        close = squared_distance_each(points, centre, LUMINANCE_WEIGHT) < CORE**2
        if close.sum() < 3:
            break
        centre = points[close].mean(axis=0)
    return centre


def _ink(points: np.ndarray, face: np.ndarray, base: TileLook) -> np.ndarray:
    """The letters' colour: the median of the points far from the face (or ``base``'s ink)."""
    far = squared_distance_each(points, face, LUMINANCE_WEIGHT) > INK_DISTANCE**2
    if far.sum() < max(3, 0.02 * len(points)):
        return relative_log(np.array(base.ink, np.float32))
    distance = squared_distance_each(points[far], face, LUMINANCE_WEIGHT)
    farthest = points[far][distance >= np.median(distance)]
    return np.median(farthest, axis=0)


def _two_colours(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The commonest colour of the points and a second one (its lines, its star), or the
    first again when too few points show another."""
    first = _commonest(points)
    rest = points[squared_distance_each(points, first, LUMINANCE_WEIGHT) > CORE**2]
    if len(rest) < max(3, SECOND_SHARE * len(points)):
        return first, first
    return first, _commonest(rest)


def _bgr(relative: np.ndarray) -> tuple[int, int, int]:
    b, g, r = (round(float(v)) for v in absolute(relative))
    return b, g, r


def _clashes(look: TileLook) -> list[str]:
    """Pairs of learned colours too alike to be told apart by colour (one phrase each)."""
    named = {
        "the face": look.face,
        "the back": look.back,
        "the star token": look.star,
        "the paper": PAPER_BGR,
    }
    clashes = []
    names = list(named)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            if alike(named[first], named[second]):
                clashes.append(f"{first} and {second} look alike")
    if token_like_face(look):
        clashes = [
            f"{text} (the letter reader tells them apart)"
            if text == "the face and the star token look alike"
            else text
            for text in clashes
        ]
    return clashes
