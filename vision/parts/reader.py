"""Read the printed parts of a table (a C.O.G. board, the player mats) from one camera frame.

Every part carries its own ArUco markers, so one marker search per frame finds
them all (:mod:`vision.part_markers`) and each part gets its own homography
(three of its four markers suffice). Each place is then read by its kind,
from sample points projected into the frame and read in one bilinear pass:

- the part's bare print (the paper around and between the places, known from
  :func:`vision.part_sheet.draw_part`) shows its colour under this frame's
  light: a smooth surface fitted to it gives the local paper colour at every
  place, so each place is compared with the paper right around it (the
  Kogworks reader's rim, :mod:`vision.peg_disk.reader`). Bare print that is not paper
  (an arm, its shadow) marks the part as covered;
- tile places: each sample point votes for the colour it is nearest to (the
  place's own empty print, a tile's cream face or its ink, a tile's back, a
  star token: :mod:`vision.parts.colours`), which says empty, face up, face
  down ("wild") or star; every face-up tile of the frame is then cut out
  (the cell spanning the central 32 of 48 pixels) and given to the letter
  classifier in one batch;
- cog spaces: the colour of the cog body, or the bare print;
- pawn spaces: which pawn colours cover enough of the space;
- die places: the face the die shows (:mod:`vision.parts.dice`).

A place that matches nothing well is read with low confidence; several such
places, or bare print that is not paper, mean something lies over the part.
:class:`PartReading` has the attributes of :class:`vision.peg_disk.reading.Reading`, so
one :class:`~vision.peg_disk.settle.SettlingFilter` per part settles it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from vision.frame import BAD_FRAME, NO_CAMERA, OK, check_frame
from vision.layout import LETTERS, PartLayout
from vision.part_markers import MIN_MARKERS, MarkerFinder
from vision.parts.look import REFERENCE, PartsLook
from vision.parts.part_model import COVERING, Draft, LetterReading, PartModel
from vision.parts.part_reading import TableReading, TileSamples

SAME_TILE = 0.1
"""A face-up tile whose sample colours differ from those its letter was read from by less
than this (mean absolute, relative log colour) is the same tile: its letter is not read again."""


class LetterReader(Protocol):
    """The letter classifier the reader needs (:class:`vision.parts.letter_model.LetterModel`,
    or :class:`vision.parts.letters.LetterClassifier`). A classifier that also has
    ``log_probabilities(crops) -> (N, 27)`` (A..Z, then no letter) gives the tile evidence."""

    def classify(self, crops: np.ndarray) -> tuple[tuple[str, ...], np.ndarray]: ...


class PartsReader:
    """Reads the parts of one table (a board, mats) from frames; see the module docstring.

    ``classifier`` reads the letters of face-up tiles (default: the shipped letter
    model, :class:`vision.parts.letter_model.LetterModel`, loaded on first use).
    ``letter_floor`` is the classifier's own confidence threshold (default: the
    classifier's ``min_confidence``, else :data:`vision.parts.letter_model.SURE`): a
    letter read with less makes its place uncertain. With ``remember_letters`` a tile
    that has not changed since its letter was read surely keeps that reading (see
    :class:`_LetterMemory`); a doubtful one is read again every frame, and the new
    reading replaces the old (it is never the surer of the two); a die that looks as in
    the last frame keeps its reading.
    """

    def __init__(
        self,
        layouts: Sequence[PartLayout],
        look: PartsLook = REFERENCE,
        classifier: LetterReader | None = None,
        *,
        letter_floor: float | None = None,
        remember_letters: bool = True,
    ) -> None:
        _check_layouts(layouts)
        self.layouts = tuple(layouts)
        self.look = look
        self._classifier = classifier
        self._letter_floor = letter_floor
        self._finder = MarkerFinder((m.id for layout in layouts for m in layout.markers), layouts)
        self._memory = _LetterMemory(remember_letters)
        self._models = tuple(PartModel(layout, look) for layout in self.layouts)

    @property
    def classifier(self) -> LetterReader:
        """The letter classifier (the default one, built on first use, when none was given)."""
        if self._classifier is None:
            from vision.parts.letter_model import LetterModel

            self._classifier = LetterModel.default()
        return self._classifier

    @property
    def letter_floor(self) -> float:
        """The classifier's confidence threshold."""
        if self._letter_floor is None:
            from vision.parts.letter_model import SURE

            self._letter_floor = float(getattr(self.classifier, "min_confidence", SURE))
        return self._letter_floor

    def read(self, frame: object) -> TableReading:
        """Read one frame; never raises for bad frames, reports them instead."""
        image, problem = check_frame(frame)
        if image is None:
            status = NO_CAMERA if frame is None else BAD_FRAME
            parts = {m.layout.name: m.failed(status, problem, {}) for m in self._models}
            return TableReading(status, problem, parts)
        found = self._finder.find(image)
        drafts = [model.read(image, found) for model in self._models]
        self._read_letters(image, drafts)
        parts = {draft.model.layout.name: draft.finish() for draft in drafts}
        return TableReading(OK, "", parts)

    def tile_crops(self, frame: object) -> dict[tuple[str, str], np.ndarray]:
        """(part, place) -> the classifier's crop (48, 48, 3) of each face-up tile in a frame.

        What the letter classifier is given, for the teach step (the owner's
        own tiles: :meth:`vision.parts.letters.LetterClassifier.teach`) and for
        benchmarks. A bad frame gives none.
        """
        image, _problem = check_frame(frame)
        if image is None:
            return {}
        found = self._finder.find(image)
        crops: dict[tuple[str, str], np.ndarray] = {}
        for draft in (model.read(image, found) for model in self._models):
            cut = draft.letter_crops(image, draft.face_up)
            for index, crop in zip(draft.face_up, cut, strict=True):
                crops[(draft.model.layout.name, draft.model.names[index])] = crop
        return crops

    def tile_samples(self, frame: object, part: str) -> TileSamples:
        """One part's tile places' sample colours in a frame, for learning the owner's tiles.

        Colours are relative to the local paper (:func:`vision.parts.colours.relative_to`;
        :func:`vision.parts.colours.absolute` turns them into the paper's terms). A part
        not seen (or a bad frame) gives no colours and a reading that says why.
        """
        model = next((m for m in self._models if m.layout.name == part), None)
        if model is None:
            raise ValueError(f"no part {part!r} is read here")
        image, problem = check_frame(frame)
        if image is None:
            reading = model.failed(NO_CAMERA if frame is None else BAD_FRAME, problem, {})
            return TileSamples(reading, model.names, None, None, False)
        draft = model.read(image, self._finder.find(image))
        reading = draft.finish()
        if draft.unread_reading is not None:
            return TileSamples(reading, model.names, None, None, False)
        names = tuple(model.names[i] for i in model.tiles.indices)
        bare_covered = draft.outliers >= COVERING and not draft.shaded
        return TileSamples(reading, names, draft.tile_relative, model.tiles.empty, bare_covered)

    def _read_letters(self, image: np.ndarray, drafts: Sequence[Draft]) -> None:
        """Name the letter of every face-up tile of the frame, the new ones in one batch.

        A tile that looks as it did when its letter was read surely keeps that
        reading (:class:`_LetterMemory`), so a still table costs the classifier
        nothing. The other tiles of the frame (new, changed, or doubtful when last
        read) are cut out and classified together, and this frame's reading is
        theirs: a doubtful tile never keeps the surest reading it once had, so
        noise cannot turn into certainty over a few still frames.
        """
        keys, looks = [], []
        for draft in drafts:
            for index, look in zip(draft.face_up, draft.face_up_looks, strict=True):
                keys.append((draft.model.layout.name, index))
                looks.append(look)
        known = self._memory.recall(keys, looks)
        floor = self.letter_floor
        new = [row for row, seen in enumerate(known) if seen is None or seen.confidence < floor]
        readings = [seen or LetterReading("", 0.0, None) for seen in known]
        if new:
            crops = self._crops(image, drafts, {keys[row] for row in new})
            for row, reading in zip(new, self._classified(crops), strict=True):
                readings[row] = reading
            self._memory.remember(
                [keys[row] for row in new], [looks[row] for row in new], [readings[r] for r in new]
            )
        self._memory.keep_only(keys)
        start = 0
        for draft in drafts:
            end = start + len(draft.face_up)
            draft.set_letters(readings[start:end], floor)
            start = end

    def _classified(self, crops: np.ndarray) -> list[LetterReading]:
        """The classifier's reading of each crop (with its log probabilities when it gives them)."""
        classifier = self.classifier
        log_probabilities = getattr(classifier, "log_probabilities", None)
        if log_probabilities is None:
            read, sure = classifier.classify(crops)
            return [
                LetterReading(letter, float(value), None)
                for letter, value in zip(read, sure, strict=True)
            ]
        rows = np.asarray(log_probabilities(crops), np.float64)
        best = np.argmax(rows, axis=1)
        return [
            LetterReading(LETTERS[index], float(np.exp(row[index])), row)
            if index < len(LETTERS)
            else LetterReading("", 0.0, row)
            for index, row in zip(best, rows, strict=True)
        ]

    @staticmethod
    def _crops(image: np.ndarray, drafts: Sequence[Draft], wanted: set) -> np.ndarray:
        """The classifier's crops of the wanted face-up tiles, in the drafts' order."""
        batches = [
            draft.letter_crops(
                image, [i for i in draft.face_up if (draft.model.layout.name, i) in wanted]
            )
            for draft in drafts
        ]
        return np.concatenate(batches)

    def forget(self) -> None:
        """Read every tile's letter and every die afresh in the next frame (benchmarks)."""
        self._memory = _LetterMemory(self._memory.enabled)
        for model in self._models:
            for _index, _place, die in model.dice:
                die.forget()


