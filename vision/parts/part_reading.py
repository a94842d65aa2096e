"""What one frame shows of a table's printed parts: a reading per part, and the table's.

:class:`PartReading` has the attributes of :class:`vision.peg_disk.reading.Reading`, so one
:class:`~vision.peg_disk.settle.SettlingFilter` per part settles it; its tile evidence
(:data:`TILE_EVIDENCE_CLASSES`) feeds the shared commit decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.frame import OK
from vision.layout import EMPTY, LETTERS, STAR, WILD

MIN_CONFIDENCE = 0.5
"""A place read with less confidence than this makes its part's reading uncertain."""
TILE_EVIDENCE_CLASSES = (EMPTY, *LETTERS, WILD, STAR)
"""The classes of :attr:`PartReading.tile_log_likelihood`'s columns."""


@dataclass(frozen=True)
class PartReading:
    """What one frame shows of one part: the attributes of :class:`vision.peg_disk.reading.Reading`.

    ``labels`` and ``confidence`` follow ``places`` (the part's read places in
    layout order); a label is ``""`` for an empty place. ``features`` are the
    places' mean colours relative to the local paper (for motion); ``rim``
    the bare print's log colours (so a shadow that stays put can be told);
    ``shaded`` says every bare point that is not paper is only darker or
    lighter paper. ``probe`` are three points of the part (mm) whose image the
    settling filter watches to tell that the part or the camera moved.
    """

    status: str
    message: str = ""
    labels: tuple[str, ...] | None = None
    confidence: tuple[float, ...] | None = None
    covered: bool = False
    markers: dict[int, np.ndarray] = field(default_factory=dict)
    homography: np.ndarray | None = None
    features: np.ndarray | None = None
    shaded: bool = False
    rim: np.ndarray | None = None
    part: str = ""
    places: tuple[str, ...] = ()
    probe: np.ndarray | None = None
    tile_places: tuple[str, ...] = ()
    """The part's tile places (a subset of ``places``), the rows of ``tile_log_likelihood``."""
    tile_log_likelihood: np.ndarray | None = None
    """This frame's evidence at each tile place: (tile places, len(TILE_EVIDENCE_CLASSES)) log
    likelihoods of empty, "A".."Z", a face-down tile and a star token (up to a constant per
    place), from the colour vote and, for a face-up tile, the letter model's calibrated
    probabilities; for a commit decision to sum over a still window (None: not read)."""
    tile_unseen: np.ndarray | None = None
    """(tile places,) the log likelihood of what was seen if the place showed none of those
    classes (something over it), on the same scale."""

    @property
    def ok(self) -> bool:
        """True when the part was seen and every place read."""
        return self.status == OK

    @property
    def certain(self) -> bool:
        """An OK reading with nothing over the part and every place confident."""
        return self.ok and not self.covered and not self.uncertain_places()

    def position(self) -> dict[str, str] | None:
        """Place name -> label (``""`` when empty), or None if not OK."""
        if self.labels is None:
            return None
        return dict(zip(self.places, self.labels, strict=True))

    def uncertain_places(self) -> list[str]:
        """Names of the places read with less than :data:`MIN_CONFIDENCE`."""
        confidence = self.confidence or ()
        return [
            name
            for name, value in zip(self.places, confidence, strict=False)
            if value < MIN_CONFIDENCE
        ]

    @property
    def place_noun(self) -> str:
        """What a place is called in messages ("mat1 place")."""
        return f"{self.part} place"

    @property
    def probe_points(self) -> np.ndarray:
        """Points (mm) of the part whose image shows that the part or the camera moved."""
        return self.probe if self.probe is not None else np.zeros((3, 2))


@dataclass(frozen=True)
class TableReading:
    """What one frame shows of every part: ``parts`` maps a part's name to its reading.

    ``status`` is OK when the frame could be read at all (each part then has
    its own status), or NO_CAMERA / BAD_FRAME (and so has every part).
    """

    status: str
    message: str = ""
    parts: dict[str, PartReading] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """The frame was read (some parts may still be unseen)."""
        return self.status == OK

    @property
    def certain(self) -> bool:
        """Every part seen, uncovered and confidently read."""
        return self.ok and all(reading.certain for reading in self.parts.values())


@dataclass(frozen=True)
class TileSamples:
    """A part's tile places' sample points in one frame (:meth:`PartsReader.tile_samples`).

    ``colours`` and ``empty`` are (tile places, points, 3), relative to the local
    paper: what each point shows, and what it shows when the place is empty (None
    when the part was not read). ``bare_covered`` says bare print around the places
    is hidden by something that is not a shadow (a hand).
    """

    reading: PartReading
    places: tuple[str, ...]
    colours: np.ndarray | None
    empty: np.ndarray | None
    bare_covered: bool
