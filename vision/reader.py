"""Read every peg of the disk in one frame: empty, red, blue or gold, with a confidence.

The reader finds the markers, projects a small ring of sample points around
every peg and a ring of points on the bare board outside the peg triangle (the
*rim*, where no cog can ever stand). The rim shows the board colour under this
frame's light: a smooth per-channel surface fitted to it gives the local board
colour at every peg, so each peg is compared with the board right around it,
not with fixed thresholds. Anything on the rim that is not board (an arm, its
shadow) marks the frame as covered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.geometry import PEGS, BoardGeometry, Position
from vision.markers import MarkerDetector, project

OK = "ok"
NO_BOARD = "no board"
BAD_FRAME = "bad frame"
NO_CAMERA = "no camera"

MIN_CONFIDENCE = 0.5
"""A peg read with less confidence than this makes the whole frame uncertain."""
RIM_TOLERANCE = 0.14
"""Largest log-colour difference between a rim point and the fitted board surface."""
LUMINANCE_WEIGHT = 0.5
"""How much overall brightness counts against colour: shadows change it, paint does not."""
MIN_SIDE, MAX_SIDE = 64, 8192


@dataclass(frozen=True)
class Reading:
    """What one frame shows.

    ``status`` is OK, NO_BOARD, BAD_FRAME or NO_CAMERA; only an OK reading has
    labels. ``covered`` says something not board lies over the board (then the
    labels may be wrong and must not be committed). ``features`` are the
    per-peg colours relative to the local board, for motion detection.
    """

    status: str
    message: str = ""
    labels: tuple[str | None, ...] | None = None
    confidence: tuple[float, ...] | None = None
    covered: bool = False
    markers: dict[int, np.ndarray] = field(default_factory=dict)
    homography: np.ndarray | None = None
    features: np.ndarray | None = None

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


def sample_offsets(pitch: float) -> np.ndarray:
    """Sample points around a peg centre (mm): two rings inside a cog, clear of neighbours."""
    rings = []
    for radius, phase in ((0.18, 0.0), (0.3, np.pi / 8)):
        angles = phase + np.arange(8) * np.pi / 4
        rings.append(radius * pitch * np.column_stack([np.cos(angles), np.sin(angles)]))
    return np.concatenate(rings)


def rim_basis(points: np.ndarray, radius: float) -> np.ndarray:
    """Smooth-surface basis 1, x, y, xy, x^2 - y^2 (x^2 + y^2 is constant on a circle)."""
    x, y = points[:, 0] / radius, points[:, 1] / radius
    return np.column_stack([np.ones_like(x), x, y, x * y, x * x - y * y])


def check_frame(frame: object) -> tuple[np.ndarray | None, str]:
    """A BGR uint8 frame ready to read, or None and the reason it cannot be read."""
    if frame is None:
        return None, "no frame from the camera"
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        return None, "not an 8-bit image"
    if frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] == 1):
        return None, "grey-scale frame: cog colours cannot be read"
    if frame.ndim != 3 or frame.shape[2] not in (3, 4):
        return None, f"not a colour image (shape {frame.shape})"
    height, width = frame.shape[:2]
    if min(height, width) < MIN_SIDE or max(height, width) > MAX_SIDE:
        return None, f"frame size {width}x{height} is outside {MIN_SIDE}..{MAX_SIDE} pixels"
    return (frame[..., :3] if frame.shape[2] == 4 else frame), ""


class BoardReader:
    """Reads frames of one board with one calibration (see :mod:`vision.calibration`)."""

    def __init__(self, geometry: BoardGeometry | None = None, calibration=None) -> None:
        from vision.calibration import Calibration

        self.geometry = geometry or (calibration.geometry if calibration else BoardGeometry())
        self.calibration = calibration or Calibration.reference(self.geometry)
        self.detector = MarkerDetector(self.geometry)
        pegs = self.geometry.peg_positions()
        offsets = sample_offsets(self.geometry.peg_pitch)
        self._peg_points = (pegs[:, None, :] + offsets[None]).reshape(-1, 2)
        self._samples_per_peg = len(offsets)
        self._rim_points = self._rim_sample_points()
        radius = self.geometry.disk_radius
        self._rim_basis = rim_basis(self.geometry.rim_points(72), radius)
        self._peg_basis = rim_basis(pegs, radius)
        self._empty = np.array(self.calibration.empty)
        self._colours = np.array([self.calibration.colours[label] for label in LABEL_ORDER])

    def _rim_sample_points(self) -> np.ndarray:
        """Three points across the rim band for each of 72 rim positions, shape (216, 2)."""
        rim = self.geometry.rim_points(72)
        unit = rim / np.linalg.norm(rim, axis=1, keepdims=True)
        step = 0.12 * self.geometry.peg_pitch
        return np.concatenate([rim - step * unit, rim, rim + step * unit])

    def read(self, frame: object) -> Reading:
        """Read one frame; never raises for bad frames, reports them instead."""
        image, problem = check_frame(frame)
        if image is None:
            return Reading(NO_CAMERA if frame is None else BAD_FRAME, problem)
        found = self.detector.locate(image)
        if found.homography is None:
            return self._no_board(found)
        return self.read_with_homography(image, found.homography, found.corners)

    def _no_board(self, found) -> Reading:
        if not found.missing:
            message = "markers found but they do not fit the board geometry"
        else:
            message = f"markers not found: {', '.join(map(str, found.missing))}"
        return Reading(NO_BOARD, message, markers=found.corners)

    def read_with_homography(self, image, homography, markers=None) -> Reading:
        """Read the pegs once the board-to-image homography is known."""
        pegs = self._gather(image, homography, self._peg_points)
        rim = self._gather(image, homography, self._rim_points)
        if pegs is None or rim is None:
            return Reading(
                NO_BOARD, "the board is partly outside the picture", markers=markers or {}
            )
        board_at_pegs, rim_outliers = self._local_board(rim)
        features, spread = self._peg_features(pegs, board_at_pegs)
        labels, confidence = self._classify(features, spread)
        covered = rim_outliers >= 2
        message = f"something over the board ({rim_outliers} rim points)" if covered else ""
        return Reading(
            OK, message, labels, confidence, covered, markers or {}, homography, features
        )

    def _gather(self, image: np.ndarray, homography, points: np.ndarray) -> np.ndarray | None:
        """Pixel values at board points (N, 3) float32, or None if any falls outside."""
        pixels = np.rint(project(homography, points)).astype(np.int64)
        height, width = image.shape[:2]
        inside = (
            (pixels[:, 0] >= 0)
            & (pixels[:, 0] < width)
            & (pixels[:, 1] >= 0)
            & (pixels[:, 1] < height)
        )
        if not inside.all():
            return None
        return image[pixels[:, 1], pixels[:, 0]].astype(np.float32)

    def _local_board(self, rim: np.ndarray) -> tuple[np.ndarray, int]:
        """Log board colour predicted at every peg (55, 3), and how many rim points disagree."""
        values = np.log(np.median(rim.reshape(3, -1, 3), axis=0) + 1.0)
        keep = np.ones(len(values), bool)
        for _ in range(2):
            coefficients, *_ = np.linalg.lstsq(self._rim_basis[keep], values[keep], rcond=None)
            residual = np.abs(self._rim_basis @ coefficients - values).max(axis=1)
            keep = residual < RIM_TOLERANCE
            if keep.sum() < 12:
                break
        return self._peg_basis @ coefficients, int((~keep).sum())

    def _peg_features(self, pegs: np.ndarray, board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per peg: mean log colour relative to the local board (55, 3), and its spread (55,)."""
        samples = pegs.reshape(len(PEGS), self._samples_per_peg, 3)
        features = np.log(samples.mean(axis=1) + 1.0) - board
        logs = np.log(samples + 30.0)
        spread = logs.std(axis=1).mean(axis=1)
        return features, spread

    def _classify(self, features: np.ndarray, spread: np.ndarray):
        """Nearest prototype (the peg's own empty colour or a cog colour) and a confidence."""
        prototypes = np.concatenate(
            [self._empty[:, None, :], np.broadcast_to(self._colours, (len(PEGS), 3, 3))], axis=1
        )
        distances = colour_distance(features[:, None, :], prototypes)
        order = np.argsort(distances, axis=1)
        nearest = np.take_along_axis(distances, order[:, :2], axis=1)
        margin = 1.0 - nearest[:, 0] / np.maximum(nearest[:, 1], 1e-6)
        closeness = np.exp(-((nearest[:, 0] / 0.45) ** 2))
        uniform = np.exp(-((np.maximum(spread - 0.12, 0) / 0.15) ** 2))
        confidence = np.clip(np.minimum(2 * margin, 1.0) * closeness * uniform, 0, 1)
        labels = tuple(CLASS_NAMES[i] for i in order[:, 0])
        return labels, tuple(round(float(c), 3) for c in confidence)


LABEL_ORDER = ("red", "blue", "gold")
CLASS_NAMES: tuple[str | None, ...] = (None, *LABEL_ORDER)


def colour_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance of log colours, with overall brightness down-weighted against hue."""
    difference = a - b
    luminance = difference.mean(axis=-1, keepdims=True)
    chroma = difference - luminance
    return np.sqrt((chroma**2).sum(axis=-1) + 3 * (LUMINANCE_WEIGHT * luminance[..., 0]) ** 2)
