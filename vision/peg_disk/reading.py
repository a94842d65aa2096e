"""What one frame of the peg disk shows (:class:`Reading`): labels, confidence, evidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from vision.frame import OK
from vision.peg_disk.geometry import PEGS, Position
from vision.peg_disk.parallax import NONE as NO_PARALLAX
from vision.peg_disk.parallax import Parallax

MIN_CONFIDENCE = 0.5
"""A peg read with less confidence than this makes the whole frame uncertain."""
PROBE_POINTS = np.array([[-100.0, -100.0], [100.0, 100.0], [100.0, -100.0]])
"""Board points (mm) the settling filter watches to tell that the board or the camera moved."""


@dataclass(frozen=True)
class Reading:
    """What one frame shows.

    ``status`` is OK, NO_BOARD, BAD_FRAME or NO_CAMERA; only an OK reading has
    labels. ``covered`` says something not board lies over the board (then the
    labels may be wrong and must not be committed). ``features`` are the
    per-peg colours relative to the local board, for motion detection.
    ``shaded`` says everything over the rim is board of the same hue, only
    darker or lighter (a shadow, perhaps of a lamp); ``rim`` holds the rim's log colours
    (72, 3) so the settling filter can tell a shadow that stays put.
    ``centre_contrast`` is (55, 2, 3): per peg, the log colour of its pin and
    of a cog's hub less the ring around (what calibration learns), and
    ``parallax`` where cog tops were seen; ``rim_outliers`` counts the rim points
    that were not bare board; ``missing_markers`` names markers not seen (the
    board is read from three: a hand resting on the fourth); ``edge_width`` is
    how wide (pixels) the markers' edges are (:mod:`vision.sharpness`): a frame
    blurred by a bump is a BAD_FRAME, never read.

    ``log_likelihood`` (55, 4) is the evidence of this frame for every peg and
    class (:attr:`classes`): the log likelihood of what the peg shows if it
    held that class; ``unseen`` (55,) the same if it showed none of them (a
    hand, a held cog). A commit decision sums them over a still board's frames
    (:mod:`cogtable.commit_decision`); the labels are their per-frame best.
    ``rim_shape`` (72, 3) is the rim less the smooth light through it: a shadow
    on the rim keeps its shape when the room's light changes. ``samples`` (55, 28, 3) are the
    pixels (BGR) at every peg's colour and edge points on the board plane, which the filter
    compares frame to frame (:func:`vision.peg_disk.settle.points_changed`).
    """

    status: str
    message: str = ""
    labels: tuple[str | None, ...] | None = None
    confidence: tuple[float, ...] | None = None
    covered: bool = False
    markers: dict[int, np.ndarray] = field(default_factory=dict)
    homography: np.ndarray | None = None
    features: np.ndarray | None = None
    shaded: bool = False
    rim: np.ndarray | None = None
    centre_contrast: np.ndarray | None = None
    parallax: Parallax = NO_PARALLAX
    rim_outliers: int = 0
    missing_markers: tuple[int, ...] = ()
    edge_width: float = 0.0
    log_likelihood: np.ndarray | None = None
    unseen: np.ndarray | None = None
    rim_shape: np.ndarray | None = None
    samples: np.ndarray | None = None

    classes: ClassVar[tuple[str | None, ...]] = (None, "red", "blue", "gold")
    """The classes of :attr:`log_likelihood`'s columns: empty, then each cog colour."""

    @property
    def ok(self) -> bool:
        """True when the board was seen and every peg read."""
        return self.status == OK

    @property
    def certain(self) -> bool:
        """An OK reading with nothing over the board and every peg confident."""
        return self.ok and not self.covered and min(self.confidence or (0.0,)) >= MIN_CONFIDENCE

    def position(self) -> Position | None:
        """The reading as plain data (peg -> colour or None), or None if not OK."""
        if self.labels is None:
            return None
        return dict(zip(PEGS, self.labels, strict=True))

    def uncertain_pegs(self) -> list[tuple[int, int]]:
        """Pegs read with less than :data:`MIN_CONFIDENCE`."""
        confidence = self.confidence or ()
        return [peg for peg, value in zip(PEGS, confidence, strict=False) if value < MIN_CONFIDENCE]

    def uncertain_places(self) -> list[str]:
        """The uncertain pegs' names ("row,column"), as the settling filter names places."""
        return [f"{row},{column}" for row, column in self.uncertain_pegs()]

    place_noun: ClassVar[str] = "peg"
    """What a place is called in messages."""

    @property
    def probe_points(self) -> np.ndarray:
        """Points (board mm) whose image shows that the board or the camera moved."""
        return PROBE_POINTS

    @property
    def places(self) -> tuple[tuple[int, int], ...]:
        """The places of :attr:`log_likelihood`'s rows: every peg."""
        return PEGS


LABEL_ORDER = ("red", "blue", "gold")
CLASS_NAMES: tuple[str | None, ...] = (None, *LABEL_ORDER)
