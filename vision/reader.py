"""Read every peg of the disk in one frame: empty, red, blue or gold, with a confidence.

The reader finds the markers, projects a small ring of sample points around
every peg and a ring of points on the bare board outside the peg triangle (the
*rim*, where no cog can ever stand). The rim shows the board colour under this
frame's light: a smooth per-channel surface fitted to it gives the local board
colour at every peg, so each peg is compared with the board right around it,
not with fixed thresholds. Anything on the rim that is not board (an arm, its
shadow) marks the frame as covered; when all of it is board of the same hue,
only darker or lighter, it is flagged as possibly a shadow (a lamp), which the
settling filter accepts once it stays put.

Each peg's centre must also be in sight: the pin of an empty peg, or the dark
hub of a cog seated on it. A cog held above a peg is larger, off-centre and
blurred, so its hub is not where the peg is: it is read with low confidence.
All sample points are read in one bilinear pass (``cv2.remap``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import cv2
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
SHADED_LUMINANCE_WEIGHT = 0.1
"""The same, when the rim shows a shadow across the board."""
MIN_SIDE, MAX_SIDE = 64, 8192
HUB_RING, BODY_RING = 0.09, 0.22
"""Radii (in peg pitches) of the rings over a seated cog's dark hub and over its body."""
CENTRE_DIP = {False: (0.05, 0.1), True: (0.1, 0.16)}
"""Empty peg / cog: how much darker (log) the centre must be than around it, (none, enough)."""
HUB_RATIO = (0.35, 0.55)
"""A cog's hub dip over the frame's median hub dip: (surely not seated, surely seated)."""
SHADE_CHROMA = 0.08
"""Largest change of hue (log colour less its mean) of a rim point that is only in shadow."""
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


def sample_offsets(pitch: float) -> np.ndarray:
    """Sample points around a peg centre (mm): two rings inside a cog, clear of neighbours."""
    rings = []
    for radius, phase in ((0.18, 0.0), (0.3, np.pi / 8)):
        rings.append(ring(radius * pitch, 8, phase))
    return np.concatenate(rings)


def ring(radius: float, count: int, phase: float = 0.0) -> np.ndarray:
    """``count`` points evenly spaced on a circle of ``radius`` around the origin."""
    angles = phase + np.arange(count) * 2 * np.pi / count
    return radius * np.column_stack([np.cos(angles), np.sin(angles)])


def centre_offsets(pitch: float) -> np.ndarray:
    """Points that show whether a peg's centre is in sight (mm).

    The peg's very centre (where an empty peg shows its dark pin), a ring over
    the dark hub a seated cog has around the pin, and a ring on the cog body
    (or bare board) just outside it, at the same angles.
    """
    return np.concatenate([np.zeros((1, 2)), ring(HUB_RING * pitch, 8), ring(BODY_RING * pitch, 8)])


@dataclass(frozen=True)
class RimFit:
    """The rim's log colours (72, 3) and how many of them are not bare board."""

    values: np.ndarray
    outliers: int


def centre_in_sight(centres: np.ndarray, cog: np.ndarray) -> np.ndarray:
    """Per peg, 0..1: is its centre seen (the pin of an empty peg, the hub of a seated cog)?

    ``centres`` are the raw colours at :func:`centre_offsets` (55, 17, 3).
    Brightness is compared along the same directions from the centre, so a
    shadow edge or a light gradient across the peg cancels out. A cog's hub
    must also be about as distinct as the other cogs' hubs in the same frame:
    a cog held above a peg is blurred and off-centre, so its hub fades.
    """
    light = np.log(centres.mean(axis=2) + 5.0)
    body = light[:, 9:17]
    dip = np.where(cog, (body - light[:, 1:9]).mean(axis=1), body.mean(axis=1) - light[:, 0])
    low = np.where(cog, CENTRE_DIP[True][0], CENTRE_DIP[False][0])
    high = np.where(cog, CENTRE_DIP[True][1], CENTRE_DIP[False][1])
    seen = np.clip((dip - low) / (high - low), 0.0, 1.0)
    if cog.sum() >= 3:
        typical = max(float(np.median(dip[cog])), 1e-3)
        sharp = np.clip((dip / typical - HUB_RATIO[0]) / (HUB_RATIO[1] - HUB_RATIO[0]), 0.0, 1.0)
        seen = np.where(cog, np.minimum(seen, sharp), seen)
    return seen


def _median_of_three(values: np.ndarray) -> np.ndarray:
    """Element-wise median of values[0], values[1] and values[2]."""
    a, b, c = values
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


