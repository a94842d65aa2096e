"""Teaching the letter classifier the owner's own tiles (``cogtable calibrate cog --teach``).

The letter model (:class:`vision.parts.letter_model.LetterModel`) is trained on glyphs
rendered in many typefaces; a table owner's tiles are printed in their own.
The teach step asks for the 26 letters laid face up, upright, in a printed
order on the first player's mat (A-H on row 1 from the left, I-P on row 2,
Q-X on row 3, Y and Z on row 4), reads the frames, crops each of those cells
as the reader does and teaches the classifier those samples. It says how many
letters the classifier read right before and after, on the frames it learned
from and on a frame kept apart, and names any cell where it saw no face-up
tile. The taught samples are saved as JSON; the profile's ``camera.letters``
points the reader at them.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cogtable.errors import UserError
from vision.layout import LETTERS, PartLayout
from vision.parts.letter_crops import CELL_SIDE, CROP_SIDE, cut_crop
from vision.parts.letter_model import LetterModel, TaughtLetterModel
from vision.parts.letters import LetterClassifier
from vision.parts.reader import PartReading, PartsReader, TableReading

Teachable = LetterModel | TaughtLetterModel | LetterClassifier
"""A letter reader that can be taught the owner's tiles."""

TEACH_PART = "mat1"
TEACH_ORDER: tuple[tuple[str, str], ...] = tuple(
    (f"r{index // 8 + 1}c{index % 8 + 1}", letter)
    for index, letter in enumerate(string.ascii_uppercase)
)
"""Where each letter is laid for teaching: (grid cell of the first mat, letter)."""
TEACH_TEXT = (
    "Lay one tile of every letter face up and upright on the first player's mat: A-H on row 1 "
    "from the left, I-P on row 2, Q-X on row 3, Y and Z on row 4; keep hands clear."
)


@dataclass(frozen=True)
class Taught:
    """What a teach step learned and how well the classifier reads the owner's tiles now."""

    classifier: TaughtLetterModel | LetterClassifier
    before: int
    """Letters the untaught classifier read right (and sure) on the check frame, of 26."""
    after: int
    """The same, for the taught classifier."""
    reading: TableReading
    """The check frame's reading, for the overlay."""


def teach(frames: Sequence[np.ndarray], layouts: Sequence[PartLayout], base: Teachable) -> Taught:
    """Learn the owner's tiles from ``frames`` (the last one is kept apart as the check).

    UserError names the cells without a face-up tile, or a mat not seen.
    """
    if len(frames) < 2:
        raise UserError("teaching needs at least 2 frames (one is kept apart to check)")
    reader = PartsReader(layouts, classifier=base)
    crops = [_letter_crops(frame, reader) for frame in frames[:-1]]
    check, reading = _letter_crops(frames[-1], reader, keep=True)
    letters = [letter for _, letter in TEACH_ORDER]
    taught = base.teach(np.concatenate([c for c, _ in crops]), letters * len(crops))
    return Taught(taught, _right(base, check), _right(taught, check), reading)


def _right(classifier: Teachable, crops: np.ndarray) -> int:
    """How many of the 26 teach crops ``classifier`` reads right and sure."""
    read, sure = classifier.classify(crops)
    expected = [letter for _, letter in TEACH_ORDER]
    floor = classifier.min_confidence
    return sum(1 for r, s, e in zip(read, sure, expected, strict=True) if r == e and s >= floor)


def _letter_crops(frame: np.ndarray, reader: PartsReader, keep: bool = False):
    """The 26 teach cells' crops of one frame (and the reading), or a UserError saying why not."""
    table = reader.read(frame)
    part = table.parts.get(TEACH_PART)
    if not table.ok or part is None or not part.ok:
        why = part.message if part is not None else table.message
        raise UserError(f"the first player's mat is not seen: {why or 'no markers'}")
    if part.covered:
        raise UserError("something lies over the first player's mat: keep hands clear")
    missing = _not_tiles(part)
    if missing:
        raise UserError(f"no face-up tile seen on {', '.join(missing)}: lay the letters as asked")
    layout = next(layout for layout in reader.layouts if layout.name == TEACH_PART)
    crops = np.stack([_crop(frame, part, layout, cell) for cell, _ in TEACH_ORDER])
    return (crops, table) if keep else (crops, None)


def _not_tiles(part: PartReading) -> list[str]:
    """Teach cells where the reader sees no face-up tile (empty, face down, a star)."""
    seen = part.position() or {}
    return [f"{cell} ({letter})" for cell, letter in TEACH_ORDER if seen.get(cell) not in LETTERS]


def _crop(frame: np.ndarray, part: PartReading, layout: PartLayout, cell: str) -> np.ndarray:
    """The classifier's crop of one cell: 48 px square, the cell spanning the central 32 px,
    cut as the parts reader cuts it (:func:`vision.parts.letter_crops.cut_crop`)."""
    place = layout.place(cell)
    scale = CELL_SIDE / min(place.width, place.height)
    middle = (CROP_SIDE - 1) / 2
    to_crop = np.array(
        [[scale, 0, middle - scale * place.x], [0, scale, middle - scale * place.y], [0, 0, 1.0]]
    )
    assert part.homography is not None
    return cut_crop(frame, part.homography @ np.linalg.inv(to_crop))
