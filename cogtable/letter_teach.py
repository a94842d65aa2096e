"""Teaching the letter classifier the owner's own tiles (``cogtable calibrate cog --teach``).

The letter model (:class:`vision.parts.letter_model.LetterModel`) is trained on glyphs
rendered in many typefaces; a table owner's tiles are printed in their own.
The teach step asks for the 26 letters laid face up, upright, in a printed
order on the first player's mat (A-H on row 1 from the left, I-P on row 2,
Q-X on row 3, Y and Z on row 4, then a tile face down and a star token), learns
the tiles' colours from them (face, ink, back, token:
:mod:`vision.parts.tile_learning`), reads the frames with those colours, crops
each letter cell as the reader does and teaches the classifier those samples.
It says how many letters the classifier read right before and after on a frame
kept apart, and in one line what it could not use (a cell with no tile, a
colour too like another). The taught samples and the tile look are saved as
JSON; the profile's ``camera.letters`` points the reader at them.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from cogtable.errors import UserError
from vision.layout import LETTERS, STAR, WILD, PartLayout
from vision.parts.letter_crops import CELL_SIDE, CROP_SIDE, cut_crop
from vision.parts.letter_model import LetterModel, TaughtLetterModel
from vision.parts.letters import LetterClassifier
from vision.parts.look import REFERENCE
from vision.parts.part_reading import PartReading, TableReading, TileSamples
from vision.parts.reader import PartsReader
from vision.parts.tile_learning import LearnedTiles, learn_tiles
from vision.parts.tiles import TileLook

Teachable = LetterModel | TaughtLetterModel | LetterClassifier
"""A letter reader that can be taught the owner's tiles."""

TEACH_PART = "mat1"
TEACH_ORDER: tuple[tuple[str, str], ...] = tuple(
    (f"r{index // 8 + 1}c{index % 8 + 1}", letter)
    for index, letter in enumerate(string.ascii_uppercase)
)
"""Where each letter is laid for teaching: (grid cell of the first mat, letter)."""
TEACH_WILD, TEACH_STAR = "r4c3", "r4c4"
"""Where one tile lies face down and one star token lies, beside Y and Z."""
TEACH_LAYOUT: tuple[tuple[str, str], ...] = (*TEACH_ORDER, (TEACH_WILD, WILD), (TEACH_STAR, STAR))
"""Everything the teach step asks for: (cell, label)."""
TEACH_TEXT = (
    "Lay one tile of every letter face up and upright on the first player's mat: A-H on row 1 "
    "from the left, I-P on row 2, Q-X on row 3, Y and Z on row 4, then one tile face down and "
    "one star token beside Z; keep hands clear."
)
MIN_LETTERS = 13
"""Fewer letter tiles than this seen in the teach layout: the step refuses (lay them as asked)."""


@dataclass(frozen=True)
class Taught:
    """What a teach step learned and how well the reader reads the owner's tiles now."""

    classifier: TaughtLetterModel | LetterClassifier
    """The letter reader taught the owner's letters (a TaughtLetterModel also carries
    ``tiles``, the owner's tile look)."""
    tiles: TileLook
    """The owner's tile look (face, ink, back, star token), for the reader's colour vote."""
    before: int
    """Letters the untaught classifier read right (and sure) on the check frame."""
    after: int
    """The same, for the taught classifier."""
    checked: int
    """The letters checked (26, less those not laid or not seen)."""
    reading: TableReading
    """The check frame's reading (with the owner's tile look), for the overlay."""
    unused: tuple[str, ...] = ()
    """What the teach layout could not give, one phrase each (the one line :func:`unused_line`)."""
    check: dict[str, str] = field(default_factory=dict)
    """The check frame's reading of every cell the teach layout uses (cell -> label)."""


def unused_line(taught: Taught) -> str:
    """One line on what the teach step could not use ("" when it used everything)."""
    misread = [
        f"{cell} read as {taught.check.get(cell) or 'empty'}"
        for cell, label in ((TEACH_WILD, WILD), (TEACH_STAR, STAR))
        if taught.check.get(cell, label) != label
        and not any(text.startswith(f"{cell} ") for text in taught.unused)
    ]
    parts = [*taught.unused, *misread]
    return f"could not use or tell apart: {'; '.join(parts)}" if parts else ""