def _fit(basis: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Least-squares coefficients through the normal equations (the basis is tiny)."""
    return np.linalg.solve(basis.T @ basis + 1e-9 * np.eye(basis.shape[1]), basis.T @ values)


def _only_shade(residuals: np.ndarray) -> bool:
    """True when there are rim outliers and every one is board of unchanged hue.

    A shadow only changes brightness; the fitted surface may follow the
    shadowed part of the rim, so the lit part can be the brighter outlier.
    """
    if len(residuals) == 0:
        return False
    luminance = residuals.mean(axis=1, keepdims=True)
    chroma = np.abs(residuals - luminance).max(axis=1)
    return bool((chroma < SHADE_CHROMA).all())


def _rim_message(rim: RimFit, shaded: bool) -> str:
    if rim.outliers < 2:
        return ""
    if shaded:
        return f"a shadow or something board-coloured over the board ({rim.outliers} rim points)"
    return f"something over the board ({rim.outliers} rim points)"


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
        centres = centre_offsets(self.geometry.peg_pitch)
        self._samples_per_peg = len(offsets)
        self._centre_points = len(centres)
        peg_points = (pegs[:, None, :] + np.concatenate([offsets, centres])[None]).reshape(-1, 2)
        self._rim_points = self._rim_sample_points()
        self._points = np.concatenate([peg_points, self._rim_points])
        radius = self.geometry.disk_radius
        self._rim_basis = rim_basis(self.geometry.rim_points(72), radius)
        self._peg_basis = rim_basis(pegs, radius)
        self._empty = np.array(self.calibration.empty)
        self._colours = np.array([self.calibration.colours[label] for label in LABEL_ORDER])
        self._prototypes = np.concatenate(
            [self._empty[:, None, :], np.broadcast_to(self._colours, (len(PEGS), 3, 3))], axis=1
        )

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
        values = self._sample(image, homography)
        if values is None:
            return Reading(
                NO_BOARD, "the board is partly outside the picture", markers=markers or {}
            )
        per_peg = len(PEGS) * (self._samples_per_peg + self._centre_points)
        pegs = values[:per_peg].reshape(len(PEGS), -1, 3)
        board_at_pegs, rim, shaded = self._local_board(values[per_peg:])
        features, spread = self._peg_features(pegs[:, : self._samples_per_peg], board_at_pegs)
        weight = SHADED_LUMINANCE_WEIGHT if shaded else LUMINANCE_WEIGHT
        labels, confidence = self._classify(
            features, spread, pegs[:, self._samples_per_peg :], weight
        )
        return Reading(
            OK,
            _rim_message(rim, shaded),
            labels,
            confidence,
            rim.outliers >= 2,
            markers or {},
            homography,
            features,
            shaded,
            rim.values,
        )

    def _sample(self, image: np.ndarray, homography) -> np.ndarray | None:
        """Bilinear pixel values at every sample point (N, 3) float32, None if any is outside."""
        pixels = project(homography, self._points).astype(np.float32)
        height, width = image.shape[:2]
        if not (
            pixels.min() >= 0
            and pixels[:, 0].max() <= width - 1
            and pixels[:, 1].max() <= height - 1
        ):
            return None
        values = cv2.remap(
            image,
            np.ascontiguousarray(pixels[:, 0]),
            np.ascontiguousarray(pixels[:, 1]),
            cv2.INTER_LINEAR,
        )
        return values.reshape(-1, 3).astype(np.float32)

    def _local_board(self, rim: np.ndarray) -> tuple[np.ndarray, RimFit, bool]:
        """Log board colour predicted at every peg (55, 3), the rim fit, and "only shade".

        The smooth surface is fitted to the rim points that agree with it; a
        rim point that disagrees is something over the rim. When every such
        point is only darker board (same hue), it may be a shadow, which the
        settling filter learns to live with if it stays put.
        """
        values = np.log(_median_of_three(rim.reshape(3, -1, 3)) + 1.0)
        keep = np.ones(len(values), bool)
        for _ in range(2):
            coefficients = _fit(self._rim_basis[keep], values[keep])
            residual = values - self._rim_basis @ coefficients
            keep = np.abs(residual).max(axis=1) < RIM_TOLERANCE
            if keep.sum() < 12:
                break
        fit = RimFit(values, int((~keep).sum()))
        return self._peg_basis @ coefficients, fit, _only_shade(residual[~keep])

    def _peg_features(self, pegs: np.ndarray, board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per peg: mean log colour relative to the local board (55, 3), and its spread (55,)."""
        features = np.log(pegs.mean(axis=1) + 1.0) - board
        logs = np.log(pegs + 30.0)
        spread = logs.std(axis=1).mean(axis=1)
        return features, spread

    def _classify(self, features, spread, centres, luminance_weight: float = LUMINANCE_WEIGHT):
        """Nearest prototype (the peg's own empty colour or a cog colour) and a confidence.

        The confidence is high only when the colour is close to one class and
        far from the others, uniform over the peg, and the peg's centre is in
        sight: the pin of an empty peg, or the dark hub of a cog seated on it
        (a cog held above a peg shows neither: it is larger, off-centre and
        blurred). Under a shadow the board's brightness at a peg is unknown, so
        brightness then counts for little (hue separates the classes).
        """
        distances = colour_distance(features[:, None, :], self._prototypes, luminance_weight)
        order = np.argsort(distances, axis=1)
        nearest = np.take_along_axis(distances, order[:, :2], axis=1)
        margin = 1.0 - nearest[:, 0] / np.maximum(nearest[:, 1], 1e-6)
        closeness = np.exp(-((nearest[:, 0] / 0.45) ** 2))
        uniform = np.exp(-((np.maximum(spread - 0.12, 0) / 0.15) ** 2))
        seen = centre_in_sight(centres, order[:, 0] > 0)
        confidence = np.clip(np.minimum(2 * margin, 1.0) * closeness * uniform * seen, 0, 1)
        labels = tuple(CLASS_NAMES[i] for i in order[:, 0])
        return labels, tuple(np.round(confidence, 3).tolist())


LABEL_ORDER = ("red", "blue", "gold")
CLASS_NAMES: tuple[str | None, ...] = (None, *LABEL_ORDER)


def colour_distance(
    a: np.ndarray, b: np.ndarray, luminance_weight: float = LUMINANCE_WEIGHT
) -> np.ndarray:
    """Distance of log colours, with overall brightness down-weighted against hue."""
    difference = a - b
    luminance = difference.mean(axis=-1, keepdims=True)
    chroma = difference - luminance
    return np.sqrt((chroma**2).sum(axis=-1) + 3 * (luminance_weight * luminance[..., 0]) ** 2)