class _LetterMemory:
    """The letter last read on each face-up tile place, with how the tile looked then.

    A tile's look is the colours of its sample points relative to the local
    paper (they cover the letter's middle). A tile that looks as it did (mean
    absolute difference below :data:`SAME_TILE`: a different letter, a tile
    moved or turned, a hand, all change it far more than the camera's noise
    or the light do) is the same tile, read before.
    """

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self._seen: dict[tuple[str, int], tuple[np.ndarray, LetterReading]] = {}

    def recall(self, keys, looks) -> list[LetterReading | None]:
        """Per tile, the reading made when it looked as now, or None."""
        known: list[LetterReading | None] = [None] * len(keys)
        rows = [row for row, key in enumerate(keys) if key in self._seen] if self.enabled else []
        if not rows:
            return known
        before = np.stack([self._seen[keys[row]][0] for row in rows])
        now = np.stack([looks[row] for row in rows])
        same = np.abs(now - before).mean(axis=(1, 2)) < SAME_TILE
        for row in np.array(rows)[same]:
            known[row] = self._seen[keys[row]][1]
        return known

    def remember(self, keys, looks, readings) -> None:
        """Keep each tile's reading with its look."""
        if self.enabled:
            for key, look, reading in zip(keys, looks, readings, strict=True):
                self._seen[key] = (look, reading)

    def keep_only(self, keys) -> None:
        """Forget the places that show no face-up tile now."""
        wanted = set(keys)
        self._seen = {key: value for key, value in self._seen.items() if key in wanted}


def _check_layouts(layouts: Sequence[PartLayout]) -> None:
    """Refuse no parts, two parts of one name, or a marker id on two parts (one line each)."""
    if not layouts:
        raise ValueError("the parts reader needs at least one part layout")
    names: set[str] = set()
    owners: dict[int, str] = {}
    for layout in layouts:
        if layout.name in names:
            raise ValueError(f"two parts are called {layout.name!r}")
        names.add(layout.name)
        if len(layout.markers) < MIN_MARKERS:
            raise ValueError(
                f"{layout.name}: has {len(layout.markers)} markers, needs {MIN_MARKERS}"
            )
        for marker in layout.markers:
            if marker.id in owners:
                raise ValueError(
                    f"marker {marker.id} is on both {owners[marker.id]} and {layout.name}"
                )
            owners[marker.id] = layout.name