def teach(frames: Sequence[np.ndarray], layouts: Sequence[PartLayout], base: Teachable) -> Taught:
    """Learn the owner's tiles from ``frames`` (the last usable one is kept apart as the check).

    A frame in which the first mat is not seen or something lies over it is left out
    (named in :attr:`Taught.unused`); with one usable frame it is taught and checked on.
    The tiles' colours are learned first (face, ink, back, star token), then the
    letters are read with them and the letter tiles' crops taught to ``base``. Cells
    with no tile are left out and named too. UserError when no frame is usable or fewer
    than :data:`MIN_LETTERS` letters lie where they go.
    """
    if len(frames) < 2:
        raise UserError("teaching needs at least 2 frames (one is kept apart to check)")
    usable, unused = _usable(frames, PartsReader(layouts, classifier=base))
    learned = _learned_tiles([sample for _index, _frame, sample in usable])
    unused += learned.unused
    reader = PartsReader(layouts, replace(REFERENCE, tiles=learned.look), classifier=base)
    held = [(cell, letter) for cell, letter in TEACH_ORDER if cell in learned.letter_cells]
    kept = []
    for index, frame, _sample in usable:
        cut = _letter_crops(frame, reader, held)
        if isinstance(cut, str):
            unused.append(f"frame {index + 1}: {cut}")
        else:
            kept.append((frame, cut))
    if not kept:
        raise UserError(f"no frame could be used: {unused[0]}")
    missed = sorted({cell for _f, (_c, cells) in kept for cell in cells}, key=_cell_order)
    unused += [f"{cell} ({_letter_of(cell)}): not read as a face-up tile" for cell in missed]
    used = [index for index, (cell, _) in enumerate(held) if cell not in missed]
    if len(used) < MIN_LETTERS:
        raise UserError(
            f"only {len(used)} of 26 letters seen where they go (needs {MIN_LETTERS}): "
            f"lay the letters as asked ({'; '.join(unused[:3])})"
        )
    letters = [held[index][1] for index in used]
    learn_from = kept[:-1] or kept
    if len(kept) == 1:
        unused.append("one usable frame: the check is the frame taught")
    taught_crops = np.concatenate([crops[used] for _f, (crops, _c) in learn_from])
    taught = base.teach(taught_crops, letters * len(learn_from))
    if isinstance(taught, TaughtLetterModel):
        taught = taught.with_tiles(learned.look)
    check_frame, (check_crops, _cells) = kept[-1]
    check = check_crops[used]
    reading = reader.read(check_frame)
    seen = (reading.parts[TEACH_PART].position() or {}) if TEACH_PART in reading.parts else {}
    return Taught(
        taught,
        learned.look,
        _right(base, check, letters),
        _right(taught, check, letters),
        len(letters),
        reading,
        tuple(unused),
        {cell: seen.get(cell, "") for cell, _ in TEACH_LAYOUT},
    )


def _usable(frames: Sequence[np.ndarray], reader: PartsReader):
    """(index, frame, tile samples) of the frames showing the first mat uncovered, and why
    each other frame is left out; UserError (the first frame's reason) when none does."""
    usable: list[tuple[int, np.ndarray, TileSamples]] = []
    reasons: list[str] = []
    for index, frame in enumerate(frames):
        sample = reader.tile_samples(frame, TEACH_PART)
        if not sample.reading.ok:
            why = f"the first player's mat is not seen: {sample.reading.message or 'no markers'}"
        elif sample.bare_covered:
            why = "something lies over the first player's mat: keep hands clear"
        else:
            usable.append((index, frame, sample))
            continue
        reasons.append(f"frame {index + 1}: {why}")
    if not usable:
        raise UserError(reasons[0].split(": ", 1)[1])
    return usable, reasons


def _learned_tiles(samples: Sequence[TileSamples]) -> LearnedTiles:
    """The owner's tile look from the usable frames' samples (UserError: no letter seen)."""
    try:
        return learn_tiles(samples, TEACH_ORDER, TEACH_WILD, TEACH_STAR)
    except ValueError as error:
        raise UserError(f"no letter tiles seen on the first player's mat ({error})") from None


def _right(classifier: Teachable, crops: np.ndarray, letters: Sequence[str]) -> int:
    """How many of the check crops ``classifier`` reads right and sure."""
    read, sure = classifier.classify(crops)
    floor = classifier.min_confidence
    return sum(1 for r, s, e in zip(read, sure, letters, strict=True) if r == e and s >= floor)


def _letter_crops(
    frame: np.ndarray, reader: PartsReader, cells: Sequence[tuple[str, str]]
) -> tuple[np.ndarray, list[str]] | str:
    """The crops of the letter ``cells`` in one frame and the cells not read as a face-up
    tile, or why the frame cannot be used (the mat not seen, something over it)."""
    table = reader.read(frame)
    part = table.parts.get(TEACH_PART)
    if not table.ok or part is None or not part.ok:
        why = part.message if part is not None else table.message
        return f"the first player's mat is not seen: {why or 'no markers'}"
    if part.covered:
        return f"something lies over the first player's mat ({part.message})"
    seen = part.position() or {}
    layout = next(layout for layout in reader.layouts if layout.name == TEACH_PART)
    crops = np.stack([_crop(frame, part, layout, cell) for cell, _ in cells])
    return crops, [cell for cell, _ in cells if seen.get(cell) not in (*LETTERS, "face")]


def _letter_of(cell: str) -> str:
    return dict(TEACH_ORDER)[cell]


def _cell_order(cell: str) -> int:
    return [c for c, _ in TEACH_ORDER].index(cell)


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
